"""Fixtures for the whole suite: a club, one user per role, and clients logged in as each.

Terms: `role` is one of "public", "player", "judge", "organiser" (the rows of docs/spec.md's role
table); `client_for(role)` returns a test client logged in as a member of `club` in that role.
`other_club` is a second club on the same site and `stranger(role)` a member of it: a stranger's
current club is `other_club`, so they must never see `club`'s private data. `organiser` is an
organiser of `club`.

A *table* is one game of round 1, drawn through the services in a club of its own: `table` (its
players have logins), `jackpot_table` (its session runs the hand jackpots) and `link_table` (its
players have no logins and play through the table's link).

The suite runs in several worker processes at once (pytest-xdist, docs/developers/tests.md):
`checkout_static_files` is the one thing here they take turns at.
"""

import datetime as dt
import fcntl
import hashlib
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from club.roles import JUDGES, ORGANISERS, PLAYERS
from tests import demo_snapshot
from tests.builders import LinkTable, make_table
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.live_server import take_turns_on_a_shared_connection
from tests.scoring.jackpot_tables import make_jackpot_table

ROLES = ("public", "player", "judge", "organiser")
ROLE_GROUPS = {"player": PLAYERS, "judge": JUDGES, "organiser": ORGANISERS}


@pytest.fixture
def club(db):
    return ClubFactory(name="Thursday Test Club", slug="thursday-test")


@pytest.fixture
def member(club):
    """make a user in a role with a player record in `club` (so `club` is their current club)."""

    def make(role: str, **user_kwargs):
        user = UserFactory(role=ROLE_GROUPS[role], **user_kwargs)
        PlayerFactory(club=club, user=user, display_name=f"{role.title()} {user.username}")
        return user

    return make


@pytest.fixture
def organiser(member):
    """An organiser of `club`: a login in the organisers group with a player record there."""
    return member("organiser")


@pytest.fixture
def client_for(client, member):
    def login(role: str):
        if role != "public":
            client.force_login(member(role))
        return client

    return login


@pytest.fixture
def other_club(club):
    """A second club, made after `club` so that `club` stays the anonymous visitors' club."""
    return ClubFactory(name="Other Side Club", slug="other-side")


@pytest.fixture
def stranger(other_club):
    """make a user in a role with a player record in `other_club` (so that is their club)."""

    def make(role: str, **user_kwargs):
        user = UserFactory(role=ROLE_GROUPS[role], **user_kwargs)
        PlayerFactory(club=other_club, user=user, display_name=f"Stranger {user.username}")
        return user

    return make


@pytest.fixture
def table(db):
    """One 2-player game of round 1 in a club of its own, its players and users (with logins)
    listed by side (tests.builders.make_table)."""
    return make_table()


@pytest.fixture
def jackpot_table(db):
    """A `table` whose session runs the 29, 28 and 24 jackpots (tests.scoring.jackpot_tables)."""
    return make_jackpot_table()


@pytest.fixture
def link_table(db):
    """A `table` whose players have no logins: they play through its table link
    (tests.builders.LinkTable)."""
    return LinkTable()


class FreshObjects(Mapping):
    """{name: object} of {name: (model, id)}, each object read from the database the first time
    it is asked for, and kept."""

    def __init__(self, ids: dict):
        self._ids, self._read = ids, {}

    def __getitem__(self, key):
        if key not in self._read:
            model, pk = self._ids[key]
            self._read[key] = model.objects.get(pk=pk)
        return self._read[key]

    def __contains__(self, key) -> bool:
        return key in self._ids

    def __iter__(self):
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


@dataclass(frozen=True)
class PageWorld:
    """`club` and `other_club` of the page tests, each with the objects their URLs name
    (tests/web/test_pages.py `club_objects`, and a tournament): `objects` holds the first club's
    as (model, id) by parameter name; `logins` a user id for each column of the page table but
    "public" (its roles in the first club, then "stranger" and "b_organiser" of the other club,
    and "no_record", an organisers' login with no player record)."""

    club: int
    other_club: int
    objects: dict
    logins: dict

    def first_club(self):
        from club.models import Club

        return Club.objects.get(pk=self.club)

    def second_club(self):
        from club.models import Club

        return Club.objects.get(pk=self.other_club)

    def fresh_objects(self) -> Mapping:
        """The first club's objects read afresh, so no test sees what another changed in memory:
        each read when first asked for (a URL names one or two of them)."""
        return FreshObjects(self.objects)

    def login(self, column: str):
        return get_user_model().objects.get(pk=self.logins[column])

    def client_as(self, client, column: str):
        """`client`, logged in as `column` of the page table (anonymous for "public")."""
        if column != "public":
            client.force_login(self.login(column))
        return client


@pytest.fixture(scope="module")
def page_world(django_db_setup, django_db_blocker) -> PageWorld:
    """A `PageWorld`, built once for the module that asks for it, inside a transaction rolled
    back at the module's end; each test runs in a savepoint of it, so what a page writes is gone
    before the next test. Its clubs are the site's only clubs: a module that asks for it asks for
    no `club` or `other_club`."""
    from tests.tournaments.page_objects import tournament_objects
    from tests.web.test_pages import club_objects

    with django_db_blocker.unblock(), transaction.atomic():
        club = ClubFactory(name="Thursday Test Club", slug="pages-first")
        other_club = ClubFactory(name="Other Side Club", slug="pages-other")
        club_objects(other_club) | tournament_objects(other_club)
        objects = club_objects(club) | tournament_objects(club)

        def login(role: str, of, name: str) -> int:
            user = UserFactory(role=ROLE_GROUPS[role])
            PlayerFactory(club=of, user=user, display_name=f"{name} {user.username}")
            return user.pk

        logins = {role: login(role, club, role.title()) for role in ROLES if role != "public"}
        logins["stranger"] = login("player", other_club, "Stranger")
        logins["b_organiser"] = login("organiser", other_club, "Stranger")
        logins["no_record"] = UserFactory(role=ORGANISERS).pk
        yield PageWorld(
            club=club.pk,
            other_club=other_club.pk,
            objects={key: (type(obj), obj.pk) for key, obj in objects.items()},
            logins=logins,
        )
        transaction.set_rollback(True)


@pytest.fixture(scope="session", autouse=True)
def _shared_demo_snapshots(tmp_path_factory, worker_id):
    """With workers, the demo club's snapshots are shared through the run's folder, which
    pytest-xdist's workers have in common (tests/demo_snapshot.py)."""
    if worker_id != "master":
        demo_snapshot.SHARED_DIR = tmp_path_factory.getbasetemp().parent
    yield
    demo_snapshot.SHARED_DIR = None


@pytest.fixture(scope="session")
def _live_server_takes_turns():
    """Every live server this process starts from now on is tests.live_server's."""
    take_turns_on_a_shared_connection()


@pytest.fixture(scope="session")
def live_server(_live_server_takes_turns, django_db_setup, live_server):
    """pytest-django's live server, started once the test database is made and answering one
    request at a time when it shares the tests' in-memory SQLite connection
    (tests/live_server.py)."""
    return live_server


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache (the visitors' page cache lives in it)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def clock():
    """The time the site reads (`django.utils.timezone.now`), moved by hand instead of slept
    on: `clock.now` (it starts at the real time) and `clock.advance(seconds)`."""

    class Clock:
        now = timezone.now()

        def advance(self, seconds: float) -> None:
            self.now += dt.timedelta(seconds=seconds)

    found = Clock()
    with mock.patch("django.utils.timezone.now", side_effect=lambda: found.now):
        yield found


@pytest.fixture
def checkout_static_files():
    """The checkout's collected static files (`staticfiles/`, where production settings collect
    and serve them), held by this test alone until it ends.

    A test that starts gunicorn or `manage.py collectstatic` with production settings takes this
    fixture: collectstatic deletes and rewrites the hashed files and their manifest, and WhiteNoise
    walks the folder when gunicorn starts, so a file gone mid-walk would stop a server that another
    worker's test is starting. The lock is a file in the system's temporary folder named after the
    checkout, so every test process of this checkout (the workers of one run, and a second run
    beside it) waits for it, and no other checkout does."""
    checkout = str(Path(settings.BASE_DIR).resolve()).encode()
    name = f"pegboard-staticfiles-{hashlib.sha256(checkout).hexdigest()[:16]}.lock"
    with open(Path(tempfile.gettempdir()) / name, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield Path(settings.BASE_DIR) / "staticfiles"
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
