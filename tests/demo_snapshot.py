"""The demo club for the tests that start from it (the browser tests): `manage.py load_demo` runs
once per test run for each kind, and its rows are copied back for every later test.

Terms:
- *fresh database*: what a test starts from: every table empty but the four that Django's
  post_migrate handlers fill (content types, permissions, the role groups, their permissions).
- *snapshot*: every row of every table right after `load_demo` ran on a fresh database, kept in
  this process's memory for the rest of the run; one per kind (with or without the past season)
  and day (the season counts back from today).
- *shared*: with the suite's workers (pytest-xdist), the first worker that needs a kind takes
  its snapshot and leaves it in the run's folder (`SHARED_DIR`, set by tests/conftest.py) for
  the others, which read it instead of running the command themselves; a lock on the kind keeps
  a second worker waiting while the first one builds it. A snapshot whose post_migrate rows do
  not match a worker's database is not used there.
- `load_demo(season=...)`: on a fresh database, the first call runs the command and takes the
  snapshot; every later one puts the snapshot's rows back with their own ids (the post_migrate
  tables' rows replaced by the snapshot's, sequences set past the highest id), in one
  transaction, instead of playing the season through the services again: a fraction of a second
  instead of 10 s on SQLite and 25 s on PostgreSQL. The database then holds what the command made
  on its first run, row for row, timestamps included. On a database that is not fresh it runs the
  command, as the test would have.

The tests of the command itself (tests/ops/test_demo.py, the season's repeatability in
test_demo_season.py) run it, and tests/test_demo_snapshot.py checks that a copy is what the
command made; the tests that only read what it built (the season's figures among them) take the
snapshot like the others.

`built_once(kind, build)` does the same for any other world a test builds on a fresh database
(the page crawl's, say): `build()` runs on the first call of the run, the rows it left and what it
returned are the snapshot, and every later call puts the rows back and returns the same value
(which must pickle: ids, paths, names, not model instances).
"""

from __future__ import annotations

import datetime as dt
import fcntl
import io
import pickle
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import timezone

POST_MIGRATE_TABLES = (
    "django_content_type",
    "auth_permission",
    "auth_group",
    "auth_group_permissions",
)


@dataclass(frozen=True)
class Snapshot:
    """table -> its rows: COPY's text on PostgreSQL, (columns, rows) on SQLite."""

    tables: dict[str, object]
    post_migrate_rows: dict[str, int]
    result: Any = None  # what the build returned


_SNAPSHOTS: dict[tuple, Snapshot] = {}
SHARED_DIR: Path | None = None  # the run's folder the workers share (see the terms)


def demo_kind(season: bool) -> str:
    """The kind `load_demo` keeps its snapshot under, with or without the season."""
    return "demo-season" if season else "demo-no-season"


def load_demo(*, season: bool = True) -> str:
    """What `manage.py load_demo [--no-season]` leaves in the database (see the module's terms);
    what it printed when it ran."""
    return built_once(demo_kind(season), lambda: _run_command(season))


def built_once(kind: str, build: Callable[[], Any]) -> Any:
    """What `build()` returns, with the rows it leaves, built once per run for each kind (and
    day) and copied back after that (see the module's terms); on a database that is not fresh,
    `build()` runs as it would have without the snapshot."""
    tables = connection.introspection.django_table_names(only_existing=True)
    key = (connection.vendor, connection.settings_dict["NAME"], kind, timezone.localdate())
    snapshot = _SNAPSHOTS.get(key)
    if not _fresh(tables) or (
        snapshot is not None and snapshot.post_migrate_rows != _post_migrate_rows()
    ):
        return build()
    if snapshot is None:
        with _shared(kind) as path:
            shared = _read(path)
            if shared is not None and shared.post_migrate_rows == _post_migrate_rows():
                _restore(shared)
                _SNAPSHOTS[key] = shared
                return shared.result
            result = build()
            _SNAPSHOTS[key] = _take(tables, result)
            _write(path, _SNAPSHOTS[key])
            return result
    _restore(snapshot)
    return snapshot.result


@contextmanager
def _shared(kind: str):
    """The path of the kind's shared snapshot, held under its lock (None: no workers)."""
    if SHARED_DIR is None:
        yield None
        return
    name = f"{kind}-{connection.vendor}-{timezone.localdate()}"
    with open(SHARED_DIR / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the process ends
        yield SHARED_DIR / f"{name}.pickle"


def _read(path: Path | None) -> Snapshot | None:
    return pickle.loads(path.read_bytes()) if path is not None and path.exists() else None


def _write(path: Path | None, snapshot: Snapshot) -> None:
    if path is not None:
        partial = path.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(snapshot, protocol=pickle.HIGHEST_PROTOCOL))
        partial.replace(path)  # whole or not there


def _run_command(season: bool) -> str:
    out = io.StringIO()
    call_command("load_demo", season=season, stdout=out)
    return out.getvalue()


def _count(cursor, table: str) -> int:
    cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
    return cursor.fetchone()[0]


def _fresh(tables: list[str]) -> bool:
    with connection.cursor() as cursor:
        return not any(
            _count(cursor, table) for table in tables if table not in POST_MIGRATE_TABLES
        )


def _post_migrate_rows() -> dict[str, int]:
    with connection.cursor() as cursor:
        return {table: _count(cursor, table) for table in POST_MIGRATE_TABLES}


def _take(tables: list[str], result: Any = None) -> Snapshot:
    taken: dict[str, object] = {}
    with connection.cursor() as cursor:
        for table in tables:
            name = connection.ops.quote_name(table)
            if connection.vendor == "postgresql":
                with cursor.copy(f"COPY {name} TO STDOUT") as copy:
                    taken[table] = b"".join(bytes(block) for block in copy)
            else:
                cursor.execute(f"SELECT * FROM {name}")
                taken[table] = ([column[0] for column in cursor.description], cursor.fetchall())
    return Snapshot(tables=taken, post_migrate_rows=_post_migrate_rows(), result=result)


def _sqlite_value(value):
    """A value as SQLite gave it, ready to go back: Django's SQLite backend reads time columns
    as `datetime.time` and has no adapter for them (it writes them as text itself)."""
    return value.isoformat() if isinstance(value, dt.time) else value


def _restore(snapshot: Snapshot) -> None:
    quote = connection.ops.quote_name
    # One transaction: the foreign keys are deferred, so the tables go in in any order.
    with transaction.atomic(), connection.cursor() as cursor:
        for table in POST_MIGRATE_TABLES:
            cursor.execute(f"DELETE FROM {quote(table)}")
        for table, rows in snapshot.tables.items():
            if connection.vendor == "postgresql":
                if rows:
                    with cursor.copy(f"COPY {quote(table)} FROM STDIN") as copy:
                        copy.write(rows)
                continue
            columns, values = rows
            if values:
                cursor.executemany(
                    f"INSERT INTO {quote(table)} ({', '.join(map(quote, columns))}) "
                    f"VALUES ({', '.join(['%s'] * len(columns))})",
                    [[_sqlite_value(value) for value in row] for row in values],
                )
        # SQLite's AUTOINCREMENT counters follow the ids inserted; PostgreSQL's sequences do not.
        for statement in connection.ops.sequence_reset_sql(no_style(), apps.get_models()):
            cursor.execute(statement)
    # The content types now have the snapshot's ids.
    ContentType.objects.clear_cache()
