"""The session page's check-in row: leaves after a round, sits out a round, their undos, and
the refusals said on the row (docs/spec.md "A Thursday, step by step", step 7)."""

import datetime as dt

import pytest
from django.urls import reverse

from club import services as club_services
from club.models import CheckIn, SessionState
from games import services as game_services
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def morning(client, club, organiser):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for name in ("Ann", "Bob", "Cy", "Di"):
        player = PlayerFactory(club=club, display_name=name)
        club_services.checkin_create(session=session, actor=organiser, player=player)
    client.force_login(organiser)
    return session


def url(name, checkin):
    return reverse(f"web:checkin_{name}", args=[checkin.session_id, checkin.pk])


def ann(session):
    return CheckIn.objects.get(session=session, player__display_name="Ann")


def test_leaves_after_a_round_from_the_row(client, morning, organiser):
    game_services.round_draw(session=morning, actor=organiser)
    response = client.post(url("leaves", ann(morning)), {"round": "1"}, follow=True)
    assert "Ann leaves after round 1" in response.content.decode()
    assert "(leaves after round 1)" in response.content.decode()
    assert ann(morning).last_round == 1
    client.post(url("leaves_undo", ann(morning)))
    assert ann(morning).last_round is None


def test_sits_out_and_its_undo_from_the_row(client, morning):
    client.post(url("sits_out", ann(morning)), {"round": "2"})
    page = client.get(reverse("web:session", args=[morning.pk])).content.decode()
    assert "(sits out round 2)" in page
    assert "Plays round 2 (undo sitting out)" in page
    client.post(url("sits_out_undo", ann(morning)), {"round": "2"})
    assert ann(morning).sits_out == []


@pytest.mark.parametrize("value", ["", "x", "0", "99"])
def test_a_bad_round_is_refused_on_the_row_with_a_400(client, morning, value):
    response = client.post(url("sits_out", ann(morning)), {"round": value})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'role="alert"' in page
    assert "Choose a round." in page or "choose" in page.lower()
    assert ann(morning).sits_out == []


def test_a_drawn_round_cannot_be_sat_out(client, morning, organiser):
    game_services.round_draw(session=morning, actor=organiser)
    response = client.post(url("sits_out", ann(morning)), {"round": "1"})
    assert response.status_code == 400
    assert "Round 1 is already drawn" in response.content.decode()


def test_after_settling_the_row_is_refused(client, morning):
    type(morning).objects.filter(pk=morning.pk).update(state=SessionState.SETTLED)
    response = client.post(url("leaves", ann(morning)), {"round": "2"})
    assert response.status_code == 400
    assert ann(morning).last_round is None


def test_another_clubs_session_is_404(client, morning):
    other = ClubFactory()
    outsider = UserFactory(role="organisers", club=other)
    client.force_login(outsider)
    response = client.post(url("leaves", ann(morning)), {"round": "2"})
    assert response.status_code == 404
    assert ann(morning).last_round is None


def test_a_player_cannot_mark_anyone(client, morning, member):
    client.force_login(member("player"))
    response = client.post(url("leaves", ann(morning)), {"round": "2"})
    assert response.status_code == 403
