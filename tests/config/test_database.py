"""The database settings under load and when the database does not answer.

Terms:
- *hung database*: a TCP listener that accepts connections and never says a word, as a
  PostgreSQL server does when its machine is swamped or a network path drops packets. Without a
  connect timeout a request waits on it for as long as the operating system lets it (minutes),
  holding a gunicorn worker; two such requests take a two-worker site down.
- *the 503 page*: what a visitor gets when the database raises OperationalError or
  InterfaceError out of a view (web.middleware.DatabaseUnavailableMiddleware): "the database is
  not answering, try again in a minute", status 503, rendered without touching the database.
"""

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import OperationalError, connection, transaction

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "database-tests-only-not-a-secret-" + "x" * 40,
    "PEGBOARD_HTTPS": "0",
    "ALLOWED_HOSTS": "testserver,127.0.0.1",
    "DJANGO_SETTINGS_MODULE": "config.settings",
}
NOT_ANSWERING = "The database is not answering"


def manage(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DB_", "DJANGO_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def database_settings(url: str, **env: str) -> dict:
    """settings.DATABASES["default"] in a fresh process with DATABASE_URL=url (no connection)."""
    code = (
        "import json; from django.conf import settings; "
        "print(json.dumps(settings.DATABASES['default'], default=str))"
    )
    done = manage("shell", "--no-imports", "-c", code, env=PRODUCTION | {"DATABASE_URL": url} | env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- SQLite: write-ahead log, immediate transactions, a busy timeout ------------------------------


def test_sqlite_waits_its_turn_to_write(tmp_path):
    options = database_settings(f"sqlite:///{tmp_path / 'site.sqlite3'}")["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] == 20
    assert "PRAGMA journal_mode=WAL" in options["init_command"]
    assert "PRAGMA synchronous=NORMAL" in options["init_command"]


def test_the_sqlite_busy_timeout_comes_from_the_environment(tmp_path):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    assert database_settings(url, DB_SQLITE_TIMEOUT="45")["OPTIONS"]["timeout"] == 45


def test_a_sqlite_file_database_is_opened_in_wal_mode(tmp_path):
    database = tmp_path / "site.sqlite3"
    code = (
        "from django.db import connection; c = connection.cursor(); "
        "print(c.execute('PRAGMA journal_mode').fetchone()[0], "
        "c.execute('PRAGMA synchronous').fetchone()[0])"
    )
    done = manage(
        "shell",
        "--no-imports",
        "-c",
        code,
        env=PRODUCTION | {"DATABASE_URL": f"sqlite:///{database}"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == ["wal", "1"]  # synchronous=NORMAL is 1


@pytest.mark.django_db(transaction=True)
def test_the_test_database_takes_the_settings_too():
    """The suite's own database (in memory on SQLite) opens with the same options: transactions
    begin IMMEDIATE and work; WAL does not apply to memory and is harmlessly refused."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's options; the PostgreSQL ones are tested below.")
    assert connection.transaction_mode == "IMMEDIATE"
    with transaction.atomic(), connection.cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "memory"


# --- PostgreSQL: connect and statement timeouts ---------------------------------------------------


def test_postgresql_gets_a_connect_and_a_statement_timeout():
    options = database_settings("postgres://x@127.0.0.1:5432/x")["OPTIONS"]
    assert options["connect_timeout"] == 5
    assert options["options"] == "-c statement_timeout=10000"
    assert "transaction_mode" not in options and "init_command" not in options


def test_the_postgresql_timeouts_come_from_the_environment():
    options = database_settings(
        "postgres://x@127.0.0.1:5432/x", DB_CONNECT_TIMEOUT="3", DB_STATEMENT_TIMEOUT_MS="2500"
    )["OPTIONS"]
    assert options["connect_timeout"] == 3
    assert options["options"] == "-c statement_timeout=2500"


def test_postgresql_prepares_the_statements_it_runs_again():
    options = database_settings("postgres://x@127.0.0.1:5432/x")["OPTIONS"]
    assert options["server_side_binding"] is True  # psycopg prepares only what the server binds
    assert options["prepare_threshold"] == 5


def test_prepared_statements_can_be_turned_off_for_a_pooler():
    options = database_settings("postgres://x@127.0.0.1:5432/x", DB_PREPARED_STATEMENTS="0")[
        "OPTIONS"
    ]
    assert "server_side_binding" not in options and "prepare_threshold" not in options


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DB_CONNECT_TIMEOUT", "soon"),
        ("DB_STATEMENT_TIMEOUT_MS", "-1"),
        ("DB_PREPARED_STATEMENTS", "sometimes"),
    ],
)
def test_an_unreadable_database_setting_is_a_clear_error(name, value):
    code = "from django.conf import settings; settings.DATABASES"
    done = manage(
        "shell",
        "-c",
        code,
        env=PRODUCTION | {"DATABASE_URL": "postgres://x@127.0.0.1:5432/x", name: value},
    )
    assert done.returncode != 0
    assert f"{name}={value!r}" in done.stderr


@pytest.fixture
def hung_database():
    """The port of a listener that accepts every connection and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])  # keep it open, say nothing
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join(timeout=5)
    for conn in accepted:
        conn.close()
    listener.close()


def test_a_hung_database_gets_the_503_page_within_10_seconds(hung_database):
    code = (
        "from django.test import Client; "
        "r = Client(raise_request_exception=False).get('/'); "
        "print(r.status_code); print(r.content.decode())"
    )
    env = PRODUCTION | {"DATABASE_URL": f"postgres://x@127.0.0.1:{hung_database}/x"}
    start = time.monotonic()
    try:
        done = manage("shell", "--no-imports", "-c", code, env=env, timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail("No answer in 15 s: the request waits on the hung database.")
    took = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    status, _, page = done.stdout.partition("\n")
    assert status == "503", done.stdout + done.stderr
    assert NOT_ANSWERING in page
    assert took < 10, f"the answer took {took:.1f} s"


# --- The 503 page -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.urls("tests.config.db_error_urls")
@pytest.mark.parametrize("url", ["/operational/", "/interface/"])
def test_a_database_error_out_of_a_view_is_the_503_page(client, url, django_assert_num_queries):
    with django_assert_num_queries(0):  # the page itself reads nothing from the database
        response = client.get(url)
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert NOT_ANSWERING in page
    assert "try again in a minute" in page


@pytest.mark.django_db
@pytest.mark.urls("tests.config.db_error_urls")
def test_any_other_error_is_not_the_503_page(client):
    client.raise_request_exception = False
    response = client.get("/other/")
    assert response.status_code == 500


def test_the_503_page_renders_without_templates_that_fail(monkeypatch, rf):
    """Should the page's own template fail (a static manifest missing, say), the visitor still
    gets the message in plain HTML, not a 500."""
    from web import middleware

    def broken(*args, **kwargs):
        raise ValueError("Missing staticfiles manifest entry for 'css/pegboard.css'")

    monkeypatch.setattr(middleware, "render_to_string", broken)
    response = middleware.DatabaseUnavailableMiddleware(lambda r: None).process_exception(
        rf.get("/"), OperationalError("database is locked")
    )
    assert response.status_code == 503
    assert NOT_ANSWERING in response.content.decode()


# --- PostgreSQL only: the statement timeout is the server's ----------------------------------


@pytest.mark.postgres
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="statement_timeout is PostgreSQL's; CI's PostgreSQL run covers this",
)
@pytest.mark.django_db
def test_a_statement_longer_than_the_timeout_is_cancelled():
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "10s"  # the setting reached the server
        start = time.monotonic()
        with pytest.raises(OperationalError, match="statement timeout"), transaction.atomic():
            # Lowered for this transaction only (a savepoint, rolled back by the error).
            cursor.execute("SET LOCAL statement_timeout = 200")
            cursor.execute("SELECT pg_sleep(3)")
        assert time.monotonic() - start < 2
        cursor.execute("SELECT 1")  # the connection is still usable


@pytest.mark.postgres
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="prepared statements are PostgreSQL's; CI's PostgreSQL run covers this",
)
@pytest.mark.django_db
def test_a_query_run_again_and_again_is_planned_once():
    from django.db.models import F

    from club.models import Club

    def prepared() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
                ['%"planned_once"%'],
            )
            return cursor.fetchone()[0]

    assert prepared() == 0
    for slug in ("a", "b", "c", "d", "e", "f"):  # the same query, other values
        list(Club.objects.filter(slug=slug).annotate(planned_once=F("pk")))
    assert prepared() == 1
