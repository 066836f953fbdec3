"""What a wrong table PIN does (club.services.pins.pin_verify, club.pin_waits): it is kept and
audited (never the PIN); the first three cost nothing, then each makes the next try of that
player's PIN wait longer (5 seconds doubling up to 5 minutes); a try during the wait is refused
without reading the PIN and is not counted; the right PIN works once the wait is over; the count
carries over into the next sessions for 30 days, and a new PIN starts it afresh. The clock is
patched, never slept on."""

import datetime as dt
import json
from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from club import pin_waits
from club.audit import AT_THE_TABLE, ClubVerb
from club.models import WrongPin
from club.selectors import pin_tries
from club.services import pins
from core.models import AuditEntry
from tests.factories import PlayerFactory, SessionFactory

pytestmark = pytest.mark.django_db

PIN = "4071"


@pytest.fixture
def newcomer(club):
    return PlayerFactory(club=club, display_name="Nora Newcomer")


@pytest.fixture
def session(club):
    return SessionFactory(club=club)


def audit_text() -> str:
    return json.dumps(list(AuditEntry.objects.values_list("data", flat=True)))


def wrong(session, player, pin="0000") -> str:
    """Type a wrong PIN (or one refused during a wait): the message on the PIN field."""
    with pytest.raises(ValidationError) as caught:
        pins.pin_verify(session=session, player=player, pin=pin)
    assert list(caught.value.message_dict) == ["pin"]
    return caught.value.message_dict["pin"][0]


@pytest.fixture
def pinned(newcomer, organiser, clock):
    pins.pin_set(player=newcomer, actor=organiser, pin=PIN)
    newcomer.refresh_from_db()
    return newcomer


def test_wrong_pins_are_kept_and_audited_without_the_pin(session, pinned):
    for typed in ["0000", "1234", "", "abcd"]:
        assert wrong(session, pinned, typed).startswith("Wrong PIN for Nora Newcomer")
    assert WrongPin.objects.filter(session=session, player=pinned).count() == 4
    refusals = AuditEntry.objects.filter(action=ClubVerb.PIN_REFUSED).order_by("pk")
    assert [entry.data["wrong_pins"] for entry in refusals] == [1, 2, 3, 4]
    assert [entry.data["wait_seconds"] for entry in refusals] == [0, 0, 0, 5]
    entry = refusals.first()
    assert entry.actor is None
    assert entry.data["via"] == AT_THE_TABLE and entry.data["by_player_id"] == pinned.pk
    assert entry.data["session"] == session.pk
    assert PIN not in audit_text() and "1234" not in audit_text()


def test_the_first_three_wrong_pins_are_free_then_the_waits_grow(session, pinned, clock):
    """Each wrong PIN typed the moment the wait before it ended: 5 s, then doubling up to
    five minutes."""
    waits = []
    for _ in range(10):
        message = wrong(session, pinned)
        seconds = pin_tries(pinned).next_try
        waits.append(0 if seconds is None else (seconds - clock.now).total_seconds())
        clock.advance(waits[-1])
    assert waits == [0, 0, 0, 5, 10, 20, 40, 80, 160, 300]
    assert message == (
        "Wrong PIN for Nora Newcomer: the next try in 5 minutes. Each wrong PIN makes the "
        "wait longer, up to 5 minutes; an organiser can set a new PIN, or confirm the result "
        "on the game page."
    )
    # The arithmetic of docs/decisions/throttling.md.
    assert pin_waits.guesses_within(int(2.5 * 3600)) == 38
    assert pin_waits.guesses_within(int(2.5 * 3600), wrong_before=10) == 31


def test_a_try_during_the_wait_is_refused_without_reading_the_pin(session, pinned, clock):
    for _ in range(4):
        wrong(session, pinned)
    clock.advance(2)
    before = (WrongPin.objects.count(), AuditEntry.objects.count())
    with mock.patch("club.services.pins.check_password") as checked:
        said = [wrong(session, pinned, typed) for typed in ("0000", PIN)]
    checked.assert_not_called()
    assert (
        said
        == [
            "Too many wrong PINs for Nora Newcomer: the next try in 3 seconds. An organiser can "
            "set a new PIN, or confirm the result on the game page."
        ]
        * 2
    )
    assert (WrongPin.objects.count(), AuditEntry.objects.count()) == before  # nothing counted
    clock.advance(3)
    assert pins.pin_verify(session=session, player=pinned, pin=PIN) is None


def test_six_wrong_pins_do_not_stop_the_right_pin_once_the_wait_is_over(session, pinned, clock):
    for _ in range(6):
        wrong(session, pinned)
        clock.advance(20)
    before = AuditEntry.objects.count()
    assert pins.pin_verify(session=session, player=pinned, pin=PIN) is None
    assert AuditEntry.objects.count() == before
    # A right PIN does not reset the count: the next wrong one waits longer still.
    wrong(session, pinned)
    assert pin_tries(pinned).next_try == clock.now + dt.timedelta(seconds=40)


def test_the_count_carries_over_into_the_next_session(session, pinned, club, clock):
    for _ in range(5):
        wrong(session, pinned)
        clock.advance(10)
    clock.advance(7 * 24 * 3600)
    next_week = SessionFactory(club=club, date=session.date + dt.timedelta(days=7))
    assert pins.pin_verify(session=next_week, player=pinned, pin=PIN) is None
    message = wrong(next_week, pinned)  # the sixth within 30 days, not a fresh first
    assert "the next try in 20 seconds" in message
    clock.advance(2)
    assert wrong(next_week, pinned, PIN).startswith(
        "Too many wrong PINs for Nora Newcomer: the next try in 18 seconds."
    )


def test_wrong_pins_older_than_the_memory_are_forgotten(session, pinned, club, clock):
    for _ in range(5):
        wrong(session, pinned)
        clock.advance(10)
    clock.advance(pin_waits.PIN_MEMORY_DAYS * 24 * 3600)
    later = SessionFactory(club=club, date=session.date + dt.timedelta(days=31))
    assert pin_tries(pinned).wrong == 0
    assert wrong(later, pinned) == "Wrong PIN for Nora Newcomer: try again."


def test_a_new_pin_starts_the_count_afresh_and_keeps_the_history(session, pinned, organiser, clock):
    for _ in range(6):
        clock.advance(20)  # past the wait before
        wrong(session, pinned)
    assert pin_tries(pinned).next_try is not None
    clock.advance(1)
    pins.pin_set(player=pinned, actor=organiser, pin="8642")
    entry = AuditEntry.objects.filter(action=ClubVerb.PIN_SET).order_by("pk").last()
    assert entry.data == {"player": "Nora Newcomer", "wrong_pins_forgotten": 6}
    pinned.refresh_from_db()
    assert pin_tries(pinned).wrong == 0
    assert pins.pin_verify(session=session, player=pinned, pin="8642") is None
    # The session keeps what was typed: its organisers' page still shows it.
    assert WrongPin.objects.filter(session=session).count() == 6


def test_no_pin_is_refused_before_anything_is_counted(session, newcomer):
    message = "Nora Newcomer has no PIN yet: an organiser sets one on the player's page"
    assert pins.pin_refusal(newcomer).startswith(message)
    assert wrong(session, newcomer).startswith(message)
    assert not WrongPin.objects.exists()
