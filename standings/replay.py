"""The ratings replayed a step at a time, and checked against a rebuild from scratch.

Terms (standings.ratings):
- stale point: a Position in the replay order (a session's date and id); the club's rating rows
  before it are right, those from it on are not replayed yet (standings.models.RatingsStale).
- step: the rows of whole sessions from the stale point on, as many as fit in a number of
  games (at least one session, however big): deleted, and their rated games replayed from each
  player's last row before the point. The stale point then moves to the first session after
  the step; after the last session there is none and the replay is done. A step replays
  exactly what a replay from the stale point would for those sessions, so the steps of a replay,
  however many, give the rows of a rebuild from scratch, bit for bit.
- lookahead: how many sessions a step considers at most (their games are counted in one query).

Nothing here opens a transaction: standings.services runs each step in its own, under the
club's lock.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from club.models import Session
from games.models import Game
from standings.models import REPLAY_ORDER, GameRating
from standings.ratings import (
    RATED_FIELDS,
    Position,
    before_session,
    from_session,
    insert_rows,
    rated_games,
    replay,
    state_before,
)

LOOKAHEAD = 200
# The columns a replay writes, without the club.
FIELDS = RATED_FIELDS[1:]


@dataclass(frozen=True)
class Step:
    games: int  # rated games replayed
    rows: int  # rating rows written
    until: Position | None  # the new stale point (None: the replay is done)


def step_end(club_id: int, since: Position, games: int) -> Position | None:
    """The first session after the whole sessions from `since` on that fit in `games` games (at
    least one session), or None when they reach the club's last session."""
    sessions = list(
        Session.objects.filter(club_id=club_id)
        .filter(from_session(since, "pk"))
        .order_by("date", "pk")
        .values_list("pk", "date")[: LOOKAHEAD + 1]
    )
    counts = dict(
        Game.objects.filter(session_id__in=[pk for pk, _ in sessions[:LOOKAHEAD]])
        .values("session_id")
        .annotate(games=Count("pk"))
        .values_list("session_id", "games")
    )
    taken = total = 0
    for pk, _ in sessions[:LOOKAHEAD]:
        if taken and total + counts.get(pk, 0) > games:
            break
        taken, total = taken + 1, total + counts.get(pk, 0)
    if taken == len(sessions):
        return None
    pk, date = sessions[taken]
    return Position(date=date, pk=pk)


def replay_step(club_id: int, since: Position, games: int) -> Step:
    """Replay the whole sessions from `since` on that fit in `games` games (see the terms):
    their old rows deleted, their rated games replayed from the ratings as they stood before
    `since`. Call inside a transaction holding the club's lock."""
    until = step_end(club_id, since, games)
    old = GameRating.objects.filter(club_id=club_id).filter(from_session(since))
    if until is not None:
        old = old.filter(before_session(until))
    old.delete()
    rated = rated_games(club_id, since, until=until)
    state = {}
    if rated:
        players = {p for game in rated for side in game.sides for p in side.players}
        state = state_before(club_id, since, players)
    written = insert_rows(GameRating, club_id, replay(rated, state))
    return Step(games=len(rated), rows=written, until=until)


def rebuilt_rows(club_id: int) -> list[tuple]:
    """Every rating row of the club as a rebuild from scratch would write it (FIELDS, in the
    replay order), computed without writing anything."""
    rows = replay(rated_games(club_id), {})
    return [tuple(row[name] for name in FIELDS) for row in rows]


def stored_rows(club_id: int) -> list[tuple]:
    """The club's rating rows as stored (FIELDS, in the replay order)."""
    return list(
        GameRating.objects.filter(club_id=club_id).order_by(*REPLAY_ORDER).values_list(*FIELDS)
    )


def differences_from_rebuild(club_id: int) -> int:
    """How many of the club's stored rating rows differ from a rebuild from scratch (a row
    missing on either side counts once): 0 when the stored ratings are exactly right."""
    stored, rebuilt = stored_rows(club_id), rebuilt_rows(club_id)
    differ = sum(1 for a, b in zip(stored, rebuilt, strict=False) if a != b)
    return differ + abs(len(stored) - len(rebuilt))
