"""The benchmarks behind `make bench` that need a club history: page renders and throughput (and,
through ops.ratings_bench, the ratings).

Terms:
- history database: a SQLite file holding one club built by `manage.py seed_history`; the bench
  builds one of 1 year and one of 10 years, each in a temporary folder, and runs the page timings
  against each in a child process (`manage.py bench --pages`) so the two never share a connection.
- page: one of PAGES, rendered in-process through Django's test client as the role that uses it,
  warm (after WARMUP renders, see there): the query count of one render, median and
  95th-percentile ms.
  The standings pages are rendered for a logged-in player: anonymous visitors get them from the
  visitors' cache (core.pages.VisitorCacheMixin), which would time the cache, not the render.
  The live board (`board`) and its refresh (`board_refresh`, asked for as htmx asks, with no
  versions: every part rendered and sent, the most a refresh costs) are this morning's session,
  as a visitor (a TV); the table page (`table`) is the link of this morning's last round's first
  table, as a visitor (the players at the table). The session page (`session`) is this morning's,
  as an organiser sees it; the round page (`round`) that round's, as an organiser; the game page
  (`game`) a game of the last settled session with no claim, as a player of it; the ledger
  (`ledger`) as an organiser.
- targets: every page's p95 under P95_TARGET_MS at the larger history, the session page's under
  SESSION_P95_TARGET_MS, and the same query count at both sizes.
- throughput: requests per second that gunicorn (2 sync workers) answers on loopback, driven by
  CLIENTS threads of this process (a second process from gunicorn's), alternating the trivial
  health view and the season standings page in equal slices so drift hits both alike.
"""

from __future__ import annotations

import gc
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, Exists, OuterRef
from django.test import Client
from django.urls import reverse

PAGES = (
    "home",
    "session",
    "round",
    "game",
    "season_standings",
    "all_time",
    "player",
    "ratings",
    "judges_queue",
    "ledger",
    "board",
    "board_refresh",
    "table",
)
# Request headers per page: the board's refresh is asked for by htmx.
HEADERS = {"board_refresh": {"HTTP_HX_REQUEST": "true"}}
# A page is warm as it is in a worker that has served it a few times: its templates loaded, its
# cached parts kept, and on PostgreSQL its statements prepared and their plans settled (psycopg
# prepares a statement after it has run five times, and PostgreSQL plans a prepared statement's
# first five runs with their values before it keeps one plan: config/settings.py).
WARMUP = 12
RENDERS = 30
# Every page at the 95th percentile, at ten years: a page a phone at the table opens must feel
# instant, and a server that renders each in a few tens of ms has room for the whole club at
# once. The session page is the organiser's screen through the morning (check-in, fees, every
# round, the standings after each result), reloaded after every action: a stricter target.
P95_TARGET_MS = 50
SESSION_P95_TARGET_MS = 30
THROUGHPUT_TARGET = 1 / 3
CLIENTS = 8
SLICE_SECONDS = 2.5
SLICES = 4  # per view, alternating


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def timings(samples: list[float]) -> dict:
    """Median and 95th percentile of millisecond samples, as the report shows them."""
    return {
        "median_ms": round(statistics.median(samples), 2),
        "p95_ms": round(percentile(samples, 0.95), 2),
    }


class _QueryCounter(list):
    """A database execute wrapper that keeps each query's SQL."""

    def __call__(self, execute, sql, params, many, context):
        self.append(sql)
        return execute(sql, params, many, context)


def _page_requests(slug: str) -> dict[str, tuple[str, object]]:
    """page -> (url, user or None) in the history club."""
    from club.models import Club, Session, SessionState
    from club.roles import JUDGES, ORGANISERS, PLAYERS
    from games.models import Game, ResultLine, Seat
    from scoring.models import Claim

    club = Club.objects.get(slug=slug)
    users = get_user_model().objects
    organiser = users.filter(groups__name=ORGANISERS, username__startswith=slug).first()
    judge = users.filter(groups__name=JUDGES, username__startswith=slug).first()
    member = users.filter(groups__name=PLAYERS, players__club=club).order_by("pk").first()
    busiest = (
        ResultLine.objects.filter(player__club=club)
        .values("player_id")
        .annotate(games=Count("pk"))
        .order_by("-games", "player_id")
        .first()["player_id"]
    )
    this_morning = Session.objects.filter(club=club, state=SessionState.OPEN).latest("date")
    # This morning's last round drawn and its first table (the round and table pages).
    first = Game.objects.filter(session=this_morning).order_by("-round__number", "table").first()
    # The game page: a game of the last settled session, its result confirmed and no claim on
    # it (claims, disputes and a result's state each bring panels and queries of their own: the
    # same kind of game at both sizes), as a player of it with a login looks back at it.
    settled = Session.objects.filter(club=club, state=SessionState.SETTLED).latest("date")
    seat = (
        Seat.objects.filter(game__session=settled, player__user__isnull=False)
        .exclude(Exists(Claim.objects.filter(game=OuterRef("game"))))
        .order_by("-game__round__number", "game__table", "position")
        .select_related("game", "player__user")
        .first()
    )
    game, player = (seat.game, seat.player.user) if seat else (first, member)
    return {
        "home": (reverse("home"), None),
        # The organiser's screen through the morning: check-in, fees, rounds, standings.
        "session": (reverse("web:session", args=[this_morning.pk]), organiser),
        "round": (reverse("games:round", args=[first.round_id]), organiser),
        "game": (reverse("games:game", args=[game.pk]), player),
        # Members, not visitors: visitors get these four from the cache (see `throughput`).
        "season_standings": (reverse("standings:season"), member),
        "all_time": (reverse("standings:all_time"), member),
        "player": (reverse("standings:player", args=[busiest]), member),
        "ratings": (reverse("standings:ratings"), member),
        "judges_queue": (reverse("scoring:queue"), judge),
        "ledger": (reverse("money:ledger"), organiser),
        "board": (reverse("web:board", args=[this_morning.pk]), None),
        "board_refresh": (reverse("web:board_parts", args=[this_morning.pk]), None),
        "table": (reverse("table:page", args=[first.table_token]), None),
    }


def time_pages(slug: str, renders: int = RENDERS) -> dict:
    """Each page's query count and render times against the current database."""
    settings.PEGBOARD_DEFAULT_CLUB = slug
    figures = {}
    for page, (url, user) in _page_requests(slug).items():
        who = "anonymous" if user is None else user.groups.first().name.rstrip("s")
        client = Client(**HEADERS.get(page, {}))
        if user is not None:
            client.force_login(user)
        figures[page] = {"url": url, "as": who, **time_url(client, url, renders)}
    return figures


def time_url(client: Client, url: str, renders: int) -> dict:
    """One page's query count and render times, warm: requested WARMUP times first (as many as
    it is timed, in a short run), each answer a 200 or a RuntimeError."""
    for _ in range(min(WARMUP, renders)):
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
    # As config.wsgi does once Django is loaded: what lives on is not rescanned by the
    # garbage collector in the middle of a request.
    gc.collect()
    gc.freeze()
    queries = _QueryCounter()
    with connection.execute_wrapper(queries):
        client.get(url)
    samples = []
    for _ in range(renders):
        start = time.perf_counter()
        client.get(url)
        samples.append((time.perf_counter() - start) * 1000)
    return {"queries": len(queries), **timings(samples)}


# --- Orchestration (the parent `manage.py bench`) -------------------------------------------------


def database_url(database: Path | str) -> str:
    """A SQLite file's path as a database URL; a URL (PostgreSQL's) as it is."""
    return database if isinstance(database, str) else f"sqlite:///{database}"


def production_env(database: Path | str, **extra: str) -> dict:
    """The environment of a child process: production settings (DEBUG off, a throwaway key,
    plain HTTP on loopback) against the history database (a SQLite file or a database URL)."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(database),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-not-a-secret-" + "x" * 40,
        "PEGBOARD_HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
        **extra,
    }


def manage(*args: str, database: Path | str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=production_env(database),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def migrated_database(folder: Path) -> Path:
    """An empty SQLite database with every migration applied, which each history starts from
    as a copy (migrating a database from nothing takes longer than seeding a small history)."""
    database = folder / "migrated.sqlite3"
    if not database.exists():
        manage("migrate", "--noinput", "-v", "0", database=database)
    return database


def build_history_database(
    folder: Path, *, years: int, players: int, seed: int, rounds: int | None = None
) -> dict:
    """A SQLite file with `seed_history`'s club in it (`rounds`: its default unless given)."""
    database = folder / f"history-{years}y.sqlite3"
    shutil.copyfile(migrated_database(folder), database)
    summary = json.loads(
        manage(
            "seed_history",
            f"--years={years}",
            f"--players={players}",
            f"--seed={seed}",
            *([f"--rounds={rounds}"] if rounds else []),
            "--json",
            database=database,
        ).strip()
    )
    summary["database"] = str(database)
    return summary


def pages_in_child(database: Path, renders: int) -> dict:
    return json.loads(manage("bench", "--pages", f"--renders={renders}", database=database).strip())


def ratings_in_child(database: Path) -> dict:
    return json.loads(manage("bench", "--ratings", database=database).strip())


def compare_pages(small: dict, large: dict, years: tuple[int, int]) -> dict:
    """Per page: both sizes' figures, the ratio of the 95th percentiles, and the targets."""
    one, ten = (f"{n}_year{'s' if n != 1 else ''}" for n in years)
    pages = {}
    for page in PAGES:
        a, b = small[page], large[page]
        pages[page] = {
            "url": b["url"],
            "as": b["as"],
            one: {key: a[key] for key in ("queries", "median_ms", "p95_ms")},
            ten: {key: b[key] for key in ("queries", "median_ms", "p95_ms")},
            "p95_ratio": round(b["p95_ms"] / a["p95_ms"], 2) if a["p95_ms"] else None,
            "queries_constant": a["queries"] == b["queries"],
            "p95_under_target": b["p95_ms"] < P95_TARGET_MS,
        }
        if page == "session":
            pages[page]["p95_under_session_target"] = b["p95_ms"] < SESSION_P95_TARGET_MS
    return pages


# --- Throughput under gunicorn --------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def _drive(port: int, path: str, seconds: float) -> tuple[int, int]:
    """(answered, not 200) from CLIENTS threads requesting `path` for `seconds`."""
    stop = time.perf_counter() + seconds
    counts = [[0, 0] for _ in range(CLIENTS)]

    def client(mine: list[int]) -> None:
        while time.perf_counter() < stop:
            status = _get(port, path)
            mine[0] += 1
            mine[1] += status != 200

    threads = [threading.Thread(target=client, args=(c,)) for c in counts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


@contextmanager
def serve(database: Path | str, *, log: IO[str] | None = None, **env: str) -> Iterator[int]:
    """gunicorn (2 sync workers, production settings) serving `database` on a free loopback
    port, answering before this yields the port; stopped on the way out. Its log (warnings and
    errors, with their tracebacks) goes to `log`, else to this process's standard error."""
    port = _free_port()
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "config.wsgi",
        f"--bind=127.0.0.1:{port}",
        "--workers=2",
        "--log-level=warning",
    ]
    server = subprocess.Popen(
        command, cwd=settings.BASE_DIR, env=production_env(database, **env), stderr=log
    )
    try:
        deadline = time.perf_counter() + 30
        while True:
            try:
                if _get(port, reverse("health")) == 200:
                    break
            except OSError:
                pass
            if time.perf_counter() > deadline or server.poll() is not None:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def throughput(database: Path | str, slug: str, *, slices: int = SLICES) -> dict:
    """Requests per second of the trivial view and the season standings page under gunicorn."""
    paths = {"trivial": reverse("health"), "season_standings": reverse("standings:season")}
    with serve(database, PEGBOARD_DEFAULT_CLUB=slug) as port:
        for path in paths.values():  # warm both workers
            _drive(port, path, 0.5)
        totals = {name: [0, 0, 0.0] for name in paths}
        for _ in range(slices):
            for name, path in paths.items():
                start = time.perf_counter()
                answered, failed = _drive(port, path, SLICE_SECONDS)
                totals[name][0] += answered
                totals[name][1] += failed
                totals[name][2] += time.perf_counter() - start
    rates = {name: answered / seconds for name, (answered, _, seconds) in totals.items()}
    failed = {name: failures for name, (_, failures, _) in totals.items()}
    if any(failed.values()):
        raise RuntimeError(f"non-200 answers under load: {failed}")
    ratio = rates["season_standings"] / rates["trivial"]
    return {
        "server": "gunicorn, 2 sync workers, DEBUG off, SQLite",
        "clients": CLIENTS,
        "seconds_each": round(slices * SLICE_SECONDS, 1),
        "trivial_url": paths["trivial"],
        "trivial_per_second": round(rates["trivial"], 1),
        "season_standings_url": paths["season_standings"],
        "season_standings_per_second": round(rates["season_standings"], 1),
        "ratio": round(ratio, 3),
        "target_ratio": round(THROUGHPUT_TARGET, 3),
        "meets_target": ratio >= THROUGHPUT_TARGET,
    }


def history_benchmarks(
    *,
    years: tuple[int, int],
    players: int,
    seed: int,
    renders: int,
    slices: int = SLICES,
    rounds: int | None = None,
) -> dict:
    """Seed both histories (`rounds` a settled session, unless seed_history's default), time
    the pages on each, drive the larger under gunicorn, then time its ratings
    (ops.ratings_bench)."""
    with tempfile.TemporaryDirectory(prefix="pegboard-bench-") as folder:
        # Production settings serve static files from the collected manifest.
        manage("collectstatic", "--noinput", "-v", "0", database=Path(folder) / "none.sqlite3")
        built = {}
        pages = {}
        for n in years:
            print(f"seeding {n} year(s) of history ...", file=sys.stderr)
            built[n] = build_history_database(
                Path(folder), years=n, players=players, seed=seed, rounds=rounds
            )
            print(f"timing pages on {n} year(s) ...", file=sys.stderr)
            pages[n] = pages_in_child(Path(built[n]["database"]), renders)
        print("driving gunicorn ...", file=sys.stderr)
        load = throughput(Path(built[years[1]]["database"]), built[years[1]]["club"], slices=slices)
        # Last: it writes (a rebuild, this morning's drafts confirmed).
        print(f"timing the ratings on {years[1]} years ...", file=sys.stderr)
        ratings = ratings_in_child(Path(built[years[1]]["database"]))
    for summary in built.values():
        summary.pop("database")
    return {
        "history": {f"{n}_year{'s' if n != 1 else ''}": built[n] for n in years},
        "pages": compare_pages(pages[years[0]], pages[years[1]], years),
        "standings_throughput": load,
        "ratings": {"history_years": years[1], **ratings},
    }
