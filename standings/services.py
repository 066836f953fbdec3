"""Writes for the standings app: the ratings table (standings.models.GameRating), replayed from
the confirmed results by `standings.ratings` in steps (`standings.replay`), never edited by hand.

Terms (standings.replay): the stale point, a step. A replay that would take longer than one
step (a correction years back) is not done in one transaction: the club's every write (on
SQLite, the whole database's) would wait for it. The change that needs it records the stale
point (`RatingsStale`) in its own transaction instead, and the replay runs step after step, each
step its own short transaction under the club's lock, moving the point on; a process that dies
half way leaves the point behind, and whoever finds it resumes (standings.catch_up).

- `ratings_update(session=...)`: a session's confirmed results changed. Inside the caller's
  transaction: with no replay pending, it replays from the session at once when that fits in
  one step (a confirmation this morning), else it records the stale point; with a replay
  pending, it moves the point back to the session if the session comes before it (a session
  after it is replayed anyway, with the results as they are when the replay gets there).
  Registered with `games.hooks.register_results_changed`, so it runs inside the transaction of
  every service that confirms or corrects a result.
- `ratings_step(club_id=...)`: one step of a pending replay, in its own transaction.
- `ratings_catch_up(club_id=...)`: steps until the replay is done (standings.catch_up runs it
  after the change commits; `manage.py ratings --catch-up` in the foreground).
- `ratings_rebuild(club=..., actor=...)`: everything from scratch, with an audit entry
  (`manage.py ratings --rebuild`): a stale point before the first session, then the steps.
- `ratings_restore(club=...)`: after a backup is restored (ops.backup), inside the restore's
  transaction: from scratch at once, without an audit entry or a new pages version, since a
  restored club is its file, row for row.

Each takes the club row first (`club.services.pages_changed`, an update: on PostgreSQL it holds
the row to the end of the transaction; SQLite lets one writer in at a time anyway), so steps and
the result services of one club take turns and every step reads the stale point as the last
change left it. The result services make that same update after their session, round and game
locks, so no lock is taken out of order. The steps write no audit entry: the rows follow from
the results, whose changes are audited.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from club.models import Club, Session
from club.services import pages_changed
from core.audit import audit_record
from games.models import ResultLine, ResultSource, ResultState
from standings.audit import StandingsVerb
from standings.models import RatingsStale
from standings.ratings import Position, Replayed, position_of, replay_from
from standings.replay import Step, replay_step

# A step's size in games: the first step's, and the bounds the later ones are sized within so
# that each takes about STEP_SECONDS (a loaded computer replays fewer games a second).
STEP_GAMES = 500
STEP_GAMES_MIN, STEP_GAMES_MAX = 50, 5000
STEP_SECONDS = 0.25
# Between two steps the club is left alone a moment: SQLite lets a waiting writer retry on a
# timer (every 100 ms at most), so a replay that took the lock again at once could keep it
# from ever getting in. PostgreSQL queues the waiters, and they go first.
PAUSE_SECONDS = 0.1
START = Position(date=dt.date.min, pk=0)  # before every session: a rebuild from scratch


def _point(club_id: int) -> RatingsStale | None:
    """The club's stale point, read after the club row is held (so as the last change left it)."""
    return RatingsStale.objects.filter(club_id=club_id).first()


def _mark(club_id: int, since: Position, marker: RatingsStale | None) -> RatingsStale:
    """Record (or move back to) `since` as the club's stale point."""
    now = timezone.now()
    if marker is None:
        marker = RatingsStale(club_id=club_id, marked_at=now, advanced_at=now)
    elif Position(marker.date, marker.session_number) <= since:
        return marker
    marker.date, marker.session_number = since.date, since.pk
    marker.full_clean(exclude=["club"])
    marker.save()
    return marker


def _after_commit(call: Callable[[], object]) -> None:
    transaction.on_commit(call, robust=True)


def ratings_update(*, session: Session) -> Replayed:
    """The ratings after `session`'s confirmed results changed, inside the caller's transaction
    (see the module's terms). Returns what was replayed at once."""
    from standings import catch_up

    club_id = session.club_id
    with transaction.atomic():
        pages_changed(club_id)
        since = position_of(session)
        marker = _point(club_id)
        if marker is not None:
            _mark(club_id, since, marker)
            _after_commit(lambda: catch_up.resume(club_id))
            return Replayed(games=0, rows=0)
        step = replay_step(club_id, since, STEP_GAMES)
        if step.until is not None:
            _mark(club_id, step.until, None)
            _after_commit(lambda: catch_up.start(club_id))
        return Replayed(games=step.games, rows=step.rows)


def ratings_step(*, club_id: int, games: int = STEP_GAMES) -> Step | None:
    """One step of the club's pending replay, in its own transaction: None when none is
    pending; the step, whose `until` is None when it ended the replay."""
    with transaction.atomic():
        pages_changed(club_id)
        marker = _point(club_id)
        if marker is None:
            return None
        step = replay_step(club_id, Position(marker.date, marker.session_number), games)
        if step.until is None:
            marker.delete()
        else:
            marker.date, marker.session_number = step.until.date, step.until.pk
            marker.advanced_at = timezone.now()
            marker.save(update_fields=["date", "session_number", "advanced_at"])
        return step


def ratings_catch_up(*, club_id: int, pause: float = PAUSE_SECONDS) -> Replayed:
    """Step through the club's pending replay until it is done (nothing when none is pending),
    each step sized to take about STEP_SECONDS, with `pause` between two. Safe to run in two
    places at once: the steps take turns on the club's lock and each starts where the last
    one left the stale point."""
    games, rows, size = 0, 0, STEP_GAMES
    while True:
        started = time.perf_counter()
        step = ratings_step(club_id=club_id, games=size)
        if step is None:
            break
        games, rows = games + step.games, rows + step.rows
        if step.until is None:
            break
        took = max(time.perf_counter() - started, 0.001)
        size = max(STEP_GAMES_MIN, min(STEP_GAMES_MAX, int(size * STEP_SECONDS / took)))
        time.sleep(pause)
    return Replayed(games=games, rows=rows)


def ratings_rebuild(
    *, club: Club, actor: AbstractBaseUser | None, pause: float = PAUSE_SECONDS
) -> Replayed:
    """Recompute every rating of the club from its confirmed results, in steps, and say so in
    the audit trail (the rated games and rows to replay), written with the stale point."""
    with transaction.atomic():
        pages_changed(club.pk)
        _mark(club.pk, START, _point(club.pk))
        rated = ResultLine.objects.filter(
            result__state=ResultState.CONFIRMED, result__game__session__club=club
        ).exclude(result__source=ResultSource.FORFEIT)
        figures = rated.aggregate(rows=Count("pk"), games=Count("result__game", distinct=True))
        audit_record(
            actor=actor,
            action=StandingsVerb.RATINGS_REBUILT,
            obj=club,
            club=club,
            data={"games": figures["games"], "rows": figures["rows"]},
        )
    return ratings_catch_up(club_id=club.pk, pause=pause)


def ratings_restore(*, club: Club) -> Replayed:
    """The ratings of a club whose rows were just restored from a backup, from scratch."""
    with transaction.atomic():
        RatingsStale.objects.filter(club=club).delete()
        return replay_from(club.pk)
