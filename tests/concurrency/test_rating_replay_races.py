"""A correction far back on PostgreSQL, with another organiser of the club correcting this
morning's results again and again meanwhile (standings.services, standings.catch_up): the
replay runs in the background in short steps, so the other writer never waits a second for it,
and when it ends the ratings are a rebuild from scratch, the other writer's changes included.

Terms: as in test_races.py (threads with a connection each, as two gunicorn workers). The
replay is slowed down (SLOW seconds more per rated game) so that it lasts seconds on a few
sessions: the same replay done in one transaction, as a control, holds the writer for longer
than a second, which the test sees.
"""

import datetime as dt
import threading
import time

from games import services as game_services
from games.models import Game, Result, ResultState
from ops.ratings_bench import flipped
from standings import catch_up, ratings
from standings import services as rating_services
from standings.models import RatingsStale
from standings.replay import differences_from_rebuild
from tests.builders import run_session
from tests.concurrency.test_races import RACE_MARKS, organisers
from tests.factories import ClubFactory

pytestmark = RACE_MARKS

FIRST = dt.date(2026, 1, 8)
WEEKS = 10
SLOW = 0.03  # seconds more per rated game: the replay from the first session lasts ~1.5 s
WAIT_LIMIT = 1.0


def first_game(session) -> Game:
    return Game.objects.filter(session=session).order_by("round__number", "table").first()


class Writer(threading.Thread):
    """Corrects `game` back and forth until stopped; how long each correction took."""

    def __init__(self, game: Game, actor) -> None:
        super().__init__(daemon=True)
        self.game, self.actor = game, actor
        self.halt = threading.Event()
        self.waits: list[float] = []
        self.errors: list[Exception] = []

    def run(self) -> None:
        from django.db import connection

        try:
            scores = Result.objects.get(game=self.game, state=ResultState.CONFIRMED).scores
            sides = [flipped(self.game), scores]
            turn = 0
            while not self.halt.is_set():
                start = time.perf_counter()
                try:
                    game_services.result_correct(
                        game=Game.objects.get(pk=self.game.pk),
                        actor=self.actor,
                        scores=sides[turn % 2],
                        reason="Read back again",
                    )
                except Exception as error:
                    self.errors.append(error)
                self.waits.append(time.perf_counter() - start)
                turn += 1
                time.sleep(0.02)
        finally:
            connection.close()

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=30)


def test_a_correction_far_back_never_holds_another_writer_of_the_club(monkeypatch):
    organiser, other = organisers(2)
    club = ClubFactory()
    sessions = [
        run_session(club, organiser, other, players=6, rounds=2, date=FIRST + dt.timedelta(7 * n))
        for n in range(WEEKS)
    ]
    real = ratings.rate_game

    def slow(game, state):
        time.sleep(SLOW)
        return real(game, state)

    monkeypatch.setattr(ratings, "rate_game", slow)
    monkeypatch.setattr(rating_services, "STEP_GAMES", 6)  # the first step: one session
    monkeypatch.setattr(rating_services, "STEP_GAMES_MIN", 1)

    writer = Writer(first_game(sessions[-1]), other)
    writer.start()
    time.sleep(0.3)
    start = time.perf_counter()
    game_services.result_correct(
        game=first_game(sessions[0]),
        actor=organiser,
        scores=flipped(first_game(sessions[0])),
        reason="Scores swapped on the sheet",
    )
    corrected = time.perf_counter() - start
    runner = catch_up.runner(club.pk)
    assert runner is not None  # started once the correction was committed
    runner.join(timeout=60)
    took = time.perf_counter() - start
    writer.stop()

    assert not writer.errors
    assert took > 1.2  # long enough that one transaction would have held the writer
    assert corrected < WAIT_LIMIT
    assert len(writer.waits) > 5 and max(writer.waits) < WAIT_LIMIT, max(writer.waits)
    assert not RatingsStale.objects.exists()
    assert differences_from_rebuild(club.pk) == 0  # the writer's corrections included

    # The control: the same replay in one transaction holds the writer for longer.
    monkeypatch.setattr(rating_services, "STEP_GAMES", 10_000)
    writer = Writer(first_game(sessions[-1]), other)
    writer.start()
    time.sleep(0.3)
    game_services.result_correct(
        game=first_game(sessions[0]),
        actor=organiser,
        scores=flipped(first_game(sessions[0])),
        reason="Scores swapped back",
    )
    time.sleep(0.3)
    writer.stop()
    assert max(writer.waits) > WAIT_LIMIT
    assert differences_from_rebuild(club.pk) == 0
