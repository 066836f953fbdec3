"""games/draw/planner.py: repeat-free rounds, how many can still follow (the horizon), and the
lookahead that keeps them possible."""

from games.draw.budgets import _Chance, _Steps
from games.draw.planner import _after, _horizon, _Lookahead, _may_last, _repeat_free_rounds
from games.draw.problem import _build_problem
from games.draw.types import DrawHistory


def problem_of(players, met=()):
    return _build_problem(players, "singles", DrawHistory(session_opponents={m: 1 for m in met}))


def test_four_players_have_three_repeat_free_rounds():
    """Four players meet each other in three rounds of two tables (K4 has three matchings)."""
    horizon, first = _horizon(problem_of([1, 2, 3, 4]), 6, _Chance(1))
    assert horizon == 3 and first is not None


def test_a_met_pair_shortens_the_horizon():
    horizon, first = _horizon(problem_of([1, 2, 3, 4], met=[(1, 2), (3, 4)]), 6, _Chance(1))
    assert horizon == 2
    assert sorted(map(sorted, first)) != [[0, 1], [2, 3]]  # never the pairs that met


def test_repeat_free_rounds_use_only_unmet_pairs():
    problem = problem_of([1, 2, 3, 4, 5, 6], met=[(1, 2), (3, 4)])
    rounds = list(
        _repeat_free_rounds(problem.unmet, problem.threes, problem.shape, _Chance(2), _Steps(10**5))
    )
    assert rounds
    for groups in rounds:
        for a, b in groups:
            assert problem.unmet[a] >> b & 1


def test_may_last_refuses_a_player_with_too_few_unmet():
    problem = problem_of([1, 2, 3, 4], met=[(1, 2), (1, 3)])
    assert not _may_last(problem.unmet, problem.threes, problem.shape, 2)
    assert _may_last(problem.unmet, problem.threes, problem.shape, 1)


def test_after_a_round_its_pairs_have_met():
    problem = problem_of([1, 2, 3, 4])
    adj, threes, _ = _after(problem.unmet, problem.threes, [(0, 1), (2, 3)])
    assert not adj[0] >> 1 & 1 and not adj[2] >> 3 & 1 and adj[0] >> 2 & 1
    assert threes == problem.threes


def test_the_lookahead_refuses_a_round_that_ends_the_run_early():
    problem = problem_of([1, 2, 3, 4])
    assert _Lookahead(problem, 0, _Chance(1))(((0, 1), (2, 3)))  # nothing to keep: any round
    keep_two = _Lookahead(problem, 2, _Chance(1))
    assert keep_two(((0, 1), (2, 3)))  # the other two matchings can follow
    met = problem_of([1, 2, 3, 4], met=[(1, 3), (2, 4)])
    assert not _Lookahead(met, 2, _Chance(1))(((0, 1), (2, 3)))  # then only one is left
