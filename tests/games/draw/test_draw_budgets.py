"""The draw's one source of chance (`games.draw.Chance`), and searches that stop by counting their
steps, never by reading the clock, so that a stored seed replays the same draw on any computer
however busy it is.

Terms: a *hard draw* is one whose searches run to their budgets: forty players in a session whose
earlier rounds left few pairs unmet, and a season in which most pairs met.
"""

import dataclasses
import random
import time
from itertools import combinations

import pytest

from games.draw import Chance, DrawHistory, draw_round
from tests.games.draw.drawing import MODES, play_session, seatings


def test_chance_is_a_function_of_the_seed_alone():
    first, again, other = Chance(41), Chance(41), Chance(42)
    draws = [first.below(10) for _ in range(50)]
    assert draws == [again.below(10) for _ in range(50)]
    assert draws != [other.below(10) for _ in range(50)]
    assert set(draws) <= set(range(10)) and len(set(draws)) > 5


@pytest.mark.parametrize("n", [1, 2, 7, 1000])
def test_below_stays_in_range(n):
    chance = Chance(3)
    assert all(0 <= chance.below(n) < n for _ in range(200))


def test_shuffle_is_a_seeded_permutation():
    items = list(range(20))
    a, b = list(items), list(items)
    Chance(5).shuffle(a)
    Chance(5).shuffle(b)
    assert a == b and sorted(a) == items and a != items


def test_chance_is_random_random_of_the_seed():
    """What Python promises to keep across versions: the seeding and `random()` alone."""
    chance, plain = Chance(7), random.Random(7)
    assert [chance.random() for _ in range(5)] == [plain.random() for _ in range(5)]
    assert Chance(7).below(10) == int(random.Random(7).random() * 10)


def hard_draws(mode: str) -> list:
    players = list(range(1, 41))
    rng = random.Random(40)
    season = {
        frozenset(pair): rng.randint(1, 5)
        for pair in combinations(players, 2)
        if rng.random() < 0.8
    }
    history = DrawHistory.from_rounds(play_session(players, mode=mode, seed=1, rounds=5))
    history = dataclasses.replace(history, season_opponents=season)
    return [
        draw_round(entrants=players, mode=mode, seed=seed, history=history, rounds_remaining=2)
        for seed in range(3)
    ]


@pytest.mark.parametrize("mode", MODES)
def test_a_draw_never_reads_the_clock(monkeypatch, mode):
    """Every search is bounded by a count of steps: with every clock of the time module stopped
    (reading one fails the test), hard draws come out seat for seat as they do with the clock."""
    expected = [seatings(draw) for draw in hard_draws(mode)]

    def stopped(*args, **kwargs):
        raise AssertionError("the draw read the clock")

    for name in (
        "time",
        "time_ns",
        "monotonic",
        "monotonic_ns",
        "perf_counter",
        "perf_counter_ns",
        "process_time",
        "process_time_ns",
        "thread_time",
        "thread_time_ns",
    ):
        monkeypatch.setattr(time, name, stopped)
    assert [seatings(draw) for draw in hard_draws(mode)] == expected
