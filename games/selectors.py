"""Reads for the games app: session standings, rounds with their tables, a game's history.

Terms:
- standing: one checked-in player's line for a session, summed over confirmed results only:
  game points, games won and lost, spread, skunks given and taken. Ranked by the one ranking
  order (games.ranking: game points, then games won, then spread); players level on all three
  share the rank, shown "T-3".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, FilteredRelation, Prefetch, Q, QuerySet, Value
from django.db.models.functions import Coalesce

from club.models import CheckIn, Session
from games.models import Game, Result, ResultLine, ResultState, Round, Seat
from games.ranking import rank


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


def session_standings(session: Session) -> list[Standing]:
    """Every checked-in player's standing for the session: one query, of its kept totals (so it
    costs the same whatever the club's history), ranked by `games.ranking`."""
    zero = Value(0)
    fields = ("played", "won", "spread", "skunks_given", "skunks_taken")
    rows = (
        CheckIn.objects.filter(session=session)
        .annotate(
            totals=FilteredRelation(
                "player__session_totals", condition=Q(player__session_totals__session=session)
            ),
            game_points=Coalesce(F("totals__points"), zero),
            **{field: Coalesce(F(f"totals__{field}"), zero) for field in fields},
        )
        .values("player_id", "player__display_name", "game_points", *fields)
    )
    standings = []
    for ranked in rank(rows, name=lambda row: row["player__display_name"]):
        row = ranked.row
        standings.append(
            Standing(
                rank=ranked.rank,
                tied=ranked.tied,
                player_id=row["player_id"],
                player=row["player__display_name"],
                played=row["played"],
                game_points=row["game_points"],
                won=row["won"],
                lost=row["played"] - row["won"],
                spread=row["spread"],
                skunks_given=row["skunks_given"],
                skunks_taken=row["skunks_taken"],
            )
        )
    return standings


def session_rounds(session: Session) -> QuerySet[Round]:
    """The session's rounds with their games and current results (with the players' names), in
    a fixed few queries. `game.seats` holds the seats of games still without a result only: the
    page names a game's players from its result lines once there is one."""
    current = Result.objects.exclude(state=ResultState.SUPERSEDED).prefetch_related(
        Prefetch("lines", queryset=ResultLine.objects.select_related("player"))
    )
    waiting = Seat.objects.exclude(
        game__results__state__in=[ResultState.DRAFT, ResultState.CONFIRMED]
    ).select_related("player")
    games = Game.objects.prefetch_related(
        Prefetch("seats", queryset=waiting),
        Prefetch("results", queryset=current, to_attr="current_results"),
    )
    return session.rounds.prefetch_related(Prefetch("games", queryset=games))


def game_history(game: Game) -> QuerySet[Result]:
    """Every version of a game's result, newest first, with lines and who entered/confirmed."""
    return game.results.select_related(
        "entered_by", "confirmed_by", "entered_by_player", "confirmed_by_player"
    ).prefetch_related("lines__player")


def session_result_lines(session: Session) -> QuerySet[ResultLine]:
    """The session's confirmed results, one line per player, in round and table order."""
    return (
        ResultLine.objects.filter(
            result__game__session=session, result__state=ResultState.CONFIRMED
        )
        .select_related("player", "result__game__round")
        .order_by("result__game__round__number", "result__game__table", "side", "pk")
    )
