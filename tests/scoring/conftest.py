"""Fixtures of the scoring app's tests.

Terms: `club_table` is a `table` (tests/conftest.py: one 2-player game of round 1, its players and
users with logins, listed by side) drawn in `club` itself rather than in a club of its own, so the
logins `member` and `client_for` make are of the table's club. `at_table` and `pinned` are a
table played through its link (the muggins calls and card confirmations made there).
"""

import pytest

from club import services as club_services
from club.models import Player
from club.services import pins
from tests.builders import LinkTable, make_table


@pytest.fixture
def club_table(club):
    return make_table(club=club)


@pytest.fixture
def at_table(db):
    """Round 1's first table of four players (two tables of two), played through its link: the
    players have no logins; `players[0]` is Ann Lee (side 0), `players[1]` Bob Ray (side 1). The
    session runs the 29, 28 and 24 jackpots and muggins. `page` is the table page's address and
    `other` the round's other game (tests.builders.LinkTable)."""
    table = LinkTable(
        players=4,
        table_mode="singles",
        jackpot_29_cents=25,
        jackpot_28_cents=10,
        jackpot_24_cents=5,
    )
    for player, name in zip(table.players, ("Ann Lee", "Bob Ray"), strict=True):
        Player.objects.filter(pk=player.pk).update(display_name=name)
        player.refresh_from_db()
    table.page = f"/t/{table.game.table_token}/"
    table.other = table.game.round.games.exclude(pk=table.game.pk).get()
    return table


@pytest.fixture
def pinned(at_table):
    """`at_table` with the club's "table PINs" rule on in the session's rules; Bob's PIN is 2468,
    Ann has none."""
    club_services.club_update_rules(club=at_table.club, actor=at_table.organiser, table_pins=True)
    at_table.session.rules = {**at_table.session.rules, "table_pins": True}
    at_table.session.save(update_fields=["rules"])
    pins.pin_set(player=at_table.players[1], actor=at_table.organiser, pin="2468")
    return at_table
