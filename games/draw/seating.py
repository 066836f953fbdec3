"""Seating a chosen round: table numbers, seats within each table, and the drawn round with
its repeats counted.

Terms: tables are numbered in ``table_sizes`` order (partners tables, then the three, then the
twos), in a random order among tables of one size; seats are random within a table, and a
partners table keeps its partners opposite.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.draw.budgets import Chance
from games.draw.types import Draw, DrawHistory, DrawTable, table_sizes


def _seat(
    groups: Sequence[tuple[int, ...]], ids: list[int], mode: str, rng: Chance
) -> list[tuple[int, ...]]:
    """Table numbers in ``table_sizes`` order, random among tables of one size; random seats
    within each table (a partners table keeps its partners opposite)."""
    by_size: dict[int, list[tuple[int, ...]]] = {4: [], 3: [], 2: []}
    for group in groups:
        by_size[len(group)].append(group)
    tables = []
    for size in dict.fromkeys(table_sizes(len(ids), mode)):
        rng.shuffle(by_size[size])
        for group in by_size[size]:
            seats = list(group)
            if size == 4:
                turn = rng.below(4)
                seats = seats[turn:] + seats[:turn]
                if rng.random() < 0.5:
                    seats = [seats[0], seats[3], seats[2], seats[1]]
            else:
                rng.shuffle(seats)
            tables.append(tuple(ids[i] for i in seats))
    return tables


def _make_draw(
    *, seed: int, mode: str, seatings: Sequence[tuple[int, ...]], history: DrawHistory
) -> Draw:
    tables = tuple(
        DrawTable(number=number, seats=seats) for number, seats in enumerate(seatings, start=1)
    )
    session = season = partners = 0
    for table in tables:
        for pair in table.opponents():
            session += pair in history.session_opponents
            season += pair in history.season_opponents
        for pair in table.partners():
            partners += pair in history.session_partners
    return Draw(
        seed=seed,
        mode=mode,
        tables=tables,
        session_repeats=session,
        season_repeats=season,
        partner_repeats=partners,
        history=history,
    )
