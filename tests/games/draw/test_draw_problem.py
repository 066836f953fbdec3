"""What a round costs, through `draw_round` alone: the opponent pairs of each kind of table, the
order of the draw's preferences (each level outweighs everything below it), the repeats a drawn
round counts against its history, fair 3-player tables, and the fewest repeats when every pair
has met.

Terms: as in tests/games/draw/drawing.py (the *key* of a draw, *brute force*); the *levels* are
draw_round's order of preference: session repeats and their earlier meetings, then partner
repeats and their earlier partnerships, then season repeats and their season meetings.
"""

import random
from itertools import combinations

import pytest

from games.draw import DrawHistory, DrawTable, draw_round
from tests.games.draw.drawing import best_key, round_key, seatings


def test_each_kind_of_table_has_its_opponent_pairs():
    def pairs(*seats):
        return DrawTable(number=1, seats=seats).opponents()

    assert pairs(7, 8) == [frozenset((7, 8))]
    assert pairs(1, 2, 3) == [frozenset(p) for p in [(1, 2), (1, 3), (2, 3)]]
    assert pairs(1, 2, 3, 4) == [frozenset(p) for p in [(1, 2), (2, 3), (3, 4), (4, 1)]]


def test_a_session_repeat_outweighs_any_number_of_season_repeats():
    """Forty partners players: a third of the pairs met this session and every other pair met
    fifty times last season, so a round free of session repeats has only season repeats at its
    tables, every one of them worn fifty times; the draw still takes it."""
    players = list(range(1, 41))
    rng = random.Random(40)
    pairs = list(combinations(players, 2))
    session = {pair for pair in pairs if rng.random() < 0.3}
    history = DrawHistory(
        session_opponents={pair: 1 for pair in session},
        season_opponents={pair: 50 for pair in pairs if pair not in session},
    )
    for seed in range(3):
        draw = draw_round(entrants=players, mode="partners", seed=seed, history=history)
        assert draw.session_repeats == 0
        assert draw.season_repeats == sum(len(table.opponents()) for table in draw.tables) == 40


@pytest.mark.parametrize("seed", range(10))
def test_a_partner_repeat_outweighs_season_repeats(seed):
    """1 and 2 were partners this session; as opponents, 1-2 and 3-4 met fifty times last
    season. Pairing 1 with 2 again would spare both season repeats: the draw pairs them apart."""
    history = DrawHistory(session_partners={(1, 2): 1}, season_opponents={(1, 2): 50, (3, 4): 50})
    draw = draw_round(entrants=[1, 2, 3, 4], mode="partners", seed=seed, history=history)
    assert (draw.session_repeats, draw.partner_repeats, draw.season_repeats) == (0, 0, 2)


@pytest.mark.parametrize("seed", range(10))
def test_fewer_session_meetings_outweigh_partner_repeats(seed):
    """Every pair met this session, 1-2 and 3-4 twice; and 1-2 and 3-4 were partners. Pairing
    them again as partners keeps the twice-met pairs apart: four meetings instead of six, at the
    cost of two partner repeats, and the draw pays it."""
    history = DrawHistory(
        session_opponents={pair: 1 for pair in combinations([1, 2, 3, 4], 2)}
        | {(1, 2): 2, (3, 4): 2},
        session_partners={(1, 2): 1, (3, 4): 1},
    )
    draw = draw_round(entrants=[1, 2, 3, 4], mode="partners", seed=seed, history=history)
    (table,) = draw.tables
    assert set(table.partners()) == {frozenset((1, 2)), frozenset((3, 4))}
    assert (draw.session_repeats, draw.partner_repeats) == (4, 2)
    assert round_key(seatings(draw), history)[:2] == (4, 4)


HISTORY = DrawHistory(
    session_opponents={(10, 20): 2},
    season_opponents={(10, 30): 3},
    session_partners={(20, 40): 1},
    three_table_counts={40: 1},
)


@pytest.mark.parametrize("seed", range(20))
def test_a_drawn_round_counts_its_repeats_against_its_history(seed):
    players = [10, 20, 30, 40, 50]
    draw = draw_round(entrants=players, mode="singles", seed=seed, history=HISTORY)
    key = round_key(seatings(draw), HISTORY)
    assert (draw.session_repeats, draw.partner_repeats, draw.season_repeats) == key[::2]
    assert key == best_key(players, "singles", HISTORY)
    assert 40 not in next(table.seats for table in draw.tables if len(table.seats) == 3)
    assert draw.history is HISTORY


def test_the_three_table_takes_the_fewest_three_table_seats_first():
    """2 and 4 have never sat at the 3-player table, 1, 3 and 6 once, 5 and 7 twice: the table
    holds 2, 4 and one of 1, 3 and 6 (each in some draw), never 5 or 7."""
    history = DrawHistory(three_table_counts={1: 1, 3: 1, 5: 2, 6: 1, 7: 2})
    thirds = set()
    for seed in range(40):
        draw = draw_round(entrants=range(1, 8), mode="singles", seed=seed, history=history)
        (three,) = (set(table.seats) for table in draw.tables if len(table.seats) == 3)
        assert {2, 4} <= three
        thirds |= three - {2, 4}
    assert thirds == {1, 3, 6}


@pytest.mark.parametrize("mode", ["singles", "partners"])
def test_when_every_pair_has_met_once_the_round_repeats_no_more_than_it_must(mode):
    players = [1, 2, 3, 4]
    history = DrawHistory(session_opponents={pair: 1 for pair in combinations(players, 2)})
    for seed in range(10):
        draw = draw_round(entrants=players, mode=mode, seed=seed, history=history)
        assert round_key(seatings(draw), history) == best_key(players, mode, history)
        assert draw.session_repeats == {"singles": 2, "partners": 4}[mode]
