"""The draw's public values: tables, the history a draw avoids, a drawn round, the table sizes.

Terms:
- *entrant*: a player id (an int) to seat; *mode*: ``"singles"`` or ``"partners"``.
- *table kinds*: ``"two"``, ``"three"`` (cut-throat) and ``"partners"`` (four players, seats
  0 & 2 against 1 & 3); *opponents*: two players at one table on different sides; *partners*:
  seats 0 & 2 or 1 & 3.
- *history*: earlier meetings this session and this season, and who sat at the 3-player table
  (see ``DrawHistory``); *repeats*: opponent (or partner) pairs of a draw that met before.

Every value here is a frozen dataclass and every check raises ``DrawError`` with a message that
says what to do instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

MODES: tuple[str, ...] = ("singles", "partners")
TABLE_KINDS: dict[int, str] = {2: "two", 3: "three", 4: "partners"}


class DrawError(ValueError):
    """A draw that cannot be made as asked; the message says what to do instead."""


def _pair_key(pair: object) -> frozenset[int]:
    try:
        key = frozenset(pair)  # type: ignore[arg-type]
    except TypeError:
        key = frozenset()
    if len(key) != 2 or not all(isinstance(pid, int) for pid in key):
        raise DrawError(f"A history pair must be two different player ids, not {pair!r}.")
    return key


def _counts(mapping: Mapping[object, int], *, pairs: bool) -> dict:
    result: dict = {}
    for key, times in mapping.items():
        if not isinstance(times, int) or times < 0:
            raise DrawError(f"A history count must be a whole number >= 0, not {times!r}.")
        if pairs:
            key = _pair_key(key)
        elif not isinstance(key, int):
            raise DrawError(f"A 3-table count must be keyed by a player id, not {key!r}.")
        if times:
            result[key] = result.get(key, 0) + times
    return result


@dataclass(frozen=True)
class DrawTable:
    """One table of a draw: its 1-based number and the player ids in seat order."""

    number: int
    seats: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if len(self.seats) not in TABLE_KINDS or len(set(self.seats)) != len(self.seats):
            raise DrawError(f"A table seats 2, 3 or 4 different players, not {self.seats!r}.")

    @property
    def kind(self) -> str:
        """``"two"``, ``"three"`` or ``"partners"``."""
        return TABLE_KINDS[len(self.seats)]

    def opponents(self) -> list[frozenset[int]]:
        """The opponent pairs: 1 at a two, 3 at a three, the 4 cross pairs at a partners table."""
        seats = self.seats
        if len(seats) == 4:
            return [frozenset((seats[i], seats[(i + 1) % 4])) for i in range(4)]
        return [frozenset(pair) for pair in combinations(seats, 2)]

    def partners(self) -> list[frozenset[int]]:
        """The partner pairs (seats 0 & 2 and 1 & 3); none at a two or a three."""
        seats = self.seats
        if len(seats) == 4:
            return [frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))]
        return []

    def sides(self) -> list[tuple[int, ...]]:
        """Who scores together: one side per player, or ``[(s0, s2), (s1, s3)]`` at partners."""
        seats = self.seats
        if len(seats) == 4:
            return [(seats[0], seats[2]), (seats[1], seats[3])]
        return [(pid,) for pid in seats]


RoundTables = Iterable["DrawTable | Sequence[int]"]


def _as_tables(round_: Draw | RoundTables) -> list[DrawTable]:
    items = round_.tables if isinstance(round_, Draw) else round_
    return [
        item if isinstance(item, DrawTable) else DrawTable(number=number, seats=tuple(item))
        for number, item in enumerate(items, start=1)
    ]


@dataclass(frozen=True)
class DrawHistory:
    """What the draw avoids: earlier meetings this session and this season.

    Pair keys are normalised to ``frozenset`` of two ids (any two-element iterable is accepted);
    zero counts are dropped. Ids of players who are not entrants of the round are ignored.
    """

    session_opponents: Mapping[frozenset[int], int] = field(default_factory=dict)
    season_opponents: Mapping[frozenset[int], int] = field(default_factory=dict)
    three_table_counts: Mapping[int, int] = field(default_factory=dict)
    session_partners: Mapping[frozenset[int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("session_opponents", "season_opponents", "session_partners"):
            object.__setattr__(self, name, _counts(getattr(self, name), pairs=True))
        object.__setattr__(
            self, "three_table_counts", _counts(self.three_table_counts, pairs=False)
        )

    @classmethod
    def from_rounds(
        cls,
        session_rounds: Iterable[Draw | RoundTables] = (),
        season_rounds: Iterable[Draw | RoundTables] = (),
    ) -> DrawHistory:
        """Build the history from earlier rounds of this session and of earlier sessions.

        A round is a ``Draw`` or a list of tables, each a ``DrawTable`` or a tuple of ids in
        seat order (4 ids: seats 0 & 2 are partners against 1 & 3).
        """
        season: dict[frozenset[int], int] = {}
        for round_ in season_rounds:
            for table in _as_tables(round_):
                for pair in table.opponents():
                    season[pair] = season.get(pair, 0) + 1
        history = cls(season_opponents=season)
        for round_ in session_rounds:
            history = history.with_round(round_)
        return history

    def with_round(self, round_: Draw | RoundTables) -> DrawHistory:
        """This history plus one more round of the same session."""
        opponents = dict(self.session_opponents)
        partners = dict(self.session_partners)
        threes = dict(self.three_table_counts)
        for table in _as_tables(round_):
            for pair in table.opponents():
                opponents[pair] = opponents.get(pair, 0) + 1
            for pair in table.partners():
                partners[pair] = partners.get(pair, 0) + 1
            if len(table.seats) == 3:
                for pid in table.seats:
                    threes[pid] = threes.get(pid, 0) + 1
        return DrawHistory(
            session_opponents=opponents,
            season_opponents=self.season_opponents,
            three_table_counts=threes,
            session_partners=partners,
        )


@dataclass(frozen=True)
class Draw:
    """A drawn round. ``history`` is what it was drawn against (so a hand swap can recount)."""

    seed: int
    mode: str
    tables: tuple[DrawTable, ...]
    session_repeats: int
    season_repeats: int
    partner_repeats: int = 0
    history: DrawHistory = field(default_factory=DrawHistory, repr=False, compare=False)

    def table_of(self, player_id: int) -> DrawTable:
        """The table where ``player_id`` sits."""
        for table in self.tables:
            if player_id in table.seats:
                return table
        raise DrawError(f"Player {player_id} is not seated in this draw.")

    @property
    def players(self) -> list[int]:
        """Every seated player id, table by table in seat order."""
        return [pid for table in self.tables for pid in table.seats]


def _check_mode(mode: object) -> str:
    if mode not in MODES:
        raise DrawError(f"Unknown table mode {mode!r}: use 'singles' or 'partners'.")
    return mode  # type: ignore[return-value]


def _check_count(count: int) -> None:
    if count <= 0:
        raise DrawError(
            "No players are checked in: there is nothing to draw. Check in at least two players."
        )
    if count == 1:
        raise DrawError(
            "Only 1 player is checked in: there is nothing to draw. "
            "Check in at least one more player."
        )


def table_sizes(count: int, mode: str) -> list[int]:
    """The table sizes for ``count`` entrants, in table-number order.

    Singles: twos, then the three (if the count is odd). Partners: partners tables, then the
    three, then the two; ``count % 4`` of 1 gives one three and one two (5 -> [3, 2],
    9 -> [4, 3, 2]), 2 gives one two, 3 gives one three.
    """
    _check_mode(mode)
    _check_count(count)
    if mode == "singles":
        return [2] * (count // 2 - count % 2) + [3] * (count % 2)
    fours, rest = divmod(count, 4)
    tail = {0: [], 1: [3, 2], 2: [2], 3: [3]}[rest]
    if rest == 1:
        fours -= 1
    return [4] * fours + tail
