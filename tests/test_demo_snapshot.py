"""tests/demo_snapshot.py: the demo club copied back is the one `load_demo` made, row for row, and
the database goes on working after it (new rows get new ids, content types are the copied ones).
"""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

from club.models import Club, Player
from tests import demo_snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def rows_of(snapshot) -> dict:
    """table -> its rows in a set order (COPY gives PostgreSQL's rows in the order they lie)."""
    tables = snapshot.tables.items()
    if connection.vendor == "postgresql":
        return {table: sorted(rows.splitlines()) for table, rows in tables}
    return {table: (columns, sorted(rows, key=repr)) for table, (columns, rows) in tables}


def rows_now() -> dict:
    tables = connection.introspection.django_table_names(only_existing=True)
    return rows_of(demo_snapshot._take(tables))


@pytest.mark.parametrize("season", [False, True], ids=["bare club", "with its season"])
def test_the_copy_is_what_load_demo_made(season):
    demo_snapshot.load_demo(season=season)  # builds it, unless an earlier test did
    (snapshot,) = [
        taken
        for (_, _, kind, _), taken in demo_snapshot._SNAPSHOTS.items()
        if kind == demo_snapshot.demo_kind(season)
    ]
    call_command("flush", interactive=False, reset_sequences=False, verbosity=0)

    demo_snapshot.load_demo(season=season)

    assert rows_now() == rows_of(snapshot)
    club = Club.objects.get(slug="thursday-peggers")
    newest = Player.objects.order_by("-pk").first().pk
    assert Player.objects.create(club=club, display_name="After the copy").pk > newest
    club_type = ContentType.objects.get_for_model(Club)
    assert ContentType.objects.filter(pk=club_type.pk, model="club").exists()


def test_a_database_that_is_not_fresh_gets_the_command():
    Club.objects.create(name="Already here", slug="already-here")
    taken = dict(demo_snapshot._SNAPSHOTS)

    demo_snapshot.load_demo(season=False)

    assert taken == demo_snapshot._SNAPSHOTS  # no copy made or used
    assert Club.objects.filter(slug="thursday-peggers").get().players.count() == 16


def test_another_worker_reads_the_snapshot_the_first_one_left(tmp_path, monkeypatch):
    """With workers, the first one to need a kind leaves its snapshot in the run's folder; a
    worker without one of its own reads it there instead of running the command."""
    monkeypatch.setattr(demo_snapshot, "SHARED_DIR", tmp_path)
    monkeypatch.setattr(demo_snapshot, "_SNAPSHOTS", {})
    demo_snapshot.load_demo(season=False)  # the first worker: runs the command, leaves the copy
    (made,) = demo_snapshot._SNAPSHOTS.values()
    assert sorted(path.suffix for path in tmp_path.glob("demo-*")) == [".lock", ".pickle"]
    call_command("flush", interactive=False, reset_sequences=False, verbosity=0)
    monkeypatch.setattr(demo_snapshot, "_SNAPSHOTS", {})  # another worker's memory

    def command_not_wanted(season):
        raise AssertionError("the shared snapshot should have been read")

    monkeypatch.setattr(demo_snapshot, "_run_command", command_not_wanted)
    demo_snapshot.load_demo(season=False)

    assert rows_now() == rows_of(made)


def test_a_shared_snapshot_of_other_post_migrate_rows_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setattr(demo_snapshot, "SHARED_DIR", tmp_path)
    monkeypatch.setattr(demo_snapshot, "_SNAPSHOTS", {})
    demo_snapshot.load_demo(season=False)
    (path,) = tmp_path.glob("demo-*.pickle")
    made = demo_snapshot._read(path)
    other = demo_snapshot.Snapshot(
        tables=made.tables,
        post_migrate_rows={**made.post_migrate_rows, "auth_group": -1},
    )
    demo_snapshot._write(path, other)
    call_command("flush", interactive=False, reset_sequences=False, verbosity=0)
    monkeypatch.setattr(demo_snapshot, "_SNAPSHOTS", {})
    ran = []
    monkeypatch.setattr(demo_snapshot, "_run_command", ran.append)

    demo_snapshot.load_demo(season=False)

    assert ran == [False]  # the command ran (here recorded instead)


def test_any_world_is_built_once_and_copied_back_with_what_its_build_returned(monkeypatch):
    monkeypatch.setattr(demo_snapshot, "_SNAPSHOTS", {})
    builds = []

    def build():
        builds.append(1)
        demo_snapshot.load_demo(season=False)
        club = Club.objects.create(name="Built once", slug="built-once")
        return {"club": club.pk}

    made = demo_snapshot.built_once("a-world", build)
    rows = rows_now()
    call_command("flush", interactive=False, reset_sequences=False, verbosity=0)

    assert demo_snapshot.built_once("a-world", build) == made
    assert builds == [1]
    assert rows_now() == rows
    assert Club.objects.get(pk=made["club"]).slug == "built-once"
