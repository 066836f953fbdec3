"""Visitors get the standings, all-time and player pages from the cache (core.pages,
ClubVisitorCacheMixin), keyed by the club's pages version, which the services bump in the
transaction that changes what those pages show: a cached page is never stale."""

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from club import services as club_services
from club.models import Club
from games import services as game_services
from money.services import session_reopen, session_settle
from tests.builders import run_session
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    club = ClubFactory(name="Cache Club", slug="cache-club")
    organiser = UserFactory(role="organisers", club=club)
    confirmer = UserFactory(role="organisers", club=club)
    session = run_session(club, organiser, confirmer, players=4, rounds=1, date=dt.date(2026, 3, 5))
    return club, organiser, confirmer, session


def without_clock(html: bytes) -> bytes:
    """The page without its "Printed <time>" footer (the minute may turn during a test)."""
    return re.sub(rb"Printed [^<]*", b"", html)


def version(club) -> int:
    return Club.objects.get(pk=club.pk).pages_version


def cached_get(client, url, django_assert_max_num_queries):
    """GET twice; the second answer must come from the cache (one query: the club)."""
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_max_num_queries(1):
        second = client.get(url)
    assert second.content == first.content
    return second


@pytest.mark.parametrize("name", ["standings:season", "standings:all_time", "standings:player"])
def test_visitors_get_a_cached_copy(name, played, client, django_assert_max_num_queries):
    club, *_ = played
    player = club.players.first()
    url = reverse(name, args=[player.pk]) if name == "standings:player" else reverse(name)
    cached_get(client, url, django_assert_max_num_queries)


def test_members_always_get_a_fresh_render(played, client, django_assert_max_num_queries):
    club, organiser, *_ = played
    client.force_login(organiser)
    url = reverse("standings:season")
    client.get(url)
    with pytest.raises(pytest.fail.Exception), django_assert_max_num_queries(1):
        client.get(url)


def test_a_correction_shows_at_once(played, client, django_assert_max_num_queries):
    club, organiser, _, session = played
    url = reverse("standings:season")
    before = cached_get(client, url, django_assert_max_num_queries)
    # A game the organiser does not play in: nobody corrects his own game alone.
    game = session.games.exclude(seats__player__user=organiser).order_by("table").first()
    current = game.results.get(state="confirmed")
    scores = [121, 60] if current.scores[0] != 121 else [60, 121]
    start = version(club)
    game_services.result_correct(game=game, actor=organiser, scores=scores, reason="Misread")
    assert version(club) > start
    after = client.get(url)
    cache.clear()
    fresh = client.get(url)
    assert without_clock(after.content) == without_clock(fresh.content)
    assert without_clock(after.content) != without_clock(before.content)


def test_settling_reopening_renaming_and_rules_move_the_version(played):
    club, organiser, _, session = played
    steps = [
        lambda: session_settle(session=session, actor=organiser),
        lambda: session_reopen(session=session, actor=organiser, reason="recount"),
        lambda: club_services.player_update(
            player=club.players.first(), actor=organiser, display_name="Renamed Rita"
        ),
        lambda: club_services.player_create(club=club, actor=organiser, display_name="New Ned"),
        lambda: club_services.club_update_rules(club=club, actor=organiser, best_sessions=3),
    ]
    for step in steps:
        start = version(club)
        step()
        assert version(club) == start + 1


def test_a_full_save_never_puts_the_version_back(played):
    club, organiser, _, _ = played
    stale = Club.objects.get(pk=club.pk)
    club_services.player_create(club=club, actor=organiser, display_name="Bumps It")
    bumped = version(club)
    stale.venue = "Elsewhere Hall"
    stale.save()
    assert version(club) == bumped
    assert Club.objects.get(pk=club.pk).venue == "Elsewhere Hall"


def test_unpublished_standings_are_neither_served_nor_cached(played, client):
    club, organiser, *_ = played
    url = reverse("standings:season")
    assert client.get(url).status_code == 200
    club_services.club_update_rules(club=club, actor=organiser, standings_public=False)
    assert client.get(url).status_code == 404


def test_a_visitor_with_a_session_is_not_served_from_the_cache(
    played, client, django_assert_max_num_queries
):
    url = reverse("standings:season")
    client.get(url)
    client.cookies["sessionid"] = "not-a-real-session"
    with pytest.raises(pytest.fail.Exception), django_assert_max_num_queries(1):
        client.get(url)


def test_each_new_club_draws_its_first_pages_version():
    """The first version is drawn at random (core.pages), not counted from 0 in every database:
    a shared cache may hold the copies of another database's club with the same id."""
    first, second = ClubFactory(slug="first"), ClubFactory(slug="second")
    versions = {version(first), version(second)}
    assert len(versions) == 2 and max(versions) >= 2**32
