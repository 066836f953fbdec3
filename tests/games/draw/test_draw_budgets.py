"""games/draw/budgets.py: the seeded chance every draw uses, and step budgets that stop a search
by count, never by the clock."""

import pytest

from games.draw import budgets
from games.draw.budgets import _Chance, _OutOfSteps, _Steps


def test_chance_is_a_function_of_the_seed_alone():
    first, again, other = _Chance(41), _Chance(41), _Chance(42)
    draws = [first.below(10) for _ in range(50)]
    assert draws == [again.below(10) for _ in range(50)]
    assert draws != [other.below(10) for _ in range(50)]
    assert set(draws) <= set(range(10)) and len(set(draws)) > 5


@pytest.mark.parametrize("n", [1, 2, 7, 1000])
def test_below_stays_in_range(n):
    chance = _Chance(3)
    assert all(0 <= chance.below(n) < n for _ in range(200))


def test_shuffle_is_a_seeded_permutation():
    items = list(range(20))
    a, b = list(items), list(items)
    _Chance(5).shuffle(a)
    _Chance(5).shuffle(b)
    assert a == b and sorted(a) == items and a != items


def test_steps_run_out_only_past_the_budget():
    steps = _Steps(3)
    steps.spend()
    steps.spend(2)
    assert steps.left == 0
    with pytest.raises(_OutOfSteps):
        steps.spend()


def test_budgets_are_counts():
    names = [name for name in dir(budgets) if name.endswith("_STEPS")]
    assert len(names) >= 6
    assert all(
        isinstance(getattr(budgets, name), int) and getattr(budgets, name) > 0 for name in names
    )
    assert budgets.EXACT_LIMIT == 16
