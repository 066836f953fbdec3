"""Season and all-time standings, player pages, public pages and CSV exports.

Ties and the head to head are checked against a naive recount from the game rows (the season
table's every figure is in tests/standings/test_season_recount.py); pages run the same number of
queries at 1 and at 5 seasons; anonymous visitors read them only when the club publishes them;
nothing private leaks; the CSV parses back to the rows on screen."""

import csv
import datetime as dt
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.services import club_update_rules, player_update
from core.tables import spreadsheet_safe
from games.models import Game, ResultLine, ResultState
from games.services import (
    game_forfeit,
    result_confirm,
    result_correct,
    result_enter,
    round_draw,
)
from money.services import session_settle
from standings.selectors import (
    head_to_head,
    player_season,
    season_standings,
)
from tests.builders import run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return UserFactory(role="organisers"), UserFactory(role="organisers")


def build_season(club, people, year, sessions=4, players=9):
    organiser, confirmer = people
    for week in range(sessions):
        session = run_session(
            club,
            organiser,
            confirmer,
            players=players,
            rounds=2 + week % 2,
            date=dt.date(year, 2, 5) + dt.timedelta(days=7 * week),
            seed=year * 10 + week,
        )
        session_settle(session=session, actor=organiser, seed=week)


def test_ties_share_a_rank(people):
    club = ClubFactory()
    organiser, confirmer = people
    session = run_session(
        club,
        organiser,
        confirmer,
        players=4,
        rounds=1,
        scores=lambda game: [121, 100],
        date=dt.date(2025, 3, 6),
    )
    standings = season_standings(club, 2025)
    labels = [s.rank_label for s in standings]
    assert labels == ["T-1", "T-1", "T-3", "T-3"]
    assert session.rounds.count() == 1


def test_player_page_head_to_head_and_charts_data(people):
    club = ClubFactory()
    build_season(club, people, 2025, sessions=3, players=5)
    player = club.players.first()
    data = player_season(club, player, 2025)
    assert len(data.points_by_session) == len(data.sessions) == data.standing.sessions
    assert all(1 <= rank <= 5 for _, rank in data.rank_by_session)
    games = sum(row["games"] for row in data.head_to_head)
    assert games >= data.standing.played  # 3-player tables give two opponents a game
    assert sum(row["won"] for row in data.head_to_head) >= data.standing.won


def build_mixed_history(club, people):
    """A 2025 season, then 2026: singles with a cut-throat table, a partners session, a corrected
    result (its first version superseded), a forfeit and a draft nobody confirmed."""
    organiser, confirmer = people
    build_season(club, people, 2025, sessions=2, players=7)
    run_session(club, organiser, confirmer, players=7, rounds=3, date=dt.date(2026, 3, 5))
    club_update_rules(club=club, actor=organiser, table_mode="partners")
    run_session(club, organiser, confirmer, players=8, rounds=2, date=dt.date(2026, 3, 12), seed=2)
    club_update_rules(club=club, actor=organiser, table_mode="singles")
    late = run_session(
        club, organiser, confirmer, players=6, rounds=2, date=dt.date(2026, 3, 19), seed=3
    )
    game = Game.objects.filter(session=late).order_by("round__number", "table")[0]
    scores = game.results.get(state=ResultState.CONFIRMED).scores
    result_correct(
        game=game,
        actor=organiser,
        scores=[121 if score != 121 else 99 for score in scores],
        reason="The pegs were read the wrong way round",
    )
    round_ = round_draw(session=late, actor=organiser, seed=9)
    forfeited, drafted, *played = round_.games.order_by("table")
    game_forfeit(game=forfeited, actor=organiser, leaving=forfeited.seats.first().player)
    result_enter(game=drafted, actor=organiser, scores=[121, 80])
    for game in played:
        result_confirm(
            result=result_enter(game=game, actor=organiser, scores=[121, 90]), actor=confirmer
        )


def naive_head_to_head(club, player, year=None) -> dict:
    """opponent -> (games, won, lost), recounted from every confirmed line of the club's games:
    each line of another side of a result the player has a line in."""
    by_result: dict = {}
    for line in ResultLine.objects.filter(
        result__state=ResultState.CONFIRMED, result__game__session__club=club
    ).select_related("player", "result__game__session"):
        if year is None or line.result.game.session.date.year == year:
            by_result.setdefault(line.result_id, []).append(line)
    table: dict = {}
    for lines in by_result.values():
        for mine in (line for line in lines if line.player_id == player.pk):
            for other in lines:
                if other.side != mine.side:
                    games, won, lost = table.get(other.player.display_name, (0, 0, 0))
                    table[other.player.display_name] = (
                        games + 1,
                        won + mine.won,
                        lost + other.won,
                    )
    return table


def test_the_head_to_head_is_a_recount_of_the_confirmed_lines(people):
    """Found by the player's seats, counted from the results' lines: the same figures as a
    recount of every confirmed line, partners, cut-throat tables, a correction, a forfeit and a
    draft included, in each season and all time."""
    club = ClubFactory()
    build_mixed_history(club, people)
    assert {game.kind for game in Game.objects.filter(session__club=club)} == {
        "two",
        "three",
        "partners",
    }
    for player in club.players.all():
        for year in (2025, 2026, None):
            rows = head_to_head(club, player, year)
            assert {r["opponent"]: (r["games"], r["won"], r["lost"]) for r in rows} == (
                naive_head_to_head(club, player, year)
            ), (player, year)
            assert rows == sorted(rows, key=lambda r: (-r["games"], r["opponent"].lower()))


def test_the_head_to_head_reads_the_seasons_seats_without_ordering(people):
    """One query, unordered (ordering by game, round and session joined those tables whole,
    every club's rows with them, on PostgreSQL), and led by the season's rounds: the player's
    whole history of lines is never read for one season."""
    club = ClubFactory()
    build_season(club, people, 2025, sessions=2, players=5)
    player = club.players.first()
    with CaptureQueriesContext(connection) as queries:
        rows = head_to_head(club, player, 2025)
    assert rows and len(queries) == 1
    sql = queries.captured_queries[0]["sql"]
    assert "ORDER BY" not in sql
    assert '"games_seat"' in sql and '"games_round"' in sql


def count_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


COUNTED_URLS = [
    "/games/standings/?season=2021",
    "/games/all-time/",
    "/games/players/{player}/?season=2021",
    "/club/sessions/",
]


def test_query_counts_do_not_grow_with_history(client, people):
    """Each page's queries at one season and at five (one history for all of them)."""
    club = ClubFactory(slug="thursday")
    build_season(club, people, 2021, sessions=1, players=4)
    player = club.players.order_by("pk").first()
    urls = [url.format(player=player.pk) for url in COUNTED_URLS]
    one = {url: count_queries(client, url) for url in urls}
    for year in (2022, 2023, 2024, 2025):
        build_season(club, people, year, sessions=2, players=5)
    assert {url: count_queries(client, url) for url in urls} == one


PUBLIC_URLS = [
    "/games/standings/",
    "/games/all-time/",
    "/games/players/{player}/",
    "/club/sessions/",
    "/club/sessions/{session}/",
]


@pytest.mark.parametrize("url", PUBLIC_URLS)
def test_public_on_and_off_for_anonymous_visitors(client, people, url):
    club = ClubFactory()
    build_season(club, people, 2025, sessions=1, players=4)
    url = url.format(player=club.players.first().pk, session=club.sessions.first().pk)
    assert client.get(url).status_code == 200
    club.standings_public = False
    club.save()
    assert client.get(url).status_code == 404
    member = UserFactory(role="players")
    PlayerFactory(club=club, user=member)
    client.force_login(member)
    assert client.get(url).status_code == 200


PRIVATE = re.compile(
    r"Owes|Mark paid|fee-totals|Collected|dispute|Dispute|Ledger|Settle the session|Undo",
)


def test_nothing_private_on_public_pages(client, people):
    club = ClubFactory()
    organiser, confirmer = people
    build_season(club, people, 2025, sessions=1, players=4)
    open_session = run_session(
        club, organiser, confirmer, players=4, rounds=1, pay=False, date=dt.date(2025, 6, 5)
    )
    for url in PUBLIC_URLS:
        html = client.get(
            url.format(player=club.players.first().pk, session=open_session.pk)
        ).content.decode()
        found = PRIVATE.findall(html)
        assert not found, (url, found)


def test_csv_export_parses_back_to_the_rows_on_screen(client, people):
    club = ClubFactory()
    build_season(club, people, 2025, sessions=2, players=6)
    page = client.get("/games/standings/?season=2025&sort=-spread")
    table = page.context["table"]
    screen = [[str(cell) for cell in row] for row in table.as_values()][1:]
    exported = client.get("/games/standings/?season=2025&sort=-spread&_export=csv")
    assert exported["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert rows[0] == [str(column.header) for column in table.columns]
    assert rows[1:] == screen
    names_on_page = re.findall(r'href="/games/players/\d+/">([^<]+)</a>', page.content.decode())
    assert [row[1] for row in rows[1:]] == names_on_page


@pytest.mark.parametrize("which", ["standings", "results"])
def test_session_csv_exports_match_the_tables_on_the_page(client, people, which):
    club = ClubFactory()
    build_season(club, people, 2025, sessions=1, players=5)
    session = club.sessions.get()
    page = client.get(f"/club/sessions/{session.pk}/")
    table = page.context[which]
    screen = [[str(cell) for cell in row] for row in table.as_values()]
    exported = client.get(f"/club/sessions/{session.pk}/export/?table={which}")
    assert exported["Content-Type"].startswith("text/csv")
    assert list(csv.reader(io.StringIO(exported.content.decode()))) == screen
    assert len(screen) > 1


def test_spreadsheet_safe_keeps_numbers_and_defuses_formulas():
    assert spreadsheet_safe("=1+1") == "'=1+1"
    assert spreadsheet_safe("@SUM(A1)") == "'@SUM(A1)"
    assert spreadsheet_safe("-cmd|' /C calc'!A0") == "'-cmd|' /C calc'!A0"
    assert spreadsheet_safe("+12") == "+12"
    assert spreadsheet_safe("-7") == "-7"
    assert spreadsheet_safe("Ada Ames") == "Ada Ames"
    assert spreadsheet_safe(12) == 12


@pytest.mark.parametrize(
    "url",
    [
        "/games/standings/?season=2025&_export=csv",
        "/games/all-time/?_export=csv",
        "session:standings",
        "session:results",
    ],
)
def test_a_name_that_looks_like_a_formula_is_exported_as_text(client, people, url):
    """A player named like a spreadsheet formula would run in the organiser's spreadsheet: every
    CSV writes it with a leading apostrophe, and the signed numbers stay numbers."""
    club = ClubFactory()
    build_season(club, people, 2025, sessions=1, players=4)
    organiser = people[0]
    evil = '=HYPERLINK("http://evil.example","win")'
    player_update(
        player=club.players.filter(active=True).order_by("pk").first(),
        actor=organiser,
        display_name=evil,
    )
    if url.startswith("session:"):
        url = f"/club/sessions/{club.sessions.get().pk}/export/?table={url.split(':')[1]}"
    rows = list(csv.reader(io.StringIO(client.get(url).content.decode())))
    cells = [cell for row in rows[1:] for cell in row]
    assert "'" + evil in cells
    assert not [cell for cell in cells if cell.startswith(("=", "@"))]
    signed = [cell for cell in cells if cell.startswith(("-", "+"))]
    assert all(re.fullmatch(r"[-+]\d+(\.\d+)?", cell) for cell in signed), signed
