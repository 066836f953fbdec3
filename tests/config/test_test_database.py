"""The suite's own PostgreSQL database (config.test_settings, config.test_postgresql): commits
that do not wait for the disk, and a flush with DELETE that leaves what Django's TRUNCATE leaves.

Terms: a *flush* empties every table and runs the post_migrate handlers again (the role groups
come back); pytest-django flushes after every transactional test. On SQLite the suite runs
Django's own backend, so the flush test there checks Django's flush the same way.
"""

import uuid
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connection, connections

from club.models import Club
from club.roles import ROLES

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the test database's PostgreSQL settings; CI's PostgreSQL run covers this",
)


@pytest.mark.postgres
@on_postgresql
@pytest.mark.django_db
def test_the_test_database_commits_without_waiting_and_keeps_the_sites_timeouts():
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "off"
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "10s"


@pytest.mark.postgres
@on_postgresql
def test_a_flush_deletes_unless_it_restarts_the_sequences_or_cascades():
    tables = ["club_club", "club_player"]
    assert connection.ops.sql_flush(no_style(), tables) == [
        'DELETE FROM "club_club";',
        'DELETE FROM "club_player";',
    ]
    for options in ({"reset_sequences": True}, {"allow_cascade": True}):
        (statement,) = connection.ops.sql_flush(no_style(), tables, **options)
        assert statement.startswith('TRUNCATE "club_club", "club_player"')


@pytest.mark.postgres
@on_postgresql
@pytest.mark.django_db
def test_the_end_of_test_check_of_deferred_keys_outlasts_the_statement_timeout():
    """Django's TestCase checks the deferred foreign keys at the end of every test in one
    statement; after a big test it outlasted the site's timeout on a loaded machine."""
    with connection.cursor() as cursor:
        # Far more rows with a deferred key than a millisecond checks.
        cursor.execute(
            "INSERT INTO auth_permission (content_type_id, codename, name)"
            " SELECT (SELECT MIN(id) FROM django_content_type), 'many_' || n, 'many'"
            " FROM generate_series(1, 20000) AS n"
        )
        cursor.execute("SET LOCAL statement_timeout = 1")
        connection.check_constraints()
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "1ms"  # the timeout in force is back


@pytest.mark.postgres
@on_postgresql
def test_a_test_database_left_with_a_connection_open_is_made_again_and_dropped(
    django_db_blocker,
):
    """A run stopped half-way, or one whose drop failed because something still held a
    connection, leaves its worker's database behind: the next run makes it afresh, and the drop
    at the end closes whatever connection is still open to it."""
    name = f"pegboard_left_{uuid.uuid4().hex[:12]}"
    settings = {**connection.settings_dict, "NAME": name}
    settings["TEST"] = {**settings["TEST"], "NAME": name}
    left = type(connections[DEFAULT_DB_ALIAS])(settings)

    def a_connection_left_open():
        return left.get_new_connection(left.get_connection_params())

    def exists() -> bool:
        with left._nodb_cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            return cursor.fetchone() is not None

    with django_db_blocker.unblock():
        with left._nodb_cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        try:
            with a_connection_left_open():
                assert left.creation._create_test_db(0, autoclobber=True) == name
            assert exists()
            with a_connection_left_open():
                left.creation._destroy_test_db(name, 0)
            assert not exists()
        finally:
            with left._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db(transaction=True)
def test_a_flush_empties_the_tables_and_brings_the_role_groups_back():
    club = Club.objects.create(name="Flushed", slug="flushed")
    call_command("flush", interactive=False, reset_sequences=False, verbosity=0)
    assert not Club.objects.exists()
    assert set(Group.objects.values_list("name", flat=True)) == set(ROLES)
    # A sequence keeps counting, as after Django's TRUNCATE without RESTART IDENTITY.
    assert Club.objects.create(name="After", slug="after").pk > club.pk


def test_each_test_process_walks_static_files_of_its_own(settings):
    """WhiteNoise walks STATIC_ROOT at every test client (pytest-django runs the tests with DEBUG
    off); the checkout's `staticfiles/` is where the benchmark tests of the other suite collect
    at the same time in CI, and a file gone mid-walk would be a 500 (config/test_settings.py)."""
    root = Path(settings.STATIC_ROOT)
    assert root != Path(settings.BASE_DIR) / "staticfiles"
    assert root.is_dir() and "pegboard-test-static-" in root.name
