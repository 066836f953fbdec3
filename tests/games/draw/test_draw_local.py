"""Rounds too big for brute force: the draw seats everyone in the shape, no worse than random
fair rounds of the same entrants and with no swap of two players that would improve it; four
players are paired at their best; and when every round must repeat, a round is still drawn.
Through `draw_round` alone.

Terms: as in tests/games/draw/drawing.py (the *key* of a draw); a *random fair round* is the
entrants shuffled into the table sizes, kept when its 3-player table is fair; a *swap* moves two
players at different tables into each other's seats.
"""

import random
from itertools import combinations

import pytest

from games.draw import DrawHistory, draw_round, table_sizes
from tests.games.draw.drawing import MODES, is_fair, round_key, seatings

PLAYERS = list(range(1, 24))


def history(players, seed):
    """A session late in its rounds and a busy season: some repeats cannot be avoided."""
    rng = random.Random(seed)
    pairs = list(combinations(players, 2))
    return DrawHistory(
        session_opponents={pair: rng.randint(1, 2) for pair in pairs if rng.random() < 0.8},
        season_opponents={pair: rng.randint(1, 3) for pair in pairs if rng.random() < 0.9},
        session_partners={pair: 1 for pair in pairs if rng.random() < 0.5},
        three_table_counts={pid: rng.randint(0, 1) for pid in players},
    )


def arrangements(seats):
    """The three ways to pair a partners table; a two or a three as it is."""
    if len(seats) == 4:
        a, b, c, d = seats
        return [(a, b, c, d), (a, c, b, d), (a, b, d, c)]
    return [seats]


def swaps(tables):
    """Every round one swap away: two players at different tables change places, and each
    partners table is paired each of its ways."""
    for i, j in combinations(range(len(tables)), 2):
        for x in range(len(tables[i])):
            for y in range(len(tables[j])):
                at_i, at_j = list(tables[i]), list(tables[j])
                at_i[x], at_j[y] = at_j[y], at_i[x]
                for new_i in arrangements(tuple(at_i)):
                    for new_j in arrangements(tuple(at_j)):
                        swapped = list(tables)
                        swapped[i], swapped[j] = new_i, new_j
                        yield swapped


def random_fair_rounds(players, mode, history, rng, count):
    sizes = table_sizes(len(players), mode)
    while count:
        shuffled = list(players)
        rng.shuffle(shuffled)
        tables, start = [], 0
        for size in sizes:
            tables.append(tuple(shuffled[start : start + size]))
            start += size
        if is_fair(tables, history):
            count -= 1
            yield tables


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", range(4))
def test_a_large_round_is_no_worse_than_random_fair_rounds(mode, seed):
    past = history(PLAYERS, seed)
    draw = draw_round(entrants=PLAYERS, mode=mode, seed=seed, history=past)
    tables = seatings(draw)
    assert sorted(pid for seats in tables for pid in seats) == PLAYERS
    assert [len(seats) for seats in tables] == table_sizes(len(PLAYERS), mode)
    assert is_fair(tables, past)
    key = round_key(tables, past)
    assert key > (0,) * 6  # repeats the draw had to weigh
    rounds = random_fair_rounds(PLAYERS, mode, past, random.Random(seed), 200)
    assert key <= min(round_key(other, past) for other in rounds)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", range(4))
def test_no_swap_of_two_players_improves_a_large_round(mode, seed):
    """Drawn for this round alone (nothing to keep for later rounds), a round too big for brute
    force is still one no swap of two players at different tables improves, the 3-player table
    kept fair."""
    past = history(PLAYERS, seed)
    tables = seatings(draw_round(entrants=PLAYERS, mode=mode, seed=seed, history=past))
    key = round_key(tables, past)
    assert not [
        other for other in swaps(tables) if is_fair(other, past) and round_key(other, past) < key
    ]


@pytest.mark.parametrize("seed", range(10))
def test_four_players_are_paired_at_their_cheapest(seed):
    """1 and 2 met as opponents: they sit as partners (opposite each other), not opponents."""
    draw = draw_round(
        entrants=[1, 2, 3, 4],
        mode="partners",
        seed=seed,
        history=DrawHistory(session_opponents={(1, 2): 1}),
    )
    (table,) = draw.tables
    assert draw.session_repeats == 0
    assert frozenset((1, 2)) in table.partners()


@pytest.mark.parametrize("seed", range(5))
def test_a_round_is_drawn_when_every_round_must_repeat(seed):
    """Everyone met everyone: no round is repeat-free, and 13 partners players are still seated
    once each, at tables of 4, 4, 3 and 2."""
    players = list(range(1, 14))
    everyone = DrawHistory(session_opponents={pair: 1 for pair in combinations(players, 2)})
    draw = draw_round(entrants=players, mode="partners", seed=seed, history=everyone)
    tables = seatings(draw)
    assert sorted(pid for seats in tables for pid in seats) == players
    assert [len(seats) for seats in tables] == [4, 4, 3, 2]
    assert draw.session_repeats == sum(len(table.opponents()) for table in draw.tables)
