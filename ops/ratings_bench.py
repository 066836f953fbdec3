"""The ratings' benchmark behind `manage.py bench` (its `ratings` section), run against
a database holding a history from `seed_history` (`manage.py bench --ratings` in a child
process; the parent runs it on the larger history after the pages and gunicorn are done, since
it writes).

Terms:
- rebuild: `standings.services.ratings_rebuild` of the whole history, from scratch (what
  `manage.py ratings --rebuild` does): the audit entry with the stale point before the first
  session, then every rated game replayed in steps. Target: under REBUILD_TARGET_S.
- confirmation: `games.services.result_confirm` of one of this morning's drafts (the history's
  open session: two rounds confirmed, the third entered), by the other organiser, as the game
  page does it: locks, the session's totals, the ratings replayed from this morning (the
  session's rated games so far), the audit entry. Up to CONFIRMS drafts, one after another;
  milliseconds each (median, worst). Target: the worst under CONFIRM_TARGET_MS.
- writer: a thread of its own (its own connection, as another gunicorn worker would be) that,
  while a replay runs, writes to the same club again and again, WRITER_REST_S apart: takes a
  player's fee back and marks it paid again, and corrects a result of this morning back and
  forth (the results' locks, the totals, the club row, the ratings' stale point). A write's
  milliseconds are how long the organiser's tap waited and worked; the longest is the figure.
- correction: the oldest session that reopens (ten years back on the larger history) is
  reopened and one of its results corrected by the first organiser, as the game page does it,
  while the writer writes; the replay then runs in the background steps (standings.catch_up)
  until the ratings are up to date. Figures: the correcting request's milliseconds, the seconds
  until the replay ended, the writer's longest wait. Target: the longest under WRITER_TARGET_MS.
  Then every rating row is compared with a rebuild from scratch computed apart
  (standings.replay.differences_from_rebuild): the writer's corrections of this morning, made
  while the replay ran, are in both. Target: no row differs.
- one transaction: for comparison, the same replay from the corrected session as one
  transaction (as every replay ran before the steps), with the writer writing meanwhile.
Wall-clock time, so noisy: compare figures from one run.
"""

from __future__ import annotations

import statistics
import threading
import time

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from club.models import CheckIn, Club, Session, SessionState
from club.services import fee_mark_paid, fee_mark_unpaid, pages_changed
from games.models import Game, Result, ResultState
from games.services import result_confirm, result_correct
from money.services import session_reopen
from standings import catch_up
from standings.models import GameRating
from standings.ratings import replay_from
from standings.replay import differences_from_rebuild
from standings.services import ratings_rebuild

REBUILD_TARGET_S = 60
CONFIRM_TARGET_MS = 200
CONFIRMS = 10
WRITER_TARGET_MS = 1000
WRITER_REST_S = 0.02
REOPEN_TRIES = 30


class Writer(threading.Thread):
    """Calls `writes` in turn until stopped; the milliseconds of each call, and its errors."""

    def __init__(self, writes: list) -> None:
        super().__init__(name="bench-writer", daemon=True)
        self.writes = writes
        self.halt = threading.Event()
        self.samples: list[float] = []
        self.errors: list[str] = []

    def run(self) -> None:
        try:
            turn = 0
            while not self.halt.is_set():
                start = time.perf_counter()
                try:
                    self.writes[turn % len(self.writes)]()
                except Exception as error:  # a refused or failed write is counted, not fatal
                    self.errors.append(repr(error)[:200])
                self.samples.append((time.perf_counter() - start) * 1000)
                turn += 1
                time.sleep(WRITER_REST_S)
        finally:
            connection.close()

    def finish(self) -> dict:
        self.halt.set()
        self.join(timeout=120)
        samples = self.samples or [0.0]
        return {
            "writes": len(self.samples),
            "errors": len(self.errors),
            "median_ms": round(statistics.median(samples), 1),
            "longest_ms": round(max(samples), 1),
        }


def writer_for(club: Club, this_morning: Session, actor) -> Writer:
    """A writer taking a fee back and forth and correcting a game of this morning back and forth
    (a two-player game not yet rated differently by anything else of the bench)."""
    checkin_pk = CheckIn.objects.filter(session=this_morning).order_by("pk").values("pk")[0]["pk"]
    game = (
        Game.objects.filter(session=this_morning, results__state=ResultState.CONFIRMED)
        .order_by("round__number", "table")
        .first()
    )
    scores = Result.objects.get(game=game, state=ResultState.CONFIRMED).scores
    loser = next(n for n, score in enumerate(scores) if score != max(scores))
    other = list(scores)
    other[loser] = scores[loser] - 1 if scores[loser] > 0 else scores[loser] + 1
    sides = [list(scores), other]
    count = {"fees": 0, "results": 0}

    def fee() -> None:
        checkin = CheckIn.objects.get(pk=checkin_pk)
        toggle = fee_mark_unpaid if checkin.is_paid else fee_mark_paid
        toggle(checkin=checkin, actor=actor)
        count["fees"] += 1

    def correct() -> None:
        count["results"] += 1
        result_correct(
            game=Game.objects.get(pk=game.pk),
            actor=actor,
            scores=sides[count["results"] % 2],
            reason="Read back from the scoresheet",
        )

    return Writer([fee, correct])


def reopen_oldest(club: Club, actor) -> Session | None:
    """The oldest session of the club that is open or reopens (a later session may have paid
    out a pot it filled, which refuses the reopening), among the first REOPEN_TRIES."""
    for session in Session.objects.filter(club=club).order_by("date", "pk")[:REOPEN_TRIES]:
        if session.state == SessionState.OPEN:
            return session
        try:
            return session_reopen(session=session, actor=actor, reason="A result misread")
        except ValidationError:
            continue
    return None


def flipped(game: Game) -> list[int]:
    """The game's scores with another side winning."""
    scores = Result.objects.get(game=game, state=ResultState.CONFIRMED).scores
    winner = scores.index(max(scores))
    other = (winner + 1) % len(scores)
    new = list(scores)
    new[winner], new[other] = scores[other], scores[winner]
    return new


def wait_for_replay(club: Club) -> None:
    """Until the club's background replay, if any, has ended."""
    while (thread := catch_up.runner(club.pk)) is not None:
        thread.join()


def time_correction(club: Club, this_morning: Session, organisers) -> dict:
    """A result of the oldest session corrected while the writer writes (see the terms), and
    the same replay as one transaction for comparison."""
    corrector, writer_actor = organisers
    session = reopen_oldest(club, corrector)
    if session is None:
        return {"correction": None}
    game = (
        Game.objects.filter(session=session, results__state=ResultState.CONFIRMED)
        .order_by("round__number", "table")
        .first()
    )
    writer = writer_for(club, this_morning, writer_actor)
    writer.start()
    time.sleep(0.5)  # the writer's own pace first
    start = time.perf_counter()
    result_correct(game=game, actor=corrector, scores=flipped(game), reason="A result misread")
    correction_ms = (time.perf_counter() - start) * 1000
    wait_for_replay(club)
    replay_s = time.perf_counter() - start
    stepped = writer.finish()
    differing = differences_from_rebuild(club.pk)

    writer = writer_for(club, this_morning, writer_actor)
    writer.start()
    time.sleep(0.5)
    start = time.perf_counter()
    with transaction.atomic():
        pages_changed(club.pk)
        replay_from(club.pk, since=session)
    one_s = time.perf_counter() - start
    one = writer.finish()
    return {
        "corrected_session": session.date.isoformat(),
        "correction_ms": round(correction_ms, 1),
        "correction_replay_seconds": round(replay_s, 2),
        "writer": stepped,
        "writer_longest_wait_ms": stepped["longest_ms"],
        "writer_wait_target_ms": WRITER_TARGET_MS,
        "correction_blocks_writers_under_target": stepped["longest_ms"] < WRITER_TARGET_MS,
        "rows_differing_from_rebuild": differing,
        "replay_matches_rebuild": differing == 0,
        "one_transaction": {"replay_seconds": round(one_s, 2), "writer": one},
    }


def time_ratings(slug: str, confirms: int = CONFIRMS) -> dict:
    """The rebuild's seconds, each confirmation's milliseconds and a correction ten years back
    with a writer at work, in the history club `slug`."""
    club = Club.objects.get(slug=slug)
    start = time.perf_counter()
    replayed = ratings_rebuild(club=club, actor=None)
    rebuild_s = time.perf_counter() - start

    this_morning = Session.objects.filter(club=club, state=SessionState.OPEN).latest("date")
    users = get_user_model().objects
    organisers = [users.get(username=f"{slug}-organiser{n}") for n in (1, 2)]
    drafts = list(
        Result.objects.filter(game__session=this_morning, state=ResultState.DRAFT)
        .select_related("game")
        .order_by("game__round__number", "game__table")[:confirms]
    )
    samples = []
    for draft in drafts:
        start = time.perf_counter()
        result_confirm(result=draft, actor=organisers[1])
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
        **time_correction(club, this_morning, organisers),
    }
