"""Fixtures of the games app's tests.

Terms: `first_of_two` is a `link_table` (tests/conftest.py) whose round has a second table: four
players in singles make two 2-player tables; the fixture is the first, its players named "Pat
Cowley" and "Sam Smith", `page` its table page's address and `other` the round's other game, which
the first table's link must never show or reach.
"""

import pytest

from club.models import Player
from tests.builders import LinkTable


@pytest.fixture
def first_of_two(db):
    table = LinkTable(players=4, table_mode="singles")
    Player.objects.filter(pk=table.players[0].pk).update(display_name="Pat Cowley")
    Player.objects.filter(pk=table.players[1].pk).update(display_name="Sam Smith")
    for player in table.players:
        player.refresh_from_db()
    table.page = f"/t/{table.game.table_token}/"
    table.other = table.game.round.games.exclude(pk=table.game.pk).get()
    return table
