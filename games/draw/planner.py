"""The repeat-free planner: whole rounds with no session repeat, and how many can follow.

Terms:
- *repeat-free round*: a fair round whose opponent pairs all have not met this session (and,
  when asked, whose partner pairs have not partnered).
- *horizon*: how many repeat-free rounds in a row can still be drawn (at most the rounds left).
- *lookahead*: accepting a round only when the horizon's other rounds can still follow it.
Every search spends steps from a budget (``games.draw.budgets``) and may stop unsure.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from games.draw.budgets import (
    _CHECK_STEPS,
    _CHECKS_STEPS,
    _FEW_TIES,
    _FIRST_ATTEMPT,
    _PLAN_STEPS,
    Chance,
    _OutOfSteps,
    _Steps,
)
from games.draw.problem import _fair_triples, _group_pairs, _members, _Problem, _Shape, _triangle_ok


def _fill(
    adj: list[int],
    free: int,
    fours: int,
    twos: int,
    rng: Chance,
    steps: _Steps,
    groups: list[tuple[int, ...]],
    padj: list[int] | None = None,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to seat the ``free`` players at twos and partners tables whose opponent pairs
    are all in ``adj`` (and partner pairs in ``padj``, if given): lazily, in a random order,
    seating the most constrained player first."""
    if not free:
        yield tuple(groups)
        return
    steps.spend()
    player, degree = -1, 1 << 30
    mask = free
    while mask:
        low = mask & -mask
        mask ^= low
        candidate = low.bit_length() - 1
        d = (adj[candidate] & free).bit_count()
        if d < degree:
            player, degree = candidate, d
            if d == 0:
                return
    rest = free & ~(1 << player)
    neighbours = _members(adj[player] & rest)
    rng.shuffle(neighbours)
    fours_first = bool(fours) and (not twos or rng.random() < 2 * fours / (2 * fours + twos))
    for kind in (4, 2) if fours_first else (2, 4):
        if kind == 2 and twos:
            for other in neighbours:
                groups.append((player, other))
                left = rest & ~(1 << other)
                yield from _fill(adj, left, fours, twos - 1, rng, steps, groups, padj)
                groups.pop()
        elif kind == 4 and fours and degree >= 2:
            mates = rest if padj is None else rest & padj[player]
            for i, a in enumerate(neighbours):
                for b in neighbours[i + 1 :]:
                    steps.spend()
                    if padj is not None and not padj[a] >> b & 1:
                        continue
                    common = adj[a] & adj[b] & mates & ~((1 << a) | (1 << b))
                    if not common:
                        continue
                    partners = _members(common)
                    rng.shuffle(partners)
                    for x in partners:
                        groups.append((player, a, x, b))
                        left = rest & ~((1 << a) | (1 << b) | (1 << x))
                        yield from _fill(adj, left, fours - 1, twos, rng, steps, groups, padj)
                        groups.pop()


def _repeat_free_rounds(
    adj: list[int],
    threes: list[int],
    shape: _Shape,
    rng: Chance,
    steps: _Steps,
    padj: list[int] | None = None,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every fair round whose opponent pairs are all in ``adj`` (and partner pairs in
    ``padj``): lazily, in a random order."""
    everyone = (1 << len(adj)) - 1
    if not shape.threes:
        yield from _fill(adj, everyone, shape.fours, shape.twos, rng, steps, [], padj)
        return
    for triple in _fair_triples(threes, rng):
        steps.spend()
        if _triangle_ok(adj, triple):
            free = everyone & ~((1 << triple[0]) | (1 << triple[1]) | (1 << triple[2]))
            yield from _fill(adj, free, shape.fours, shape.twos, rng, steps, [triple], padj)


def _after(
    adj: list[int],
    threes: list[int],
    groups: Sequence[tuple[int, ...]],
    padj: list[int] | None = None,
) -> tuple[list[int], list[int], list[int] | None]:
    """The unmet pairs, 3-table counts and (if given) unpartnered pairs after ``groups``."""
    adj = list(adj)
    threes = list(threes)
    padj = None if padj is None else list(padj)
    for group in groups:
        for a, b in _group_pairs(group):
            adj[a] &= ~(1 << b)
            adj[b] &= ~(1 << a)
        if len(group) == 3:
            for i in group:
                threes[i] += 1
        if len(group) == 4 and padj is not None:
            for a, b in ((group[0], group[2]), (group[1], group[3])):
                padj[a] &= ~(1 << b)
                padj[b] &= ~(1 << a)
    return adj, threes, padj


def _may_last(adj: list[int], threes: list[int], shape: _Shape, rounds: int) -> bool:
    """A quick necessary condition for ``rounds`` more repeat-free rounds: enough unmet pairs
    overall and for every player, and a fair 3-table whose players have not met (checked when
    there are few fair 3-tables, which is when it bites: the last players yet to sit there)."""
    if rounds <= 0:
        return True
    need = rounds * shape.least_edges_per_player
    total = 0
    for mask in adj:
        degree = mask.bit_count()
        if degree < need:
            return False
        total += degree
    if total // 2 < rounds * shape.edges:
        return False
    if shape.threes:
        level = sorted(threes)[2]
        forced = [i for i, times in enumerate(threes) if times < level]
        ties = [i for i, times in enumerate(threes) if times == level]
        if len(ties) <= _FEW_TIES:
            return any(
                _triangle_ok(adj, tuple(forced) + chosen)
                for chosen in combinations(ties, 3 - len(forced))
            )
    return True


def _samples(
    adj: list[int],
    threes: list[int],
    shape: _Shape,
    rng: Chance,
    steps: _Steps,
    width: int,
    padj: list[int] | None,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Up to ``width`` different repeat-free rounds, each from a fresh random search (so they
    differ everywhere, not just at the last tables as the depth-first order would)."""
    seen = set()
    for _ in range(width):
        groups = next(_repeat_free_rounds(adj, threes, shape, rng, steps, padj), None)
        if groups is None:
            return
        if groups not in seen:
            seen.add(groups)
            yield groups


def _extend(
    adj: list[int],
    threes: list[int],
    shape: _Shape,
    rounds: int,
    rng: Chance,
    steps: _Steps,
    stack: list,
    deepest: list,
    width: int | None = None,
    padj: list[int] | None = None,
) -> bool:
    """Depth-first search for ``rounds`` more repeat-free rounds (with ``padj``: free of
    partner repeats too); on success ``stack`` holds them. ``deepest`` keeps the longest run
    seen. With ``width`` each round tries at most that many sampled rounds; without, every
    round (then False means there are none, unless ``_OutOfSteps`` was raised)."""
    if rounds == 0:
        return True
    if not _may_last(adj, threes, shape, rounds):
        return False
    if width is None:
        candidates = _repeat_free_rounds(adj, threes, shape, rng, steps, padj)
    else:
        candidates = _samples(adj, threes, shape, rng, steps, width, padj)
    for groups in candidates:
        steps.spend(len(groups))  # the bookkeeping below costs about as much as seating
        stack.append(groups)
        if len(stack) > len(deepest):
            deepest[:] = stack
        next_adj, next_threes, next_padj = _after(adj, threes, groups, padj)
        if _extend(
            next_adj, next_threes, shape, rounds - 1, rng, steps, stack, deepest, width, next_padj
        ):
            return True
        stack.pop()
    return False


def _search(
    adj: list[int],
    threes: list[int],
    shape: _Shape,
    rounds: int,
    rng: Chance,
    steps: _Steps,
    deepest: list,
    padj: list[int] | None = None,
) -> bool | None:
    """``_extend`` with restarts, since a depth-first search gets stuck below a bad early
    choice. Attempts alternate between a sampled search (a few fresh random rounds at each
    level: finds a run quickly when there are many) and an exhaustive one (the only kind that
    can prove there is none); each pair gets twice the steps of the one before, until the
    budget is spent. True: found (in ``deepest``); False: proven impossible; None: unsure."""
    attempt, width = _FIRST_ATTEMPT, 2
    while steps.left > 0:
        for sampled in (True, False):
            allowed = min(attempt, steps.left)
            budget = _Steps(allowed)
            try:
                done: bool | None = _extend(
                    adj,
                    threes,
                    shape,
                    rounds,
                    rng,
                    budget,
                    [],
                    deepest,
                    width if sampled else None,
                    padj,
                )
            except _OutOfSteps:
                done = None
            steps.left -= allowed - max(budget.left, 0)
            if done or (done is False and not sampled):
                return done
            if steps.left <= 0:
                return None
        attempt, width = 2 * attempt, width + 1
    return None


def _horizon(
    problem: _Problem, rounds: int, rng: Chance
) -> tuple[int, tuple[tuple[int, ...], ...] | None]:
    """How many repeat-free rounds in a row can be drawn from now (at most ``rounds``), with a
    first round that starts such a run."""
    adj, threes, shape = problem.unmet, problem.threes, problem.shape
    while rounds > 0 and not _may_last(adj, threes, shape, rounds):
        rounds -= 1
    steps = _Steps(_PLAN_STEPS)
    found: list = []
    while rounds > len(found):
        deepest: list = []
        done = _search(adj, threes, shape, rounds, rng, steps, deepest)
        if len(deepest) > len(found):
            found = list(deepest)
        if done or steps.left <= 0:
            break
        rounds -= 1
    return len(found), (found[0] if found else None)


class _Lookahead:
    """Accepts a round when ``rounds`` repeat-free rounds (with ``partners``: free of partner
    repeats too) can still follow it. Each check has ``_CHECK_STEPS``, all checks together
    ``_CHECKS_STEPS``; ``unsure`` records whether a check ever ran out of steps (and so may
    have refused a round that was in fact fine)."""

    def __init__(
        self, problem: _Problem, rounds: int, rng: Chance, *, partners: bool = False
    ) -> None:
        self.problem, self.rounds, self.rng = problem, rounds, rng
        self.padj = problem.unpartnered if partners else None
        self.pool = _Steps(_CHECKS_STEPS)
        self.unsure = False

    @property
    def spent(self) -> bool:
        """Every further check would refuse: the checks' steps are used up."""
        return self.rounds > 0 and self.pool.left <= 0

    def __call__(self, groups: Sequence[tuple[int, ...]]) -> bool:
        if self.rounds <= 0:
            return True
        if self.pool.left <= 0:
            self.unsure = True
            return False
        problem = self.problem
        adj, threes, padj = _after(problem.unmet, problem.threes, groups, self.padj)
        steps = _Steps(min(_CHECK_STEPS, self.pool.left))
        before = steps.left
        found = _search(adj, threes, problem.shape, self.rounds, self.rng, steps, [], padj)
        self.pool.left -= before - max(steps.left, 0)
        if found is None:
            self.unsure = True
        return bool(found)
