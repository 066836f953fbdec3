"""Exact search: the cheapest fair round by branch and bound, for rounds of up to
``EXACT_LIMIT`` entrants.

Terms: the *incumbent* is the best round found so far; a branch is cut when its cost plus the
lower bound of the players still to seat cannot beat it; the search stops early when a round
reaches the lower bound (``_Enough``) or when its step budget runs out (then it is not exhaustive).
"""

from __future__ import annotations

from collections.abc import Callable

from games.draw.budgets import _SEARCH_STEPS, Chance, _Enough, _OutOfSteps, _Steps
from games.draw.problem import _fair_triples, _lower_bound, _members, _Problem, _triangle_ok


def _branch_and_bound(
    problem: _Problem,
    allowed: list[int],
    rng: Chance,
    incumbent: tuple[tuple[int, ...], ...],
    accept: Callable[[tuple[tuple[int, ...], ...]], bool],
) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """The cheapest accepted fair round using only ``allowed`` pairs (exhaustive unless the
    step budget runs out; the bool says whether it was exhaustive)."""
    n, shape, opp, part = problem.n, problem.shape, problem.opp, problem.part
    bound, cheapest = _lower_bound(problem, allowed)
    best: list = [problem.round_cost(incumbent), incumbent]
    steps = _Steps(_SEARCH_STEPS)
    tie_break = list(range(n))
    rng.shuffle(tie_break)

    def leaf(groups: list[tuple[int, ...]], cost: int) -> None:
        if cost >= best[0]:
            return
        found = tuple(groups)
        if accept(found):
            best[0], best[1] = cost, found
            if cost <= bound:
                raise _Enough
        elif getattr(accept, "spent", False):
            raise _Enough  # the lookahead refuses everything from now on: nothing can win

    def fill(free: int, fours: int, twos: int, cost: int, rest_bound: int, groups: list) -> None:
        if not free:
            leaf(groups, cost)
            return
        if 2 * cost + rest_bound >= 2 * best[0]:
            return
        player, key = -1, (1 << 30, 0)
        for i in _members(free):
            k = ((allowed[i] & free).bit_count(), tie_break[i])
            if k < key:
                player, key = i, k
        rest = free & ~(1 << player)
        neighbours = _members(allowed[player] & rest)
        options: list = []
        if twos:
            for other in neighbours:
                options.append((opp[player][other], rng.random(), (player, other)))
        if fours:
            for i, a in enumerate(neighbours):
                for b in neighbours[i + 1 :]:
                    common = allowed[a] & allowed[b] & rest & ~((1 << a) | (1 << b))
                    for x in _members(common):
                        cost4 = (opp[player][a] + opp[player][b] + opp[x][a] + opp[x][b]) + (
                            part[player][x] + part[a][b]
                        )
                        options.append((cost4, rng.random(), (player, a, x, b)))
        steps.spend(1 + len(options))
        options.sort()
        for option_cost, _, group in options:
            new_cost = cost + option_cost
            new_bound = rest_bound - sum(cheapest[i] for i in group)
            if 2 * new_cost + new_bound >= 2 * best[0]:
                continue
            groups.append(group)
            left = rest
            for i in group:
                left &= ~(1 << i)
            if len(group) == 2:
                fill(left, fours, twos - 1, new_cost, new_bound, groups)
            else:
                fill(left, fours - 1, twos, new_cost, new_bound, groups)
            groups.pop()

    everyone = (1 << n) - 1
    total_bound = sum(cheapest)
    complete = True
    try:
        if shape.threes:
            triples = []
            for triple in _fair_triples(problem.threes, rng):
                if _triangle_ok(allowed, triple):
                    triples.append((problem.group_cost(triple), rng.random(), triple))
            steps.spend(len(triples))
            triples.sort()
            for cost, _, triple in triples:
                free = everyone & ~((1 << triple[0]) | (1 << triple[1]) | (1 << triple[2]))
                rest_bound = total_bound - sum(cheapest[i] for i in triple)
                fill(free, shape.fours, shape.twos, cost, rest_bound, [triple])
        else:
            fill(everyone, shape.fours, shape.twos, 0, total_bound, [])
    except _Enough:
        pass
    except _OutOfSteps:
        complete = False
    return best[1], complete
