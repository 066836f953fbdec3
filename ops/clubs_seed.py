"""Many clubs' histories in one database (`manage.py seed_history --clubs N`), for the
benchmark of a site that hosts many clubs.

Terms:
- played club: a club whose history is played game by game through the services
  (ops.history.build_history), as `seed_history` builds one club.
- copied club: a club whose history is a bulk copy of a played club's (ops.clubs_copy.club_copy):
  the clubs `PREFIX-001` to `PREFIX-N`; the first `templates` of them are played (seeds `seed`,
  `seed + 1`, ...), the others copy them in turn.
- the long club (`PREFIX-long`): a copy of the first played club, its settled sessions then
  stacked further back in time (ops.clubs_copy.sessions_stack) until it holds `long_years`
  years, and its ratings replayed from scratch through the service.
- the check: the figures the pages show, with players named and ids left out, compared between
  each played club and its first copy (session totals, season and all-time standings, payouts,
  ledger sums, ratings, results, claims and disputes), and between the long club's played
  sessions and each stacked copy of them (the same, session by session, the dates moved).
  A copy must show exactly what its source shows.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db.models import Count, Sum
from django.utils import timezone

from club.models import Club, Session, SessionState
from games.models import Result, SessionTotal
from money.models import LedgerEntry, Payout
from ops.clubs_copy import club_copy, sessions_stack
from ops.history import ROUNDS, build_history
from scoring.models import Claim, Dispute
from standings.models import GameRating
from standings.selectors import all_time_standings, season_standings
from standings.services import ratings_rebuild

PREFIX = "club"
LONG = "long"


@dataclass
class ClubsReport:
    clubs: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    long_club: str | None = None
    stacked_sessions: int = 0
    seconds: dict = field(default_factory=dict)
    check: dict = field(default_factory=dict)


def club_slugs(clubs: int, prefix: str = PREFIX) -> list[str]:
    return [f"{prefix}-{n:03d}" for n in range(1, clubs + 1)]


def _validate(*, clubs, years, long_years, templates, slugs) -> None:
    if clubs < 1 or not 1 <= templates <= clubs:
        raise ValidationError("Give at least 1 club, and 1 to that many played clubs.")
    if long_years and long_years < years:
        raise ValidationError("The long club needs at least as many years as the others.")
    taken = sorted(Club.objects.filter(slug__in=slugs).values_list("slug", flat=True))
    if taken:
        raise ValidationError(f"Clubs with these slugs exist already: {', '.join(taken[:5])}.")


def build_clubs(
    *,
    clubs: int,
    years: int,
    long_years: int,
    templates: int = 1,
    players: int = 40,
    seed: int = 1,
    prefix: str = PREFIX,
    today: dt.date | None = None,
    check: bool = False,
    progress: Callable[[str], None] | None = None,
    rounds: int = ROUNDS,
    weeks_apart: int = 1,
) -> ClubsReport:
    """Build the clubs (and the long club if `long_years`), check them if asked."""
    slugs = club_slugs(clubs, prefix)
    long_slug = f"{prefix}-{LONG}" if long_years else None
    _validate(
        clubs=clubs,
        years=years,
        long_years=long_years,
        templates=templates,
        slugs=slugs + ([long_slug] if long_slug else []),
    )
    today = today or timezone.localdate()
    say = progress or (lambda _: None)
    report = ClubsReport(clubs=slugs, long_club=long_slug)
    common = {"players": players, "today": today, "rounds": rounds, "weeks_apart": weeks_apart}
    stacks: list[int] = []
    played_up_to = 0

    start = time.perf_counter()
    for n, slug in enumerate(slugs[:templates]):
        say(f"playing {slug} ({years} years) through the services ...")
        build_history(years=years, seed=seed + n, slug=slug, **common)
        report.played.append(slug)
    report.seconds["played"] = round(time.perf_counter() - start, 1)

    start = time.perf_counter()
    for n, slug in enumerate(slugs[templates:], start=templates):
        source = Club.objects.get(slug=slugs[n % templates])
        club_copy(source=source, slug=slug, name=f"Club {slug} ({years} years)")
        if (n + 1) % 10 == 0:
            say(f"{n + 1}/{clubs} clubs, {time.perf_counter() - start:.0f} s copying")
    report.seconds["copied"] = round(time.perf_counter() - start, 1)

    if long_slug:
        start = time.perf_counter()
        say(f"copying {slugs[0]} into {long_slug} and stacking it to {long_years} years ...")
        long_club, _ = club_copy(
            source=Club.objects.get(slug=slugs[0]),
            slug=long_slug,
            name=f"Club {long_slug} ({long_years} years)",
        )
        stacks, report.stacked_sessions, played_up_to = _stack(long_club, long_years, weeks_apart)
        say(f"replaying {long_slug}'s ratings ...")
        ratings_rebuild(club=long_club, actor=None)
        report.seconds["long_stacked"] = round(time.perf_counter() - start, 1)

    if check:
        start = time.perf_counter()
        for n in range(templates):
            if templates + n < clubs:
                source, copy = slugs[n], slugs[templates + n]
                report.check[f"{copy}_copies_{source}"] = compare_clubs(source, copy)
        if long_slug:
            report.check[f"{long_slug}_stacked"] = compare_stacks(long_slug, stacks, played_up_to)
        report.seconds["check"] = round(time.perf_counter() - start, 1)
    return report


def _stack(club: Club, long_years: int, weeks_apart: int) -> tuple[list[int], int, int]:
    """Stack the club's settled sessions back until it holds `long_years` years: the shifts
    (days), the sessions written and the last played session's id."""
    settled = Session.objects.filter(club=club, state=SessionState.SETTLED)
    dates = settled.order_by("date").values_list("date", flat=True)
    first, last = dates.first(), dates.last()
    played_up_to = Session.objects.filter(club=club).order_by("-pk").values_list("pk", flat=True)[0]
    this_morning = Session.objects.filter(club=club).latest("date").date
    since = this_morning.replace(year=this_morning.year - long_years) + dt.timedelta(days=1)
    span = (last - first).days + 7 * weeks_apart  # whole weeks: the weekday stays
    shifts, stacked = [], 0
    shift = span
    while last - dt.timedelta(days=shift) >= since:
        written = sessions_stack(club=club, shift_days=shift, since=since, up_to_id=played_up_to)
        stacked += written.get(Session._meta.label, 0)
        shifts.append(shift)
        shift += span
    return shifts, stacked, played_up_to


# --- The check ----------------------------------------------------------------------------------


def _dated(rows, shift: int = 0) -> list[tuple]:
    """Rows whose first value is a date, that date moved `shift` days later, sorted."""
    return sorted((row[0] + dt.timedelta(days=shift), *row[1:]) for row in rows)


def _standings(rows) -> list[tuple]:
    return [
        (
            r.rank,
            r.tied,
            r.player,
            r.sessions,
            r.played,
            r.game_points,
            r.won,
            r.spread,
            r.money_cents,
            r.rating,
        )
        for r in rows
    ]


def club_figures(club: Club, *, sessions=None, shift: int = 0, whole: bool = True) -> dict:
    """The figures the pages read, players by name and sessions by date (moved `shift` days):
    of `sessions` only (a queryset of the club's), or with `whole` the club's standings too."""
    sessions = sessions if sessions is not None else Session.objects.filter(club=club)
    figures = {
        "sessions": _dated(
            sessions.annotate(came=Count("checkins")).values_list("date", "state", "came"), shift
        ),
        "session_totals": _dated(
            SessionTotal.objects.filter(session__in=sessions).values_list(
                "date",
                "player__display_name",
                "played",
                "won",
                "points",
                "spread",
                "skunks_given",
                "skunks_taken",
                "first_run",
                "last_run",
                "best_run",
            ),
            shift,
        ),
        "payouts": _dated(
            Payout.objects.filter(settlement__session__in=sessions).values_list(
                "settlement__session__date",
                "settlement__version",
                "settlement__state",
                "place",
                "rank",
                "player__display_name",
                "amount_cents",
            ),
            shift,
        ),
        "ledger_sums": _dated(
            LedgerEntry.objects.filter(session__in=sessions)
            .values_list("session__date", "pot", "kind")
            .annotate(cents=Sum("amount_cents"), rows=Count("pk")),
            shift,
        ),
        "results": _dated(
            Result.objects.filter(game__session__in=sessions)
            .values_list("game__session__date", "state")
            .annotate(count=Count("pk")),
            shift,
        ),
        "claims": _dated(
            Claim.objects.filter(game__session__in=sessions)
            .values_list("game__session__date", "kind", "claimed_points", "true_points")
            .annotate(count=Count("pk")),
            shift,
        ),
        "disputes": _dated(
            Dispute.objects.filter(claim__game__session__in=sessions)
            .values_list("claim__game__session__date", "state")
            .annotate(count=Count("pk")),
            shift,
        ),
    }
    if whole:
        figures["ratings"] = _dated(
            GameRating.objects.filter(club=club).values_list(
                "date", "round_number", "table", "player__display_name", "mu_after", "sigma_after"
            )
        )
        latest = sessions.latest("date").date
        figures["season_standings"] = _standings(season_standings(club, club.season_of(latest)))
        figures["all_time_standings"] = _standings(all_time_standings(club))
    return figures


def _differences(a: dict, b: dict) -> dict:
    """Per figure: rows compared, and whether both sides agree."""
    return {name: {"rows": len(a[name]), "same": a[name] == b[name]} for name in a}


def compare_clubs(source_slug: str, copy_slug: str) -> dict:
    """The played club's figures against its copy's."""
    source, copy = (Club.objects.get(slug=slug) for slug in (source_slug, copy_slug))
    return _differences(club_figures(source), club_figures(copy))


def compare_stacks(slug: str, shifts: list[int], played_up_to: int) -> dict:
    """The long club's played settled sessions (ids up to `played_up_to`) against each stacked
    copy of them, session by session (the copy reaching past the club's first day holds fewer)."""
    club = Club.objects.get(slug=slug)
    settled = Session.objects.filter(club=club, state=SessionState.SETTLED)
    played = settled.filter(pk__lte=played_up_to)
    played_dates = list(played.values_list("date", flat=True))
    figures = {}
    for shift in shifts:
        back = dt.timedelta(days=shift)
        copies = settled.filter(pk__gt=played_up_to, date__in=[d - back for d in played_dates])
        sources = played.filter(date__in=[d + back for d in copies.values_list("date", flat=True)])
        figures[f"{shift}_days_back"] = _differences(
            club_figures(club, sessions=sources, whole=False),
            club_figures(club, sessions=copies, shift=shift, whole=False),
        )
    return figures
