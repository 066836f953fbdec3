"""tests/rows.py: a reading compiled once still sees every write made after it was compiled, so
the permission tests' "nothing was written" can fail."""

import pytest

from club.models import Player
from tests.factories import ClubFactory, PlayerFactory
from tests.rows import counts, rows

pytestmark = pytest.mark.django_db


def test_a_compiled_reading_sees_rows_added_changed_and_removed():
    club = ClubFactory()
    player = PlayerFactory(club=club, display_name="Ann Able")

    def players():
        return [Player.objects.filter(club=club).order_by("pk").values_list("display_name")]

    def counted():
        return [Player.objects.filter(club=club).values("pk"), Player.objects.exclude(pin_hash="")]

    name = ("players of", club.pk)
    assert rows(name, players) == [[("Ann Able",)]]
    assert counts(name + ("counted",), counted) == (1, 0)

    PlayerFactory(club=club, display_name="Bob Baker")
    Player.objects.filter(pk=player.pk).update(display_name="Ann Roe", pin_hash="x")

    assert rows(name, players) == [[("Ann Roe",), ("Bob Baker",)]]
    assert counts(name + ("counted",), counted) == (2, 1)

    Player.objects.filter(pk=player.pk).delete()

    assert rows(name, players) == [[("Bob Baker",)]]
    assert counts(name + ("counted",), counted) == (1, 0)
