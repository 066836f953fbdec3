"""The migration from a wrong-PIN count per player and session (`PinLock`, which locked the PIN
for the session at five) to one row per wrong PIN (`WrongPin`): every counted wrong PIN becomes
a row, typed when the PIN was locked, else when its session began; none is lost, and back again
the counts are as they were (none of them locked)."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from club.models import WrongPin
from tests.factories import ClubFactory, PlayerFactory, SessionFactory
from tests.migration_support import migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("club", "0019_club_large_type")]
AFTER = [("club", "0020_wrong_pins_make_a_wait")]


def test_every_counted_wrong_pin_becomes_a_row():
    club = ClubFactory()
    pat, sam = PlayerFactory(club=club), PlayerFactory(club=club)
    first = SessionFactory(club=club, date=dt.date(2026, 3, 5), starts_at=dt.time(9, 30))
    second = SessionFactory(club=club, date=dt.date(2026, 3, 12), starts_at=dt.time(9, 30))
    locked_at = dt.datetime(2026, 3, 12, 10, 41, 7, tzinfo=dt.UTC)
    try:
        old = migrate_to(BEFORE)
        PinLock = old.get_model("club", "PinLock")
        PinLock.objects.create(session_id=first.pk, player_id=pat.pk, failures=3)
        PinLock.objects.create(
            session_id=second.pk, player_id=pat.pk, failures=5, locked_at=locked_at
        )
        PinLock.objects.create(session_id=second.pk, player_id=sam.pk, failures=0)  # lifted

        migrate_to(AFTER)
        start = timezone.make_aware(dt.datetime(2026, 3, 5, 9, 30))
        assert list(WrongPin.objects.values_list("session", "player", "typed_at")) == [
            *[(first.pk, pat.pk, start)] * 3,
            *[(second.pk, pat.pk, locked_at)] * 5,
        ]

        back = migrate_to(BEFORE)
        counts = back.get_model("club", "PinLock").objects.order_by("session", "player")
        assert list(counts.values_list("session", "player", "failures", "locked_at")) == [
            (first.pk, pat.pk, 3, None),
            (second.pk, pat.pk, 5, None),
        ]
    finally:
        call_command("migrate", verbosity=0)
