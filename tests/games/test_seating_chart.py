"""The seating chart's QR codes and short links (games.views.RoundPrintView): for those who may draw
rounds while the round's links work, none for players, a warning on screen when the link's host is a
loopback host no phone can open, and PEGBOARD_BASE_URL's host. The links are keys to the tables: the
chart is never cached, and no other page of the round prints them.

Terms: `first_of_two` (tests/games/conftest.py) is the first of round 1's two tables, drawn
through the services; *chart* the round's printable seating chart.
"""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from club.models import Club
from games import services
from games.models import Game
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def closed_round(first_of_two):
    services.round_draw(session=first_of_two.session, actor=first_of_two.organiser, seed=9)


def links_off(first_of_two):
    Club.objects.filter(pk=first_of_two.club.pk).update(table_links=False)


def chart(client, first_of_two):
    return client.get(f"/games/rounds/{first_of_two.game.round_id}/print/")


def test_the_organisers_chart_has_a_qr_code_and_link_per_table(client, first_of_two):
    client.force_login(first_of_two.organiser)
    html = chart(client, first_of_two).content.decode()
    assert html.count('<svg viewBox="') == 2
    assert 'class="qr"' in html
    for game in Game.objects.filter(round=first_of_two.game.round):
        assert f'<span class="seat-card__path">/t/{game.table_token}/</span>' in html
        assert f"<title>Table {game.table}: http://testserver/t/{game.table_token}/</title>" in html
    assert 'data-testid="local-only"' not in html
    assert "style=" not in html


def test_a_player_sees_the_chart_without_codes(client, first_of_two, member):
    player = PlayerFactory(club=first_of_two.club, user=UserFactory(role="players"))
    client.force_login(player.user)
    html = chart(client, first_of_two).content.decode()
    assert "Pat Cowley" in html
    assert "<svg" not in html and first_of_two.game.table_token not in html


def test_no_codes_when_links_are_off_or_the_round_is_closed(client, first_of_two):
    client.force_login(first_of_two.organiser)
    closed_round(first_of_two)
    html = chart(client, first_of_two).content.decode()
    assert "<svg" not in html
    assert "No QR codes on this chart: Round 1 is over" in html
    links_off(first_of_two)
    html = chart(client, first_of_two).content.decode()
    assert "<svg" not in html and "No QR codes" not in html


@override_settings(PEGBOARD_BASE_URL="http://127.0.0.1:8000")
def test_a_local_only_link_is_warned_about_on_screen(client, first_of_two):
    client.force_login(first_of_two.organiser)
    html = chart(client, first_of_two).content.decode()
    warning = html.split('data-testid="local-only"')[1].split("</div>")[0]
    assert "Phones cannot open these links" in warning
    assert "PEGBOARD_BASE_URL" in warning and "make run HOST=0.0.0.0" in warning
    assert 'class="message message--warning no-print"' in html


@override_settings(PEGBOARD_BASE_URL="http://192.168.1.20:8000")
def test_the_base_url_names_the_host_phones_reach(client, first_of_two):
    client.force_login(first_of_two.organiser)
    html = chart(client, first_of_two).content.decode()
    assert f"http://192.168.1.20:8000/t/{first_of_two.game.table_token}/" in html
    assert '<span class="seat-card__host">192.168.1.20:8000</span>' in html
    assert 'data-testid="local-only"' not in html


def test_the_chart_with_the_live_links_is_never_cached(client, first_of_two):
    """A shared browser's back button, its cache or a proxy must not keep a page of live table
    links and QR codes (`Cache-Control: no-store`, as the table pages themselves)."""
    client.force_login(first_of_two.organiser)
    response = chart(client, first_of_two)
    assert first_of_two.game.table_token in response.content.decode()
    assert "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("page", ["games:round", "games:game", "web:session", "web:board"])
def test_no_other_page_of_the_round_prints_a_table_link(client, first_of_two, page):
    """The round page, the game page, the session page and the live board show no table's link
    or QR code, even to the organiser who may print them: only the chart does."""
    client.force_login(first_of_two.organiser)
    pk = {
        "games:round": first_of_two.game.round_id,
        "games:game": first_of_two.game.pk,
        "web:session": first_of_two.session.pk,
        "web:board": first_of_two.session.pk,
    }[page]
    response = client.get(reverse(page, args=[pk]))
    assert response.status_code == 200
    html = response.content.decode()
    for game in Game.objects.filter(round=first_of_two.game.round):
        assert game.table_token not in html
    assert 'class="qr"' not in html
