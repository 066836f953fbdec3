"""Reads for the games app: session standings, rounds with their tables, a game's history, where
a member plays now.

Terms:
- standing: one checked-in player's line for a session, summed over confirmed results only:
  game points, games won and lost, spread, skunks given and taken. Ranked by the one ranking
  order (games.ranking: game points, then games won, then spread); players level on all three
  share the rank, shown "T-3".
- round table: one table of a round with its players' names side by side and its current result
  (a draft or confirmed version; none while it is being played), as the round page and the
  scorecards screen show it.
- name key: a name as a search compares it, case and spacing ignored ("  bill  DAWSON" finds
  "Bill Dawson"); a search finds every name that contains it.
- the member's current round: the latest round drawn of the latest open session of the club the
  member is checked in at (an open session they are not checked in at is not theirs; an older
  one left open is passed over for a later one). Their table is their seat in that round.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import (
    Exists,
    F,
    FilteredRelation,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Value,
)
from django.db.models.functions import Coalesce

from club.models import CheckIn, Club, Session, SessionState
from core.compiled_reads import compiled_once
from games.models import (
    Game,
    GameStatus,
    Result,
    ResultLine,
    ResultState,
    Round,
    Seat,
    score_text_expression,
)
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
    standings = []
    rows = _standing_rows(session.pk)
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


STANDING_FIGURES = ("played", "won", "spread", "skunks_given", "skunks_taken")


@compiled_once
def _standing_rows(session_id: int):
    """Each check-in of the session with its player's kept totals for it (nothing played yet:
    zeros), unranked."""
    zero = Value(0)
    return (
        CheckIn.objects.filter(session_id=session_id)
        .annotate(
            totals=FilteredRelation(
                "player__session_totals",
                condition=Q(player__session_totals__session_id=session_id),
            ),
            game_points=Coalesce(F("totals__points"), zero),
            **{field: Coalesce(F(f"totals__{field}"), zero) for field in STANDING_FIGURES},
        )
        .values("player_id", "player__display_name", "game_points", *STANDING_FIGURES)
        .order_by()  # ranked by session_standings
    )


def game_history(game: Game) -> QuerySet[Result]:
    """Every version of a game's result, newest first, with lines and who entered/confirmed."""
    return (
        game.results.order_by("-version")
        .select_related("entered_by", "confirmed_by", "entered_by_player", "confirmed_by_player")
        .prefetch_related(
            Prefetch("lines", queryset=lines_in_order().select_related("player")),
            "entered_by__players",
            "confirmed_by__players",
        )
    )


def seats_in_order() -> QuerySet[Seat]:
    """Seats with their players by position, for a prefetch of games' seats: the order within
    each game, without the rows' own order's joins to the game's round and session."""
    return Seat.objects.select_related("player").order_by("position")


def lines_in_order() -> QuerySet[ResultLine]:
    """Result lines as a result lists them (by side, then name), for a prefetch of results'
    lines: the order within each result, without the rows' own order's joins to the result's
    game, round and session."""
    return ResultLine.objects.order_by("side", "player__display_name")


def session_result_lines(session: Session) -> list[dict]:
    """The session's confirmed results, one line per player, in round and table order: values
    under the names games.tables.SessionResultTable reads (every one, in one query, for a page
    of them or the CSV, without a model object for each line, result, game, round and
    player)."""
    return _result_lines(session.pk)


@compiled_once
def _result_lines(session_id: int):
    return (
        ResultLine.objects.filter(
            result__game__session_id=session_id, result__state=ResultState.CONFIRMED
        )
        .order_by("result__game__round__number", "result__game__table", "side", "pk")
        .values(
            "result__game__round__number",
            "result__game__table",
            "player__display_name",
            "won",
            "game_points",
            "spread",
            score_text=score_text_expression(),
        )
    )


def name_key(text: str) -> str:
    """A name as a search compares it: spacing collapsed, case folded (see the module's terms)."""
    return " ".join(str(text).split()).casefold()


@dataclass(frozen=True)
class RoundTable:
    game: Game
    sides: tuple[tuple[str, ...], ...]  # the players' names per side, in seat order
    current: Result | None  # its draft or confirmed version; None while it is played

    @property
    def state(self) -> str:
        return self.current.state if self.current is not None else "playing"

    @property
    def confirmed(self) -> bool:
        return self.state == ResultState.CONFIRMED

    @property
    def draft(self) -> bool:
        return self.state == ResultState.DRAFT

    @property
    def marked(self) -> bool:
        """Marked not played or a forfeit (games.services.unfinished): no scores to type."""
        return self.game.status != GameStatus.PLAYED

    @property
    def to_type(self) -> bool:
        """A table whose scorecard is still to type: played, without a confirmed result."""
        return not self.confirmed and not self.marked

    @property
    def scores(self) -> list[int]:
        return self.current.scores if self.current is not None else []

    @property
    def names(self) -> list[str]:
        return [name for side in self.sides for name in side]

    @property
    def scored_sides(self) -> list[tuple[str, int | None]]:
        """Each side's names ("Ann Lee & Cy Pell") with its score in the current result."""
        scores = self.scores
        return [
            (" & ".join(side), scores[index] if index < len(scores) else None)
            for index, side in enumerate(self.sides)
        ]

    @property
    def label(self) -> str:
        """The players as people read them: "Ann Lee & Cy Pell v Bob Ray & Di Wu"."""
        return " v ".join(" & ".join(side) for side in self.sides if side)

    def has_name(self, key: str) -> bool:
        """Whether a player's name contains `key` (a `name_key`)."""
        return bool(key) and any(key in name_key(name) for name in self.names)


def round_tables(round_: Round) -> list[RoundTable]:
    """The round's tables in table order, each with its sides and current result: five queries
    however many tables (games, seats with players, current results, their lines, the players of
    the logins that entered them)."""
    # Each game's results newest first and each result's lines by side and name: ordered
    # within their game and result (the rows' own order starts with the game's session, round
    # and table: joins for nothing).
    current = (
        Result.objects.exclude(state=ResultState.SUPERSEDED)
        .order_by("-version")
        .select_related("entered_by", "entered_by_player")
        .prefetch_related(Prefetch("lines", queryset=lines_in_order()), "entered_by__players")
    )
    games = round_.games.order_by("table").prefetch_related(
        Prefetch("seats", queryset=seats_in_order()),
        Prefetch("results", queryset=current, to_attr="current_results"),
    )
    tables = []
    for game in games:
        seats = list(game.seats.all())
        count = max([game.side_count, *(seat.side + 1 for seat in seats)])
        sides = tuple(
            tuple(seat.player.display_name for seat in seats if seat.side == side)
            for side in range(count)
        )
        current_result = game.current_results[0] if game.current_results else None
        tables.append(RoundTable(game=game, sides=sides, current=current_result))
    return tables


@dataclass(frozen=True)
class MemberTable:
    """Where a member plays now (see the module's terms)."""

    session: Session
    round_number: int  # the current round; 0 while none is drawn
    game: Game | None  # their table in it; None when they have no seat in it
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    done: bool  # their table's result is confirmed

    @property
    def company(self) -> str:
        """Who else is at the table, for people: "with Bill Dawson", "with Bill Dawson and Ann
        Lee" (cut-throat), "with your partner Ann Lee, against Bill Dawson and Cy Pell"."""
        if self.partners:
            return f"with your partner {_and(self.partners)}, against {_and(self.opponents)}"
        return f"with {_and(self.opponents)}" if self.opponents else ""

    @property
    def next_round(self) -> int | None:
        """The round to be drawn next, or None when the session's rounds are all drawn."""
        following = self.round_number + 1
        return following if following <= self.session.house_rules.rounds_per_session else None


def member_table(club: Club, player_id: int | None) -> MemberTable | None:
    """The member's table in their current round (see the module's terms), or None when they
    are checked in at no open session of the club. Three queries at most, whatever the club's
    history."""
    if player_id is None:
        return None
    session = (
        Session.objects.filter(club=club, state=SessionState.OPEN, checkins__player_id=player_id)
        .annotate(current_round=Max("rounds__number"))
        .order_by("-date")
        .first()
    )
    if session is None:
        return None
    number = session.current_round or 0
    game = (
        Game.objects.filter(session=session, round__number=number, seats__player_id=player_id)
        .annotate(
            done=Exists(Result.objects.filter(game=OuterRef("pk"), state=ResultState.CONFIRMED))
        )
        .prefetch_related(Prefetch("seats", queryset=seats_in_order()))
        .first()
        if number
        else None
    )
    partners: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    if game is not None:
        seats = list(game.seats.all())
        mine = next(seat.side for seat in seats if seat.player_id == player_id)
        others = [seat for seat in seats if seat.player_id != player_id]
        partners = tuple(seat.player.display_name for seat in others if seat.side == mine)
        opponents = tuple(seat.player.display_name for seat in others if seat.side != mine)
    return MemberTable(
        session=session,
        round_number=number,
        game=game,
        partners=partners,
        opponents=opponents,
        done=bool(game is not None and game.done),
    )


def _and(names: tuple[str, ...]) -> str:
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)
