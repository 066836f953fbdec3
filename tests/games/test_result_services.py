"""Result services: entering a draft, confirming it, and correcting a confirmed result.

Terms: *seatN* is the login of the player in seat N of the game (singles: side N; partners:
seats 0 & 2 are side 0, seats 1 & 3 side 1); *outsider* a plain player of the club not at the
table; a *line* below is (side, score, won, skunked, double_skunked, skunks_given, game_points,
spread). Sessions are opened, checked in and drawn through the real services.
"""

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from club import services as club_services
from club.models import Session, SessionState
from core.models import AuditEntry
from games import services
from games.audit import GameVerb
from games.models import Game, Result, ResultLine, ResultSource, ResultState
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def seated(players, *, mode="singles", **rules):
    """Open a session, check in `players` players who have logins, draw round 1.

    Returns (organiser, games of round 1).
    """
    club = ClubFactory(table_mode=mode, **rules)
    organiser = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for _ in range(players):
        player = PlayerFactory(club=club, user=UserFactory(role="players"))
        club_services.checkin_create(session=session, actor=organiser, player=player)
    round_ = services.round_draw(session=session, actor=organiser, seed=1)
    return organiser, list(Game.objects.filter(round=round_))


def seat_users(game):
    return [seat.player.user for seat in game.seats.order_by("position").select_related("player")]


def seat_players(game):
    return [seat.player for seat in game.seats.order_by("position").select_related("player")]


def lines(result):
    return {
        line.player_id: (
            line.side,
            line.score,
            line.won,
            line.skunked,
            line.double_skunked,
            line.skunks_given,
            line.game_points,
            line.spread,
        )
        for line in ResultLine.objects.filter(result=result)
    }


def actor_named(name, game, organiser):
    """The user called `name` in the parametrized cases below."""
    if name.startswith("seat"):
        return seat_users(game)[int(name[4:])]
    if name == "organiser":
        return organiser
    if name == "organiser2":
        return UserFactory(role="organisers", club=game.session.club)
    if name == "judge":
        return UserFactory(role="judges", club=game.session.club)
    if name == "anonymous":
        return AnonymousUser()
    assert name == "outsider"
    user = UserFactory(role="players")
    PlayerFactory(club=game.session.club, user=user)
    return user


def current_results(game):
    return list(Result.objects.filter(game=game).exclude(state=ResultState.SUPERSEDED))


def settle(game):
    Session.objects.filter(pk=game.session_id).update(state=SessionState.SETTLED)


# --- Entering ------------------------------------------------------------------------------------


def test_seated_player_enters_a_draft_with_every_players_figures():
    organiser, [game] = seated(2)
    first, second = seat_players(game)

    result = services.result_enter(game=game, actor=second.user, scores=[121, 85])

    result.refresh_from_db()
    assert (result.version, result.state, result.source) == (1, ResultState.DRAFT, "entry")
    assert (result.entered_by, result.entered_side) == (second.user, 1)
    assert (result.confirmed_by, result.confirmed_at) == (None, None)
    assert lines(result) == {
        first.pk: (0, 121, True, False, False, 1, 3, 36),
        second.pk: (1, 85, False, True, False, 0, 0, -36),
    }
    [entry] = AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED)
    assert (entry.actor, entry.object_id) == (second.user, str(result.pk))
    assert entry.data == {"game": game.pk, "version": 1, "scores": [121, 85]}


def test_partners_both_get_their_sides_figures():
    organiser, [game] = seated(4, mode="partners")
    assert game.kind == "partners"
    p0, p1, p2, p3 = seat_players(game)

    result = services.result_enter(game=game, actor=p2.user, scores=[100, 121])

    assert result.entered_side == 0
    assert lines(result) == {
        p0.pk: (0, 100, False, False, False, 0, 0, -21),
        p2.pk: (0, 100, False, False, False, 0, 0, -21),
        p1.pk: (1, 121, True, False, False, 0, 2, 21),
        p3.pk: (1, 121, True, False, False, 0, 2, 21),
    }


def test_cut_throat_lines_give_the_winner_both_margins():
    organiser, [game] = seated(3)
    assert game.kind == "three"
    p0, p1, p2 = seat_players(game)

    result = services.result_enter(game=game, actor=p0.user, scores=[121, 80, 100])

    assert lines(result) == {
        p0.pk: (0, 121, True, False, False, 1, 3, 62),
        p1.pk: (1, 80, False, True, False, 0, 0, -41),
        p2.pk: (2, 100, False, False, False, 0, 0, -21),
    }
    assert sum(line[-1] for line in lines(result).values()) == 0


@pytest.mark.parametrize("who", ["outsider", "judge", "player at another table", "anonymous"])
def test_only_the_table_or_an_organiser_may_enter(who):
    organiser, [game, other] = seated(4)
    if who == "player at another table":
        actor = seat_users(other)[0]
    else:
        actor = actor_named(who, game, organiser)

    with pytest.raises(PermissionDenied):
        services.result_enter(game=game, actor=actor, scores=[121, 100])

    assert not Result.objects.exists()
    assert not ResultLine.objects.exists()
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).exists()


def test_organiser_not_at_the_table_enters_a_draft_with_no_side():
    organiser, [game] = seated(2)

    result = services.result_enter(game=game, actor=organiser, scores=[110, 121])

    result.refresh_from_db()
    assert (result.state, result.entered_by, result.entered_side) == (
        ResultState.DRAFT,
        organiser,
        None,
    )
    assert ResultLine.objects.filter(result=result).count() == 2


@pytest.mark.parametrize(
    ("players", "scores", "field"),
    [
        pytest.param(2, [121, 121], "side_1", id="both-at-target"),
        pytest.param(2, [-1, 121], "side_0", id="negative"),
        pytest.param(2, [121, 122], "side_1", id="past-target"),
        pytest.param(2, [100, 90], None, id="nobody-at-target"),
        pytest.param(2, [121], None, id="too-few-scores"),
        pytest.param(2, [121, 100, 90], None, id="too-many-scores"),
        pytest.param(2, [121, 90.5], "side_1", id="not-whole"),
        pytest.param(3, [121, 121, 50], "side_1", id="three-two-winners"),
        pytest.param(3, [121, 50, 121], "side_2", id="three-first-and-last-win"),
        pytest.param(3, [50, 60, 130], "side_2", id="three-past-target"),
        pytest.param(3, [121, 100], None, id="three-given-two-scores"),
    ],
)
def test_invalid_scores_are_a_validation_error_and_write_nothing(players, scores, field):
    organiser, [game] = seated(players)

    with pytest.raises(ValidationError) as caught:
        services.result_enter(game=game, actor=seat_users(game)[0], scores=scores)

    if field is None:
        assert not hasattr(caught.value, "error_dict"), "expected a non-field message"
    else:
        assert list(caught.value.message_dict) == [field]
    assert caught.value.messages[0]
    assert not Result.objects.exists()
    assert not ResultLine.objects.exists()
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).exists()


def test_invalid_re_entry_leaves_the_draft_as_it_was():
    organiser, [game] = seated(2)
    u0, u1 = seat_users(game)
    draft = services.result_enter(game=game, actor=u0, scores=[121, 100])

    with pytest.raises(ValidationError):
        services.result_enter(game=game, actor=u1, scores=[121, 121])

    assert current_results(game) == [draft]
    assert Result.objects.get(pk=draft.pk).state == ResultState.DRAFT
    assert ResultLine.objects.count() == 2


def test_re_entering_while_a_draft_exists_supersedes_it():
    organiser, [game] = seated(2)
    u0, u1 = seat_users(game)
    first = services.result_enter(game=game, actor=u0, scores=[121, 100])

    second = services.result_enter(game=game, actor=u1, scores=[121, 110])

    first.refresh_from_db()
    second.refresh_from_db()
    assert first.state == ResultState.SUPERSEDED
    assert (second.version, second.state, second.entered_side) == (2, ResultState.DRAFT, 1)
    assert current_results(game) == [second]
    assert [line[1] for line in lines(first).values()] == [121, 100]  # kept, unchanged
    assert sorted(line[1] for line in lines(second).values()) == [110, 121]
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 2
    # The side that entered first now confirms the other side's version.
    services.result_confirm(result=second, actor=u0)
    assert Result.objects.get(pk=second.pk).state == ResultState.CONFIRMED
    with pytest.raises(ValidationError, match="superseded"):
        services.result_confirm(result=first, actor=u1)


def test_one_current_result_per_game_is_a_database_constraint():
    organiser, [game] = seated(2)
    services.result_enter(game=game, actor=organiser, scores=[121, 100])

    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(game=game, version=2, state=ResultState.DRAFT, entered_by=organiser)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(
            game=game,
            version=3,
            state=ResultState.CONFIRMED,
            entered_by=organiser,
            confirmed_by=organiser,
        )
    # Superseded versions are not limited: the constraint is partial.
    Result.objects.create(game=game, version=4, state=ResultState.SUPERSEDED, entered_by=organiser)
    Result.objects.create(game=game, version=5, state=ResultState.SUPERSEDED, entered_by=organiser)
    assert Result.objects.filter(game=game).count() == 3


def test_entering_after_confirmation_is_refused():
    organiser, [game] = seated(2)
    u0, u1 = seat_users(game)
    confirmed = services.result_enter(game=game, actor=u0, scores=[121, 100])
    services.result_confirm(result=confirmed, actor=u1)

    for actor in (u1, organiser):
        with pytest.raises(ValidationError, match="confirmed"):
            services.result_enter(game=game, actor=actor, scores=[121, 90])

    assert list(Result.objects.values_list("version", "state")) == [(1, ResultState.CONFIRMED)]
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 1


# --- Confirming ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "mode", "enterer", "confirmer", "refusal"),
    [
        (2, "singles", "seat1", "seat1", ValidationError),
        (2, "singles", "seat1", "seat0", None),
        (2, "singles", "seat0", "organiser", None),
        (2, "singles", "seat0", "outsider", PermissionDenied),
        (2, "singles", "seat0", "judge", PermissionDenied),
        (2, "singles", "seat0", "anonymous", PermissionDenied),
        (4, "partners", "seat0", "seat2", ValidationError),
        (4, "partners", "seat3", "seat1", ValidationError),
        (4, "partners", "seat0", "seat1", None),
        (4, "partners", "seat0", "seat3", None),
        (3, "singles", "seat0", "seat2", None),
        (2, "singles", "organiser", "organiser", ValidationError),
        (2, "singles", "organiser", "organiser2", None),
        (2, "singles", "organiser", "seat0", None),
        (2, "singles", "organiser", "seat1", None),
    ],
)
def test_who_may_confirm_a_draft(players, mode, enterer, confirmer, refusal):
    organiser, [game] = seated(players, mode=mode)
    scores = [121] + [100] * (game.side_count - 1)
    draft = services.result_enter(
        game=game, actor=actor_named(enterer, game, organiser), scores=scores
    )
    actor = actor_named(confirmer, game, organiser)

    assert services.can_confirm(draft, actor) is (refusal is None)
    if refusal is not None:
        with pytest.raises(refusal):
            services.result_confirm(result=draft, actor=actor)
        draft.refresh_from_db()
        assert (draft.state, draft.confirmed_by) == (ResultState.DRAFT, None)
        assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).exists()
        return

    services.result_confirm(result=draft, actor=actor)

    draft.refresh_from_db()
    assert (draft.state, draft.confirmed_by) == (ResultState.CONFIRMED, actor)
    assert draft.confirmed_at is not None
    assert draft.version == 1
    [entry] = AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED)
    assert (entry.actor, entry.object_id) == (actor, str(draft.pk))
    assert entry.data == {"game": game.pk, "version": 1}


def test_confirming_twice_is_refused():
    organiser, [game] = seated(2)
    u0, u1 = seat_users(game)
    draft = services.result_enter(game=game, actor=u0, scores=[121, 100])
    services.result_confirm(result=draft, actor=u1)

    with pytest.raises(ValidationError, match="not a draft"):
        services.result_confirm(
            result=draft, actor=UserFactory(role="organisers", club=draft.game.session.club)
        )

    assert Result.objects.get(pk=draft.pk).confirmed_by == u1
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).count() == 1


# --- Correcting ----------------------------------------------------------------------------------


def confirmed_result(scores=(121, 85)):
    organiser, [game] = seated(2)
    u0, u1 = seat_users(game)
    result = services.result_enter(game=game, actor=u0, scores=list(scores))
    services.result_confirm(result=result, actor=u1)
    return organiser, game, result


def test_correction_writes_a_new_confirmed_version_and_keeps_the_old():
    organiser, game, old = confirmed_result((121, 85))
    old_lines = lines(old)
    p0, p1 = seat_players(game)

    new = services.result_correct(
        game=game, actor=organiser, scores=[121, 95], reason="  Miscounted the last hand. "
    )

    old.refresh_from_db()
    new.refresh_from_db()
    assert old.state == ResultState.SUPERSEDED
    assert lines(old) == old_lines
    assert (new.version, new.state, new.source) == (2, ResultState.CONFIRMED, "correction")
    assert new.reason == "Miscounted the last hand."
    assert (new.entered_by, new.confirmed_by) == (organiser, organiser)
    assert new.confirmed_at is not None
    assert current_results(game) == [new]
    assert lines(new) == {
        p0.pk: (0, 121, True, False, False, 0, 2, 26),
        p1.pk: (1, 95, False, False, False, 0, 0, -26),
    }
    [entry] = AuditEntry.objects.filter(action=GameVerb.RESULT_CORRECTED)
    assert (entry.actor, entry.object_id) == (organiser, str(new.pk))
    assert entry.data["scores"] == {"before": [121, 85], "after": [121, 95]}
    assert entry.data["reason"] == "Miscounted the last hand."
    assert entry.data["version"] == 2


def test_a_second_correction_is_version_three_and_compares_with_version_two():
    organiser, game, _ = confirmed_result((121, 85))
    services.result_correct(game=game, actor=organiser, scores=[121, 95], reason="Recount")

    third = services.result_correct(game=game, actor=organiser, scores=[100, 121], reason="Swap")

    assert list(Result.objects.filter(game=game).values_list("version", "state")) == [
        (3, ResultState.CONFIRMED),
        (2, ResultState.SUPERSEDED),
        (1, ResultState.SUPERSEDED),
    ]
    assert current_results(game) == [third]
    entry = AuditEntry.objects.filter(action=GameVerb.RESULT_CORRECTED).first()
    assert entry.data["scores"] == {"before": [121, 95], "after": [100, 121]}


def test_a_ruling_is_recorded_with_its_source():
    organiser, game, _ = confirmed_result()
    judge = UserFactory(role="judges", club=ClubFactory(slug="officials"))
    ruled = services.result_correct(
        game=game, actor=judge, scores=[121, 89], reason="Ruling", source=ResultSource.RULING
    )
    assert Result.objects.get(pk=ruled.pk).source == ResultSource.RULING


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_a_correction_needs_a_reason(reason):
    organiser, game, old = confirmed_result()

    with pytest.raises(ValidationError) as caught:
        services.result_correct(game=game, actor=organiser, scores=[121, 95], reason=reason)

    assert "reason" in caught.value.message_dict
    assert list(Result.objects.values_list("pk", "state")) == [(old.pk, ResultState.CONFIRMED)]
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CORRECTED).exists()


@pytest.mark.parametrize("state", ["nothing entered", "draft"])
def test_only_a_confirmed_result_is_corrected(state):
    organiser, [game] = seated(2)
    if state == "draft":
        services.result_enter(game=game, actor=seat_users(game)[0], scores=[121, 100])
    before = list(Result.objects.values_list("pk", "state"))

    with pytest.raises(ValidationError, match="Only a confirmed result"):
        services.result_correct(game=game, actor=organiser, scores=[121, 95], reason="Recount")

    assert list(Result.objects.values_list("pk", "state")) == before
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CORRECTED).exists()


@pytest.mark.parametrize(
    ("scores", "message"),
    [([121, 85], "already recorded"), ([121, 121], "Only one side"), ([121], "2 sides")],
)
def test_a_correction_that_changes_nothing_or_is_invalid_writes_nothing(scores, message):
    organiser, game, old = confirmed_result((121, 85))

    with pytest.raises(ValidationError, match=message):
        services.result_correct(game=game, actor=organiser, scores=scores, reason="Recount")

    assert list(Result.objects.values_list("pk", "state")) == [(old.pk, ResultState.CONFIRMED)]
    assert ResultLine.objects.count() == 2
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CORRECTED).exists()


# --- A settled session is locked -----------------------------------------------------------------


@pytest.mark.parametrize("operation", ["enter", "confirm", "correct"])
def test_a_settled_session_refuses_results(operation):
    organiser, [game] = seated(2)
    u0, u1 = seat_users(game)
    if operation != "enter":
        draft = services.result_enter(game=game, actor=u0, scores=[121, 100])
    if operation == "correct":
        services.result_confirm(result=draft, actor=u1)
    settle(game)
    before = list(Result.objects.values_list("pk", "version", "state"))
    audits = AuditEntry.objects.count()

    with pytest.raises(ValidationError, match="settled"):
        if operation == "enter":
            services.result_enter(game=game, actor=u0, scores=[121, 100])
        elif operation == "confirm":
            services.result_confirm(result=draft, actor=u1)
        else:
            services.result_correct(game=game, actor=organiser, scores=[121, 90], reason="Late")

    assert list(Result.objects.values_list("pk", "version", "state")) == before
    assert AuditEntry.objects.count() == audits
