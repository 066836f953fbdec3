"""The visitors' cache key holds only the query parameters a page reads.

A query string must not skip the cache: `?x=random` on every request would take the standings from
631 to 39 requests a second and fill the cache with junk keys. Each cached view declares the
parameters it reads (`visitor_cache_params`); the key is the path plus those parameters' values in
the declared order, and a visitor's page is rendered from those parameters only.
"""

import datetime as dt
import re
import sys

import pytest
from django.core.cache import cache
from django.http import QueryDict
from django.urls import reverse
from django_tables2.export import ExportMixin
from django_tables2.views import SingleTableMixin

from core.pages import VisitorCacheMixin
from money.services import session_settle
from tests.builders import run_session
from tests.factories import UserFactory
from tests.web.test_pages import named_urls

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_seasons(club, member):
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    for year in (2024, 2025):
        session = run_session(
            club, organiser, confirmer, players=5, rounds=1, date=dt.date(year, 3, 6), seed=year
        )
        session_settle(session=session, actor=organiser)
    return organiser


def visitor_keys() -> list[str]:
    """The visitors' pages in the (local memory) cache."""
    return [key for key in cache._cache if "pegboard:visitor:" in key]


def cached_views() -> dict[str, type]:
    """Every URL name of the site whose view is served to visitors from the cache."""
    found = {}
    for name, pattern in named_urls():
        view_class = getattr(pattern.callback, "view_class", None)
        if view_class is not None and issubclass(view_class, VisitorCacheMixin):
            found[name] = view_class
    return found


def test_the_cached_views_are_the_public_standings_pages():
    assert set(cached_views()) == {
        "standings:season",
        "standings:all_time",
        "standings:ratings",
        "standings:player",
    }


def test_a_query_parameter_the_page_does_not_read_shares_one_entry(
    two_seasons, client, django_assert_max_num_queries
):
    url = reverse("standings:season")
    first = client.get(url)
    assert first.status_code == 200
    assert len(visitor_keys()) == 1
    for junk in ({"x": "1"}, {"x": "2"}, {"utm_source": "newsletter", "fbclid": "abc"}):
        with django_assert_max_num_queries(1):  # the club; the page itself from the cache
            response = client.get(url, junk)
        assert response.status_code == 200
        assert response.content == first.content
    assert len(visitor_keys()) == 1


def test_a_visitor_page_is_rendered_from_the_declared_parameters_only(two_seasons, client):
    """The first visitor's junk never shows in the copy everyone else gets (the CSV link is built
    from the query string)."""
    page = client.get(reverse("standings:season"), {"season": "2025", "x": "junk-marker"})
    assert page.status_code == 200
    assert b"junk-marker" not in page.content
    assert b"_export=csv" in page.content


def test_each_season_is_an_entry_of_its_own(two_seasons, client, django_assert_max_num_queries):
    url = reverse("standings:season")
    pages = {}
    for season in ("2025", "2024"):
        pages[season] = client.get(url, {"season": season})
        assert pages[season].status_code == 200
        assert f"Standings {season}".encode() in pages[season].content
    assert len(visitor_keys()) == 2
    for season in ("2025", "2024"):
        with django_assert_max_num_queries(1):
            again = client.get(url, {"season": season, "x": "1"})
        assert again.content == pages[season].content


def names_in(page) -> list[str]:
    return re.findall(r'href="/games/players/\d+/">([^<]+)</a>', page.content.decode())


@pytest.mark.parametrize("name", ["standings:season", "standings:all_time"])
def test_sorting_still_works_for_a_visitor_through_the_cache(
    name, two_seasons, client, django_assert_max_num_queries
):
    url = reverse(name)
    up = names_in(client.get(url, {"sort": "player"}))
    down = names_in(client.get(url, {"sort": "-player"}))
    assert len(up) >= 5
    assert up == sorted(up) and down == sorted(up, reverse=True)
    with django_assert_max_num_queries(1):
        assert names_in(client.get(url, {"sort": "-player", "x": "2"})) == down
    with django_assert_max_num_queries(1):
        assert names_in(client.get(url, {"sort": "player"})) == up


def test_the_csv_and_the_page_are_separate_entries(two_seasons, client):
    url = reverse("standings:season")
    page = client.get(url, {"season": "2025"})
    csv = client.get(url, {"season": "2025", "_export": "csv"})
    assert page["Content-Type"].startswith("text/html")
    assert csv["Content-Type"].startswith("text/csv")
    assert client.get(url, {"season": "2025"})["Content-Type"].startswith("text/html")
    assert client.get(url, {"season": "2025", "_export": "csv"})["Content-Type"].startswith(
        "text/csv"
    )


@pytest.mark.parametrize("name", sorted(cached_views()))
def test_a_page_declares_every_parameter_its_table_reads(name):
    view = cached_views()[name]
    params = view.visitor_cache_params
    assert isinstance(params, tuple) and len(set(params)) == len(params)
    if issubclass(view, SingleTableMixin):
        table = view.table_class([])
        assert table.prefixed_order_by_field in params
        if view.table_pagination is not False:
            assert table.prefixed_page_field in params
            assert table.prefixed_per_page_field in params
    if issubclass(view, ExportMixin):
        assert view.export_trigger_param in params


@pytest.mark.parametrize("name", sorted(cached_views()))
def test_a_page_reads_no_query_parameter_it_does_not_declare(
    name, two_seasons, club, client, monkeypatch
):
    """A member's request (not cached, the whole query string kept) with every parameter any
    page reads: each read of a value of the query string is recorded and must be one the view
    declares. (Links that carry the query string along, django-tables2's `querystring` and
    `export_url`, copy it whole: that is not a read, and a visitor's copy holds the declared
    parameters only.)"""
    read = set()
    # QueryDict's own methods (building one from the query string) call these too.
    INTERNALS = ("django/utils/datastructures.py", "django/http/request.py")

    def recording(method):
        original = getattr(QueryDict, method)

        def record(self, key, *args):
            caller = sys._getframe(1).f_code
            if not caller.co_filename.endswith(INTERNALS) and not (
                caller.co_name == "render" and "django_tables2" in caller.co_filename
            ):
                read.add(key)
            return original(self, key, *args)

        return record

    for method in ("get", "getlist", "__getitem__", "__contains__"):
        monkeypatch.setattr(QueryDict, method, recording(method))
    client.force_login(two_seasons)
    args = [club.players.order_by("pk").last().pk] if name == "standings:player" else []
    query = {"season": "2025", "sort": "player", "page": "1", "per_page": "5", "x": "1"}
    response = client.get(reverse(name, args=args), query)
    assert response.status_code == 200
    assert read, "the recorder saw no read at all"
    assert read <= set(cached_views()[name].visitor_cache_params)
