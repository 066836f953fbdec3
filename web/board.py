"""The live board: a page for a screen at the venue (a TV, a laptop) that shows a session as it
happens and refreshes its own parts every few seconds, without reloading the page.

Terms:
- board: `/club/sessions/<pk>/board/`, the whole page; its refresh is `.../board/parts/`, which
  htmx asks for every REFRESH_SECONDS (without JavaScript the page reloads itself every
  NOSCRIPT_SECONDS instead).
- part: one region of the board that refreshes itself, in PARTS order: `tables` (the current
  round), `standings` (the session's, games.selectors.session_standings), `results` (the latest
  LATEST confirmed results, newest first) and `highlights` (the session's, as the session page
  shows them: standings.highlights.session_highlights); a tournament's session adds
  `tournament`: while qualifying, the qualifiers and the next few with the cut line; in the
  playoffs, the bracket's rounds from the earliest still being played, and the champion.
- current round: the session's latest round drawn (its highest number).
- table state: `playing` (no result yet), `entered` (a draft waiting to be accepted by another
  side or an organiser: its scores are not shown, they are not the table's yet) or `confirmed`
  (with its scores, the winner marked).
- version: the first 16 hex digits of the SHA-256 of a part's HTML. The page keeps each part's
  version in a hidden field; a refresh sends them back and gets only the parts whose version
  changed, swapped in place (htmx out-of-band), or 204 when none did, so nothing is redrawn, and
  nothing re-announced to a screen reader, while nothing changes.
- who sees it: members of the session's club with `club.view_session`; anyone who is a member of
  no club (a visitor, a TV with no login) while the session's own club publishes its standings:
  a board is about one session, so it is that session's club that decides, not the club the site
  shows visitors. Everyone else gets a 404, as if it did not exist: a member of another club
  acts in their own club only, as on every page that names an object (tests/security).

Cost: one refresh reads the database a fixed number of times whatever the size of the session or
the club's history (tests/web/test_board.py counts them): the session, the current round's seats
with their results, the latest results, the standings, and the highlights (the big hands and
their rulings, the skunks, the grand slams, the winning streaks, the season's skunk king); in a
tournament's session, the tournament and its qualifying standings or its bracket.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views import View

from club.models import Session
from club.selectors import club_for_user
from games.models import GameStatus, Result, ResultLine, ResultSource, ResultState, Round, Seat
from games.selectors import Standing, session_standings
from standings.highlights import LINE_FIELDS, SessionHighlights, session_highlights
from tournaments.chart import ChartColumn, chart
from tournaments.models import Stage, Tournament
from tournaments.selectors import QualifyingRow, bracket, bracket_scores, qualifying_standings

REFRESH_SECONDS = 5
NOSCRIPT_SECONDS = 30
LATEST = 6
# Above this many players the standings run in two columns, so a 40-player morning fits a TV.
STANDINGS_COLUMN = 20
PARTS = {
    "tables": "This round",
    "standings": "Standings",
    "results": "Latest results",
    "highlights": "Highlights",
}
# A tournament's part: its name while qualifying runs, and once the bracket is made.
TOURNAMENT_PARTS = {"qualifying": "Qualifying", "playoffs": "The bracket"}
# While qualifying, the board lists the qualifiers and this many more below the cut line.
BELOW_THE_CUT = 4
PLAYING, ENTERED, CONFIRMED = "playing", "entered", "confirmed"
NOT_PLAYED, FORFEIT = "not played", "forfeit"  # a game that could not be finished


@dataclass(frozen=True)
class Side:
    names: tuple[str, ...]
    score: int | None  # shown only once the result is confirmed
    won: bool = False

    @property
    def label(self) -> str:
        return " & ".join(self.names)


@dataclass(frozen=True)
class BoardTable:
    number: int
    state: str  # PLAYING, ENTERED, CONFIRMED, NOT_PLAYED or FORFEIT
    sides: tuple[Side, ...]


@dataclass(frozen=True)
class BoardResult:
    round: int
    table: int
    sides: tuple[Side, ...]  # the winner first
    confirmed_at: dt.datetime
    skunk: str  # "", "skunk" or "double skunk": the worst a loser took
    forfeit: bool = False  # scored by the house rule: no scores to show


@dataclass(frozen=True)
class TournamentPanel:
    tournament: Tournament
    entrants: int
    cut: int  # how many qualify
    standings: list[QualifyingRow]  # while qualifying: the qualifiers and BELOW_THE_CUT more
    columns: list[ChartColumn]  # in the playoffs: the rounds from the earliest undecided

    @property
    def part(self) -> str:
        return "playoffs" if self.columns or self.tournament.champion_id else "qualifying"


@dataclass(frozen=True)
class Board:
    session: Session
    round_number: int | None
    rounds_planned: int
    tables: list[BoardTable]
    standings: list[Standing]
    results: list[BoardResult]
    highlights: SessionHighlights
    tournament: TournamentPanel | None = None

    @property
    def waiting(self) -> bool:
        """Whether a table of the current round has an entry waiting to be accepted."""
        return any(table.state == ENTERED for table in self.tables)

    @property
    def standings_columns(self) -> list[list[Standing]]:
        rows = self.standings
        if len(rows) <= STANDINGS_COLUMN:
            return [rows]
        half = (len(rows) + 1) // 2
        return [rows[:half], rows[half:]]


def board_session(request, pk: int) -> Session:
    """The session the board shows, with its club, if this request may see it (else 404)."""
    session = get_object_or_404(Session.objects.select_related("club"), pk=pk)
    user = request.user
    if user.is_superuser and user.is_active:
        return session
    members_club = club_for_user(user)  # None without a query for an anonymous visitor
    if members_club is None:
        if session.club.standings_public:
            return session
    elif members_club == session.club and user.has_perm("club.view_session"):
        return session
    raise Http404("Not found.")


def _current_tables(session: Session) -> tuple[int | None, list[BoardTable]]:
    """The current round's number and tables: one query (seats with their game's current result
    state and their side's score as subqueries)."""
    latest_round = Round.objects.filter(session=session).order_by("-number").values("pk")[:1]
    # Newest version first, within the one game (not by the rows' own order, which orders by
    # the game's session, round and table first: four joins in each subquery for one game).
    current = (
        Result.objects.filter(game=OuterRef("game"))
        .exclude(state=ResultState.SUPERSEDED)
        .order_by("-version")
    )
    side_line = (
        ResultLine.objects.filter(result__game=OuterRef("game"), side=OuterRef("side"))
        .exclude(result__state=ResultState.SUPERSEDED)
        .order_by("-result__version")
    )
    seats = (
        Seat.objects.filter(round=Subquery(latest_round))
        .annotate(
            state=Subquery(current.values("state")[:1]),
            score=Subquery(side_line.values("score")[:1]),
            won=Subquery(side_line.values("won")[:1]),
        )
        .order_by("game__table", "position")
        .values(
            "round__number",
            "game__table",
            "game__status",
            "side",
            "player__display_name",
            "state",
            "score",
            "won",
        )
    )
    number = None
    by_table: dict[int, dict] = {}
    for seat in seats:
        number = seat["round__number"]
        table = by_table.setdefault(
            seat["game__table"],
            {"state": seat["state"], "status": seat["game__status"], "sides": {}},
        )
        side = table["sides"].setdefault(seat["side"], {"names": [], "score": None, "won": False})
        side["names"].append(seat["player__display_name"])
        if seat["state"] == ResultState.CONFIRMED and seat["game__status"] == GameStatus.PLAYED:
            side["score"], side["won"] = seat["score"], bool(seat["won"])
    tables = []
    for table_number, table in by_table.items():
        state = {ResultState.CONFIRMED: CONFIRMED, ResultState.DRAFT: ENTERED}.get(
            table["state"], PLAYING
        )
        state = {GameStatus.NOT_PLAYED: NOT_PLAYED, GameStatus.FORFEIT: FORFEIT}.get(
            table["status"], state
        )
        sides = tuple(
            Side(names=tuple(s["names"]), score=s["score"], won=s["won"])
            for _, s in sorted(table["sides"].items())
        )
        tables.append(BoardTable(number=table_number, state=state, sides=sides))
    return number, tables


def _sides(lines: list[dict]) -> tuple[Side, ...]:
    """One result's lines as its sides, the winner first, then in side order."""
    by_side: dict[int, list[dict]] = {}
    for line in lines:
        by_side.setdefault(line["side"], []).append(line)
    sides = [
        Side(
            names=tuple(line["player__display_name"] for line in found),
            score=found[0]["score"],
            won=found[0]["won"],
        )
        for _, found in sorted(by_side.items())
    ]
    return tuple(sorted(sides, key=lambda side: not side.won))


def _by_result(lines) -> dict[int, list[dict]]:
    grouped: dict[int, list[dict]] = {}
    for line in lines:
        grouped.setdefault(line["result_id"], []).append(line)
    return grouped


def _latest_results(session: Session) -> list[BoardResult]:
    """The LATEST results confirmed last, newest first: one query (their lines, the results
    chosen by a subquery)."""
    latest = (
        Result.objects.filter(game__session=session, state=ResultState.CONFIRMED)
        .order_by("-confirmed_at", "-pk")
        .values("pk")[:LATEST]
    )
    lines = (
        ResultLine.objects.filter(result__in=latest)
        .order_by("-result__confirmed_at", "-result_id", "side", "player__display_name")
        .values(*LINE_FIELDS, "result__source")
    )
    results = []
    for found in _by_result(lines).values():
        first = found[0]
        skunk = ""
        if any(line["double_skunked"] for line in found):
            skunk = "double skunk"
        elif any(line["skunked"] for line in found):
            skunk = "skunk"
        results.append(
            BoardResult(
                round=first["result__game__round__number"],
                table=first["result__game__table"],
                sides=_sides(found),
                confirmed_at=first["result__confirmed_at"],
                skunk=skunk,
                forfeit=first["result__source"] == ResultSource.FORFEIT,
            )
        )
    return results


def _tournament_panel(session: Session) -> TournamentPanel | None:
    """A tournament's session: its qualifying standings (three queries) or its bracket (two)."""
    if not session.is_tournament:
        return None
    tournament = Tournament.objects.select_related("champion").filter(session=session).first()
    if tournament is None:
        return None
    if tournament.stage in (Stage.REGISTRATION, Stage.QUALIFYING):
        rows = qualifying_standings(tournament)
        cut = sum(1 for row in rows if row.in_cut)
        return TournamentPanel(tournament, len(rows), cut, rows[: cut + BELOW_THE_CUT], [])
    rounds = bracket(tournament)
    matches = [match for each in rounds.values() for match in each]
    columns = _whole([column for half in chart(rounds, bracket_scores(matches)) for column in half])
    undecided = [m.round_number for m in matches if m.winner_id is None] or [len(rounds)]
    shown = [column for column in columns if column.round_number >= min(undecided)]
    return TournamentPanel(tournament, 0, len(tournament.seeds), [], shown)


def _whole(columns: list[ChartColumn]) -> list[ChartColumn]:
    """A chart drawn in two halves (a big bracket) as one: each round's cells, top to bottom."""
    by_round: dict[int, ChartColumn] = {}
    for column in columns:
        if column.round_number in by_round:
            first = by_round[column.round_number]
            column = ChartColumn(
                first.name, first.round_number, first.best_of, first.cells + column.cells
            )
        by_round[column.round_number] = column
    return [by_round[number] for number in sorted(by_round)]


def board_data(session: Session) -> Board:
    """Everything the board shows, in a fixed number of queries (see the module's terms)."""
    number, tables = _current_tables(session)
    return Board(
        session=session,
        round_number=number,
        rounds_planned=session.house_rules.rounds_per_session,
        tables=tables,
        standings=session_standings(session),
        results=_latest_results(session),
        highlights=session_highlights(session),
        tournament=_tournament_panel(session),
    )


@dataclass(frozen=True)
class Part:
    name: str
    title: str
    html: str
    version: str


def board_parts(board: Board) -> list[Part]:
    context = {"board": board, "latest": LATEST}
    parts = []
    names = dict(PARTS)
    if board.tournament is not None:
        names = {"tournament": TOURNAMENT_PARTS[board.tournament.part]} | names
    for name, title in names.items():
        html = render_to_string(f"web/board/{name}.html", context)
        version = hashlib.sha256(html.encode()).hexdigest()[:16]
        parts.append(Part(name=name, title=title, html=mark_safe(html), version=version))
    return parts


class BoardView(View):
    """The whole board: the page a TV opens full screen."""

    def get(self, request, pk: int):
        session = board_session(request, pk)
        board = board_data(session)
        context = {
            "session": session,
            "club": session.club,
            "board": board,
            "parts": board_parts(board),
            "refresh_seconds": REFRESH_SECONDS,
            "noscript_seconds": NOSCRIPT_SECONDS,
            "crowded": len(board.standings) > STANDINGS_COLUMN,
        }
        return render(request, "web/board.html", context)


class BoardPartsView(View):
    """The refresh: the parts whose version differs from the one the page sent (`?<part>=`),
    as out-of-band swaps; 204 when none changed. Opened without htmx (a browser's address bar),
    it sends the visitor to the board."""

    def get(self, request, pk: int):
        session = board_session(request, pk)
        if not request.htmx:
            return redirect(reverse("web:board", args=[session.pk]))
        parts = [
            part
            for part in board_parts(board_data(session))
            if request.GET.get(part.name) != part.version
        ]
        if not parts:
            return HttpResponse(status=204)
        # Rendered without the request: the site's context processors (the header's club, role and
        # navigation) would cost queries that no part needs.
        html = render_to_string("web/board/parts.html", {"parts": parts})
        return HttpResponse(html, headers={"Cache-Control": "no-store"})
