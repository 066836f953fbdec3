"""How a drawn round is seated, through `draw_round` alone: tables numbered by size, random among
tables of one size; seats drawn within a table; a partners table keeps its partners opposite
whatever its seats; and the drawn round's repeats counted against its history."""

import random
from itertools import combinations

import pytest

from games.draw import DrawHistory, draw_round
from tests.games.draw.drawing import round_key, seatings

THIRTEEN = list(range(1, 14))


def test_tables_are_numbered_by_size_and_drawn_among_tables_of_one_size():
    firsts = set()
    for seed in range(20):
        draw = draw_round(entrants=THIRTEEN, mode="partners", seed=seed)
        assert [len(table.seats) for table in draw.tables] == [4, 4, 3, 2]
        assert [table.number for table in draw.tables] == [1, 2, 3, 4]
        firsts.add(frozenset(draw.tables[0].seats))
    assert len(firsts) > 10


def test_seats_within_a_table_are_drawn():
    orders = {
        draw_round(entrants=[1, 2, 3], mode="singles", seed=seed).tables[0].seats
        for seed in range(30)
    }
    assert len(orders) > 3


def test_a_partners_table_keeps_its_partners_opposite_whatever_its_seats():
    """1 and 2 met as opponents, so the draw pairs them; their seats differ from draw to draw
    but they always sit opposite each other (seats 0 & 2 or 1 & 3)."""
    history = DrawHistory(session_opponents={(1, 2): 1})
    seats = set()
    for seed in range(30):
        (table,) = draw_round(
            entrants=[1, 2, 3, 4], mode="partners", seed=seed, history=history
        ).tables
        assert frozenset((1, 2)) in table.partners()
        seats.add(table.seats)
    assert len(seats) > 4


@pytest.mark.parametrize("seed", range(10))
def test_a_drawn_round_counts_its_repeats(seed):
    """Every pair of eight partners players met this session, so every round repeats; half the
    pairs met in the season and half were partners: each drawn round's counts are its own."""
    players = list(range(1, 9))
    rng = random.Random(seed)
    pairs = list(combinations(players, 2))
    history = DrawHistory(
        session_opponents={pair: 1 for pair in pairs},
        season_opponents={pair: 2 for pair in pairs if rng.random() < 0.5},
        session_partners={pair: 1 for pair in pairs if rng.random() < 0.5},
    )
    draw = draw_round(entrants=players, mode="partners", seed=seed, history=history)
    key = round_key(seatings(draw), history)
    assert draw.session_repeats == 8
    assert (draw.session_repeats, draw.partner_repeats, draw.season_repeats) == key[::2]
    assert [table.number for table in draw.tables] == [1, 2] and draw.history is history
