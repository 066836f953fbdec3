"""Two app servers behind one load balancer: two gunicorn instances (production settings, each on
a port of its own) sharing one PostgreSQL database and one Redis, as docs/operators/production.md
deploys them. Whatever one server does, the other sees at once.

Terms:
- server A, server B: gunicorn serving config.wsgi on two free loopback ports, 2 sync workers each,
  against the test database and a Redis database with a key prefix of this run's own (the
  variable PEGBOARD_TEST_REDIS_URL, by default redis://127.0.0.1:6379/13). The keys under the
  prefix are deleted afterwards; the rest of that Redis database is left alone.
- browser: one cookie jar (a real browser's, behind a load balancer that sends each request to
  either server), CSRF token sent with each post, redirects followed on the same server.
- visitor: a browser with no cookies, who gets the standings from the visitors' cache.

Needs PostgreSQL (SQLite is one file on one machine: two servers cannot share it) and a Redis
that answers; without either it skips and says which. CI's PostgreSQL run has both.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2SHA1PasswordHasher
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from games import services as game_services
from games.models import Result, ResultState
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.http_browser import Browser

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("PEGBOARD_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
PASSWORD = "two-servers-password"
TOKEN = re.compile(r'name="submission_token" value="([A-Za-z0-9_-]+)"')
NAMES = ("Ada", "Bo", "Cy", "Di")
VERSION = re.compile(r'name="(tables|standings|results|highlights)" value="([0-9a-f]+)"')


def redis_or_none():
    """A client of the test's Redis database, or None when no Redis answers there."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1, socket_timeout=2)
    try:
        client.ping()
    except (redis.RedisError, OSError):
        return None
    return client


pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="two app servers share one PostgreSQL database (a SQLite file is one machine's): "
        "CI's PostgreSQL run covers this",
    ),
    pytest.mark.django_db(transaction=True),
]


def cheap_password(raw: str) -> str:
    """`raw` hashed with few rounds of a hasher the site still accepts but no longer makes
    (PBKDF2 with SHA-1): a server checks a stored hash with the rounds it names, and tops a wrong
    password's check up to its own hasher's full cost only when the stored hash is of that same
    hasher. So the ten wrong passwords below cost milliseconds, not a second each."""
    hasher = PBKDF2SHA1PasswordHasher()
    return hasher.encode(raw, hasher.salt(), iterations=1000)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"], safe="") + (
        f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    )
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def production_env(**extra: str) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DB_"))}
    return kept | {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "two-servers-only-not-a-secret-" + "x" * 40,
        "PEGBOARD_HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url(),
        **extra,
    }


def collect_static_files(folder: Path) -> None:
    """Production settings serve static files from a collected manifest: collected into a
    folder of this test's own (STATIC_ROOT), since other runs in this checkout may be
    collecting into its own `staticfiles/` at the same moment."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=production_env(STATIC_ROOT=str(folder)),
        check=True,
        capture_output=True,
        timeout=120,
    )


@contextlib.contextmanager
def servers(count: int, **env: str):
    """`count` gunicorn instances started at once; their ports once each answers."""
    ports = [free_port() for _ in range(count)]
    started = [
        subprocess.Popen(
            [
                str(Path(sys.executable).with_name("gunicorn")),
                "config.wsgi",
                f"--bind=127.0.0.1:{port}",
                "--workers=2",
                "--preload",  # the site imported once, before the workers fork
                "--log-level=warning",
            ],
            cwd=ROOT,
            env=production_env(**env),
        )
        for port in ports
    ]
    try:
        deadline = time.monotonic() + 60
        for port, server in zip(ports, started, strict=True):
            while Browser(port).get(reverse("health"))[0] != 200:
                assert server.poll() is None, "gunicorn stopped at startup"
                assert time.monotonic() < deadline, "gunicorn did not answer within a minute"
                time.sleep(0.2)
        yield ports
    finally:
        for server in started:
            server.terminate()
        for server in started:
            server.wait(timeout=30)


@pytest.fixture
def shared_cache():
    """(Redis URL, key prefix, client) of this run, its keys deleted afterwards."""
    client = redis_or_none()
    if client is None:
        pytest.skip(f"no Redis answers at {REDIS_URL} (set PEGBOARD_TEST_REDIS_URL)")
    prefix = f"pegboard-two-servers-{secrets.token_hex(4)}"
    yield REDIS_URL, prefix, client
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)


@pytest.fixture
def evening():
    """A club that publishes its standings, two organisers with logins, and today's session with
    round 1 drawn: two tables, table 1's result entered by the first organiser (waiting for
    another to confirm it), table 2 still playing. Returns the session, the organisers, table
    1's draft and its players' names, and table 2."""
    club = ClubFactory(standings_public=True)
    first = UserFactory(role="organisers", club=club)
    second = UserFactory(role="organisers", club=club)
    for user in (first, second):
        user.password = cheap_password(PASSWORD)
        user.save(update_fields=["password"])
    session = club_services.session_open(club=club, actor=first, date=timezone.localdate())
    players = [PlayerFactory(club=club, display_name=f"{name} Peg") for name in NAMES]
    club_services.checkins_create(session=session, actor=first, players=players, paid=True)
    round_ = game_services.round_draw(session=session, actor=first, seed=3)
    one, two = round_.games.order_by("table")
    draft = game_services.result_enter(game=one, actor=first, scores=[121, 77])
    names = sorted(one.seats.values_list("player__display_name", flat=True))
    return session, (first, second), draft, names, two


def visitor_keys(redis, prefix: str) -> list[str]:
    """The visitors' cached pages in Redis, as Django's cache names them (without the prefix
    and key version it puts before each key)."""
    keys = redis.scan_iter(match=f"{prefix}:*:pegboard:visitor:*")
    return sorted(key.decode().split(":", 2)[2] for key in keys)


def test_two_servers_share_results_logins_lockouts_and_one_time_tokens(
    shared_cache, evening, tmp_path
):
    url, prefix, redis = shared_cache
    session, (first, second), draft, names, two = evening
    collect_static_files(tmp_path)
    env = {
        "CACHE_URL": url,
        "CACHE_KEY_PREFIX": prefix,
        "PEGBOARD_DEFAULT_CLUB": session.club.slug,
        "STATIC_ROOT": str(tmp_path),
    }
    started = time.monotonic()
    with servers(2, **env) as (a, b):
        visitor = Browser()
        standings = reverse("standings:season")
        parts = reverse("web:board_parts", args=[session.pk])
        htmx = {"HX-Request": "true"}

        # Before: table 1's result is a draft, so neither the standings nor the board show it.
        status, before = visitor.get(standings, port=b)
        assert status == 200
        assert not any(name in before for name in names)
        # B's copy of the visitors' page is in Redis, and A serves it from there: marked in
        # Redis, A's answer carries the mark.
        [key] = visitor_keys(redis, prefix)
        shared = RedisCache(url, {"KEY_PREFIX": prefix})
        copy = shared.get(key)
        copy.content += b"<!-- B's copy -->"
        shared.set(key, copy, 60)
        assert visitor.get(standings, port=a)[1] == before + "<!-- B's copy -->"
        status, page = visitor.get(reverse("web:board", args=[session.pk]), port=b)
        assert status == 200
        versions = dict(VERSION.findall(page))
        assert set(versions) == {"tables", "standings", "results", "highlights"}
        assert visitor.get(f"{parts}?{urlencode(versions)}", port=a, headers=htmx)[0] == 204

        # A login made on A is a session on B.
        organiser = Browser()
        organiser.log_in(second.username, PASSWORD, port=a)
        assert "sessionid" in organiser.cookies
        game_page = reverse("games:game", args=[draft.game_id])
        assert organiser.get(game_page, port=b, follow=False)[0] == 200
        assert Browser().get(game_page, port=b, follow=False)[0] == 302  # to the login page

        # The second organiser confirms table 1's result through A ...
        confirm = reverse("games:result_confirm", args=[draft.game_id, draft.pk])
        status, page = organiser.post(confirm, {}, port=a)
        assert status == 200 and "Table 1&#x27;s result confirmed." in page, page[-2000:]
        draft.refresh_from_db()
        assert draft.state == ResultState.CONFIRMED
        # ... and at once B's board, its standings and the visitors' pages show it.
        status, fresh = visitor.get(f"{parts}?{urlencode(versions)}", port=b, headers=htmx)
        assert status == 200 and all(name in fresh for name in names)
        assert {"standings", "results"} <= set(re.findall(r'id="board-(\w+)"', fresh))
        status, after = visitor.get(standings, port=b)
        assert status == 200 and all(name in after for name in names)
        assert visitor.get(standings, port=a)[1] == after
        assert len(visitor_keys(redis, prefix)) == 2  # the old version's copy and the new one
        status, members = organiser.get(standings, port=b)
        assert status == 200 and all(name in members for name in names)

        # A form's one-time token spent on A is refused on B: table 2's result is saved once.
        status, page = organiser.get(reverse("games:game", args=[two.pk]), port=a)
        token = TOKEN.search(page).group(1)
        enter = reverse("games:result_enter", args=[two.pk])
        form = {"submission_token": token, "side_0": "121", "side_1": "90"}
        status, page = organiser.post(enter, form, port=a)
        assert status == 200 and "Result entered" in page, page[-2000:]
        status, page = organiser.post(enter, form, port=b)
        assert status == 200 and "This was already saved." in page, page[-2000:]
        assert Result.objects.filter(game=two).count() == 1

        # Ten wrong passwords on A lock the login out on B (django-axes keeps the failures in
        # the database), and both servers count the address's failures in Redis.
        stranger = Browser()
        stranger.get(reverse("login"), port=a)
        wrong = {"username": first.username, "password": "not-the-password"}
        for _ in range(settings.AXES_FAILURE_LIMIT):
            stranger.post(reverse("login"), wrong, port=a)
        status, page = Browser().log_in(first.username, PASSWORD, port=b)
        assert status == 429 and "locked" in page.lower(), page[-2000:]
        failures = redis.scan_iter(match=f"{prefix}:*:pegboard:login-failures:*")
        assert [int(redis.get(key)) for key in failures] == [settings.AXES_FAILURE_LIMIT]
    assert time.monotonic() - started < 90, "two servers should take seconds, not minutes"
