"""A shared cache that does not answer (core.shared_cache): the visitors' pages are rendered
fresh and logins go on, each failure a warning in the log, never an error page. The cache here
is Redis at a port where nothing listens, so every call fails at once."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from config.caches import REDIS_BACKEND
from core.shared_cache import cache_count, cache_get, cache_get_many, cache_set
from tests.factories import PASSWORD, ClubFactory, UserFactory

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import sys, django; django.setup(); "
    "from core.shared_cache import cache_get, cache_set; cache_set('k', 1, 5); "
    "print(cache_get('missing')); print('redis' in sys.modules)"
)
NOBODY_THERE = {
    "default": {
        "BACKEND": REDIS_BACKEND,
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


@pytest.fixture
def cache_down(_empty_cache):
    """Redis where nothing listens (after the suite's own cache is emptied, and until it is emptied
    again)."""
    with override_settings(CACHES=NOBODY_THERE):
        yield


def test_reads_are_misses_and_writes_do_nothing(cache_down, caplog):
    with caplog.at_level(logging.WARNING, logger="pegboard.cache"):
        cache_set("k", 1, 60)
        cache_count("n", 60)
        assert cache_get("k", "missing") == "missing"
        assert cache_get_many(["k", "n"]) == {}
    assert len(caplog.records) == 4
    assert all("did not answer" in record.getMessage() for record in caplog.records)


def test_the_errors_are_the_cache_s_own(cache_down):
    """Without core.shared_cache the same calls raise: the test's cache is really down."""
    with pytest.raises(redis.exceptions.ConnectionError):
        cache.get("k")


@pytest.mark.django_db
def test_a_visitor_gets_the_standings_while_the_cache_is_down(client, cache_down, caplog):
    club = ClubFactory(standings_public=True)
    with override_settings(PEGBOARD_DEFAULT_CLUB=club.slug):
        for _ in range(2):
            response = client.get(reverse("standings:season"))
            assert response.status_code == 200
            assert club.name in response.content.decode()
    assert any("did not answer" in record.getMessage() for record in caplog.records)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["standings:season", "standings:all_time", "standings:ratings", "money:ledger"]
)
def test_a_member_gets_the_pages_the_cache_keeps_parts_of_while_it_is_down(
    client, cache_down, name
):
    """The standings, the records and the ledger's pot balances are kept in the cache for
    members too: a cache that does not answer means they are counted afresh."""
    club = ClubFactory()
    client.force_login(UserFactory(role="organisers", club=club))
    assert client.get(reverse(name)).status_code == 200


@pytest.mark.django_db
def test_logins_go_on_while_the_cache_is_down(client, cache_down):
    user = UserFactory(role="organisers", club=ClubFactory())
    wrong = client.post(reverse("login"), {"username": user.username, "password": "wrong"})
    assert wrong.status_code == 200  # the form again, with its error
    right = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert right.status_code == 302
    assert client.get(reverse("home")).context["user"] == user


def test_an_error_that_is_no_cache_failure_still_raises(monkeypatch):
    def broken(*args, **kwargs):
        raise TypeError("cannot pickle")

    monkeypatch.setattr(cache, "set", broken)
    with pytest.raises(TypeError, match="cannot pickle"):
        cache_set("k", object(), 60)


def test_a_site_without_redis_never_imports_it():
    """One server needs no Redis: reading through core.shared_cache does not load redis-py."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
        | {"CACHE_URL": "", "REDIS_URL": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "False"]
