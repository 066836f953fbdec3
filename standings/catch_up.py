"""Where a pending ratings replay runs: a background thread of the process that committed the
change, started once the change is committed (standings.services), so the request that made
the correction answers at once and the club's other writers wait for one short step at most.

Terms (standings.services):
- runner: the thread stepping through one club's pending replay (`ratings_catch_up`), with its
  own database connection, closed when it ends. At most one per club in a process; two
  processes' runners of one club would only share the steps.
- left behind: a stale point that no step has moved on for LEFT_BEHIND: its runner died with its
  process (a worker restarted, the laptop shut) or failed. The stale point is in the database,
  so nothing is lost: the next confirmation of the club, a visit to the ratings page or
  `manage.py ratings --catch-up` resumes it.

Daemon threads: a process that exits stops its runner mid-step, which rolls the step back; the
stale point stays where the last committed step left it.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading

from django.db import connection
from django.utils import timezone

from standings.models import RatingsStale
from standings.services import ratings_catch_up

LEFT_BEHIND = dt.timedelta(seconds=30)
logger = logging.getLogger(__name__)

_guard = threading.Lock()
_runners: dict[int, threading.Thread] = {}


def left_behind(club_id: int) -> bool:
    """Whether the club has a stale point no step has moved on for LEFT_BEHIND."""
    return RatingsStale.objects.filter(
        club_id=club_id, advanced_at__lt=timezone.now() - LEFT_BEHIND
    ).exists()


def runner(club_id: int) -> threading.Thread | None:
    """This process's runner of the club, while it runs."""
    with _guard:
        return _runners.get(club_id)


def start(club_id: int) -> bool:
    """Start a runner for the club's pending replay unless this process has one already."""
    with _guard:
        if club_id in _runners:
            return False
        thread = threading.Thread(
            target=_run, args=(club_id,), name=f"ratings-replay-{club_id}", daemon=True
        )
        _runners[club_id] = thread
    thread.start()
    return True


def resume(club_id: int) -> bool:
    """Start a runner if the club's stale point was left behind (see the terms)."""
    return left_behind(club_id) and start(club_id)


def _run(club_id: int) -> None:
    try:
        while True:
            ratings_catch_up(club_id=club_id)
            with _guard:
                # Checked under the guard: a change committed after this sees no runner and
                # starts one; one committed before it is caught up by this one.
                if not RatingsStale.objects.filter(club_id=club_id).exists():
                    del _runners[club_id]
                    return
    except Exception:
        logger.exception("The ratings replay of club %s stopped; it resumes later.", club_id)
        with _guard:
            _runners.pop(club_id, None)
    finally:
        connection.close()
