"""Helpers of the draw's tests (not a test module): whole sessions drawn round after round, the
key a draw minimises computed from the public history, and brute force over every draw of a small
round.

Terms: a *session* here is ``ROUNDS`` rounds drawn one after another, each with the history of
the rounds before it and ``rounds_remaining`` counting down to 1; the *key* of a draw is the order
the draw minimises: (session repeats, their earlier meetings, partner repeats, their earlier
partnerships, season repeats, their season meetings). *Brute force* enumerates every fair draw
of a small round (``all_rounds``) to know the best key there is.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations

from games.draw import Draw, DrawHistory, DrawTable, draw_round, table_sizes

ROUNDS = 6
MODES = ("singles", "partners")


def play_session(
    players: Sequence[int],
    *,
    mode: str,
    seed: int,
    rounds: int = ROUNDS,
    lookahead: bool = True,
    history: DrawHistory | None = None,
) -> list[Draw]:
    """Draw ``rounds`` rounds in a row, each against the history of the ones before."""
    history = history or DrawHistory()
    draws = []
    for number in range(rounds):
        draw = draw_round(
            entrants=players,
            mode=mode,
            seed=seed * 1000 + number,
            history=history,
            rounds_remaining=rounds - number if lookahead else 1,
        )
        draws.append(draw)
        history = history.with_round(draw)
    return draws


def seatings(draw: Draw) -> list[tuple[int, ...]]:
    return [table.seats for table in draw.tables]


def round_key(tables: Sequence[Sequence[int]], history: DrawHistory) -> tuple[int, ...]:
    """What the draw minimises, in order; computed here from the public history only."""
    key = [0] * 6
    for seats in tables:
        table = DrawTable(number=1, seats=tuple(seats))
        for pair in table.opponents():
            times = history.session_opponents.get(pair, 0)
            key[0] += times > 0
            key[1] += times
            times = history.season_opponents.get(pair, 0)
            key[4] += times > 0
            key[5] += times
        for pair in table.partners():
            times = history.session_partners.get(pair, 0)
            key[2] += times > 0
            key[3] += times
    return tuple(key)


def is_fair(tables: Sequence[Sequence[int]], history: DrawHistory) -> bool:
    """Nobody at the 3-table has sat there more often than an entrant who is not there."""
    counts = history.three_table_counts
    threes = [seats for seats in tables if len(seats) == 3]
    if not threes:
        return True
    inside = [counts.get(pid, 0) for pid in threes[0]]
    outside = [counts.get(pid, 0) for seats in tables if len(seats) != 3 for pid in seats]
    return not outside or max(inside) <= min(outside)


def all_rounds(players: Sequence[int], mode: str) -> Iterator[list[tuple[int, ...]]]:
    """Every draw of the round (every split into the table sizes, every way to pair a partners
    table; seat order otherwise ignored), fair or not."""
    sizes = table_sizes(len(players), mode)

    def split(rest: list[int], left: list[int]) -> Iterator[list[tuple[int, ...]]]:
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for size in sorted(set(left)):
            remaining_sizes = list(left)
            remaining_sizes.remove(size)
            for mates in combinations(others, size - 1):
                if size == 4:
                    a, b, c = mates
                    arrangements = [(first, a, b, c), (first, b, a, c), (first, a, c, b)]
                else:
                    arrangements = [(first, *mates)]
                remaining = [pid for pid in others if pid not in mates]
                for seats in arrangements:
                    for tail in split(remaining, remaining_sizes):
                        yield [seats, *tail]

    yield from split(sorted(players), sizes)


def best_key(players: Sequence[int], mode: str, history: DrawHistory) -> tuple[int, ...]:
    return min(
        round_key(tables, history)
        for tables in all_rounds(players, mode)
        if is_fair(tables, history)
    )


def random_history(players: Sequence[int], rng: random.Random) -> DrawHistory:
    """Earlier meetings of a random density, as a session part-way through might have."""
    met = rng.choice((0.15, 0.35, 0.55, 0.75))
    pairs = [frozenset(pair) for pair in combinations(players, 2)]
    return DrawHistory(
        session_opponents={pair: rng.randint(1, 2) for pair in pairs if rng.random() < met},
        season_opponents={pair: rng.randint(1, 4) for pair in pairs if rng.random() < 0.5},
        session_partners={pair: 1 for pair in pairs if rng.random() < 0.2},
        three_table_counts={pid: rng.randint(0, 1) for pid in players},
    )


def unmet_graph_has_perfect_matching(players: Sequence[int], history: DrawHistory) -> bool:
    def match(rest: tuple[int, ...]) -> bool:
        if not rest:
            return True
        first = rest[0]
        return any(
            match(tuple(pid for pid in rest[1:] if pid != other))
            for other in rest[1:]
            if frozenset((first, other)) not in history.session_opponents
        )

    return match(tuple(sorted(players)))
