"""games/draw/exact.py: branch and bound finds the cheapest fair round (checked against every
round of a small draw)."""

import random
from itertools import combinations

from games.draw.budgets import _Chance
from games.draw.exact import _branch_and_bound
from games.draw.problem import _build_problem
from games.draw.types import DrawHistory


def every_pairing(players):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for other in rest:
        left = [p for p in rest if p != other]
        for tail in every_pairing(left):
            yield [(first, other), *tail]


def test_the_cheapest_round_of_eight_is_found_and_proven():
    rng = random.Random(8)
    pairs = list(combinations(range(8), 2))
    history = DrawHistory(
        session_opponents={pair: 1 for pair in rng.sample(pairs, 12)},
        season_opponents={pair: rng.randint(1, 4) for pair in rng.sample(pairs, 20)},
    )
    problem = _build_problem(list(range(8)), "singles", history)
    everyone = [0xFF & ~(1 << i) for i in range(8)]
    start = ((0, 1), (2, 3), (4, 5), (6, 7))
    best, complete = _branch_and_bound(problem, everyone, _Chance(3), start, lambda groups: True)
    brute = min(problem.round_cost(groups) for groups in every_pairing(list(range(8))))
    assert complete
    assert problem.round_cost(best) == brute <= problem.round_cost(start)
    assert sorted(p for group in best for p in group) == list(range(8))


def test_a_refused_round_is_never_returned():
    problem = _build_problem(list(range(4)), "singles", DrawHistory())
    everyone = [0b1111 & ~(1 << i) for i in range(4)]
    start = ((0, 1), (2, 3))
    refused = {((0, 2), (1, 3)), ((0, 3), (1, 2))}
    best, _ = _branch_and_bound(problem, everyone, _Chance(1), start, lambda g: g not in refused)
    assert best not in refused
