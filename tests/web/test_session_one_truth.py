"""The session page tells one truth: an action on a check-in row updates every part of the page it
touches together, a refusal is shown on the row pressed, and "Undo check-in" is offered only while
it can work (docs/club/check-in-and-draw.md, "Checking in")."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from club import services as club_services
from club.models import CheckIn
from games import services as game_services
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def morning(club, organiser):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 12, 3))
    for _ in range(4):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
    game_services.round_draw(session=session, actor=organiser, seed=3)
    late = club_services.checkin_create(
        session=session, actor=organiser, player=PlayerFactory(club=club, display_name="Lena Late")
    )
    return session, late


def test_undo_check_in_is_offered_only_to_a_player_without_a_seat(client, organiser, morning):
    session, late = morning
    client.force_login(organiser)
    html = client.get(reverse("web:session", args=[session.pk])).content.decode()
    offered = re.findall(r"aria-label=\"Undo (.*?)'s check-in\"", html)
    assert offered == ["Lena Late"]


def test_a_refused_undo_is_told_on_its_row_with_what_to_do_instead(client, organiser, morning):
    session, _ = morning
    seated = CheckIn.objects.filter(session=session, player__seats__isnull=False).first()
    client.force_login(organiser)
    response = client.post(reverse("web:checkin_undo", args=[session.pk, seated.pk]))
    assert response.status_code == 400
    html = response.content.decode()
    row = html.split(f'id="refusal-{seated.pk}"')[1].split("</tr>")[0]
    assert "already has a game this session" in row
    assert "Leaves after round" in row  # what to do instead
    assert 'role="alert"' in row
    assert CheckIn.objects.filter(pk=seated.pk).exists()


def test_a_check_in_action_swaps_every_part_it_touches(client, organiser, morning):
    session, _ = morning
    client.force_login(organiser)
    html = client.get(reverse("web:session", args=[session.pk])).content.decode()
    card = re.search(r'<section class="card" id="checkin"([^>]*)>', html)[1]
    swapped = re.search(r'hx-select-oob="([^"]*)"', card)[1].split(",")
    for part in ("#messages", "#settle", "#rounds", "#standings"):
        assert part in swapped
        assert f'id="{part[1:]}"' in html  # each part is on the page to be swapped


def test_a_name_on_a_check_in_row_is_escaped_and_its_buttons_still_say_whose(
    client, club, organiser, morning
):
    session, _ = morning
    club_services.checkin_create(
        session=session, actor=organiser, player=PlayerFactory(club=club, display_name="O'Neil <b>")
    )
    client.force_login(organiser)
    html = client.get(reverse("web:session", args=[session.pk])).content.decode()
    row = html.split('data-player="O&#x27;Neil &lt;b&gt;"')[1].split("</tr>")[0]
    assert "<b>" not in row
    assert 'aria-label="Undo O&#x27;Neil &lt;b&gt;\'s check-in"' in row
    assert 'aria-label="Mark O&#x27;Neil &lt;b&gt; paid' in row
    assert '<span class="visually-hidden"> (O&#x27;Neil &lt;b&gt;)</span>' in row


def test_a_seat_on_another_morning_does_not_stop_the_undo(client, club, organiser, morning):
    """Whether a check-in can be undone is read from this session's rounds: a player seated
    last week and checked in today, before today's draw, can still be undone."""
    last_week, _ = morning
    veteran = CheckIn.objects.filter(session=last_week, player__seats__isnull=False).first()
    today = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 12, 10))
    club_services.checkin_create(session=today, actor=organiser, player=veteran.player)
    client.force_login(organiser)
    html = client.get(reverse("web:session", args=[today.pk])).content.decode()
    assert re.findall(r"aria-label=\"Undo (.*?)'s check-in\"", html) == [
        veteran.player.display_name
    ]
