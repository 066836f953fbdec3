"""Leaving early and sitting out a round: the check-in services and the draw that reads them
(docs/spec.md "A Thursday, step by step", step 7: a player who leaves after round N or sits
out round N is not drawn; never a made-up result)."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from club import services as club_services
from club.audit import ClubVerb
from club.models import SessionState
from core.models import AuditEntry
from games import services as game_services
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def open_session(players=5, rounds=6):
    club = ClubFactory(rounds_per_session=rounds)
    actor = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=actor, date=dt.date(2026, 3, 5))
    checkins = [
        club_services.checkin_create(session=session, actor=actor, player=PlayerFactory(club=club))
        for _ in range(players)
    ]
    return session, actor, checkins


def seated(round_):
    return set(round_.seats.values_list("player_id", flat=True))


def draw(session, actor):
    return game_services.round_draw(session=session, actor=actor)


def test_a_player_who_leaves_after_round_1_is_not_drawn_again():
    session, actor, (leaver, *_) = open_session()
    first = draw(session, actor)
    assert leaver.player_id in seated(first)
    club_services.checkin_leaves_after(checkin=leaver, actor=actor, round_number=1)
    for _ in range(3):
        assert leaver.player_id not in seated(draw(session, actor))
    entry = AuditEntry.objects.get(action=ClubVerb.CHECKIN_LEAVES)
    assert entry.data["last_round"] == 1 and entry.data["player"] == leaver.player_id


def test_leaving_after_a_round_not_drawn_yet_counts_when_it_comes():
    session, actor, (leaver, *_) = open_session()
    club_services.checkin_leaves_after(checkin=leaver, actor=actor, round_number=2)
    assert leaver.player_id in seated(draw(session, actor))
    assert leaver.player_id in seated(draw(session, actor))
    assert leaver.player_id not in seated(draw(session, actor))


def test_undoing_leaving_seats_him_again_and_keeps_the_rounds_drawn_without_him():
    session, actor, (leaver, *_) = open_session()
    draw(session, actor)
    club_services.checkin_leaves_after(checkin=leaver, actor=actor, round_number=1)
    second = draw(session, actor)
    club_services.checkin_leaves_undo(checkin=leaver, actor=actor)
    assert leaver.player_id in seated(draw(session, actor))
    assert leaver.player_id not in seated(second)
    assert AuditEntry.objects.filter(action=ClubVerb.CHECKIN_LEAVES_UNDONE).count() == 1
    club_services.checkin_leaves_undo(checkin=leaver, actor=actor)  # safe twice
    assert AuditEntry.objects.filter(action=ClubVerb.CHECKIN_LEAVES_UNDONE).count() == 1


def test_a_player_who_sits_out_round_2_is_seated_again_in_round_3():
    session, actor, (sitter, *_) = open_session()
    club_services.checkin_sits_out(checkin=sitter, actor=actor, round_number=2)
    club_services.checkin_sits_out(checkin=sitter, actor=actor, round_number=4)
    sitter.refresh_from_db()
    assert sitter.absence_text == "sits out rounds 2 and 4"
    rounds = [draw(session, actor) for _ in range(4)]
    assert [sitter.player_id in seated(r) for r in rounds] == [True, False, True, False]
    assert AuditEntry.objects.filter(action=ClubVerb.CHECKIN_SITS_OUT).count() == 2


def test_sitting_out_is_undone_before_the_round_is_drawn_and_not_after():
    session, actor, (sitter, *_) = open_session()
    club_services.checkin_sits_out(checkin=sitter, actor=actor, round_number=1)
    club_services.checkin_sits_out(checkin=sitter, actor=actor, round_number=2)
    club_services.checkin_sits_out_undo(checkin=sitter, actor=actor, round_number=2)
    assert sitter.player_id not in seated(draw(session, actor))
    assert sitter.player_id in seated(draw(session, actor))
    with pytest.raises(ValidationError, match="Round 1 is already drawn"):
        club_services.checkin_sits_out_undo(checkin=sitter, actor=actor, round_number=1)
    assert AuditEntry.objects.filter(action=ClubVerb.CHECKIN_SITS_OUT_UNDONE).count() == 1


@pytest.mark.parametrize(
    ("drawn", "round_number", "message"),
    [
        (1, 1, "Round 1 is already drawn: choose round 2 or later"),
        (0, 7, "The session has 6 rounds"),
    ],
)
def test_sitting_out_a_drawn_or_missing_round_is_refused(drawn, round_number, message):
    session, actor, (sitter, *_) = open_session()
    for _ in range(drawn):
        draw(session, actor)
    with pytest.raises(ValidationError, match=message):
        club_services.checkin_sits_out(checkin=sitter, actor=actor, round_number=round_number)
    sitter.refresh_from_db()
    assert sitter.sits_out == []


def test_leaving_before_a_round_he_is_seated_in_is_refused():
    session, actor, (leaver, *_) = open_session(players=4)
    draw(session, actor)
    draw(session, actor)
    with pytest.raises(ValidationError, match="seated in round 2: he leaves after round 2"):
        club_services.checkin_leaves_after(checkin=leaver, actor=actor, round_number=1)


def test_leaving_after_the_last_round_is_refused():
    session, actor, (leaver, *_) = open_session(rounds=3)
    with pytest.raises(ValidationError, match="Round 3 is the session's last"):
        club_services.checkin_leaves_after(checkin=leaver, actor=actor, round_number=3)


def test_nothing_changes_once_the_session_is_settled():
    session, actor, (leaver, *_) = open_session()
    type(session).objects.filter(pk=session.pk).update(state=SessionState.SETTLED)
    with pytest.raises(ValidationError):
        club_services.checkin_leaves_after(checkin=leaver, actor=actor, round_number=2)
    with pytest.raises(ValidationError):
        club_services.checkin_sits_out(checkin=leaver, actor=actor, round_number=2)
    leaver.refresh_from_db()
    assert leaver.last_round is None and leaver.sits_out == []


def test_the_row_says_both():
    session, actor, (player, *_) = open_session()
    club_services.checkin_sits_out(checkin=player, actor=actor, round_number=3)
    club_services.checkin_leaves_after(checkin=player, actor=actor, round_number=4)
    player.refresh_from_db()
    assert player.absence_text == "sits out round 3; leaves after round 4"


def test_a_forfeit_worth_more_than_a_plain_win_is_a_field_error():
    """docs/spec.md "The club's house rules": a forfeit is never a skunk, so it is worth at
    most a plain win."""
    club = ClubFactory(points_win=2, forfeit_points=3)
    with pytest.raises(ValidationError) as error:
        club.full_clean()
    assert "at most a plain win (2 game points)" in error.value.message_dict["forfeit_points"][0]
