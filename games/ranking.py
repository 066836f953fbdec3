"""The ranking order of every standings table, declared once. Pure Python, standard library only.

Terms (docs/spec.md, "Standings"; the ACC's order):
- precedence: what ranks players, most important first: game points, then games won, then
  spread; more is better in each. `PRECEDENCE` is the one place it is written: session
  standings, the season and all-time tables and settling (which pays by the session's ranks)
  rank through `rank`; the running rank on a player's page asks `rank_of` for one row's.
- rank: a competition rank, 1 = best. Players level on every measure of the precedence share a
  rank and the next rank skips ("1, T-2, T-2, 4"); `tied` says a rank is shared ("T-2").
- name: only orders players who share a rank, so a table lists them alphabetically; it never
  changes a rank.

A row is a mapping (or an object) with the precedence's measures under those names.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

PRECEDENCE: tuple[str, ...] = ("game_points", "won", "spread")

Row = TypeVar("Row")


def measures(row: object) -> tuple[int, ...]:
    """The row's measures in precedence order (a mapping's items or an object's attributes)."""
    if isinstance(row, Mapping):
        return tuple(row[name] for name in PRECEDENCE)
    return tuple(getattr(row, name) for name in PRECEDENCE)


@dataclass(frozen=True)
class Ranked(Generic[Row]):
    row: Row
    rank: int
    tied: bool

    @property
    def label(self) -> str:
        return f"T-{self.rank}" if self.tied else str(self.rank)


def rank(rows: Iterable[Row], *, name: Callable[[Row], str] | None = None) -> list[Ranked[Row]]:
    """The rows best first by the precedence (then by `name`, case-insensitive), each with its
    shared competition rank."""
    rows = list(rows)
    keys = [measures(row) for row in rows]
    names = [name(row).lower() if name else "" for row in rows]
    order = sorted(range(len(rows)), key=lambda i: (tuple(-v for v in keys[i]), names[i]))
    ranks: list[int] = []
    for position, index in enumerate(order):
        if position and keys[index] == keys[order[position - 1]]:
            ranks.append(ranks[-1])
        else:
            ranks.append(position + 1)
    counts = Counter(ranks)
    return [
        Ranked(row=rows[index], rank=r, tied=counts[r] > 1)
        for index, r in zip(order, ranks, strict=True)
    ]


def ranks_of(rows: Sequence[object]) -> list[int]:
    """The rank `rank` gives each of `rows`, in their order, without ordering the rows: one
    more than the rows strictly ahead of it on the precedence."""
    keys = [measures(row) for row in rows]
    ordered = sorted(keys)
    return [1 + len(ordered) - bisect_right(ordered, key) for key in keys]
