"""Qualifying pairings: one round of two-player games for a tournament's entrants, with a bye.

Terms:
- *entrant*: a player in the qualifying, an int (a player id). Every entrant plays every round.
- *met*: how often two entrants have played each other in earlier rounds, keyed by the sorted
  pair ``(low, high)`` (either order is read the same); a pair missing (or at 0) never met.
- *repeat*: a table of this round whose two players met before. A round has the fewest there
  can be for its bye: a largest set of tables of unmet pairs is found (exactly: a maximum
  matching), and only the players left over repeat. So whenever a repeat-free round exists for
  the bye, it is found; for an odd count, the byes tried are every candidate up to
  ``EXACT_LIMIT`` players at tables and ``BYE_TRIES`` of them above.
- *bye*: ACC play has no three-player tables, so with an odd count one entrant sits out the
  round. It goes to an entrant with the fewest byes so far (so over a qualifying byes differ by
  at most one), chosen at random among them, preferring one whose absence leaves the fewest
  repeats.
- *cost*: how a set of tables is judged, lowest best: ``(repeats, meetings)``, where *meetings*
  sums the earlier games of the pairs seated. Up to ``EXACT_LIMIT`` players at tables the cost
  itself is the least there is, so repeats fall on the pairs that met least; above it the
  leftover players sit with the one they met least, in turn.

The module is pure Python (no Django) and deterministic: ``random.Random(seed)`` is its one
source of chance and every search is bounded by counts, never by the clock, so the same seed,
entrants (in any order), meetings and byes always give the same pairing.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

EXACT_LIMIT = 14  # players at tables; a bitmask search over 14 is a few thousand states
BYE_TRIES = 8  # bye candidates tried above EXACT_LIMIT, when no bye leaves a repeat-free round
_PROBES = 6  # random looks for an unmet free partner before scanning them all

Table = tuple[int, int]
Cost = tuple[int, int]


class PairingError(ValueError):
    """The entrants cannot be paired: fewer than two, or one listed twice."""


@dataclass(frozen=True)
class Pairing:
    """One round: ``tables`` in table order (each pair sorted low, high), the ``bye`` (None when
    the count is even), how many tables are ``repeats``, and the ``seed`` that drew it."""

    tables: tuple[Table, ...]
    bye: int | None
    repeats: int
    seed: int


def pair_round(
    *,
    entrants: Sequence[int],
    met: Mapping[tuple[int, int], int],
    byes: Mapping[int, int],
    seed: int,
) -> Pairing:
    """Pair the entrants for one round. ``met`` maps a sorted pair to its earlier games together
    (pairs of non-entrants are ignored); ``byes`` maps an entrant to the byes already had (a
    missing entrant has had none). Raises PairingError for fewer than two or duplicate entrants.
    """
    players = sorted(entrants)
    if len(players) < 2:
        raise PairingError("A round needs at least two entrants.")
    twice = sorted({a for a, b in zip(players, players[1:], strict=False) if a == b})
    if twice:
        raise PairingError(f"Each entrant is listed once; listed twice: {twice}.")
    rng = random.Random(seed)
    meetings = _meetings(players, met)

    if len(players) % 2 == 0:
        tables, _ = _solve(players, meetings, rng)
        bye = None
    else:
        fewest = min(byes.get(p, 0) for p in players)
        candidates = [p for p in players if byes.get(p, 0) == fewest]
        rng.shuffle(candidates)  # the first tried of the best is a fair draw among them
        if len(players) - 1 > EXACT_LIMIT:
            candidates = candidates[:BYE_TRIES]
        best: tuple[Cost, list[Table], int] | None = None
        for candidate in candidates:
            pool = [p for p in players if p != candidate]
            found, cost = _solve(pool, meetings, rng)
            if best is None or cost < best[0]:
                best = (cost, found, candidate)
            if cost == (0, 0):
                break
        assert best is not None
        _, tables, bye = best

    # Table numbers say nothing about who sits there: shuffled after the search.
    rng.shuffle(tables)
    seated = tuple((a, b) if a < b else (b, a) for a, b in tables)
    repeats = sum(1 for a, b in seated if meetings[a].get(b, 0))
    return Pairing(tables=seated, bye=bye, repeats=repeats, seed=seed)


def _meetings(players: list[int], met: Mapping[tuple[int, int], int]) -> dict[int, dict[int, int]]:
    """Each entrant's earlier opponents among the entrants, with how often they met."""
    meetings: dict[int, dict[int, int]] = {p: {} for p in players}
    for (a, b), count in met.items():
        if count > 0 and a in meetings and b in meetings:
            meetings[a][b] = meetings[b][a] = count
    return meetings


def _cost(tables: list[Table], meetings: dict[int, dict[int, int]]) -> Cost:
    counts = [meetings[a].get(b, 0) for a, b in tables]
    return (sum(1 for c in counts if c), sum(counts))


def _solve(
    pool: list[int], meetings: dict[int, dict[int, int]], rng: random.Random
) -> tuple[list[Table], Cost]:
    """The tables for an even ``pool`` and their cost."""
    tables = (
        _exact(pool, meetings, rng) if len(pool) <= EXACT_LIMIT else _matching(pool, meetings, rng)
    )
    return tables, _cost(tables, meetings)


def _exact(pool: list[int], meetings: dict[int, dict[int, int]], rng: random.Random) -> list[Table]:
    """The cheapest tables, by a search over the sets of players still to seat: the lowest
    player of a set sits with each of the others in turn, and the rest is solved once per set.
    The players are shuffled first, so the seed decides among equally cheap pairings."""
    order = pool[:]
    rng.shuffle(order)
    n = len(order)
    big = n * n * 1000  # one repeat outweighs any sum of meetings
    price = [[(big + m) if (m := meetings[a].get(b, 0)) else 0 for b in order] for a in order]

    @cache
    def best(mask: int) -> tuple[int, tuple[Table, ...]]:
        if not mask:
            return 0, ()
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        found: tuple[int, tuple[Table, ...]] | None = None
        others = rest
        while others:
            bit = others & -others
            others ^= bit
            j = bit.bit_length() - 1
            cost, tail = best(rest & ~bit)
            cost += price[i][j]
            if found is None or cost < found[0]:
                found = (cost, ((i, j), *tail))
        assert found is not None
        return found

    _, pairs = best((1 << n) - 1)
    return [(order[i], order[j]) for i, j in pairs]


def _matching(
    pool: list[int], meetings: dict[int, dict[int, int]], rng: random.Random
) -> list[Table]:
    """Tables with the fewest repeats, by a maximum matching over the unmet pairs.

    In a random order, each player still free sits with a random free player they have not met;
    one left with none is *stuck*. Each stuck player then looks for an augmenting path (Edmonds'
    blossom search): stuck x, a table (a, b) with x and a unmet, b and a stuck y unmet, becomes
    (x, a) and (b, y), and so on through longer chains. When no path is left the unmet tables
    are as many as any round can have; the players still stuck sit with each other, each with
    the one left they met least.
    """
    order = pool[:]
    rng.shuffle(order)
    n = len(order)
    mate = [-1] * n
    free = list(range(n))
    where = list(range(n))  # a free player's place in ``free``

    def take(i: int) -> None:
        last = free.pop()
        if last != i:
            free[where[i]] = last
            where[last] = where[i]

    seen = [meetings[p] for p in order]
    stuck = []
    for i in range(n):
        if mate[i] != -1:
            continue
        take(i)
        j = _unmet_free(order, seen[i], free, rng)
        if j is None:
            stuck.append(i)
        else:
            take(j)
            mate[i], mate[j] = j, i

    if stuck:
        unmet: list[list[int] | None] = [None] * n

        def partners(i: int) -> list[int]:
            found = unmet[i]
            if found is None:
                found = unmet[i] = [j for j in range(n) if j != i and order[j] not in seen[i]]
            return found

        for i in stuck:
            if mate[i] == -1:
                _augment(i, partners, mate)
        left = [i for i in stuck if mate[i] == -1]
        while left:
            i = left.pop()
            j = min(left, key=lambda j: seen[i][order[j]])
            left.remove(j)
            mate[i], mate[j] = j, i
    return [(order[i], order[mate[i]]) for i in range(n) if i < mate[i]]


def _unmet_free(
    order: list[int], seen: dict[int, int], free: list[int], rng: random.Random
) -> int | None:
    """A random free player (by index) not in ``seen``, or None when there is none."""
    if not free:
        return None
    # Early in a qualifying nearly everyone is unmet: a few random looks find one cheaply.
    for _ in range(_PROBES):
        j = free[rng.randrange(len(free))]
        if order[j] not in seen:
            return j
    unmet = [j for j in free if order[j] not in seen]
    return rng.choice(unmet) if unmet else None


def _augment(root: int, partners: Callable[[int], list[int]], mate: list[int]) -> bool:
    """Edmonds' blossom search: seat ``root`` by an augmenting path over unmet pairs, changing
    ``mate`` along it; False when there is none. A player without such a path never gains one
    as the matching grows, so each stuck player is tried once. A *blossom* is an odd cycle of
    the search; its players share one ``base`` and are searched as one."""
    n = len(mate)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        path = [False] * n
        while True:
            a = base[a]
            path[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while not path[base[b]]:
            b = parent[mate[base[b]]]
        return base[b]

    def mark(v: int, top: int, child: int, inside: list[bool]) -> None:
        while base[v] != top:
            inside[base[v]] = inside[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in partners(v):
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                top = common_base(v, to)
                inside = [False] * n
                mark(v, top, to, inside)
                mark(to, top, v, inside)
                for i in range(n):
                    if inside[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:
                        v, after = parent[to], mate[parent[to]]
                        mate[to], mate[v] = v, to
                        to = after
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False
