"""The problem a draw solves, as bit masks and cost matrices, and the bounds every search uses.

Terms:
- players are indices 0..n-1 into the sorted entrants; a set of players is an int bit mask;
  a *group* is one table's players in seat order; a *round* is a tuple of groups.
- *shape*: how many 4-, 3- and 2-player tables a round has (``table_sizes``).
- *cost*: what a draw minimises, one level per criterion so that a level outweighs every total
  of the levels below it: session repeats, then partner repeats, then season repeats (each pair,
  then how often it met).
- *unmet* / *fresh* / *unpartnered*: for each player, the players they have not met this session
  / nor this season / not partnered this session (masks).
- *fair 3-table*: players with the fewest 3-table seats this session (a hard rule).
- *lower bound*: half the sum of each player's cheapest allowed opponent; no round costs less.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from games.draw.budgets import Chance
from games.draw.types import DrawHistory, table_sizes

# One cost level per criterion; a level outweighs every possible total of the levels below it
# for any club (fewer than 2**20 / (pairs in a draw) meetings of one pair per season).
_LEVEL = 1 << 20
_SEASON_TIMES = 1
_SEASON_PAIR = _LEVEL
_PARTNER_TIMES = _LEVEL**2
_PARTNER_PAIR = _LEVEL**3
_SESSION_TIMES = _LEVEL**4
_SESSION_PAIR = _LEVEL**5


def _members(mask: int) -> list[int]:
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result


def _group_pairs(group: tuple[int, ...]) -> list[tuple[int, int]]:
    if len(group) == 4:
        return [(group[i], group[(i + 1) % 4]) for i in range(4)]
    return list(combinations(group, 2))


@dataclass(frozen=True)
class _Shape:
    fours: int
    threes: int
    twos: int

    @property
    def edges(self) -> int:
        """Opponent pairs used by one round."""
        return 4 * self.fours + 3 * self.threes + self.twos

    @property
    def least_edges_per_player(self) -> int:
        return 1 if self.twos else 2


@dataclass
class _Problem:
    n: int
    shape: _Shape
    unmet: list[int]  # unmet[i]: players i has not yet met as an opponent this session
    fresh: list[int]  # fresh[i]: ... nor earlier in the season
    unpartnered: list[int]  # unpartnered[i]: players i has not partnered this session
    threes: list[int]  # 3-table counts
    opp: list[list[int]]  # cost of an opponent pair
    part: list[list[int]]  # cost of a partner pair

    def group_cost(self, group: tuple[int, ...]) -> int:
        opp = self.opp
        cost = sum(opp[a][b] for a, b in _group_pairs(group))
        if len(group) == 4:
            cost += self.part[group[0]][group[2]] + self.part[group[1]][group[3]]
        return cost

    def round_cost(self, groups: Sequence[tuple[int, ...]]) -> int:
        return sum(self.group_cost(group) for group in groups)


def _build_problem(ids: list[int], mode: str, history: DrawHistory) -> _Problem:
    n = len(ids)
    index = {pid: i for i, pid in enumerate(ids)}
    everyone = (1 << n) - 1
    unmet = [everyone & ~(1 << i) for i in range(n)]
    opp = [[0] * n for _ in range(n)]
    part = [[0] * n for _ in range(n)]

    def add(matrix: list[list[int]], pairs: Mapping, pair_w: int, times_w: int) -> list:
        seen = []
        for pair, times in pairs.items():
            a, b = (index.get(pid) for pid in pair)
            if a is None or b is None:
                continue
            matrix[a][b] += pair_w + times_w * times
            matrix[b][a] = matrix[a][b]
            seen.append((a, b))
        return seen

    for a, b in add(opp, history.session_opponents, _SESSION_PAIR, _SESSION_TIMES):
        unmet[a] &= ~(1 << b)
        unmet[b] &= ~(1 << a)
    fresh = list(unmet)
    for a, b in add(opp, history.season_opponents, _SEASON_PAIR, _SEASON_TIMES):
        fresh[a] &= ~(1 << b)
        fresh[b] &= ~(1 << a)
    unpartnered = [everyone & ~(1 << i) for i in range(n)]
    for a, b in add(part, history.session_partners, _PARTNER_PAIR, _PARTNER_TIMES):
        unpartnered[a] &= ~(1 << b)
        unpartnered[b] &= ~(1 << a)
    sizes = table_sizes(n, mode)
    shape = _Shape(fours=sizes.count(4), threes=sizes.count(3), twos=sizes.count(2))
    threes = [history.three_table_counts.get(pid, 0) for pid in ids]
    return _Problem(
        n=n,
        shape=shape,
        unmet=unmet,
        fresh=fresh,
        unpartnered=unpartnered,
        threes=threes,
        opp=opp,
        part=part,
    )


def _fair_triples(threes: list[int], rng: Chance) -> Iterator[tuple[int, int, int]]:
    """Every fair 3-table (players with the fewest 3-table seats), in a random order."""
    level = sorted(threes)[2]
    forced = tuple(i for i, times in enumerate(threes) if times < level)
    ties = [i for i, times in enumerate(threes) if times == level]
    rng.shuffle(ties)
    for chosen in combinations(ties, 3 - len(forced)):
        yield forced + chosen  # type: ignore[misc]


def _triangle_ok(adj: list[int], triple: tuple[int, ...]) -> bool:
    a, b, c = triple
    return bool(adj[a] >> b & 1 and adj[a] >> c & 1 and adj[b] >> c & 1)


def _lower_bound(problem: _Problem, allowed: list[int]) -> tuple[int, list[int]]:
    """Half the sum over players of their cheapest allowed opponent: no round costs less
    (every player has at least one opponent, and an opponent pair is shared by two)."""
    cheapest = [
        min((problem.opp[i][j] for j in _members(allowed[i])), default=0) for i in range(problem.n)
    ]
    return (sum(cheapest) + 1) // 2, cheapest
