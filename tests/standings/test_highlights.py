"""The highlights' selectors (standings/highlights.py): big hands, skunks and double skunks, grand
slams, winning streaks (the all-time record and those still going) and each season's skunk king,
each checked against its definition (docs/decisions/standings.md, on highlights) and, where it is
a count, against a naive recount from the result lines."""

import datetime as dt
import random
from collections import Counter, defaultdict

import pytest
from django.db import transaction

from club.models import Club, Player
from games import services as game_services
from games.models import ResultLine, ResultState
from money.selectors import accepted_hands
from ops.demo import HAND_29, HANDS_24, HANDS_28
from scoring import services as scoring_services
from scoring.models import ClaimKind, RulingDecision
from standings.highlights import (
    STREAK_GAMES,
    SkunkKing,
    big_hands,
    grand_slams,
    longest_streaks,
    running_streaks,
    skunk_kings,
    skunks,
)
from tests.builders import play_session, run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.jackpot_tables import file_29, make_jackpot_table

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)


@pytest.fixture
def people():
    """The organiser who enters and the one who confirms (members of no club: run_session and
    play_session seat them nowhere)."""
    return UserFactory(role="organisers"), UserFactory(role="organisers")


def roster(club, *names):
    return [PlayerFactory(club=club, display_name=name) for name in names]


def week(n: int) -> dt.date:
    return THURSDAY + dt.timedelta(weeks=n)


# --- Big hands -------------------------------------------------------------------------------


def claim(people, game, kind, cards, claimed, claimant=None):
    claimant = claimant or game.seats.order_by("position").first().player
    return scoring_services.claim_file(
        game=game,
        actor=people[0],
        kind=kind,
        claimant=claimant,
        claimed_points=claimed,
        hand=cards[0],
        starter=cards[1],
    )


def test_big_hands_are_the_accepted_24s_28s_and_29s_of_a_session_and_of_the_club(people):
    """scoring's definition (docs/spec.md "Claims, muggins and disputes": "One definition of an
    accepted big hand serves the jackpots and the highlights"): claimed at the true count of 24 or
    more, undisputed or upheld by the last ruling. Four cards count 24, 28 or 29, never 25 to 27
    (hoyle.txt, club-thursday-rules.md "A PERFECT 29!")."""
    club = ClubFactory()
    judge = UserFactory(role="judges", club=club)
    ann, bob = roster(club, "Ann Able", "Bob Baker")
    pat = PlayerFactory(club=club, display_name="Pat Cowley", user=UserFactory(role="players"))
    found = {}

    def file(round_):
        if round_.number != 1:
            return
        game = round_.games.get(seats__player=pat)
        found["24"] = claim(people, game, ClaimKind.HAND, HANDS_24[0], 24)
        found["28"] = claim(people, game, ClaimKind.CRIB, HANDS_28[0], 28)
        claim(people, game, ClaimKind.HAND, HAND_29, 30)  # over-claimed: corrected, not one
        claim(people, game, ClaimKind.HAND, HANDS_24[1], 22)  # under-claimed: not announced
        for upheld in (True, False):
            disputed = claim(people, game, ClaimKind.HAND, HANDS_24[2], 24, claimant=pat)
            dispute = scoring_services.dispute_open(
                claim=disputed, actor=pat.user, statement="Count it again."
            )
            if upheld:
                scoring_services.dispute_rule(
                    dispute=dispute, actor=judge, decision=RulingDecision.AGREE
                )
                found["upheld"] = disputed
            else:
                found["waiting"] = disputed

    first = play_session(
        club, people, week(0), [ann, bob, pat], rounds=2, claims=file, settle=False
    )

    def the_29(round_):
        found["29"] = claim(people, round_.games.first(), ClaimKind.HAND, HAND_29, 29)

    second = play_session(club, people, week(1), [ann, bob, pat], rounds=1, claims=the_29)

    assert big_hands(club, session=first) == [found["upheld"], found["28"], found["24"]]
    assert big_hands(club, session=second) == [found["29"]]
    # The club's: the highest count first, then the oldest first.
    assert big_hands(club) == [found["29"], found["28"], found["24"], found["upheld"]]
    assert found["waiting"] not in big_hands(club)


def test_a_hand_overruled_on_appeal_is_no_big_hand(people):
    """The judge's last ruling decides (docs/claims.md): upheld first, then given less on
    appeal, the 24 is no longer one."""
    club = ClubFactory()
    judges = UserFactory(role="judges", club=club), UserFactory(role="judges", club=club)
    pat = PlayerFactory(club=club, display_name="Pat Cowley", user=UserFactory(role="players"))
    ann = PlayerFactory(club=club, display_name="Ann Able")
    found = {}

    def file(round_):
        game = round_.games.get()
        found["claim"] = claim(people, game, ClaimKind.HAND, HANDS_24[0], 24, claimant=pat)

    play_session(club, people, week(0), [ann, pat], rounds=1, claims=file, settle=False)
    big = found["claim"]
    dispute = scoring_services.dispute_open(claim=big, actor=pat.user, statement="Count again.")
    assert big_hands(club) == []  # waiting for its judge
    scoring_services.dispute_rule(dispute=dispute, actor=judges[0], decision=RulingDecision.AGREE)
    assert big_hands(club) == [big]
    dispute.refresh_from_db()
    scoring_services.dispute_appeal(dispute=dispute, actor=pat.user, statement="Again, please.")
    assert big_hands(club) == [big]  # the first ruling stands until the appeal is ruled
    scoring_services.dispute_rule(
        dispute=dispute,
        actor=judges[1],
        decision=RulingDecision.OVERRIDE,
        points={big.claimant_side: 20},
        reason="The starter was misread.",
    )
    assert big_hands(club) == []


def test_the_highlights_take_big_hands_by_the_jackpots_definition_without_confirmed_cards():
    """One definition of an accepted big hand (scoring.selectors) serves the jackpots and the
    highlights; only the jackpot waits for a player of the other side to confirm the cards
    (docs/claims.md: only a session that runs the jackpot asks for it). A 29 claimed as counted
    is a highlight at once and wins the jackpot once confirmed. The same 29 claimed as 30 is
    corrected down (docs/claims.md: it "does not win"); its claimant disputes, a judge agrees
    with the engine's 29, the cards are confirmed: still neither a highlight (the session's, or
    the club's records) nor a jackpot winner, "whatever a judge later rules" (docs/spec.md)."""
    table = make_jackpot_table()
    counted = file_29(table)
    over = file_29(table, claimed=30)
    dispute = scoring_services.dispute_open(claim=over, actor=table.users[1], statement="30!")
    judge = UserFactory(role="judges", club=table.club)
    scoring_services.dispute_rule(dispute=dispute, actor=judge, decision=RulingDecision.AGREE)
    scoring_services.claim_confirm_cards(claim=over, actor=table.users[0])

    assert big_hands(table.club, session=table.session) == [counted]
    assert big_hands(table.club) == [counted]
    assert accepted_hands(table.session, 29) == []
    scoring_services.claim_confirm_cards(claim=counted, actor=table.users[0])
    assert accepted_hands(table.session, 29) == [table.players[1].pk]
    assert big_hands(table.club) == [counted]


# --- Skunks ----------------------------------------------------------------------------------


def naive_skunks(session):
    """(winners, losers, double) per skunked losing side, from the confirmed lines."""
    lines = ResultLine.objects.filter(
        result__game__session=session, result__state=ResultState.CONFIRMED
    ).select_related("player")
    by_result = defaultdict(lambda: defaultdict(list))
    for line in lines:
        by_result[line.result_id][line.side].append(line)
    found = set()
    for sides in by_result.values():
        winner = next(side for side in sides.values() if side[0].won)
        for side in sides.values():
            if side[0].skunked:
                found.add(
                    (
                        " & ".join(sorted(line.player.display_name for line in winner)),
                        " & ".join(sorted(line.player.display_name for line in side)),
                        side[0].double_skunked,
                    )
                )
    return found


@pytest.mark.parametrize(
    ("lines", "scores", "expected"),
    [
        # western-publishing.txt "Pegging": "If winner reaches 121 before opponent gets 91, it is
        # a 'skunk' ... before opponent gets 61, it is a 'double skunk'": the default lines.
        (
            {},
            {1: [121, 90], 2: [121, 60], 3: [121, 91], 4: [121, 61]},
            {1: "skunk", 2: "double", 4: "skunk"},
        ),
        # The club sets the lines (house rules: docs/rules.md "The game"); a session keeps them.
        (
            {"skunk_line": 100, "double_skunk_line": 80},
            {1: [121, 99], 2: [121, 79], 3: [121, 100], 4: [121, 80]},
            {1: "skunk", 2: "double", 4: "skunk"},
        ),
    ],
)
def test_skunks_follow_the_sessions_lines(people, lines, scores, expected):
    club = ClubFactory(**lines)
    session = run_session(
        club, *people, players=8, rounds=1, scores=lambda game: scores[game.table]
    )
    found = {(s.table, "double" if s.double else "skunk") for s in skunks(session)}
    assert found == set(expected.items())
    assert all(s.score == "–".join(map(str, scores[s.table])) for s in skunks(session))


def test_a_cut_throat_table_gives_a_skunk_per_skunked_loser_and_matches_a_recount(people):
    """Cut-throat (club-thursday-rules.md "Number of Players"): the winner skunks each loser
    under the line, one highlight per skunked side; the whole list is a recount of the lines."""
    club = ClubFactory()
    session = run_session(
        club, *people, players=3, rounds=1, scores=lambda game: [121, 80, 50][: game.side_count]
    )
    found = skunks(session)
    assert [(s.score, s.double) for s in found] == [("121–80", False), ("121–50", True)]
    assert {(s.winners, s.losers, s.double) for s in found} == naive_skunks(session)
    busy = run_session(club, *people, players=13, rounds=3, seed=7, date=week(1))
    assert {(s.winners, s.losers, s.double) for s in skunks(busy)} == naive_skunks(busy)


# --- Grand slams -----------------------------------------------------------------------------


def naive_grand_slams(session):
    """Players who won every game of every round the session drew (2 or more), once its last
    round is in (settled, or every planned round drawn)."""
    session.refresh_from_db()
    rounds = session.rounds.count()
    complete = not session.is_open or rounds >= session.house_rules.rounds_per_session
    games = defaultdict(list)
    for line in ResultLine.objects.filter(
        result__game__session=session, result__state=ResultState.CONFIRMED
    ):
        games[line.player_id].append(line.won)
    return {
        pid
        for pid, won in games.items()
        if complete and rounds >= 2 and len(won) == rounds and all(won)
    }


def test_the_player_who_wins_every_game_of_a_settled_session_has_a_grand_slam(people):
    club = ClubFactory()
    ann, *others = roster(club, "Ann Able", "Bob Baker", "Cy Dale", "Di Eve", "Ed Fry", "Flo Gay")
    session = play_session(club, people, week(0), [ann, *others], rounds=3)
    slams = grand_slams(club, session=session)
    assert ann.pk in {slam.player_id for slam in slams}
    assert {slam.player_id for slam in slams} == naive_grand_slams(session)
    mine = next(slam for slam in slams if slam.player_id == ann.pk)
    assert (mine.player, mine.games, mine.date) == ("Ann Able", 3, week(0))
    assert grand_slams(club) == slams


def test_a_grand_slam_waits_for_the_sessions_last_round(people):
    """Open, with fewer rounds drawn than the rules plan: nobody has won every game of the
    session yet. Once the last planned round is drawn and Ann's game in it confirmed, it is a
    grand slam (the session still open)."""
    club = ClubFactory(rounds_per_session=3)
    order = roster(club, "Ann Able", "Bob Baker", "Cy Dale", "Di Eve")
    session = play_session(club, people, week(0), order, rounds=2, settle=False)
    assert grand_slams(club, session=session) == []
    organiser, confirmer = people
    third = game_services.round_draw(session=session, actor=organiser, seed=3)
    drafts = {}
    for game in third.games.order_by("table"):
        seats = list(game.seats.order_by("side"))
        won = min(seats, key=lambda seat: order.index(seat.player)).side
        scores = [121 if seat.side == won else 100 for seat in seats]
        draft = game_services.result_enter(game=game, actor=organiser, scores=scores)
        drafts[seats[won].player] = draft
    for winner, draft in drafts.items():
        if winner != order[0]:
            game_services.result_confirm(result=draft, actor=confirmer)
    assert order[0].pk not in {slam.player_id for slam in grand_slams(club, session=session)}
    game_services.result_confirm(result=drafts[order[0]], actor=confirmer)
    slams = grand_slams(club, session=session)
    assert order[0].pk in {slam.player_id for slam in slams}
    assert {slam.player_id for slam in slams} == naive_grand_slams(session)


def test_no_grand_slam_for_a_late_arrival_nor_for_a_single_game(people):
    """Bob comes from round 2 and wins all he plays: he did not play every game of the session.
    A session of one round gives nobody a grand slam (two games at least)."""
    club = ClubFactory()
    ann, bob, *others = roster(club, "Ann Able", "Bob Baker", "Cy Dale", "Di Eve", "Ed Fry")
    session = play_session(
        club, people, week(0), [ann, *others], rounds=3, late=[bob], ranking=[bob, ann, *others]
    )
    bob_won = ResultLine.objects.filter(player=bob, result__game__session=session)
    assert [line.won for line in bob_won] == [True, True]
    slams = grand_slams(club, session=session)
    assert bob.pk not in {slam.player_id for slam in slams}
    assert {slam.player_id for slam in slams} == naive_grand_slams(session)
    single = play_session(club, people, week(1), [ann, bob], rounds=1)
    assert grand_slams(club, session=single) == []


# --- Winning streaks -------------------------------------------------------------------------


def sequences(club, until=None):
    """player id -> [(session id, won)] in date, round and table order, from the lines."""
    lines = ResultLine.objects.filter(
        result__state=ResultState.CONFIRMED, result__game__session__club=club
    ).order_by("result__game__session__date", "result__game__round__number", "result__game__table")
    if until is not None:
        lines = lines.filter(result__game__session__date__lte=until)
    found = defaultdict(list)
    for player_id, session_id, won in lines.values_list(
        "player_id", "result__game__session_id", "won"
    ):
        found[player_id].append((session_id, won))
    return found


def trailing_wins(games) -> int:
    run = 0
    for _, won in reversed(games):
        if not won:
            break
        run += 1
    return run


def longest_run(games) -> int:
    best = run = 0
    for _, won in games:
        run = run + 1 if won else 0
        best = max(best, run)
    return best


@pytest.fixture(scope="module")
def played_history(django_db_setup, django_db_blocker) -> tuple[int, list[int]]:
    """The ids of `history`'s club and players, played once for the module inside a
    transaction rolled back at the end; each test runs in a savepoint of it."""
    with django_db_blocker.unblock(), transaction.atomic():
        people = UserFactory(role="organisers"), UserFactory(role="organisers")
        club = ClubFactory()
        players = roster(club, *(f"Player {n:02}" for n in range(12)))
        rng = random.Random(18)
        for n in range(6):
            order = rng.sample(players[1:], 11)
            if n >= 2:  # the favourite comes, and wins every game
                order = [players[0], *order[:10]]
            play_session(club, people, week(n), order, rounds=3)
        yield club.pk, [player.pk for player in players]
        transaction.set_rollback(True)


@pytest.fixture
def history(played_history):
    """Six Thursdays of eleven of a dozen players, each in a shuffled order of strength, and
    the favourite, away for the first two, winning every game of the last four (a streak
    across sessions): (the club, its players in roster order)."""
    club_id, player_ids = played_history
    players = Player.objects.in_bulk(player_ids)
    return Club.objects.get(pk=club_id), [players[pk] for pk in player_ids]


def test_running_streaks_are_a_recount_of_the_lines(history):
    club, players = history
    for session in club.sessions.order_by("date"):
        games = sequences(club, until=session.date)
        expected = sorted(
            (
                (-trailing_wins(seq), Player.objects.get(pk=pid).display_name)
                for pid, seq in games.items()
                if seq[-1][0] == session.pk and trailing_wins(seq) >= STREAK_GAMES
            ),
        )
        found = running_streaks(club, session=session)
        assert [(-s.games, s.player) for s in found] == expected, session.date
    # The favourite carries 12 straight wins out of the last session, and now.
    now = running_streaks(club)
    assert now[0].player == players[0].display_name and now[0].games == 12
    expected = sorted(
        (-trailing_wins(seq), Player.objects.get(pk=pid).display_name)
        for pid, seq in sequences(club).items()
        if trailing_wins(seq) >= STREAK_GAMES
    )
    assert [(-s.games, s.player) for s in now] == expected


def test_an_inactive_player_has_no_streak_going_now(history):
    club, players = history
    Player.objects.filter(pk=players[0].pk).update(active=False)
    assert players[0].display_name not in [s.player for s in running_streaks(club)]
    last = club.sessions.order_by("-date").first()
    assert running_streaks(club, session=last)[0].player == players[0].display_name


def test_the_longest_streaks_are_the_all_time_record(history):
    club, players = history
    runs = {pid: longest_run(seq) for pid, seq in sequences(club).items()}
    names = dict(Player.objects.filter(club=club).values_list("pk", "display_name"))
    expected = sorted((-n, names[pid]) for pid, n in runs.items() if n)[:5]
    assert [(-s.games, s.player) for s in longest_streaks(club)] == expected


# --- Skunk kings -----------------------------------------------------------------------------


def test_each_seasons_skunk_king_is_a_recount_and_players_level_share_it(people):
    """A season from 1 September ("2025–26"): Ann and Bob each skunk twice in 2025–26 and share
    it; in 2026–27 Bob is king alone. Up to a date: the king so far."""
    club = ClubFactory(season_start_month=9, season_start_day=1)
    ann, bob, cy, di = roster(club, "Ann Able", "Bob Baker", "Cy Dale", "Di Eve")
    autumn = dt.date(2025, 10, 2)
    play_session(club, people, autumn, [ann, cy], rounds=2, skunks=[ann])
    play_session(club, people, autumn + dt.timedelta(weeks=1), [bob, di], rounds=2, skunks=[bob])
    spring = dt.date(2026, 9, 3)  # the next season
    play_session(club, people, spring, [bob, ann], rounds=1, double_skunks=[bob])
    kings = skunk_kings(club)
    assert kings == [
        SkunkKing(2026, "2026–27", ("Bob Baker",), 1),
        SkunkKing(2025, "2025–26", ("Ann Able", "Bob Baker"), 2),
    ]
    assert kings[1].names == "Ann Able and Bob Baker"
    assert skunk_kings(club, season=2025, until=autumn) == [
        SkunkKing(2025, "2025–26", ("Ann Able",), 2)
    ]
    assert skunk_kings(club, season=2024) == []
    # A recount of the winners' skunks given, season by season.
    given = defaultdict(Counter)
    for line in ResultLine.objects.filter(result__state=ResultState.CONFIRMED, won=True):
        season = club.season_of(line.result.game.session.date)
        given[season][line.player.display_name] += line.skunks_given
    for king in kings:
        most = max(given[king.season].values())
        assert king.skunks == most
        assert set(king.players) == {n for n, c in given[king.season].items() if c == most}


def test_a_crowded_crown_names_three_and_counts_the_others():
    king = SkunkKing(2026, "2026", ("A", "B", "C", "D", "E"), 1)
    assert king.names == "A, B, C and 2 others"
    assert SkunkKing(2026, "2026", ("A", "B", "C", "D"), 1).names == "A, B, C and D"
    assert SkunkKing(2026, "2026", ("A",), 1).names == "A"
