"""A big tournament's benchmark behind `manage.py bench` (its `tournament` section;
`--tournament` runs it alone).

Terms:
- the tournament: `ENTRANTS` entrants (an ACC event's upper size) play `QUALIFYING_GAMES`
  qualifying rounds, drawn through the service (`qualifying_round_draw`) and their scorecards
  entered as signed ones for a whole round at once (`round_results_enter`, as the history
  does); qualifying closes (one in four qualify: 150 of 600, a bracket of 256 with 106 byes)
  and the first game of every playoff match that can start is played, so the bracket is
  part-way through, as in the afternoon of the big day.
- the small tournament: the same with `SMALL_ENTRANTS`, to check that each page makes the same
  number of queries whatever the size.
- the figures: each qualifying round's draw (ms, through the service, with the rounds before
  it), closing qualifying, and the pages (the live qualifying standings, the bracket, the
  director's page) rendered `renders` times in-process with production settings, warm: median
  and 95th percentile. Each size is built in a SQLite database of its own, in a child process
  (`manage.py bench --tournament-child`), as the history pages are.
Targets: a round drawn under `DRAW_TARGET_MS`; each page under `P95_TARGET_MS` at the
95th percentile, with the same query count at both sizes.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from ops import benchmarks

ENTRANTS = 600
# A director's page of 600 entrants, read while the tournament is played: its own target.
P95_TARGET_MS = 150
SMALL_ENTRANTS = 37
QUALIFYING_GAMES = 9
DRAW_TARGET_MS = 1000
SLUG = "cup"


def _organisers(club) -> list:
    from club import services as club_services
    from club.roles import ORGANISERS

    users = get_user_model().objects
    group = Group.objects.get(name=ORGANISERS)
    organisers = []
    for n in (1, 2):
        user = users.create_user(username=f"{club.slug}-director{n}", password=None)
        user.groups.add(group)
        club_services.player_create(club=club, actor=None, display_name=f"Director {n}", user=user)
        organisers.append(user)
    return organisers


def _scores(round_, rng: random.Random) -> dict[int, list[int]]:
    scores = {}
    for table in round_.games.values_list("table", flat=True):
        these = [rng.randint(70, 120), 121]
        rng.shuffle(these)
        scores[table] = these
    return scores


def _open_playoff_rounds(tournament):
    from games.models import GameStatus, ResultState, Round

    return (
        Round.objects.filter(session=tournament.session, mode="playoff")
        .filter(games__status=GameStatus.PLAYED)
        .exclude(games__results__state=ResultState.CONFIRMED)
        .distinct()
    )


def build(entrants: int, *, seed: int = 1) -> dict:
    """Build the tournament in the current database (through the services): figures of the
    draw and of closing qualifying, and the tournament's id."""
    from club import services as club_services
    from games import services as game_services
    from tournaments import services

    rng = random.Random(seed)
    club = club_services.club_create(actor=None, name="Cup Club", slug=SLUG)
    director, checker = _organisers(club)
    tournament = services.tournament_create(
        club=club,
        actor=director,
        name="The Big Cup",
        starts_on=dt.date.today(),
        entry_fee_cents=2000,
        qualifying_games=QUALIFYING_GAMES,
        match_lengths=[5, 3],
    )
    players = [
        club_services.player_create(club=club, actor=director, display_name=f"Entrant {n:03d}")
        for n in range(1, entrants + 1)
    ]
    club_services.checkins_create(
        session=tournament.session, actor=director, players=players, paid=True
    )
    draws = []
    for _ in range(QUALIFYING_GAMES):
        start = time.perf_counter()
        round_ = services.qualifying_round_draw(
            tournament=tournament, actor=director, seed=rng.randrange(10**9)
        )
        draws.append((time.perf_counter() - start) * 1000)
        game_services.round_results_enter(
            round_=round_, actor=checker, scores=_scores(round_, rng), signed=True
        )
    start = time.perf_counter()
    services.qualifying_close(tournament=tournament, actor=director, seed=seed)
    close_ms = (time.perf_counter() - start) * 1000
    for round_ in list(_open_playoff_rounds(tournament)):
        game_services.round_results_enter(
            round_=round_, actor=checker, scores=_scores(round_, rng), signed=True
        )
    tournament.refresh_from_db()
    return {
        "entrants": entrants,
        "qualifying_games": QUALIFYING_GAMES,
        "qualifiers": len(tournament.seeds),
        "draw_ms": benchmarks.timings(draws) | {"max_ms": round(max(draws), 2)},
        "close_qualifying_ms": round(close_ms, 2),
        "tournament": tournament.pk,
        "director": director.pk,
    }


def time_pages(tournament_id: int, director_id: int, renders: int) -> dict:
    """Each tournament page's query count and render times (as ops.benchmarks.time_pages)."""
    settings.PEGBOARD_DEFAULT_CLUB = SLUG
    director = get_user_model().objects.get(pk=director_id)
    pages = {
        "standings": (reverse("tournaments:standings", args=[tournament_id]), None),
        "bracket": (reverse("tournaments:bracket", args=[tournament_id]), None),
        "director": (reverse("tournaments:detail", args=[tournament_id]), director),
    }
    figures = {}
    for page, (url, user) in pages.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        figures[page] = {"url": url, **benchmarks.time_url(client, url, renders)}
    return figures


def child(entrants: int, renders: int) -> dict:
    """The child run: build the tournament in this database, then time its pages."""
    built = build(entrants)
    built["pages"] = time_pages(built.pop("tournament"), built.pop("director"), renders)
    return built


def _in_child(folder: Path, entrants: int, renders: int) -> dict:
    database = folder / f"tournament-{entrants}.sqlite3"
    benchmarks.manage("migrate", "--noinput", "-v", "0", database=database)
    out = benchmarks.manage(
        "bench",
        "--tournament-child",
        f"--entrants={entrants}",
        f"--renders={renders}",
        database=database,
    )
    return json.loads(out.strip().splitlines()[-1])


def tournament_benchmarks(
    *, entrants: int = ENTRANTS, renders: int = benchmarks.RENDERS, progress=None
) -> dict:
    """The `tournament` section: the big tournament's figures, the small one's query counts,
    and the targets."""
    with tempfile.TemporaryDirectory(prefix="pegboard-tournament-") as folder:
        # Production settings serve static files from the collected manifest.
        benchmarks.manage(
            "collectstatic", "--noinput", "-v", "0", database=Path(folder) / "none.sqlite3"
        )
        if progress:
            progress(f"building a tournament of {SMALL_ENTRANTS} entrants ...")
        small = _in_child(Path(folder), SMALL_ENTRANTS, renders)
        if progress:
            progress(f"building a tournament of {entrants} entrants (a few minutes) ...")
        large = _in_child(Path(folder), entrants, renders)
    pages = {}
    for page, figures in large["pages"].items():
        pages[page] = figures | {
            "queries_at_small": small["pages"][page]["queries"],
            "queries_constant": small["pages"][page]["queries"] == figures["queries"],
            "p95_under_target": figures["p95_ms"] < P95_TARGET_MS,
        }
    return {
        "entrants": large["entrants"],
        "qualifying_games": large["qualifying_games"],
        "qualifiers": large["qualifiers"],
        "draw_ms": large["draw_ms"],
        "draw_under_target": large["draw_ms"]["max_ms"] < DRAW_TARGET_MS,
        "close_qualifying_ms": large["close_qualifying_ms"],
        "pages": pages,
    }
