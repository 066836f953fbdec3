"""The ratings' benchmark behind `manage.py bench` (its `ratings` section), run against
a database holding a history from `seed_history` (`manage.py bench --ratings` in a child
process; the parent runs it on the larger history after the pages and gunicorn are done, since
it writes).

Terms:
- rebuild: `standings.services.ratings_rebuild` of the whole history, from scratch (what
  `manage.py ratings --rebuild` does): every rating row deleted, every rated game replayed and
  its rows written, the audit entry, in one transaction. Target: under REBUILD_TARGET_S.
- confirmation: `games.services.result_confirm` of one of this morning's drafts (the history's
  open session: two rounds confirmed, the third entered), by the other organiser, as the game
  page does it: locks, the session's totals, the ratings replayed from this morning (the
  session's rated games so far), the audit entry. Up to CONFIRMS drafts, one after another;
  milliseconds each (median, worst). Target: the worst under CONFIRM_TARGET_MS.
Wall-clock time, so noisy: compare figures from one run.
"""

from __future__ import annotations

import statistics
import time

from django.contrib.auth import get_user_model

from club.models import Club, Session, SessionState
from games.models import Result, ResultState
from games.services import result_confirm
from standings.models import GameRating
from standings.services import ratings_rebuild

REBUILD_TARGET_S = 60
CONFIRM_TARGET_MS = 200
CONFIRMS = 10


def time_ratings(slug: str, confirms: int = CONFIRMS) -> dict:
    """The rebuild's seconds and each confirmation's milliseconds in the history club `slug`."""
    club = Club.objects.get(slug=slug)
    start = time.perf_counter()
    replayed = ratings_rebuild(club=club, actor=None)
    rebuild_s = time.perf_counter() - start

    this_morning = Session.objects.filter(club=club, state=SessionState.OPEN).latest("date")
    confirmer = get_user_model().objects.get(username=f"{slug}-organiser2")
    drafts = list(
        Result.objects.filter(game__session=this_morning, state=ResultState.DRAFT)
        .select_related("game")
        .order_by("game__round__number", "game__table")[:confirms]
    )
    samples = []
    for draft in drafts:
        start = time.perf_counter()
        result_confirm(result=draft, actor=confirmer)
        samples.append((time.perf_counter() - start) * 1000)
    rated_this_morning = (
        GameRating.objects.filter(session=this_morning).values("game_id").distinct().count()
    )
    return {
        "games": replayed.games,
        "rows": replayed.rows,
        "rebuild_seconds": round(rebuild_s, 2),
        "rebuild_target_s": REBUILD_TARGET_S,
        "rebuild_under_target": rebuild_s < REBUILD_TARGET_S,
        "confirmations": len(samples),
        "confirm_median_ms": round(statistics.median(samples), 1) if samples else None,
        "confirm_max_ms": round(max(samples), 1) if samples else None,
        "confirm_target_ms": CONFIRM_TARGET_MS,
        "confirm_under_target": bool(samples) and max(samples) < CONFIRM_TARGET_MS,
        "rated_games_this_morning": rated_this_morning,
    }
