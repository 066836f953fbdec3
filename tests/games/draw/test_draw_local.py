"""games/draw/local.py: the local search never makes a round worse, four players are paired at
their best, and a random round is a fair round."""

import random
from itertools import combinations

import pytest

from games.draw.budgets import _Chance
from games.draw.local import _best_arrangement, _polish, _random_round
from games.draw.problem import _build_problem, _lower_bound
from games.draw.types import DrawHistory


def history(players, seed):
    rng = random.Random(seed)
    pairs = list(combinations(players, 2))
    return DrawHistory(
        session_opponents={pair: 1 for pair in pairs if rng.random() < 0.3},
        season_opponents={pair: rng.randint(1, 3) for pair in pairs if rng.random() < 0.5},
        session_partners={pair: 1 for pair in pairs if rng.random() < 0.1},
    )


@pytest.mark.parametrize("mode", ["singles", "partners"])
@pytest.mark.parametrize("seed", range(4))
def test_polish_never_makes_a_round_worse(mode, seed):
    players = list(range(23))
    problem = _build_problem(players, mode, history(players, seed))
    start = _random_round(problem, _Chance(seed))
    everyone = [((1 << 23) - 1) & ~(1 << i) for i in range(23)]
    bound = _lower_bound(problem, everyone)[0]
    polished, cost = _polish(problem, start, bound, _Chance(seed))
    assert cost == problem.round_cost(polished) <= problem.round_cost(start)
    assert sorted(p for group in polished for p in group) == players
    assert [len(g) for g in polished].count(3) == problem.shape.threes


def test_four_players_are_paired_at_their_cheapest():
    problem = _build_problem([0, 1, 2, 3], "partners", DrawHistory(session_opponents={(0, 1): 1}))
    cost, seats = _best_arrangement(problem, (0, 1, 2, 3))
    assert cost == 0 and {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))} >= {
        frozenset((0, 1))
    }  # the pair that met sit as partners, not opponents


def test_a_random_round_seats_everyone_in_the_shape():
    problem = _build_problem(list(range(13)), "partners", DrawHistory())
    groups = _random_round(problem, _Chance(9))
    assert sorted(p for g in groups for p in g) == list(range(13))
    assert sorted(len(g) for g in groups) == [2, 3, 4, 4]
