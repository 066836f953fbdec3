"""How the ratings are computed and stored: every rated game of a club replayed, in order, through
the `openskill` library's Plackett-Luce model with its default parameters
(docs/decisions/ratings.md).

Terms:
- model: `openskill.models.PlackettLuce()`, defaults untouched: mu 25, sigma 25/3, beta 25/6,
  kappa 0.0001, tau 25/300, no margin, no sigma limit, no balance. Anyone holding the club's
  backup (`manage.py export_club`) recomputes the same figures with the same calls.
- rated game: a game whose current result is confirmed (standings.models).
- replay order: session date, session id, round number, table number, game id. Inside a game the
  teams are its sides in side order, each side's players by player id.
- teams and ranks: each side is a team (one player, or two partners); the winner ranks 1. At a
  2-player or partners table the loser ranks 2. At a 3-player (cut-throat) table the two losers
  rank by their scores, the higher first; equal scores share rank 2. Passed to the model as
  `rate(teams, ranks=...)`, never as scores: only the finishing order counts, not the margin.
- state: per player, the rating after their last replayed game and how many games they have;
  a player with no game yet starts at the model's default rating with 0 games.
- replay from a session: delete the rows of that session and of every later one, take each
  player's state as the last row left (the ratings as they stood before the session), and
  replay the session's and the later sessions' rated games. Replaying from the first session is
  the rebuild from scratch; both give the same rows, bit for bit.

Nothing here opens a transaction or writes an audit entry: standings.services does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby

from django.db import connection
from django.db.models import OuterRef, Q, Subquery
from openskill.models import PlackettLuce

from club.models import Player, Session
from games.models import ResultLine, ResultSource, ResultState
from standings.models import GameRating

MODEL = PlackettLuce()
BATCH = 5000
# The columns a replay writes, the club first (the rest are `rate_game`'s keys).
RATED_FIELDS = (
    "club_id",
    "session_id",
    "game_id",
    "player_id",
    "date",
    "round_number",
    "table",
    "side",
    "rank",
    "won",
    "games",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "win_chance",
)


@dataclass(frozen=True)
class State:
    """A player's rating after their last replayed game."""

    mu: float
    sigma: float
    games: int


START = State(mu=MODEL.mu, sigma=MODEL.sigma, games=0)


@dataclass(frozen=True)
class SideResult:
    """One side of a rated game: its players (by id, ascending), its final score, whether it
    won."""

    players: tuple[int, ...]
    score: int
    won: bool


@dataclass(frozen=True)
class RatedGame:
    game_id: int
    session_id: int
    date: object  # datetime.date
    round_number: int
    table: int
    sides: tuple[SideResult, ...]  # in side order


def side_ranks(sides: Sequence[SideResult]) -> list[int]:
    """Each side's rank: the winner 1; every other side 2 plus the number of losing sides with a
    higher score (so equal scores share a rank: 1, 2, 2)."""
    losers = [side.score for side in sides if not side.won]
    return [1 if side.won else 2 + sum(s > side.score for s in losers) for side in sides]


def rate_game(game: RatedGame, state: dict[int, State]) -> list[dict]:
    """The fields of one game's rows (club left to the caller), and `state` moved past it."""
    teams = [
        [MODEL.rating(mu=state[p].mu, sigma=state[p].sigma) for p in side.players]
        for side in game.sides
    ]
    chances = MODEL.predict_win(teams)
    ranks = side_ranks(game.sides)
    after = MODEL.rate(teams, ranks=ranks)
    rows = []
    for index, side in enumerate(game.sides):
        for position, player_id in enumerate(side.players):
            before, new = state[player_id], after[index][position]
            state[player_id] = State(mu=new.mu, sigma=new.sigma, games=before.games + 1)
            rows.append(
                {
                    "session_id": game.session_id,
                    "game_id": game.game_id,
                    "player_id": player_id,
                    "date": game.date,
                    "round_number": game.round_number,
                    "table": game.table,
                    "side": index,
                    "rank": ranks[index],
                    "won": side.won,
                    "games": before.games + 1,
                    "mu_before": before.mu,
                    "sigma_before": before.sigma,
                    "mu_after": new.mu,
                    "sigma_after": new.sigma,
                    "win_chance": chances[index],
                }
            )
    return rows


def replay(games: Iterable[RatedGame], state: dict[int, State]) -> Iterator[dict]:
    """The fields of every row of `games`, in order; players missing from `state` start at
    START."""
    for game in games:
        for side in game.sides:
            for player_id in side.players:
                state.setdefault(player_id, START)
        yield from rate_game(game, state)


@dataclass(frozen=True)
class Tables:
    """The models the replay reads and writes: the real ones, or a data migration's historical
    ones (standings/migrations/0001_initial.py builds the ratings of results already played)."""

    rating: type = GameRating
    line: type = ResultLine
    session: type = Session
    player: type = Player


TABLES = Tables()


@dataclass(frozen=True, order=True)
class Position:
    """A point of the replay order between sessions: just before the session `pk` of `date`
    (which need not exist any more). Compares as the replay order does."""

    date: object  # datetime.date
    pk: int


def position_of(session) -> Position:
    return Position(date=session.date, pk=session.pk)


def from_session(since, session: str = "session_id") -> Q:
    """Rows of `since` (a session or a Position) and of later sessions in the replay order
    (date, then session id). The plain `date__gte` lets the database use its (club, date)
    indexes."""
    return Q(date__gte=since.date) & (Q(date__gt=since.date) | Q(**{f"{session}__gte": since.pk}))


def before_session(since, session: str = "session_id") -> Q:
    """Rows of the sessions before `since` (a session or a Position) in the replay order."""
    return Q(date__lte=since.date) & (Q(date__lt=since.date) | Q(**{f"{session}__lt": since.pk}))


def _sessions_from(club_id: int, since, tables: Tables, until=None):
    """The club's sessions from `since` on (all of them without it) and before `until` (to the
    end without it), in the replay order."""
    sessions = tables.session.objects.filter(club_id=club_id)
    if since is not None:
        sessions = sessions.filter(from_session(since, "pk"))
    if until is not None:
        sessions = sessions.filter(before_session(until, "pk"))
    return sessions


def rated_games(club_id: int, since=None, tables: Tables = TABLES, until=None) -> list[RatedGame]:
    """The club's rated games from `since` (a session) on, and before `until` when given, in the
    replay order, from one query. A forfeit is not rated: the game was not played out
    (games.services.unfinished)."""
    lines = (
        tables.line.objects.filter(
            result__state=ResultState.CONFIRMED,
            result__game__session__in=_sessions_from(club_id, since, tables, until).values("pk"),
        )
        .exclude(result__source=ResultSource.FORFEIT)
        .order_by(
            "result__game__session__date",
            "result__game__session_id",
            "result__game__round__number",
            "result__game__table",
            "result__game_id",
            "side",
            "player_id",
        )
        .values_list(
            "result__game_id",
            "result__game__session_id",
            "result__game__session__date",
            "result__game__round__number",
            "result__game__table",
            "side",
            "player_id",
            "score",
            "won",
        )
    )
    games = []
    for (game_id, session_id, date, number, table), rows in groupby(
        lines.iterator(chunk_size=5000), key=lambda line: line[:5]
    ):
        sides = []
        for _, side_rows in groupby(rows, key=lambda line: line[5]):
            side_rows = list(side_rows)
            sides.append(
                SideResult(
                    players=tuple(line[6] for line in side_rows),
                    score=side_rows[0][7],
                    won=side_rows[0][8],
                )
            )
        games.append(RatedGame(game_id, session_id, date, number, table, tuple(sides)))
    return games


def state_before(
    club_id: int, since, player_ids: Iterable[int], tables: Tables = TABLES
) -> dict[int, State]:
    """Each player's state as it stood before `since` (their last row of an earlier session);
    players with no such row are left out (they start at START)."""
    last = (
        tables.rating.objects.filter(before_session(since), player_id=OuterRef("pk"))
        .order_by("-date", "-session_id", "-round_number", "-table", "-game_id")
        .values("pk")[:1]
    )
    latest = tables.player.objects.filter(club_id=club_id, pk__in=set(player_ids)).values(
        last=Subquery(last)
    )
    rows = tables.rating.objects.filter(pk__in=latest).values_list(
        "player_id", "mu_after", "sigma_after", "games"
    )
    return {
        player_id: State(mu=mu, sigma=sigma, games=games) for player_id, mu, sigma, games in rows
    }


@dataclass(frozen=True)
class Replayed:
    games: int  # rated games replayed
    rows: int  # rating rows written


def replay_from(club_id: int, since=None, tables: Tables = TABLES) -> Replayed:
    """Delete the club's rating rows from `since` (a session) on, all of them without it, and
    replay its rated games from there. Call inside a transaction (standings.services)."""
    old = tables.rating.objects.filter(club_id=club_id)
    if since is not None:
        old = old.filter(from_session(since))
    old.delete()
    games = rated_games(club_id, since, tables)
    state: dict[int, State] = {}
    if since is not None and games:
        players = {p for game in games for side in game.sides for p in side.players}
        state = state_before(club_id, since, players, tables)
    written = insert_rows(tables.rating, club_id, replay(games, state))
    return Replayed(games=len(games), rows=written)


def insert_rows(model, club_id: int, rows: Iterable[dict]) -> int:
    """Insert rating rows given as `rate_game`'s fields, BATCH rows to an `executemany`: plain
    values (floats, ints, dates, booleans) straight to the database, without a model instance
    per row (a rebuild writes over a hundred thousand; the database's constraints still check
    each row). Returns how many."""
    fields = [model._meta.get_field(name) for name in RATED_FIELDS]
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(model._meta.db_table),
        ", ".join(quote(field.column) for field in fields),
        ", ".join(["%s"] * len(fields)),
    )
    count = 0
    batch = []
    with connection.cursor() as cursor:
        for row in rows:
            batch.append((club_id, *(row[name] for name in RATED_FIELDS[1:])))
            if len(batch) == BATCH:
                cursor.executemany(sql, batch)
                count, batch = count + len(batch), []
        if batch:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count
