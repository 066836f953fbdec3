"""The bracket as a page draws it: the chart of the tournament's matches, for the bracket page
and the live board.

Terms:
- chart: columns (one per playoff round, the first on the left) of match cells top to bottom in
  the chart's order (`Match.position`). A bracket of TWO_SHEETS places or more prints on two
  sheets, so its chart is two halves (top and bottom), the final ending the second.
- cell: one match: its two sides, best of how many, its table while being played, whether it
  is a first-round bye, and the games won ("2–1") once it has started.
- side: one player's line in a cell: "(8) Ann Lee", "bye", or "to come" while the match that
  sends a player there is not decided.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.bracket import round_name
from tournaments.models import Match

# From this bracket size on, the chart prints on two sheets (a top and a bottom half).
TWO_SHEETS = 128


@dataclass(frozen=True)
class Side:
    name: str  # the player, or "bye" / "to come"
    seed: int | None
    wins: int
    is_winner: bool
    is_player: bool


@dataclass(frozen=True)
class Cell:
    number: int  # 1-based, top to bottom in its round
    top: Side
    bottom: Side
    best_of: int
    table: int | None
    is_bye: bool
    playing: bool  # seated at its table, not decided
    started: bool  # its score is worth showing

    @property
    def score(self) -> str:
        return f"{self.top.wins}–{self.bottom.wins}"


@dataclass(frozen=True)
class ChartColumn:
    name: str
    round_number: int
    best_of: int
    cells: list[Cell]


def side(match: Match, which: str, wins: int) -> Side:
    player = getattr(match, which)
    seed = getattr(match, f"{which}_seed")
    if player is None:
        return Side("bye" if match.is_bye else "to come", None, 0, False, False)
    return Side(player.display_name, seed, wins, match.winner_id == player.pk, True)


def cell(match: Match, score: tuple[int, int]) -> Cell:
    both = match.top_id is not None and match.bottom_id is not None
    return Cell(
        number=match.position + 1,
        top=side(match, "top", score[0]),
        bottom=side(match, "bottom", score[1]),
        best_of=match.best_of,
        table=match.table,
        is_bye=match.is_bye,
        playing=both and match.table is not None and match.winner_id is None,
        started=both and not match.is_bye and (match.table is not None or any(score)),
    )


def chart(rounds: dict[int, list[Match]], scores: dict[int, tuple[int, int]]) -> list[list]:
    """The bracket's halves (one, or two from TWO_SHEETS places), each a list of columns."""
    if not rounds:
        return []
    size = 2 * len(rounds[1])
    columns = [
        ChartColumn(
            name=round_name(number, size),
            round_number=number,
            best_of=matches[0].best_of,
            cells=[cell(match, scores.get(match.pk, (0, 0))) for match in matches],
        )
        for number, matches in sorted(rounds.items())
    ]
    if size < TWO_SHEETS:
        return [columns]
    *early, final = columns
    halves = []
    for half in (0, 1):
        halves.append(
            [
                ChartColumn(
                    name=column.name,
                    round_number=column.round_number,
                    best_of=column.best_of,
                    cells=column.cells[half * len(column.cells) // 2 :][: len(column.cells) // 2],
                )
                for column in early
            ]
        )
    halves[1].append(final)
    return halves
