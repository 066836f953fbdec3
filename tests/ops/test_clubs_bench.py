"""The many-clubs benchmark (ops.clubs_bench, `manage.py bench --clubs`): where it looks for
PostgreSQL, its refusals, how it reads a plan, its targets, and (on PostgreSQL) that the pages'
queries of one club among several use indexes that lead with the club or the session.

Terms: a *scan across clubs* is a plan node reading a big table whole (ops.clubs_bench). With
a few small clubs the planner rightly reads small tables whole, so the plans test looks at the
bench's `scans_without_index`: those still planned with sequential scans off, which have no
index to use.
"""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test import Client

from club.models import Club
from money.ledger_selectors import _ledger_rows_seen
from money.models import LedgerEntry
from ops import clubs_bench
from ops.clubs_seed import build_clubs

DEAD = "postgres://postgres@127.0.0.1:1/postgres"


def test_the_bench_database_is_on_the_servers_of_database_url_or_the_local_one():
    base, url = clubs_bench.bench_urls("postgres://me:pw@db.example:6543/site?sslmode=require")
    assert base.endswith("/site?sslmode=require")
    assert url == "postgres://me:pw@db.example:6543/pegboard_bench_clubs?sslmode=require"
    base, url = clubs_bench.bench_urls("sqlite:///db.sqlite3")
    assert base == clubs_bench.DEFAULT_URL
    assert url == "postgres://postgres@127.0.0.1:5432/pegboard_bench_clubs"


def test_no_postgresql_answering_is_exit_code_2_with_a_message(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", DEAD)
    with pytest.raises(CommandError, match="No PostgreSQL answers at 127.0.0.1:1 ") as error:
        call_command("bench", "--clubs", "3", stdout=io.StringIO(), stderr=io.StringIO())
    assert error.value.returncode == 2
    assert "pw" not in str(error.value)


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--clubs", "0"], "--clubs"), (["--clubs", "--years", "5", "2"], "--years")],
)
def test_bad_options_are_exit_code_2(args, message):
    with pytest.raises(CommandError, match=message) as error:
        call_command("bench", *args, stdout=io.StringIO())
    assert error.value.returncode == 2


def test_a_plan_reading_a_big_table_whole_is_a_scan_across_clubs():
    big = {"games_game": 50_000, "money_ledgerentry": 90_000}
    plan = {
        "Node Type": "Hash Join",
        "Plans": [
            {"Node Type": "Seq Scan", "Relation Name": "games_game"},
            {"Node Type": "Seq Scan", "Relation Name": "club_club"},
            {"Node Type": "Index Scan", "Relation Name": "money_ledgerentry"},
            {
                "Node Type": "Index Scan",
                "Relation Name": "money_ledgerentry",
                "Index Cond": "(club_id = 5)",
            },
            # Another index, looked up by a value: the rows of one session of the club.
            {
                "Node Type": "Index Scan",
                "Relation Name": "money_ledgerentry",
                "Index Cond": "(session_id = 3)",
                "Filter": "(club_id = 5)",
            },
            # MAX(id) of one club from the end of the id index, and a range of dates: every
            # club's rows read, the club's kept by the filter.
            {
                "Node Type": "Index Scan",  # PostgreSQL says "Scan Direction": "Backward"
                "Relation Name": "money_ledgerentry",
                "Index Cond": "(id IS NOT NULL)",
                "Filter": "(club_id = 51)",
            },
            {
                "Node Type": "Index Only Scan",
                "Relation Name": "games_game",
                "Index Cond": "(created_at >= '2026-01-01')",
                "Filter": "((club_id = 51) AND (state <> 'draft'))",
            },
        ],
    }
    assert clubs_bench._across(plan, big) == [
        {"table": "games_game", "rows": 50_000, "node": "Seq Scan"},
        {"table": "money_ledgerentry", "rows": 90_000, "node": "Index Scan"},
        {
            "table": "money_ledgerentry",
            "rows": 90_000,
            "node": "Index Scan",
            "filter": "(club_id = 51)",
        },
        {
            "table": "games_game",
            "rows": 50_000,
            "node": "Index Only Scan",
            "filter": "((club_id = 51) AND (state <> 'draft'))",
        },
    ]


def test_the_targets_read_the_clubs_section():
    page = {"p95_under_target": True, "queries_constant": True}
    report = {
        "pages": {"session": page | {"p95_under_target": False}, "player": page},
        "standings_throughput": {"meets_target": True},
        "plans": {"a": {"player": {"scans_across_clubs": [{}], "scans_without_index": []}}},
        "seed": {"check": {"differing": []}},
    }
    held = clubs_bench.targets(report)
    assert held["clubs_page_p95_under_50_ms"] is True
    assert held["clubs_session_page_p95_under_30_ms"] is False
    assert held["clubs_queries_per_club"] is True
    assert held["all"] is False
    report["plans"]["a"]["player"]["scans_without_index"] = [{"table": "games_game"}]
    assert clubs_bench.targets(report)["clubs_queries_per_club"] is False


on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="reads PostgreSQL's query plans"
)


@pytest.fixture(scope="module")
def clubs(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        build_clubs(
            clubs=4,
            years=1,
            long_years=0,
            players=8,
            today=dt.date(2026, 11, 19),
            rounds=2,
            weeks_apart=8,
        )
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # fresh statistics, as the bench and autovacuum keep them
        yield
        transaction.set_rollback(True)


@pytest.mark.postgres
@on_postgresql
@pytest.mark.django_db  # in a savepoint of the clubs' transaction; and run alone, a test database
@pytest.mark.parametrize("page", ["session", "season_standings", "all_time", "player", "ledger"])
def test_a_clubs_hot_queries_use_indexes_of_the_club_or_the_session(clubs, page, settings):
    requests = clubs_bench._requests("club-003")
    settings.PEGBOARD_DEFAULT_CLUB = "club-003"
    url, user = requests[page]
    client = Client()
    if user is not None:
        client.force_login(user)
    assert client.get(url).status_code == 200
    every_table = {table: 0 for table in connection.introspection.table_names()}
    plans = clubs_bench.explain_page(client, url, every_table)
    assert plans["explained"] > 0
    # A sequential scan still planned with sequential scans off has no index to use. (A whole
    # index read is the planner's choice for tables this small; the bench judges those.)
    across = [
        scan for scan in plans["scans_without_index"] if not scan["table"].startswith(SMALL_TABLES)
    ]
    assert not across, across


# Tables with a row or a few per club or per login: read whole whatever the number of clubs is
# small, and PostgreSQL may.
SMALL_TABLES = ("club_club", "auth_", "django_", "core_submissiontoken", "web_")


@pytest.mark.postgres
@on_postgresql
@pytest.mark.django_db
def test_the_ledgers_count_and_newest_row_read_the_clubs_rows_only(clubs):
    """What the ledger page reads outside a transaction (the tests run inside one) to know its
    cached balances are current: planned on the club's rows, not from the end of the id index
    through every later club's (a hundred clubs made that 94 ms for a club half-way down)."""
    club = Club.objects.get(slug="club-002")
    mine = LedgerEntry.objects.filter(club=club)
    assert _ledger_rows_seen(club) == (mine.count(), max(mine.values_list("pk", flat=True)))
    every_table = {table: 0 for table in connection.introspection.table_names()}
    plans = clubs_bench.explain(
        clubs_bench.statements_made(lambda: _ledger_rows_seen(club)), every_table
    )
    assert plans["explained"] == 1
    assert plans["scans_without_index"] == [], plans
