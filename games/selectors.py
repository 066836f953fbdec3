"""Reads for the games app: session standings, rounds with their tables, a game's history.

Terms:
- standing: one checked-in player's line for a session, summed over confirmed results only:
  game points, games won and lost, spread, skunks given and taken. Ranked by game points, then
  games won, then spread (ACC order); players level on all three share the rank, shown "T-3".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, Lower

from club.models import CheckIn, Session
from games.models import Game, Result, ResultState, Round, Seat


@dataclass(frozen=True)
class Standing:
    rank: int
    tied: bool
    player_id: int
    player: str
    played: int
    game_points: int
    won: int
    lost: int
    spread: int
    skunks_given: int
    skunks_taken: int

    @property
    def rank_label(self) -> str:
        return f"T-{self.rank}" if self.tied else str(self.rank)


def rank_rows(rows: list, key) -> list[tuple[int, bool]]:
    """Shared ranks for rows already sorted best first: (rank, tied) per row ("1, T-2, T-2, 4")."""
    ranks: list[int] = []
    for index, row in enumerate(rows):
        if index and key(row) == key(rows[index - 1]):
            ranks.append(ranks[-1])
        else:
            ranks.append(index + 1)
    counts = {rank: ranks.count(rank) for rank in set(ranks)}
    return [(rank, counts[rank] > 1) for rank in ranks]


def session_standings(session: Session) -> list[Standing]:
    """Every checked-in player's standing for the session: one query, counted in the database."""
    lines = "player__result_lines"
    confirmed = Q(
        **{
            f"{lines}__result__state": ResultState.CONFIRMED,
            f"{lines}__result__game__session": session,
        }
    )
    zero = Value(0)
    rows = list(
        CheckIn.objects.filter(session=session)
        .annotate(
            name=Lower("player__display_name"),
            played=Count(f"{lines}", filter=confirmed),
            points=Coalesce(Sum(f"{lines}__game_points", filter=confirmed), zero),
            won=Count(f"{lines}", filter=confirmed & Q(**{f"{lines}__won": True})),
            spread=Coalesce(Sum(f"{lines}__spread", filter=confirmed), zero),
            skunks_given=Coalesce(Sum(f"{lines}__skunks_given", filter=confirmed), zero),
            skunks_taken=Count(f"{lines}", filter=confirmed & Q(**{f"{lines}__skunked": True})),
        )
        .order_by("-points", "-won", "-spread", "name")
        .values(
            "player_id",
            "player__display_name",
            "played",
            "points",
            "won",
            "spread",
            "skunks_given",
            "skunks_taken",
        )
    )
    ranks = rank_rows(rows, key=lambda row: (row["points"], row["won"], row["spread"]))
    return [
        Standing(
            rank=rank,
            tied=tied,
            player_id=row["player_id"],
            player=row["player__display_name"],
            played=row["played"],
            game_points=row["points"],
            won=row["won"],
            lost=row["played"] - row["won"],
            spread=row["spread"],
            skunks_given=row["skunks_given"],
            skunks_taken=row["skunks_taken"],
        )
        for row, (rank, tied) in zip(rows, ranks, strict=True)
    ]


def session_rounds(session: Session) -> QuerySet[Round]:
    """The session's rounds with their games, seats and current results, in a fixed few queries."""
    current = Result.objects.exclude(state=ResultState.SUPERSEDED).prefetch_related("lines")
    games = Game.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch("results", queryset=current, to_attr="current_results"),
    )
    return session.rounds.prefetch_related(Prefetch("games", queryset=games))


def game_history(game: Game) -> QuerySet[Result]:
    """Every version of a game's result, newest first, with lines and who entered/confirmed."""
    return game.results.select_related("entered_by", "confirmed_by").prefetch_related(
        "lines__player"
    )
