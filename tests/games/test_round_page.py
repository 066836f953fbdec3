"""The round page for everyone: public while the club publishes its standings (404 to visitors when
they are private), with the organisers' tools only for those who may use them, never a table's link,
and "Find your name": `?name=` keeps the tables with that name, highlighted, and says "No player
called X in round N" when there is none.

Terms: *round* is round 1 of a session of `club` with nine checked-in players in singles (three
2-player tables and a cut-throat one), among them "Bill Dawson" and "Ann Dawes".
"""

import datetime as dt
import re

import pytest
from django.urls import reverse

from club import services as club_services
from club.models import Club
from games import services
from games.models import Game
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(club, organiser):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    players = [
        PlayerFactory(club=club, display_name="Bill Dawson"),
        PlayerFactory(club=club, display_name="Ann Dawes"),
    ]
    players += [PlayerFactory(club=club) for _ in range(7)]
    club_services.checkins_create(session=session, actor=organiser, players=players, paid=True)
    return services.round_draw(session=session, actor=organiser, seed=4)


def url(round_, **query) -> str:
    address = reverse("games:round", args=[round_.pk])
    return address + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def table_of(name: str) -> Game:
    return Game.objects.get(seats__player__display_name=name)


def rows(html: str) -> dict[int, str]:
    """Each table's <li> opening tag, by table number."""
    return {
        int(number): tag
        for tag, number in re.findall(r'(<li class="table-line[^>]*data-table="(\d+)"[^>]*>)', html)
    }


def test_a_visitor_reads_it_while_standings_are_public_and_gets_404_otherwise(client, round_):
    response = client.get(url(round_))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Bill Dawson" in html and len(rows(html)) == 4
    Club.objects.filter(pk=round_.session.club_id).update(standings_public=False)
    assert client.get(url(round_)).status_code == 404


@pytest.mark.parametrize("role", ["public", "player", "judge", "organiser"])
def test_no_table_link_ever_reaches_the_round_page(client_for, round_, role):
    html = client_for(role).get(url(round_)).content.decode()
    for token in Game.objects.values_list("table_token", flat=True):
        assert token not in html
    assert "/t/" not in html


def test_visitors_and_players_get_no_organisers_tools(client, client_for, round_):
    html = client.get(url(round_)).content.decode()
    for tool in ("Swap two seats", "Withdraw round", "Type in the scorecards", "Seating chart"):
        assert tool not in html
    assert reverse("games:game", args=[table_of("Bill Dawson").pk]) not in html  # members only
    member = client_for("player").get(url(round_)).content.decode()
    for tool in ("Swap two seats", "Withdraw round", "Type in the scorecards"):
        assert tool not in member
    assert "Seating chart" in member
    assert reverse("games:game", args=[table_of("Bill Dawson").pk]) in member


def test_the_organiser_gets_the_tools(client_for, round_):
    html = client_for("organiser").get(url(round_)).content.decode()
    for tool in ("Swap two seats", "Withdraw round 1", "Type in the scorecards", "Seating chart"):
        assert tool in html


def test_find_a_name_keeps_its_table_highlighted_and_hides_the_others(client, round_):
    response = client.get(url(round_, name="bill%20%20DAWSON"))
    assert response.status_code == 200
    html = response.content.decode()
    bills = table_of("Bill Dawson").table
    found = rows(html)
    assert "table-line--found" in found[bills] and " hidden" not in found[bills]
    assert all(" hidden" in tag for number, tag in found.items() if number != bills)
    assert f"Found at table {bills}." in html
    assert 'value="bill  DAWSON"' in html  # the box keeps what was typed
    assert "Show every table" in html


def test_part_of_a_name_finds_every_table_with_it(client, round_):
    html = client.get(url(round_, name="daw")).content.decode()
    tables = sorted({table_of("Bill Dawson").table, table_of("Ann Dawes").table})
    found = rows(html)
    assert sorted(n for n, tag in found.items() if "table-line--found" in tag) == tables
    if len(tables) == 2:
        assert f"Found at tables {tables[0]}, {tables[1]}." in html


def test_no_player_of_that_name_says_so_and_shows_every_table(client, round_):
    html = client.get(url(round_, name="Zed")).content.decode()
    assert "No player called “Zed” in round 1." in html
    assert not any(" hidden" in tag or "found" in tag for tag in rows(html).values())


def test_an_empty_or_overlong_name_finds_nothing_and_shows_every_table(client, round_):
    for name in ("", "%20%20", "x" * 61):
        html = client.get(url(round_, name=name)).content.decode()
        assert 'data-testid="find-result"></p>' in html
        assert not any(" hidden" in tag for tag in rows(html).values())


def test_a_hostile_name_is_shown_escaped(client, round_):
    html = client.get(url(round_, name="%3Cscript%3Ealert(1)%3C/script%3E")).content.decode()
    assert "<script>alert(1)" not in html
    assert "No player called “&lt;script&gt;alert(1)&lt;/script&gt;” in round 1." in html


def test_the_find_script_is_the_sites_own_file(client, round_):
    html = client.get(url(round_)).content.decode()
    assert '<script src="/static/js/find-table.js" defer></script>' in html
    assert "data-find-name" in html and "data-find-list" in html


def test_a_result_shows_its_scores_and_state(client, organiser, round_):
    game = table_of("Bill Dawson")
    scores = [121, 80, 90][: game.side_count]
    services.result_enter(game=game, actor=organiser, scores=scores)
    html = client.get(url(round_)).content.decode()
    row = html.split(f'data-table="{game.table}"')[1].split("</li>")[0]
    assert "<strong>121</strong>" in row and "To accept" in row


def test_the_page_costs_the_same_queries_for_any_number_of_tables(
    client, club, organiser, round_, django_assert_max_num_queries
):
    client.get(url(round_))
    with django_assert_max_num_queries(100) as few:
        client.get(url(round_, name="daw"))
        count = len(few)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 12, 3))
    players = [PlayerFactory(club=club) for _ in range(24)]
    club_services.checkins_create(session=session, actor=organiser, players=players, paid=True)
    big = services.round_draw(session=session, actor=organiser, seed=1)
    with django_assert_max_num_queries(count):
        client.get(url(big, name="daw"))
