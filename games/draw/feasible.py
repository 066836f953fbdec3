"""Exact search for one repeat-free round: the draw's guarantee that it never repeats an
opponent in a round that could have been drawn without one.

Terms:
- *repeat-free round*: a fair round (see ``problem``) whose opponent pairs all have not met
  this session; partners need not be unmet (they are not opponents).
- *matching*: 2-player tables of unmet pairs; a *perfect* one seats everyone. Singles rounds
  are decided by Edmonds' blossom algorithm (the maximum matching of a general graph, as
  Tabbycat's two-team draws use through networkx), which is exact and takes polynomial time.
- *cover*: partners rounds (4-cycles of unmet pairs: the player, two unmet opponents and a
  partner who has met neither of them; then the 3- and 2-player tables) by depth-first search
  that seats the most constrained player first, with a memo of the player sets proven
  impossible to seat. Exhaustive within ``_EXACT_STEPS`` (far more than any round of up to 24
  partners players needs).
The planner's budgeted searches find a repeat-free round almost always; this is the fallback
when they did not, so that "none was found" means "none exists".
"""

from __future__ import annotations

from games.draw.budgets import _EXACT_STEPS, Chance, _OutOfSteps, _Steps
from games.draw.problem import _fair_triples, _members, _Problem, _triangle_ok


def _blossom(n: int, neighbours: list[list[int]], match: list[int], roots: list[int]) -> None:
    """Edmonds' blossom algorithm: grow ``match`` (``match[v]`` is v's mate or -1) to a maximum
    matching by an augmenting path from each unmatched vertex of ``roots`` in turn."""
    base, parent, in_blossom = list(range(n)), [-1] * n, [False] * n

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, stem: int, child: int) -> None:
        while base[v] != stem:
            in_blossom[base[v]] = in_blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    def augmenting_end(root: int) -> int:
        used = [False] * n
        parent[:] = [-1] * n
        base[:] = range(n)
        used[root] = True
        queue, head = [root], 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in neighbours[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    stem = common_base(v, to)
                    in_blossom[:] = [False] * n
                    mark(v, stem, to)
                    mark(to, stem, v)
                    for i in range(n):
                        if in_blossom[base[i]]:
                            base[i] = stem
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return to
                    used[match[to]] = True
                    queue.append(match[to])
        return -1

    for root in roots:
        if match[root] != -1:
            continue
        v = augmenting_end(root)
        while v != -1:
            mate = parent[v]
            after = match[mate]
            match[v], match[mate] = mate, v
            v = after


def _perfect_matching(
    adj: list[int], free: int, rng: Chance, start: list[int] | None = None
) -> list[int] | None:
    """A perfect matching of the players of ``free`` by unmet pairs (``match`` list), or None
    when there is none. ``start`` is a matching to grow (its pairs outside ``free`` dropped)."""
    players = _members(free)
    rng.shuffle(players)
    n = len(adj)
    neighbours = [[] for _ in range(n)]
    for i in players:
        neighbours[i] = _members(adj[i] & free)
        rng.shuffle(neighbours[i])
    match = [-1] * n
    if start is not None:
        for i in players:
            mate = start[i]
            if mate != -1 and free >> mate & 1:
                match[i] = mate
    for i in players:  # a greedy start: most of the matching without a search
        if match[i] == -1:
            for j in neighbours[i]:
                if match[j] == -1:
                    match[i], match[j] = j, i
                    break
    _blossom(n, neighbours, match, players)
    if any(match[i] == -1 for i in players):
        return None
    return match


def _singles_round(problem: _Problem, rng: Chance) -> tuple[tuple[int, ...], ...] | None:
    adj, everyone = problem.unmet, (1 << problem.n) - 1
    if not problem.shape.threes:
        match = _perfect_matching(adj, everyone, rng)
        triples: list[tuple[int, ...]] = [()]
    else:
        # Grow one maximum matching of everyone into a perfect one of each candidate's rest.
        match = [-1] * problem.n
        _blossom(problem.n, [_members(mask) for mask in adj], match, list(range(problem.n)))
        triples = [t for t in _fair_triples(problem.threes, rng) if _triangle_ok(adj, t)]
        found, steps = None, _Steps(_EXACT_STEPS)
        for triple in triples:
            if steps.left < problem.n**2:
                return None
            steps.left -= problem.n**2  # about what one search of a dense round costs
            free = everyone & ~sum(1 << i for i in triple)
            found = _perfect_matching(adj, free, rng, match)
            if found is not None:
                triples = [triple]
                break
        match = found
    if match is None:
        return None
    pairs = [(i, j) for i, j in enumerate(match) if i < j]
    return tuple([triples[0]] if triples[0] else []) + tuple(pairs)


def _cover(
    problem: _Problem, free: int, fours: int, twos: int, rng: Chance, steps: _Steps, memo: set
) -> list[tuple[int, ...]] | None:
    """Tables for the players of ``free``: ``fours`` partners tables and ``twos`` twos, every
    opponent pair unmet; None when there is none (remembered in ``memo``)."""
    if not free:
        return []
    if (free, twos) in memo:
        return None
    steps.spend()
    adj = problem.unmet
    player, degree = -1, 1 << 30
    for i in _members(free):
        d = (adj[i] & free).bit_count()
        if d < degree:
            player, degree = i, d
    if degree == 0 or (degree == 1 and not twos):
        memo.add((free, twos))
        return None
    rest = free & ~(1 << player)
    neighbours = _members(adj[player] & rest)
    rng.shuffle(neighbours)
    options: list[tuple[int, ...]] = []
    if twos:
        options += [(player, other) for other in neighbours]
    if fours:
        for k, a in enumerate(neighbours):
            for b in neighbours[k + 1 :]:
                for x in _members(adj[a] & adj[b] & rest & ~((1 << a) | (1 << b))):
                    options.append((player, a, x, b))
    if twos and fours and rng.random() < 0.5:
        options.reverse()
    for group in options:
        left = rest
        for i in group:
            left &= ~(1 << i)
        tail = _cover(
            problem, left, fours - (len(group) == 4), twos - (len(group) == 2), rng, steps, memo
        )
        if tail is not None:
            return [group, *tail]
    memo.add((free, twos))
    return None


def _partners_round(problem: _Problem, rng: Chance) -> tuple[tuple[int, ...], ...] | None:
    shape, everyone = problem.shape, (1 << problem.n) - 1
    steps, memo = _Steps(_EXACT_STEPS), set()
    triples: list[tuple[int, ...]] = [()]
    if shape.threes:
        triples = [t for t in _fair_triples(problem.threes, rng) if _triangle_ok(problem.unmet, t)]
    try:
        for triple in triples:
            free = everyone & ~sum(1 << i for i in triple)
            tables = _cover(problem, free, shape.fours, shape.twos, rng, steps, memo)
            if tables is not None:
                return tuple([triple] if triple else []) + tuple(tables)
    except _OutOfSteps:
        pass
    return None


def _exact_round(problem: _Problem, rng: Chance) -> tuple[tuple[int, ...], ...] | None:
    """A fair repeat-free round if there is one (found by an exact search), else None."""
    if problem.shape.fours:
        return _partners_round(problem, rng)
    return _singles_round(problem, rng)
