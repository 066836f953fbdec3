"""A replay too long for one step (standings.services, standings.replay, standings.catch_up): the
correction records the stale point in its own transaction and the replay runs in steps, each its
own transaction; confirmations arriving meanwhile move the point back or leave it; a replay
left behind half way (its process died) is resumed by whoever finds it. Whatever happens in
between, once the replay ends the rows are a rebuild from scratch, bit for bit.

Terms: steps here are SIZE games (the services' sizes patched down), so the few sessions a test
plays take several steps; `right` is "the stored rows equal a rebuild from scratch computed
apart" (standings.replay.differences_from_rebuild, and the independent recomputation of
tests/standings/test_ratings.py).
"""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.models import Game, Result, ResultState
from standings import catch_up, replay
from standings import services as rating_services
from standings.models import GameRating, RatingsStale
from standings.rating_selectors import ratings_pending_from
from standings.replay import differences_from_rebuild, rebuilt_rows, stored_rows
from standings.services import ratings_catch_up, ratings_step
from tests.builders import run_session
from tests.factories import ClubFactory, UserFactory
from tests.standings.test_ratings import independent_replay, stored_replay

pytestmark = pytest.mark.django_db

FIRST = dt.date(2026, 1, 8)
SIZE = 4  # games per step: a session here is 6 games, so every step is one session
WEEKS = 6


@pytest.fixture
def people(db):
    return UserFactory(role="organisers"), UserFactory(role="organisers")


@pytest.fixture
def small_steps(monkeypatch):
    monkeypatch.setattr(rating_services, "STEP_GAMES", SIZE)
    monkeypatch.setattr(rating_services, "STEP_GAMES_MIN", SIZE)
    monkeypatch.setattr(rating_services, "STEP_GAMES_MAX", SIZE)


@pytest.fixture
def history(people):
    """A club of WEEKS weekly sessions, six players, two rounds each (all open)."""
    club = ClubFactory()
    sessions = [
        run_session(club, *people, players=6, rounds=2, date=FIRST + dt.timedelta(7 * n), seed=n)
        for n in range(WEEKS)
    ]
    return club, sessions


def right(club) -> bool:
    return differences_from_rebuild(club.pk) == 0 and stored_replay(club) == independent_replay(
        club
    )


def flip(game: Game, actor, reason: str = "Scores swapped on the sheet") -> None:
    """Correct the game's result so another side wins (the ratings from it on change)."""
    scores = Result.objects.get(game=game, state=ResultState.CONFIRMED).scores
    winner = scores.index(max(scores))
    other = (winner + 1) % len(scores)
    new = list(scores)
    new[winner], new[other] = scores[other], scores[winner]
    game_services.result_correct(game=game, actor=actor, scores=new, reason=reason)


def first_game(session) -> Game:
    return Game.objects.filter(session=session).order_by("round__number", "table").first()


def point(club) -> tuple:
    marker = RatingsStale.objects.get(club=club)
    return marker.date, marker.session_number


def test_a_confirmation_this_morning_is_replayed_at_once_without_a_stale_point(history, people):
    club, sessions = history
    assert not RatingsStale.objects.exists()
    flip(first_game(sessions[-1]), people[0])
    assert not RatingsStale.objects.exists() and right(club)


def test_a_correction_far_back_records_the_stale_point_and_leaves_the_rest_to_the_steps(
    history, people, small_steps, django_capture_on_commit_callbacks
):
    club, sessions = history
    with django_capture_on_commit_callbacks() as callbacks:
        flip(first_game(sessions[0]), people[0])
    # The correction's own transaction replayed one step (the corrected session) only.
    assert point(club) == (sessions[1].date, sessions[1].pk)
    assert ratings_pending_from(club) == sessions[1].date
    assert len(callbacks) == 1  # the runner, started once the correction is committed
    stored, rebuilt = stored_rows(club.pk), rebuilt_rows(club.pk)
    done = GameRating.objects.filter(session=sessions[0]).count()
    assert stored[:done] == rebuilt[:done]  # before the stale point: right already
    assert stored[done:] != rebuilt[done:]  # from it on: as they stood, not yet replayed

    replayed = ratings_catch_up(club_id=club.pk, pause=0)
    assert replayed.games == 6 * (WEEKS - 1)
    assert not RatingsStale.objects.exists() and ratings_pending_from(club) is None
    assert right(club)


def test_confirmations_arriving_mid_replay_are_in_the_ratings_when_it_ends(
    history, people, small_steps
):
    """One step in, a result is corrected after the stale point (left to the replay, no rows
    of its own) and one before it (the point moves back to it); the replay then ends with every
    change in, as a rebuild from scratch has them."""
    club, sessions = history
    flip(first_game(sessions[0]), people[0])
    ratings_step(club_id=club.pk, games=SIZE)
    assert point(club) == (sessions[2].date, sessions[2].pk)

    rows_before = stored_rows(club.pk)
    flip(first_game(sessions[4]), people[0], reason="A later table misread")
    assert point(club) == (sessions[2].date, sessions[2].pk)  # after the point: left as it is
    assert stored_rows(club.pk) == rows_before  # nothing rated on numbers not yet replayed

    flip(first_game(sessions[1]), people[0], reason="An earlier table misread")
    assert point(club) == (sessions[1].date, sessions[1].pk)  # before it: moved back

    ratings_catch_up(club_id=club.pk, pause=0)
    assert not RatingsStale.objects.exists()
    assert right(club)


def test_a_step_that_dies_half_way_changes_nothing_and_the_replay_resumes(
    history, people, small_steps, monkeypatch
):
    """A step is one transaction: killed after deleting its rows and before writing the new
    ones, it rolls back whole; the stale point stays, and catching up later ends right."""
    club, sessions = history
    flip(first_game(sessions[0]), people[0])
    kept_rows, kept_point = stored_rows(club.pk), point(club)

    def killed(*args, **kwargs):
        raise SystemExit("the process died")

    monkeypatch.setattr(replay, "insert_rows", killed)
    with pytest.raises(SystemExit):
        ratings_step(club_id=club.pk, games=SIZE)
    assert stored_rows(club.pk) == kept_rows and point(club) == kept_point

    monkeypatch.undo()
    monkeypatch.setattr(rating_services, "STEP_GAMES_MAX", SIZE)
    ratings_catch_up(club_id=club.pk, pause=0)
    assert right(club)


def test_a_stale_point_left_behind_is_resumed_by_the_command(history, people, small_steps):
    club, sessions = history
    flip(first_game(sessions[0]), people[0])
    ratings_step(club_id=club.pk, games=SIZE)  # then the process died
    out, err = io.StringIO(), io.StringIO()
    call_command("ratings", "--club", club.slug, stdout=out, stderr=err)
    assert "Being brought up to date: every rated game from" in out.getvalue()

    out = io.StringIO()
    call_command("ratings", "--club", club.slug, "--catch-up", stdout=out, stderr=err)
    assert "up to date" in err.getvalue() and "Being brought up to date" not in out.getvalue()
    assert not RatingsStale.objects.exists() and right(club)


def test_whoever_finds_a_stale_point_left_behind_resumes_it(
    history, people, small_steps, monkeypatch, django_capture_on_commit_callbacks, client
):
    """A live runner moves the point on every step; one not moved for LEFT_BEHIND has no
    runner left: the next confirmation (once committed) and the ratings page start one."""
    club, sessions = history
    club.standings_public = True
    club.save()
    started = []
    monkeypatch.setattr(catch_up, "start", lambda club_id: started.append(club_id) or True)
    flip(first_game(sessions[0]), people[0])
    assert not catch_up.left_behind(club.pk)

    with django_capture_on_commit_callbacks(execute=True):
        flip(first_game(sessions[5]), people[0], reason="A later table misread")
    assert started == []  # a runner moved it on lately: it is still at work

    RatingsStale.objects.filter(club=club).update(
        advanced_at=timezone.now() - catch_up.LEFT_BEHIND - dt.timedelta(seconds=1)
    )
    assert catch_up.left_behind(club.pk)
    with django_capture_on_commit_callbacks(execute=True):
        flip(first_game(sessions[5]), people[0], reason="Read back again")
    assert started == [club.pk]

    html = client.get("/games/ratings/").content.decode()  # a visitor
    assert started == [club.pk, club.pk]
    assert 'data-testid="ratings-pending"' in html
    assert f"from {sessions[1].date:%-d %B %Y} on is being replayed" in html


def test_the_pages_say_nothing_once_the_ratings_are_up_to_date(history, client):
    club, _ = history
    club.standings_public = True
    club.save()
    for url in ("/games/ratings/", "/games/standings/", "/games/all-time/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert 'data-testid="ratings-pending"' not in response.content.decode(), url


def test_a_rebuild_in_steps_gives_the_rows_of_one_replay_from_scratch(history, people, small_steps):
    club, _ = history
    GameRating.objects.filter(club=club).update(mu_after=0)  # spoiled behind the services' back
    replayed = rating_services.ratings_rebuild(club=club, actor=None, pause=0)
    assert replayed.games == 6 * WEEKS and replayed.rows == GameRating.objects.count()
    assert not RatingsStale.objects.exists() and right(club)


def test_a_replay_that_fails_in_the_correction_leaves_no_stale_point(
    history, people, small_steps, monkeypatch
):
    """The stale point is written in the correction's transaction: a correction that fails
    leaves neither the new result nor a point."""
    club, sessions = history
    monkeypatch.setattr(replay, "insert_rows", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        flip(first_game(sessions[0]), people[0])
    assert not RatingsStale.objects.exists() and right(club)
