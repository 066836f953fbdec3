"""The many-clubs benchmark (`manage.py bench --clubs`, `make bench-clubs`): a site hosting a
hundred clubs on one PostgreSQL.

Terms:
- the bench database: `DATABASE_NAME` on the PostgreSQL of DATABASE_URL (when that is a
  PostgreSQL URL) or of `DEFAULT_URL`, dropped and created at the start, dropped at the end.
  No PostgreSQL answering is an error the command turns into exit code 2.
- the clubs: `seed_history --clubs N --years Y --long-club-years L --check` (ops.clubs_seed) in a
  child process: its own seconds, and its check of the copies against the played clubs.
- the two clubs timed: the long club (`club-long`, L years) and a Y-year club from the middle
  of the list (a copy); on each, in a child process with production settings (`bench
  --clubs-child`), ops.benchmarks.time_pages's pages plus the club's ledger (`ledger`, as an
  organiser), then each page rendered once more with every SELECT it made explained.
- scan across clubs: in an explained plan, a sequential scan of a table of at least `BIG_ROWS`
  rows, an index scan of one without an index condition (the whole index read), or an index
  scan of one with no value to look up (`id IS NOT NULL`, a range) that keeps the club's rows
  by a filter (its `filter`): work that grows with the number of clubs instead of with the
  club's own rows. The planner's statistics are fresh and the tables vacuumed (VACUUM ANALYZE
  after seeding), as autovacuum keeps them on a live site.
- throughput: ops.benchmarks.throughput (gunicorn, 8 clients) against the bench database, the
  long club as the site's default club.
  A scan across clubs is explained again with sequential scans off: a sequential scan still
  planned is a scan without an index (no index starts with the club or the session it filters
  on), and so is an index scan that still filters the club row by row (no index answers the
  query as it is asked); the others are the planner's choice at this size (a table of a row
  per session, say, read whole because that is cheaper than an index there).
Targets: each page's 95th percentile under `PAGE_TARGET_MS` (the session page under
`SESSION_TARGET_MS`) on both clubs, each page's query count the same on both, the season
standings at least `THROUGHPUT_TARGET` of the trivial view's requests per second, no scan
without an index, and the copies' check clean.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from ops import benchmarks

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres"
DATABASE_NAME = "pegboard_bench_clubs"
CLUBS, YEARS, LONG_YEARS = 100, 2, 10
PAGE_TARGET_MS = 50
SESSION_TARGET_MS = 30
THROUGHPUT_TARGET = 0.5
BIG_ROWS = 10_000


class NoPostgreSQL(RuntimeError):
    """No PostgreSQL answered at the bench's address."""


def bench_urls(environ_url: str | None = None) -> tuple[str, str]:
    """(the server's maintenance database URL, the bench database's URL)."""
    base = environ_url if environ_url is not None else os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        base = DEFAULT_URL
    parts = urlsplit(base)
    return base, urlunsplit(parts._replace(path=f"/{DATABASE_NAME}"))


def _admin(base: str):
    import psycopg

    try:
        return psycopg.connect(base, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        parts = urlsplit(base)
        where = f"{parts.hostname}:{parts.port or 5432}"  # the password stays out of the message
        raise NoPostgreSQL(
            f"No PostgreSQL answers at {where} ({str(error).strip().splitlines()[0]}): start it, "
            "or set DATABASE_URL to a PostgreSQL URL whose user may create databases."
        ) from None


def _recreate(base: str) -> None:
    with _admin(base) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {DATABASE_NAME}")


def _drop(base: str) -> None:
    with _admin(base) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")


def _size(base: str) -> dict:
    with _admin(base) as admin:
        size, pretty = admin.execute(
            "SELECT pg_database_size(%s), pg_size_pretty(pg_database_size(%s))",
            [DATABASE_NAME, DATABASE_NAME],
        ).fetchone()
    return {"name": DATABASE_NAME, "bytes": size, "pretty": pretty}


# --- The child run: one club's pages and plans ----------------------------------------------------


def _ledger_request(slug: str) -> tuple[str, object]:
    from django.contrib.auth import get_user_model

    from club.roles import ORGANISERS

    organiser = (
        get_user_model()
        .objects.filter(groups__name=ORGANISERS, username__startswith=f"{slug}-")
        .first()
    )
    return reverse("money:ledger"), organiser


def _requests(slug: str) -> dict:
    return {**benchmarks._page_requests(slug), "ledger": _ledger_request(slug)}


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _big_tables() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reltuples::bigint FROM pg_class "
            "WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND reltuples >= %s",
            [BIG_ROWS],
        )
        return dict(cursor.fetchall())


# An equality in a plan's condition: `=`, not part of `>=`, `<=` or `<>` (`= ANY (...)` is one).
EQUALITY = re.compile(r"(?<![<>!=])=(?![=>])")
INDEX_SCANS = ("Index Scan", "Index Only Scan")


def _across(plan: dict, big: dict[str, int]) -> list[dict]:
    """The plan's scans that read a big table across clubs (see the module's terms)."""
    found = []
    relation = plan.get("Relation Name")
    kind = plan["Node Type"]
    if relation in big:
        if kind == "Seq Scan" or (kind in INDEX_SCANS and "Index Cond" not in plan):
            found.append({"table": relation, "rows": big[relation], "node": kind})
        elif kind in INDEX_SCANS and _club_row_by_row(plan):
            found.append(
                {"table": relation, "rows": big[relation], "node": kind, "filter": plan["Filter"]}
            )
    for child in plan.get("Plans", []):
        found += _across(child, big)
    return found


def _club_row_by_row(plan: dict) -> bool:
    """An index read in its order, without a value to start from (`id IS NOT NULL`, a range),
    keeping the club's rows by a filter: the other clubs' rows are read and dropped until the
    club's turn up (`MAX(id)` of one club taken from the end of the table's id index)."""
    return "club_id" in plan.get("Filter", "") and not EQUALITY.search(plan["Index Cond"])


def statements_made(call) -> list[tuple[str, object]]:
    """Every statement `call()` sends to the database, with its parameters."""
    made = []

    def keep(execute, sql, params, many, context):
        made.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        call()
    return made


def explain_page(client: Client, url: str, big: dict[str, int]) -> dict:
    """Every SELECT one render of `url` makes, explained (`explain`)."""
    return explain(statements_made(lambda: client.get(url)), big)


def explain(queries: list[tuple[str, object]], big: dict[str, int]) -> dict:
    """The SELECTs among `queries` explained: how many, and the scans across clubs (with the
    start of their SQL)."""
    scans, without_index = [], []
    explained = 0
    for sql, params in queries:
        if not sql.lstrip().upper().startswith(("SELECT", "WITH")):
            continue
        explained += 1
        found = _scans(sql, params, big)
        scans += [scan | {"sql": sql[:160]} for scan in found]
        if found:
            # Would an index serve it? Asked again with sequential scans off: a sequential
            # scan still planned has no index that starts with what the query filters on, an
            # index scan still filtering the club row by row none that answers it as asked.
            kept = _scans(sql, params, big, seqscan=False)
            without_index += [
                scan | {"sql": sql[:160]}
                for scan in kept
                if scan["node"] == "Seq Scan" or "filter" in scan
            ]
    return {
        "explained": explained,
        "scans_across_clubs": scans,
        "scans_without_index": without_index,
    }


def _scans(sql: str, params, big: dict[str, int], *, seqscan: bool = True) -> list[dict]:
    with transaction.atomic(), connection.cursor() as cursor:
        if not seqscan:
            cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    return _across(plan[0]["Plan"], big)


def child(slug: str, renders: int) -> dict:
    """The child run: the club's page timings (ops.benchmarks.time_pages and the ledger), then
    each page's plans."""
    settings.PEGBOARD_DEFAULT_CLUB = slug
    pages = benchmarks.time_pages(slug, renders)
    url, organiser = _ledger_request(slug)
    client = _client(organiser)
    pages["ledger"] = {"url": url, "as": "organiser", **benchmarks.time_url(client, url, renders)}
    big = _big_tables()
    plans = {}
    for page, (url, user) in _requests(slug).items():
        client = Client(**benchmarks.HEADERS.get(page, {}))
        if user is not None:
            client.force_login(user)
        plans[page] = explain_page(client, url, big)
    return {"pages": pages, "plans": plans, "big_tables": big}


# --- The parent run ------------------------------------------------------------------------------


def _pages(long: dict, middle: dict, names: tuple[str, str]) -> dict:
    pages = {}
    for page, b in long.items():
        a = middle[page]
        target = SESSION_TARGET_MS if page == "session" else PAGE_TARGET_MS
        pages[page] = {
            "url": b["url"],
            "as": b["as"],
            names[0]: {key: b[key] for key in ("queries", "median_ms", "p95_ms")},
            names[1]: {key: a[key] for key in ("queries", "median_ms", "p95_ms")},
            "queries_constant": a["queries"] == b["queries"],
            "target_ms": target,
            "p95_under_target": max(a["p95_ms"], b["p95_ms"]) < target,
        }
    return pages


def targets(report: dict) -> dict:
    pages = report["pages"]
    held = {
        f"clubs_page_p95_under_{PAGE_TARGET_MS}_ms": all(
            p["p95_under_target"] for name, p in pages.items() if name != "session"
        ),
        f"clubs_session_page_p95_under_{SESSION_TARGET_MS}_ms": pages["session"][
            "p95_under_target"
        ],
        "clubs_page_query_counts_constant": all(p["queries_constant"] for p in pages.values()),
        "clubs_standings_throughput_at_least_half": report["standings_throughput"]["meets_target"],
        "clubs_queries_per_club": not any(
            plan["scans_without_index"]
            for club in report["plans"].values()
            for plan in club.values()
        ),
        "clubs_copies_checked": not report["seed"]["check"]["differing"],
    }
    held["all"] = all(held.values())
    return held


def clubs_benchmarks(
    *,
    clubs: int = CLUBS,
    years: int = YEARS,
    long_years: int = LONG_YEARS,
    players: int = 40,
    seed: int = 1,
    renders: int = benchmarks.RENDERS,
    keep: bool = False,
    progress=None,
) -> dict:
    """The `clubs` section: seed the clubs in the bench database, measure, drop it."""
    say = progress or (lambda text: print(text, file=sys.stderr))
    base, url = bench_urls()
    _recreate(base)
    try:
        benchmarks.manage("migrate", "--noinput", "-v", "0", database=url)
        with tempfile.TemporaryDirectory(prefix="pegboard-clubs-") as folder:
            # Production settings serve static files from the collected manifest.
            benchmarks.manage(
                "collectstatic", "--noinput", "-v", "0", database=Path(folder) / "none.sqlite3"
            )
        say(f"seeding {clubs} clubs of {years} years and one of {long_years} (minutes) ...")
        start = time.perf_counter()
        seeded = json.loads(
            benchmarks.manage(
                "seed_history",
                f"--clubs={clubs}",
                f"--years={years}",
                f"--long-club-years={long_years}",
                f"--players={players}",
                f"--seed={seed}",
                "--check",
                "--json",
                database=url,
            ).strip()
        )
        seeded["wall_seconds"] = round(time.perf_counter() - start, 1)
        with _admin(url) as bench:
            # A live site's tables are vacuumed by autovacuum as they grow (their visibility
            # maps set: an index-only scan skips the table); a bulk load's are not until it
            # gets round to them, if it runs at all on the server (it may be off).
            bench.execute("VACUUM (ANALYZE)")
        size = _size(base)
        from ops.clubs_seed import PREFIX, club_slugs

        long_slug, middle_slug = f"{PREFIX}-long", club_slugs(clubs)[clubs // 2]
        timed = {}
        for slug in (long_slug, middle_slug):
            say(f"timing {slug}'s pages and explaining their queries ...")
            timed[slug] = json.loads(
                benchmarks.manage(
                    "bench",
                    "--clubs-child",
                    f"--slug={slug}",
                    f"--renders={renders}",
                    database=url,
                ).strip()
            )
        say("driving gunicorn ...")
        load = benchmarks.throughput(url, long_slug)
    finally:
        if not keep:
            _drop(base)
    names = (f"{long_slug}_{long_years}_years", f"{middle_slug}_{years}_years")
    load["server"] = "gunicorn, 2 sync workers, DEBUG off, PostgreSQL"
    load["target_ratio"] = THROUGHPUT_TARGET
    load["meets_target"] = load["ratio"] >= THROUGHPUT_TARGET
    report = {
        "database": size | {"kept": keep, "big_tables": timed[long_slug]["big_tables"]},
        "seed": seeded,
        "pages": _pages(timed[long_slug]["pages"], timed[middle_slug]["pages"], names),
        "plans": {names[n]: timed[slug]["plans"] for n, slug in enumerate(timed)},
        "standings_throughput": load,
    }
    report["targets"] = targets(report)
    return report
