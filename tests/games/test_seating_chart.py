"""The seating chart's QR codes and short links (games.views.RoundPrintView): for those who may draw
rounds while the round's links work, none for players, a warning on screen when the link's host is a
loopback host no phone can open, and PEGBOARD_BASE_URL's host. The links are keys to the tables: the
chart is never cached, and no other page of the round prints them.

Terms: a *table* is round 1 of a session drawn through the services, here with two tables
(tests.games.test_table_services.Table); *chart* the round's printable seating chart.
"""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from club.models import Club, Player
from games import services
from games.models import Game
from tests.factories import PlayerFactory, UserFactory
from tests.games.test_table_services import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    t = Table(players=4, table_mode="singles")
    Player.objects.filter(pk=t.players[0].pk).update(display_name="Pat Cowley")
    return t


def closed_round(table):
    services.round_draw(session=table.session, actor=table.organiser, seed=9)


def links_off(table):
    Club.objects.filter(pk=table.club.pk).update(table_links=False)


def chart(client, table):
    return client.get(f"/games/rounds/{table.game.round_id}/print/")


def test_the_organisers_chart_has_a_qr_code_and_link_per_table(client, table):
    client.force_login(table.organiser)
    html = chart(client, table).content.decode()
    assert html.count('<svg viewBox="') == 2
    assert 'class="qr"' in html
    for game in Game.objects.filter(round=table.game.round):
        assert f'<span class="seat-card__path">/t/{game.table_token}/</span>' in html
        assert f"<title>Table {game.table}: http://testserver/t/{game.table_token}/</title>" in html
    assert 'data-testid="local-only"' not in html
    assert "style=" not in html


def test_a_player_sees_the_chart_without_codes(client, table, member):
    player = PlayerFactory(club=table.club, user=UserFactory(role="players"))
    client.force_login(player.user)
    html = chart(client, table).content.decode()
    assert "Pat Cowley" in html
    assert "<svg" not in html and table.game.table_token not in html


def test_no_codes_when_links_are_off_or_the_round_is_closed(client, table):
    client.force_login(table.organiser)
    closed_round(table)
    html = chart(client, table).content.decode()
    assert "<svg" not in html
    assert "No QR codes on this chart: Round 1 is over" in html
    links_off(table)
    html = chart(client, table).content.decode()
    assert "<svg" not in html and "No QR codes" not in html


@override_settings(PEGBOARD_BASE_URL="http://127.0.0.1:8000")
def test_a_local_only_link_is_warned_about_on_screen(client, table):
    client.force_login(table.organiser)
    html = chart(client, table).content.decode()
    warning = html.split('data-testid="local-only"')[1].split("</div>")[0]
    assert "Phones cannot open these links" in warning
    assert "PEGBOARD_BASE_URL" in warning and "make run HOST=0.0.0.0" in warning
    assert 'class="message message--warning no-print"' in html


@override_settings(PEGBOARD_BASE_URL="http://192.168.1.20:8000")
def test_the_base_url_names_the_host_phones_reach(client, table):
    client.force_login(table.organiser)
    html = chart(client, table).content.decode()
    assert f"http://192.168.1.20:8000/t/{table.game.table_token}/" in html
    assert '<span class="seat-card__host">192.168.1.20:8000</span>' in html
    assert 'data-testid="local-only"' not in html


def test_the_chart_with_the_live_links_is_never_cached(client, table):
    """A shared browser's back button, its cache or a proxy must not keep a page of live table
    links and QR codes (`Cache-Control: no-store`, as the table pages themselves)."""
    client.force_login(table.organiser)
    response = chart(client, table)
    assert table.game.table_token in response.content.decode()
    assert "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("page", ["games:round", "games:game", "web:session", "web:board"])
def test_no_other_page_of_the_round_prints_a_table_link(client, table, page):
    """The round page, the game page, the session page and the live board show no table's link
    or QR code, even to the organiser who may print them: only the chart does."""
    client.force_login(table.organiser)
    pk = {
        "games:round": table.game.round_id,
        "games:game": table.game.pk,
        "web:session": table.session.pk,
        "web:board": table.session.pk,
    }[page]
    response = client.get(reverse(page, args=[pk]))
    assert response.status_code == 200
    html = response.content.decode()
    for game in Game.objects.filter(round=table.game.round):
        assert game.table_token not in html
    assert 'class="qr"' not in html
