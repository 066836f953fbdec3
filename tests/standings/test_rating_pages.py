"""The ratings on the pages: the ratings page and its CSV show the numbers of `manage.py ratings`,
provisional players are marked, the season standings have a sortable rating column (each player's
rating as the season ended), and the player page charts the rating with its uncertainty band beside
expected against actual wins. The ratings table's rows are written in a plain loop with the
markup django-tables2 writes a cell at a time."""

import csv
import datetime as dt
import io
import json
import re

import pytest
from django.db import transaction
from django.template.loader import get_template
from django.test import RequestFactory
from django_tables2 import RequestConfig

from club.models import Club
from standings.models import PROVISIONAL_GAMES
from standings.rating_selectors import current_ratings, expected_vs_actual
from standings.tables import RatingTable
from tests.builders import run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.standings.test_ratings_command import run

pytestmark = pytest.mark.django_db

LAST_YEAR, THIS_YEAR = dt.date(2025, 11, 6), dt.date(2026, 3, 5)


@pytest.fixture(scope="module")
def rated_club(django_db_setup, django_db_blocker) -> int:
    """The id of a club of two seasons: seven players three rounds last year, then the same
    seven and a newcomer with one game this year (provisional). Played once for the module
    inside a transaction rolled back at the end; each test runs in a savepoint of it."""
    with django_db_blocker.unblock(), transaction.atomic():
        club = ClubFactory(name="Rated Club", slug="rated", standings_public=True)
        people = UserFactory(role="organisers"), UserFactory(role="organisers")
        for n in range(7):
            PlayerFactory(club=club, display_name=f"Player {n}")
        for week in range(5):
            date = LAST_YEAR + dt.timedelta(7 * week)
            run_session(club, *people, players=7, rounds=3, date=date)
        run_session(club, *people, players=8, rounds=1, date=THIS_YEAR)
        yield club.pk
        transaction.set_rollback(True)


@pytest.fixture
def rated(rated_club) -> Club:
    """The rated club (`rated_club`), the only club on the site: the visitors' club."""
    return Club.objects.get(pk=rated_club)


def test_the_ratings_page_shows_the_commands_numbers(rated, client):
    html = client.get("/games/ratings/").content.decode()
    code, out, _ = run("--club", rated.slug, "--json")
    assert code == 0
    rows = json.loads(out)["ratings"] if isinstance(json.loads(out), dict) else json.loads(out)
    assert rows
    cells = re.findall(r"<tr[^>]*>(.*?)</tr>", html.split("<tbody")[1], flags=re.S)
    assert len(cells) == len(rows)
    for row, cell in zip(rows, cells, strict=True):
        assert row["player"] in cell
        for key in ("ordinal", "mu", "sigma"):
            assert f">{row[key]:.3f}" in cell or f"{row[key]:.3f} <span" in cell, (key, cell)
        assert ("(provisional)" in cell) == row["provisional"]


def test_the_csv_has_every_player_exactly_as_the_page(rated, client):
    response = client.get("/games/ratings/", {"_export": "csv"})
    lines = list(csv.DictReader(io.StringIO(response.content.decode())))
    table = current_ratings(rated)
    assert [line["Player"] for line in lines] == [row.player for row in table]
    for line, row in zip(lines, table, strict=True):
        assert line["Rating"] == f"{row.ordinal:.3f}"
        assert line["Mu"] == f"{row.mu:.3f}" and line["Sigma"] == f"{row.sigma:.3f}"
        assert line["Provisional"] == ("yes" if row.provisional else "no")
        assert line["Games"] == str(row.games)
    assert {line["Provisional"] for line in lines} == {"yes", "no"}


def test_a_newcomer_is_provisional_until_twelve_games(rated, client):
    table = current_ratings(rated)
    newcomers = [row for row in table if row.games < PROVISIONAL_GAMES]
    assert newcomers and all(row.provisional for row in newcomers)
    page = client.get(f"/games/players/{newcomers[0].player_id}/").content.decode()
    assert 'data-testid="provisional"' in page
    veteran = next(row for row in table if not row.provisional)
    page = client.get(f"/games/players/{veteran.player_id}/").content.decode()
    assert 'data-testid="provisional"' not in page
    assert f'data-testid="player-rating">{veteran.ordinal:.3f}<' in page


def test_the_season_standings_rate_each_player_as_the_season_ended(rated, client):
    last = {row.player_id: row for row in current_ratings(rated, season=2025)}
    now = {row.player_id: row for row in current_ratings(rated)}
    assert any(f"{last[p].ordinal:.3f}" != f"{now[p].ordinal:.3f}" for p in last)
    lines = csv.DictReader(
        io.StringIO(
            client.get("/games/standings/", {"season": 2025, "_export": "csv"}).content.decode()
        )
    )
    by_name = {row.player: row for row in last.values()}
    for line in lines:
        assert line["Rating"] == f"{by_name[line['Player']].ordinal:.3f}"


@pytest.mark.parametrize("order", ["rating", "-rating"])
def test_the_rating_column_sorts(rated, client, order):
    html = client.get("/games/standings/", {"season": 2025, "sort": order}).content.decode()
    shown = [float(x) for x in re.findall(r'<td class="numeric">(-?\d+\.\d{3})', html)]
    assert len(shown) == 7
    assert shown == sorted(shown, reverse=order.startswith("-"))


def test_the_player_page_charts_the_rating_with_its_band(rated, client):
    player = rated.players.get(pk=current_ratings(rated)[0].player_id)
    html = client.get(f"/games/players/{player.pk}/", {"season": 2025}).content.decode()
    chart = html.split('data-testid="rating"')[1].split("</section>")[0]
    assert '<polygon class="chart__band"' in chart
    luck = expected_vs_actual(rated, player, 2025)
    assert chart.count('class="chart__point"') == luck.games
    assert f"won <strong>{luck.wins}</strong> of {luck.games}" in chart
    assert f"expected <strong>{luck.expected_wins:.1f}</strong>" in chart


def test_an_unrated_player_has_no_rating_yet(club, client, settings):
    # The rated club of the other tests is on the site too: the visitors are sent to this one.
    settings.PEGBOARD_DEFAULT_CLUB = club.slug
    club.standings_public = True
    club.save()
    player = PlayerFactory(club=club)
    html = client.get(f"/games/players/{player.pk}/").content.decode()
    assert "No rated games yet" in html
    assert "No rated games yet" in client.get("/games/ratings/").content.decode()


def _table_markup(html: str) -> str:
    """The <table> of a page, without the whitespace between tags or in an empty attribute list
    (the page writes its rows in a plain loop, django-tables2's template spreads them out)."""
    table = html[html.index("<table") : html.index("</table>") + len("</table>")]
    table = re.sub(r">\s+", ">", re.sub(r"\s+<", "<", table))
    return re.sub(r"<(\w+) >", r"<\1>", table)


def _rendered(ratings, query, template_name: str) -> str:
    """The ratings table, sorted as `query` asks, rendered with `template_name`."""
    request = RequestFactory().get("/games/ratings/", query)
    table = RatingTable(ratings)
    RequestConfig(request, paginate=False).configure(table)
    return get_template(template_name).render({"table": table}, request)


@pytest.mark.parametrize(
    "order", ["", "player", "-games", "ordinal", "-mu", "sigma", "provisional"]
)
def test_the_ratings_table_is_the_markup_django_tables2_writes(rated, client, order):
    query = {"sort": order} if order else {}
    page = client.get("/games/ratings/", query).content.decode()
    assert "(provisional)" in page and '<span class="true">yes</span>' in page
    # django-tables2's own template writes the table a cell at a time.
    expected = _rendered(current_ratings(rated), query, "tables/table.html")
    assert _table_markup(page) == _table_markup(expected)
    plain = RatingTable.Meta.template_name
    assert _table_markup(_rendered([], query, plain)) == _table_markup(
        _rendered([], query, "tables/table.html")
    )
