"""Local search: improving a round by swapping players between tables, for rounds too big for
the exact search, and a random fair round to start from.

Terms:
- *arrangement*: how a table's players sit; four players can be paired three ways, and the
  cheapest is kept.
- *descent*: swapping two players at different tables while a swap lowers the cost; a *kick*
  makes a few random swaps to leave a local optimum; *polish* alternates them within a budget.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from games.draw.budgets import _KICK_SWAPS, _POLISH_STEPS, Chance, _OutOfSteps, _Steps
from games.draw.problem import _fair_triples, _Problem


def _best_arrangement(problem: _Problem, group: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """A table's cost, and for four players the cheapest of the three ways to pair them."""
    opp = problem.opp
    if len(group) == 2:
        return opp[group[0]][group[1]], group
    if len(group) == 3:
        a, b, c = group
        return opp[a][b] + opp[a][c] + opp[b][c], group
    a, b, c, d = group
    part = problem.part
    ab, ac, ad, bc, bd, cd = opp[a][b], opp[a][c], opp[a][d], opp[b][c], opp[b][d], opp[c][d]
    # The first cheapest of the three pairings (written out: this is the local search's
    # innermost loop).
    with_c = ab + bc + cd + ad + part[a][c] + part[b][d]  # a & c partners
    with_b = ac + bc + bd + ad + part[a][b] + part[c][d]  # a & b partners
    with_d = ab + bd + cd + ac + part[a][d] + part[b][c]  # a & d partners
    if with_c <= with_b and with_c <= with_d:
        return with_c, (a, b, c, d)
    if with_b <= with_d:
        return with_b, (a, c, b, d)
    return with_d, (a, b, d, c)


class _Seating:
    """A round being improved by local search: tables, their costs, who sits where."""

    def __init__(self, problem: _Problem, groups: Sequence[tuple[int, ...]]) -> None:
        self.problem = problem
        self.tables: list[tuple[int, ...]] = []
        self.costs: list[int] = []
        self.where = [0] * problem.n
        for number, group in enumerate(groups):
            cost, seats = _best_arrangement(problem, tuple(group))
            self.tables.append(seats)
            self.costs.append(cost)
            for i in seats:
                self.where[i] = number
        self.total = sum(self.costs)
        # Steps of looking at every swap of one player: a swap at a partners table weighs two
        # pairings of four, about four times the work of a swap of two 2-tables.
        self.scan = problem.n * (4 if problem.shape.fours else 1)

    def may_swap(self, i: int, j: int) -> bool:
        """Different tables, and the 3-table stays fair (a swap across its edge needs equal
        3-table counts)."""
        ti, tj = self.where[i], self.where[j]
        if ti == tj:
            return False
        threes = self.problem.threes
        return (len(self.tables[ti]) == 3) == (len(self.tables[tj]) == 3) or (
            threes[i] == threes[j]
        )

    def swap_gain(self, i: int, j: int) -> tuple[int, tuple, tuple]:
        ti, tj = self.where[i], self.where[j]
        table_i, table_j = self.tables[ti], self.tables[tj]
        if len(table_i) == 2 and len(table_j) == 2:
            # Two 2-tables (most of a singles round): i takes j's seat opposite j's opponent.
            opp = self.problem.opp
            a, b = table_i
            c, d = table_j
            new_i = (opp[j][b], (j, b)) if a == i else (opp[a][j], (a, j))
            new_j = (opp[i][d], (i, d)) if c == j else (opp[c][i], (c, i))
        else:
            at_i, at_j = table_i.index(i), table_j.index(j)
            new_i = _best_arrangement(self.problem, (*table_i[:at_i], j, *table_i[at_i + 1 :]))
            new_j = _best_arrangement(self.problem, (*table_j[:at_j], i, *table_j[at_j + 1 :]))
        return self.costs[ti] + self.costs[tj] - new_i[0] - new_j[0], new_i, new_j

    def swap(self, i: int, j: int, new_i: tuple, new_j: tuple) -> None:
        ti, tj = self.where[i], self.where[j]
        self.total += new_i[0] + new_j[0] - self.costs[ti] - self.costs[tj]
        (self.costs[ti], self.tables[ti]), (self.costs[tj], self.tables[tj]) = new_i, new_j
        self.where[i], self.where[j] = tj, ti

    def descend(self, todo: list[int], rng: Chance, steps: _Steps) -> None:
        """Swap while a swap lowers the cost, looking again at every player whose table
        changed (first improvement, random order).

        The search's innermost loop: `may_swap` and `swap_gain` are written out here for the
        commonest swap, two players at two 2-tables (the same tests, the same gains, in the same
        order), and only the seats of an improving swap are built."""
        others = list(range(self.problem.n))
        rng.shuffle(others)
        queued = set(todo)
        where, tables, costs = self.where, self.tables, self.costs
        opp, threes = self.problem.opp, self.problem.threes
        while todo:
            i = todo.pop()
            queued.discard(i)
            steps.spend(self.scan)
            ti = where[i]
            table_i = tables[ti]
            at_three, three_count, cost_i = len(table_i) == 3, threes[i], costs[ti]
            if len(table_i) == 2:
                a, b = table_i
                mate, i_first = (b, True) if a == i else (a, False)
                opp_mate = opp[mate]
            else:
                mate = None
            for j in others:
                tj = where[j]
                if tj == ti:
                    continue
                table_j = tables[tj]
                if (len(table_j) == 3) != at_three and threes[j] != three_count:
                    continue
                if mate is not None and len(table_j) == 2:
                    # i takes j's seat opposite j's opponent, j takes i's opposite i's (the
                    # opponent costs are symmetric: problem.opp[a][b] == opp[b][a]).
                    c, d = table_j
                    other = d if c == j else c
                    gain = cost_i + costs[tj] - opp_mate[j] - opp[other][i]
                    if gain <= 0:
                        continue
                    new_i = (opp[j][mate], (j, mate) if i_first else (mate, j))
                    new_j = (opp[i][other], (i, other) if c == j else (other, i))
                else:
                    gain, new_i, new_j = self.swap_gain(i, j)
                    if gain <= 0:
                        continue
                moved = table_i + table_j
                self.swap(i, j, new_i, new_j)
                for k in moved:
                    if k not in queued:
                        queued.add(k)
                        todo.append(k)
                break


def _polish(
    problem: _Problem, groups: tuple[tuple[int, ...], ...], bound: int, rng: Chance
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Iterated local search: descend by swapping two players at different tables (each
    partners table re-paired at its best), then repeatedly kick the best round with a few
    random swaps and descend again, keeping the best, until the cost reaches ``bound`` or
    ``_POLISH_STEPS`` are spent."""
    seating = _Seating(problem, groups)
    steps = _Steps(_POLISH_STEPS)
    players = list(range(problem.n))
    with contextlib.suppress(_OutOfSteps):
        seating.descend(list(players), rng, steps)
    best, best_cost = tuple(seating.tables), seating.total
    while best_cost > bound and steps.left > 0:
        steps.left -= problem.n  # a kick costs something even when no swap was allowed
        kicked: list[int] = []
        for _ in range(_KICK_SWAPS):
            i, j = players[rng.below(problem.n)], players[rng.below(problem.n)]
            if seating.may_swap(i, j):
                _, new_i, new_j = seating.swap_gain(i, j)
                seating.swap(i, j, new_i, new_j)
                kicked += [i, j]
        with contextlib.suppress(_OutOfSteps):
            seating.descend(kicked, rng, steps)
        if seating.total <= best_cost:
            best, best_cost = tuple(seating.tables), seating.total
        else:
            seating = _Seating(problem, best)
    return best, best_cost


def _random_round(problem: _Problem, rng: Chance) -> tuple[tuple[int, ...], ...]:
    """A random fair round, repeats or not."""
    players = list(range(problem.n))
    groups: list[tuple[int, ...]] = []
    if problem.shape.threes:
        triple = next(_fair_triples(problem.threes, rng))
        groups.append(triple)
        players = [i for i in players if i not in triple]
    rng.shuffle(players)
    for _ in range(problem.shape.fours):
        groups.append(tuple(players[:4]))
        players = players[4:]
    while players:
        groups.append(tuple(players[:2]))
        players = players[2:]
    return tuple(groups)
