"""games/draw/problem.py: a round as bit masks and cost matrices; the cost levels; fair 3-tables;
the lower bound."""

from itertools import combinations

from games.draw import problem as p
from games.draw.budgets import _Chance
from games.draw.types import DrawHistory


def test_bit_masks_and_pairs():
    assert p._members(0b10110) == [1, 2, 4]
    assert p._members(0) == []
    assert p._group_pairs((7, 8)) == [(7, 8)]
    assert p._group_pairs((1, 2, 3)) == [(1, 2), (1, 3), (2, 3)]
    assert p._group_pairs((1, 2, 3, 4)) == [(1, 2), (2, 3), (3, 4), (4, 1)]  # the cross pairs


def test_a_level_outweighs_everything_below_it():
    """One session repeat costs more than any number of lesser faults a round can hold."""
    pairs_in_a_round = 4 * 10  # forty players at partners tables
    worst_season = pairs_in_a_round * (p._SEASON_PAIR + p._SEASON_TIMES * 50)
    assert worst_season < p._PARTNER_TIMES
    assert pairs_in_a_round * (p._PARTNER_PAIR + p._PARTNER_TIMES * 6) < p._SESSION_TIMES
    assert p._SESSION_TIMES * pairs_in_a_round < p._SESSION_PAIR


def test_the_problem_of_a_history():
    history = DrawHistory(
        session_opponents={(10, 20): 2},
        season_opponents={(10, 30): 3},
        session_partners={(20, 40): 1},
        three_table_counts={40: 1},
    )
    problem = p._build_problem([10, 20, 30, 40, 50], "singles", history)
    assert (problem.shape.fours, problem.shape.threes, problem.shape.twos) == (0, 1, 1)
    assert problem.opp[0][1] == problem.opp[1][0] == p._SESSION_PAIR + 2 * p._SESSION_TIMES
    assert problem.opp[0][2] == p._SEASON_PAIR + 3 * p._SEASON_TIMES
    assert problem.part[1][3] == p._PARTNER_PAIR + p._PARTNER_TIMES
    assert not problem.unmet[0] >> 1 & 1 and problem.unmet[0] >> 2 & 1
    assert not problem.fresh[0] >> 2 & 1  # met in the season: not fresh
    assert problem.threes == [0, 0, 0, 1, 0]
    assert problem.round_cost([(0, 1), (2, 3, 4)]) == problem.opp[0][1]


def test_fair_triples_take_the_fewest_three_table_seats_first():
    threes = [1, 0, 1, 0, 2, 1]
    triples = list(p._fair_triples(threes, _Chance(1)))
    assert triples and all({1, 3} <= set(t) for t in triples)
    assert {t[2] for t in triples} == {0, 2, 5}  # one of the players with one seat there
    assert all(4 not in t for t in triples)


def test_the_lower_bound_is_half_the_cheapest_opponents():
    history = DrawHistory(session_opponents={pair: 1 for pair in combinations(range(4), 2)})
    problem = p._build_problem([0, 1, 2, 3], "singles", history)
    everyone = [0b1111 & ~(1 << i) for i in range(4)]
    cost = p._SESSION_PAIR + p._SESSION_TIMES
    bound, cheapest = p._lower_bound(problem, everyone)
    assert cheapest == [cost] * 4 and bound == 2 * cost
    assert problem.round_cost([(0, 1), (2, 3)]) == bound  # reached: no round costs less
