"""A whole round's results at once: `round_results_enter` (an organiser types in the round's
scorecards as drafts) and `round_results_confirm` (another organiser confirms them).

Terms: *organiser* and *checker* are two organisers who do not play; a *round* is round 1 of a
session opened, checked in (9 players, so singles makes three 2-player tables and one cut-throat
table) and drawn through the real services; *card* is the scores given per table number; a *line*
is (side, score, won, skunked, double_skunked, skunks_given, game_points, spread) per player.
"""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from club import services as club_services
from club.models import Player, Session, SessionState
from core.models import AuditEntry
from core.submissions import AlreadySaved
from games import services
from games.audit import GameVerb
from games.game_result import game_result
from games.models import Game, Result, ResultLine, ResultSource, ResultState, SessionTotal
from games.selectors import session_standings
from money.models import Payout
from money.services import session_settle
from standings.selectors import season_standings
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.games.test_result_services import lines

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)


def organiser_user():
    """An organiser, a member of a club of officials (roles act through a player record)."""
    return UserFactory(role="organisers", club=ClubFactory(slug="officials"))


def drawn_round(*, players=9, mode="singles", seated_users=(), seed=4, **rules):
    """Open a session, check in `players` players (the first ones with the given logins), pay
    their fees, draw round 1. Returns the round."""
    club = ClubFactory(table_mode=mode, **rules)
    opener = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=opener, date=THURSDAY)
    roster = [PlayerFactory(club=club, user=user) for user in seated_users]
    roster += [PlayerFactory(club=club) for _ in range(players - len(roster))]
    club_services.checkins_create(session=session, actor=opener, players=roster, paid=True)
    return services.round_draw(session=session, actor=opener, seed=seed)


def games_of(round_):
    return list(Game.objects.filter(round=round_).order_by("table"))


def card(round_):
    """Scores for every table: a skunk, a double skunk, a plain win, and a cut-throat game."""
    losing = [89, 60, 100, 95, 70]
    scores = {}
    for index, game in enumerate(games_of(round_)):
        if game.side_count == 3:
            scores[game.table] = [80, 121, 100]
        else:
            scores[game.table] = [121, losing[index]] if index % 2 else [losing[index], 121]
    return scores


def current(game):
    return Result.objects.exclude(state=ResultState.SUPERSEDED).get(game=game)


def snapshot():
    """Everything a refused call must leave as it was."""
    return (
        sorted(Result.objects.values_list("pk", "game_id", "version", "state")),
        ResultLine.objects.count(),
        AuditEntry.objects.count(),
        sorted(SessionTotal.objects.values_list("session_id", "player_id", "points")),
    )


# --- Entering a round -----------------------------------------------------------------------------


def test_the_drafts_are_what_result_enter_makes_one_table_at_a_time():
    round_ = drawn_round()
    organiser = organiser_user()
    scores = card(round_)
    assert sorted(g.kind for g in games_of(round_)) == ["three", "two", "two", "two"]
    singly = {
        game.table: services.result_enter(game=game, actor=organiser, scores=scores[game.table])
        for game in games_of(round_)
    }
    single_audit = {
        entry.object_id: entry.data
        for entry in AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED)
    }

    results = services.round_results_enter(round_=round_, actor=organiser, scores=scores)

    assert sorted(result.game.table for result in results) == sorted(scores)
    for result in results:
        one = singly[result.game.table]
        result.refresh_from_db()
        one.refresh_from_db()
        assert one.state == ResultState.SUPERSEDED
        assert (result.version, result.state, result.source) == (2, ResultState.DRAFT, "entry")
        assert (result.entered_by, result.entered_side) == (one.entered_by, one.entered_side)
        assert (result.confirmed_by, result.confirmed_at, result.reason) == (None, None, "")
        assert lines(result) == lines(one)
        assert result.scores == scores[result.game.table]
    bulk_audit = AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).exclude(
        object_id__in=single_audit
    )
    assert sorted(entry.object_id for entry in bulk_audit) == sorted(str(r.pk) for r in results)
    for entry in bulk_audit:
        result = Result.objects.get(pk=entry.object_id)
        first = single_audit[str(singly[result.game.table].pk)]
        assert first == {"game": result.game_id, "version": 1, "scores": entry.data["scores"]}
        assert entry.data == {**first, "version": 2}
        assert (entry.actor, entry.club) == (organiser, round_.session.club)
        assert entry.object_repr == str(result)


def test_every_seat_gets_its_sides_result():
    round_ = drawn_round()
    scores = card(round_)

    services.round_results_enter(round_=round_, actor=organiser_user(), scores=scores)

    rules = round_.session.house_rules
    for game in games_of(round_):
        result = game_result(scores[game.table], rules=rules)
        expected = {
            seat.player_id: (
                seat.side,
                result.sides[seat.side].score,
                result.sides[seat.side].won,
                result.sides[seat.side].skunked,
                result.sides[seat.side].double_skunked,
                result.sides[seat.side].skunks_given,
                result.sides[seat.side].game_points,
                result.sides[seat.side].spread,
            )
            for seat in game.seats.all()
        }
        assert lines(current(game)) == expected
    spreads = ResultLine.objects.filter(result__game__round=round_).values_list("spread", flat=True)
    assert sum(spreads) == 0
    double_skunked = ResultLine.objects.filter(double_skunked=True)
    assert double_skunked.exists()  # the card has a double skunk in it


def test_only_the_tables_given_are_entered_and_the_typists_own_draft_is_replaced():
    round_ = drawn_round(players=4)
    mine, other = games_of(round_)
    organiser = organiser_user()
    typo = services.result_enter(game=mine, actor=organiser, scores=[121, 100])

    [result] = services.round_results_enter(
        round_=round_, actor=organiser, scores={mine.table: [100, 121]}
    )

    typo.refresh_from_db()
    assert typo.state == ResultState.SUPERSEDED
    assert (result.game, result.version, result.state) == (mine, 2, ResultState.DRAFT)
    assert result.entered_by == organiser
    assert not Result.objects.filter(game=other).exists()
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 2


def _confirmed_table(round_, scores):
    game = games_of(round_)[1]
    draft = services.result_enter(game=game, actor=organiser_user(), scores=[121, 90])
    services.result_confirm(result=draft, actor=organiser_user())
    return f"Table {game.table}'s result is confirmed: an organiser can correct it"


def _unknown_table(round_, scores):
    scores[9] = [121, 80]
    return "Round 1 has no table 9."


def _no_winner(round_, scores):
    table = games_of(round_)[2].table
    scores[table] = [120, 100]
    return f"Table {table}: Nobody reached 121"


def _two_winners(round_, scores):
    table = games_of(round_)[2].table
    scores[table] = [121, 121]
    return f"Table {table}: Only one side can reach 121"


def _past_the_target(round_, scores):
    table = games_of(round_)[2].table
    scores[table] = [131, 100]
    return f"Table {table}: 131 is past the target"


def _sides_missing(round_, scores):
    three = next(game for game in games_of(round_) if game.side_count == 3)
    scores[three.table] = [121, 100]
    return f"Table {three.table}: This table has 3 sides"


def _settled(round_, scores):
    Session.objects.filter(pk=round_.session_id).update(state=SessionState.SETTLED)
    return "is settled: nothing in it can change"


@pytest.mark.parametrize(
    "spoil",
    [
        _confirmed_table,
        _unknown_table,
        _no_winner,
        _two_winners,
        _past_the_target,
        _sides_missing,
        _settled,
    ],
)
def test_one_bad_table_enters_nothing(spoil):
    round_ = drawn_round()
    organiser = organiser_user()
    waiting = services.result_enter(game=games_of(round_)[0], actor=organiser, scores=[121, 85])
    scores = card(round_)
    message = spoil(round_, scores)
    before = snapshot()

    with pytest.raises(ValidationError) as raised:
        services.round_results_enter(round_=round_, actor=organiser, scores=scores)

    assert message in " ".join(raised.value.messages)
    assert snapshot() == before
    waiting.refresh_from_db()
    assert waiting.state == ResultState.DRAFT


@pytest.mark.parametrize("role", ["players", "judges"])
def test_only_an_organiser_enters_a_round(role):
    user = UserFactory(role=role)
    round_ = drawn_round(seated_users=[user])
    before = snapshot()

    with pytest.raises(PermissionDenied):
        services.round_results_enter(round_=round_, actor=user, scores=card(round_))

    assert snapshot() == before


def test_a_seated_organisers_entry_is_their_sides_as_result_enter_records_it():
    """An organiser who plays and types in the round's cards enters their own table for their
    side: their partner is not the other side, and cannot confirm it."""
    playing = UserFactory(role="organisers")  # a member once seated below
    partner = UserFactory(role="players")
    round_ = drawn_round(players=4, mode="partners", seated_users=[playing, partner])
    [game] = games_of(round_)
    seats = {seat.position: seat.player for seat in game.seats.select_related("player")}
    mine = next(pos for pos, player in seats.items() if player.user_id == playing.pk)
    opposite = seats[(mine + 2) % 4]
    if opposite.user_id != partner.pk:  # seat them as partners (opposite each other)
        services.round_swap_seats(
            round_=round_,
            player_a=opposite,
            player_b=Player.objects.get(user=partner),
            actor=playing,
        )
    sides = dict(game.seats.values_list("player__user", "side"))
    assert sides[playing.pk] == sides[partner.pk]

    [result] = services.round_results_enter(
        round_=round_, actor=playing, scores={game.table: [121, 100]}
    )

    assert result.entered_side == sides[playing.pk]
    with pytest.raises(ValidationError, match="Your side entered this result"):
        services.result_confirm(result=result, actor=partner)


# --- Signed scorecards ----------------------------------------------------------------------------


def test_signed_scorecards_are_confirmed_at_once_and_counted_when_the_rule_says_so():
    """docs/spec.md "A Thursday, step by step", step 4: with "signed scorecards confirm" on
    (the default), the players' signatures are the other side's confirmation."""
    round_ = drawn_round()
    assert round_.session.house_rules.signed_scorecards_confirm
    organiser = organiser_user()
    scores = card(round_)

    results = services.round_results_enter(
        round_=round_,
        actor=organiser,
        scores=scores,
        source=ResultSource.SCORECARD,
        signed=True,
    )

    for result in results:
        result.refresh_from_db()
        assert (result.state, result.source) == (ResultState.CONFIRMED, ResultSource.SCORECARD)
        assert (result.entered_by, result.confirmed_by) == (organiser, organiser)
        assert result.confirmed_at == result.entered_at
    entries = AuditEntry.objects.filter(action=GameVerb.RESULT_SIGNED)
    assert sorted(e.object_id for e in entries) == sorted(str(r.pk) for r in results)
    for entry in entries:
        result = Result.objects.get(pk=entry.object_id)
        assert entry.data == {
            "game": result.game_id,
            "version": 1,
            "scores": scores[result.game.table],
            "source": "scorecard",
        }
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).exists()
    # The session's kept totals follow at once, as a confirmation does.
    standings = {row.player_id: row for row in session_standings(round_.session)}
    totals = SessionTotal.objects.filter(session=round_.session)
    assert totals.count() == 9
    for total in totals:
        row = standings[total.player_id]
        assert (total.played, total.won, total.points, total.spread) == (
            1,
            row.won,
            row.game_points,
            row.spread,
        )
    assert sum(total.spread for total in totals) == 0


def test_signed_scorecards_are_drafts_when_the_rule_is_off():
    round_ = drawn_round(signed_scorecards_confirm=False)
    organiser = organiser_user()

    results = services.round_results_enter(
        round_=round_,
        actor=organiser,
        scores=card(round_),
        source=ResultSource.SCORECARD,
        signed=True,
    )

    assert {Result.objects.get(pk=r.pk).state for r in results} == {ResultState.DRAFT}
    assert {r.source for r in results} == {ResultSource.SCORECARD}
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == len(results)
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_SIGNED).exists()
    assert not SessionTotal.objects.exists()
    # Still drafts to confirm the usual way.
    assert len(services.round_results_confirm(round_=round_, actor=organiser_user())) == 4


def test_scorecards_not_signed_are_drafts():
    round_ = drawn_round()
    results = services.round_results_enter(
        round_=round_,
        actor=organiser_user(),
        scores=card(round_),
        source=ResultSource.SCORECARD,
        signed=False,
    )
    assert {Result.objects.get(pk=r.pk).state for r in results} == {ResultState.DRAFT}
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 4
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_SIGNED).exists()
    assert not SessionTotal.objects.exists()


def test_a_signed_scorecard_confirms_the_organisers_own_table():
    """The other side signed: their signature confirms it, even at the organiser's table."""
    playing = UserFactory(role="organisers")
    round_ = drawn_round(players=4, seated_users=[playing])
    own = Game.objects.get(round=round_, seats__player__user=playing)

    [result, *_] = services.round_results_enter(
        round_=round_, actor=playing, scores={own.table: [121, 95]}, signed=True
    )

    result.refresh_from_db()
    assert (result.game, result.state, result.confirmed_by) == (
        own,
        ResultState.CONFIRMED,
        playing,
    )


def test_no_table_at_all_is_refused_and_saves_nothing():
    round_ = drawn_round()
    before = snapshot()
    with pytest.raises(ValidationError) as raised:
        services.round_results_enter(round_=round_, actor=organiser_user(), scores={}, signed=True)
    assert raised.value.code == services.NO_SCORES
    assert snapshot() == before


def test_the_same_form_posted_twice_enters_once():
    round_ = drawn_round()
    organiser = organiser_user()
    token = "a" * 32
    services.round_results_enter(
        round_=round_, actor=organiser, scores=card(round_), signed=True, token=token
    )
    saved = snapshot()
    with pytest.raises(AlreadySaved):
        services.round_results_enter(
            round_=round_, actor=organiser, scores=card(round_), signed=True, token=token
        )
    with pytest.raises(AlreadySaved):  # before anything else: even with nothing given
        services.round_results_enter(round_=round_, actor=organiser, scores={}, token=token)
    assert snapshot() == saved


def test_a_refused_entry_leaves_its_token_unspent():
    round_ = drawn_round()
    organiser = organiser_user()
    token = "b" * 32
    scores = card(round_)
    bad = {**scores, next(iter(scores)): [120, 100]}
    with pytest.raises(ValidationError):
        services.round_results_enter(round_=round_, actor=organiser, scores=bad, token=token)
    results = services.round_results_enter(
        round_=round_, actor=organiser, scores=scores, signed=True, token=token
    )
    assert len(results) == 4


# --- Confirming a round ---------------------------------------------------------------------------


def test_another_organiser_confirms_every_draft_of_the_round():
    round_ = drawn_round()
    organiser, checker = organiser_user(), organiser_user()
    scores = card(round_)
    first, *rest = games_of(round_)
    draft = services.result_enter(game=first, actor=organiser, scores=scores[first.table])
    single = services.result_confirm(result=draft, actor=checker)
    [single_entry] = AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED)
    single_confirmed_at = Result.objects.get(pk=single.pk).confirmed_at
    entered = services.round_results_enter(
        round_=round_, actor=organiser, scores={game.table: scores[game.table] for game in rest}
    )

    confirmed = services.round_results_confirm(round_=round_, actor=checker)

    assert sorted(r.pk for r in confirmed) == sorted(r.pk for r in entered)
    for result in Result.objects.filter(pk__in=[r.pk for r in entered]):
        assert result.state == ResultState.CONFIRMED
        assert (result.entered_by, result.confirmed_by) == (organiser, checker)
        assert result.confirmed_at is not None and result.version == 1
    single.refresh_from_db()  # already confirmed: left as it was
    assert (single.state, single.confirmed_at) == (ResultState.CONFIRMED, single_confirmed_at)
    entries = AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).exclude(
        pk=single_entry.pk
    )
    assert sorted(e.object_id for e in entries) == sorted(str(r.pk) for r in entered)
    assert single_entry.data == {"game": first.pk, "version": 1}
    for entry in entries:
        result = Result.objects.get(pk=entry.object_id)
        assert entry.data == {"game": result.game_id, "version": 1}
        assert (entry.actor, entry.club) == (checker, round_.session.club)


def test_drafts_the_checker_entered_or_plays_in_are_left_for_someone_else():
    checker = UserFactory(role="organisers")  # a member once seated below
    round_ = drawn_round(seated_users=[checker])
    organiser = organiser_user()
    scores = card(round_)
    services.round_results_enter(round_=round_, actor=organiser, scores=scores)
    seated = Game.objects.get(round=round_, seats__player__user=checker)
    own = next(game for game in games_of(round_) if game != seated)
    own_draft = services.result_enter(game=own, actor=checker, scores=scores[own.table])
    left = {seated.pk, own.pk}

    confirmed = services.round_results_confirm(round_=round_, actor=checker)

    assert {r.game_id for r in confirmed} == {g.pk for g in games_of(round_)} - left
    for game in games_of(round_):
        expected = ResultState.DRAFT if game.pk in left else ResultState.CONFIRMED
        assert current(game).state == expected
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).count() == 2

    # The organiser who typed the cards confirms the checker's own entry, not their own.
    [again] = services.round_results_confirm(round_=round_, actor=organiser)
    assert again.pk == own_draft.pk
    assert current(seated).state == ResultState.DRAFT
    assert services.round_results_confirm(round_=round_, actor=organiser) == []


@pytest.mark.parametrize("role", ["players", "judges"])
def test_only_an_organiser_confirms_a_round(role):
    user = UserFactory(role=role)
    round_ = drawn_round(seated_users=[user])
    services.round_results_enter(round_=round_, actor=organiser_user(), scores=card(round_))
    before = snapshot()

    with pytest.raises(PermissionDenied):
        services.round_results_confirm(round_=round_, actor=user)

    assert snapshot() == before


def test_a_settled_sessions_round_is_not_confirmed():
    round_ = drawn_round()
    services.round_results_enter(round_=round_, actor=organiser_user(), scores=card(round_))
    Session.objects.filter(pk=round_.session_id).update(state=SessionState.SETTLED)
    before = snapshot()

    with pytest.raises(ValidationError, match="is settled"):
        services.round_results_confirm(round_=round_, actor=organiser_user())

    assert snapshot() == before


def test_confirming_keeps_the_totals_and_the_session_can_then_be_settled():
    round_ = drawn_round(rounds_per_session=2)
    session = round_.session
    organiser, checker = organiser_user(), organiser_user()
    services.round_results_enter(round_=round_, actor=organiser, scores=card(round_))
    assert not SessionTotal.objects.exists()  # drafts count for nothing yet

    services.round_results_confirm(round_=round_, actor=checker)
    second = services.round_draw(session=session, actor=organiser, seed=5)
    services.round_results_enter(round_=second, actor=organiser, scores=card(second))
    services.round_results_confirm(round_=second, actor=checker)

    standings = {row.player_id: row for row in session_standings(session)}
    totals = SessionTotal.objects.filter(session=session)
    assert totals.count() == 9
    for total in totals:
        row = standings[total.player_id]
        assert (total.played, total.won, total.points, total.spread) == (
            row.played,
            row.won,
            row.game_points,
            row.spread,
        )
        assert (total.skunks_given, total.skunks_taken) == (row.skunks_given, row.skunks_taken)
        assert (total.date, total.club_id) == (session.date, session.club_id)
    season = {row.player_id: row for row in season_standings(session.club, THURSDAY.year)}
    assert {pid: row.game_points for pid, row in season.items()} == {
        pid: row.game_points for pid, row in standings.items()
    }
    assert sum(row.played for row in season.values()) == sum(
        len(lines(result)) for result in Result.objects.filter(state=ResultState.CONFIRMED)
    )

    settlement = session_settle(session=session, actor=organiser, seed=1)

    session.refresh_from_db()
    assert session.state == SessionState.SETTLED
    assert settlement.pot_cents == 9 * session.fee_cents
    paid = Payout.objects.filter(settlement=settlement).values_list("amount_cents", flat=True)
    assert sum(paid) == settlement.pot_cents


def test_a_correction_after_a_round_confirm_is_counted():
    round_ = drawn_round()
    organiser, checker = organiser_user(), organiser_user()
    scores = card(round_)
    services.round_results_enter(round_=round_, actor=organiser, scores=scores)
    services.round_results_confirm(round_=round_, actor=checker)
    game = next(game for game in games_of(round_) if game.side_count == 2)
    before = dict(SessionTotal.objects.values_list("player_id", "won"))
    flipped = [121 if score != 121 else 110 for score in scores[game.table]]

    services.result_correct(game=game, actor=organiser, scores=flipped, reason="Card misread.")

    after = dict(SessionTotal.objects.values_list("player_id", "won"))
    winner, loser = (
        line.player_id
        for line in current(game).lines.order_by("-won")  # the new winner first
    )
    assert current(game).source == ResultSource.CORRECTION
    assert (after[winner], after[loser]) == (before[winner] + 1, before[loser] - 1)
