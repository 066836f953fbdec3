"""Helpers of the draw's tests (not a test module): the exact check of whether a round could have
been drawn with no session repeat, written independently of the draw's own searches.

Terms:
- *legal seating*: a split of the round's entrants into ``table_sizes`` tables (partners tables
  in one of their three pairings) whose 3-player table is fair (``drawing.is_fair``: nobody
  there has sat at the 3-player table more often this session than an entrant who is not).
- *repeat-free*: no two players seated as opponents met as opponents earlier this session.
  Partners are not opponents of each other; each is an opponent of both players of the other
  side, so a partners table ``(p, a, x, b)`` needs p-a, p-b, x-a and x-b unmet.
- *avoidable repeat*: a drawn round with a session repeat although some legal seating of that
  round, given the session's earlier rounds, is repeat-free. Only this round counts: no
  foresight over later rounds is asked for.

Singles is decided by Tutte's theorem (a graph has a perfect matching exactly when its Tutte
matrix is non-singular; with random values modulo a large prime a non-zero determinant proves
one exists, and a zero one is wrong with probability below n / prime per try); partners by
backtracking over the lowest remaining player with a memo of the player sets that cannot be
seated.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from games.draw import DrawHistory, table_sizes

_PRIME = (1 << 61) - 1  # a Mersenne prime
_TRIES = 3


def _met(history: DrawHistory):
    met = history.session_opponents

    def unmet(a: int, b: int) -> bool:
        return frozenset((a, b)) not in met

    return unmet


def fair_triples(players: Sequence[int], history: DrawHistory) -> list[tuple[int, int, int]]:
    """Every 3-player table that keeps the rule: its players' 3-table counts are at most the
    lowest count of everyone outside it."""
    counts = history.three_table_counts
    result = []
    for triple in combinations(sorted(players), 3):
        inside = max(counts.get(pid, 0) for pid in triple)
        outside = [counts.get(pid, 0) for pid in players if pid not in triple]
        if not outside or inside <= min(outside):
            result.append(triple)
    return result


def _determinant_mod(matrix: list[list[int]]) -> int:
    n, det = len(matrix), 1
    rows = [list(row) for row in matrix]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col]), None)
        if pivot is None:
            return 0
        if pivot != col:
            rows[col], rows[pivot] = rows[pivot], rows[col]
            det = -det
        det = det * rows[col][col] % _PRIME
        inverse = pow(rows[col][col], _PRIME - 2, _PRIME)
        for r in range(col + 1, n):
            factor = rows[r][col] * inverse % _PRIME
            if factor:
                pivot_row = rows[col]
                rows[r] = [
                    (x - factor * y) % _PRIME for x, y in zip(rows[r], pivot_row, strict=True)
                ]
    return det % _PRIME


def has_perfect_matching(players: Sequence[int], unmet) -> bool:
    """Whether the players can all sit at 2-player tables of unmet pairs (Tutte's theorem)."""
    players = list(players)
    n = len(players)
    if n % 2:
        return False
    if n == 0:
        return True
    rng = random.Random(n * 7919 + sum(players))
    for _ in range(_TRIES):
        tutte = [[0] * n for _ in range(n)]
        for i, j in combinations(range(n), 2):
            if unmet(players[i], players[j]):
                value = rng.randrange(1, _PRIME)
                tutte[i][j], tutte[j][i] = value, _PRIME - value
        if _determinant_mod(tutte):
            return True
    return False


def _singles(players: list[int], history: DrawHistory) -> bool:
    unmet = _met(history)
    if len(players) % 2 == 0:
        return has_perfect_matching(players, unmet)
    for triple in fair_triples(players, history):
        a, b, c = triple
        if unmet(a, b) and unmet(a, c) and unmet(b, c):
            rest = [pid for pid in players if pid not in triple]
            if has_perfect_matching(rest, unmet):
                return True
    return False


def _partners(players: list[int], history: DrawHistory) -> bool:
    unmet = _met(history)
    sizes = table_sizes(len(players), "partners")
    fours, twos = sizes.count(4), sizes.count(2)

    @cache
    def seat(rest: frozenset[int], fours: int, twos: int) -> bool:
        if not rest:
            return True
        first = min(rest)
        others = sorted(rest - {first})
        if twos:
            for other in others:
                if unmet(first, other) and seat(rest - {first, other}, fours, twos - 1):
                    return True
        if fours:
            for trio in combinations(others, 3):
                left = rest - {first, *trio}
                for x in trio:  # x partners first; the other two are the other side
                    a, b = (pid for pid in trio if pid != x)
                    crosses = ((first, a), (first, b), (x, a), (x, b))
                    if all(unmet(p, q) for p, q in crosses) and seat(left, fours - 1, twos):
                        return True
        return False

    if 3 not in sizes:
        return seat(frozenset(players), fours, twos)
    for triple in fair_triples(players, history):
        a, b, c = triple
        rest = frozenset(players) - set(triple)
        if unmet(a, b) and unmet(a, c) and unmet(b, c) and seat(rest, fours, twos):
            return True
    return False


def repeat_free_round_exists(players: Sequence[int], mode: str, history: DrawHistory) -> bool:
    """Whether some legal seating of this round has no session repeat."""
    players = sorted(players)
    if mode == "singles":
        return _singles(players, history)
    return _partners(players, history)


def avoidable_repeats(draws, players: Sequence[int]) -> list[int]:
    """The 1-based numbers of the rounds of a session (``drawing.play_session``) that have a
    session repeat although a repeat-free legal seating of that round existed."""
    rounds = []
    for number, draw in enumerate(draws, start=1):
        if draw.session_repeats and repeat_free_round_exists(players, draw.mode, draw.history):
            rounds.append(number)
    return rounds
