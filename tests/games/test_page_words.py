"""The games pages speak of people: "Entered by" and "confirmed by" name the people (their player's
name in the club), not their logins; the round page reads its table mode as people do ("Singles
(...)"), not "singles"."""

import datetime as dt

import pytest
from django.urls import reverse

from club import services as club_services
from games import services
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def official(club, username, name):
    user = UserFactory(role="organisers", username=username, first_name="", last_name="")
    PlayerFactory(club=club, user=user, display_name=name)
    return user


@pytest.fixture
def game(club):
    olive = official(club, "olive", "Olive Ashdown")
    session = club_services.session_open(club=club, actor=olive, date=dt.date(2026, 11, 26))
    players = [PlayerFactory(club=club) for _ in range(2)]
    club_services.checkins_create(session=session, actor=olive, players=players, paid=True)
    return services.round_draw(session=session, actor=olive, seed=3).games.get()


def test_the_game_page_names_who_entered_and_confirmed_not_their_logins(client, club, game):
    olive = game.session.opened_by
    owen = official(club, "owen", "Owen Price")
    draft = services.result_enter(game=game, actor=olive, scores=[121, 90])
    services.result_confirm(result=draft, actor=owen)
    client.force_login(olive)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Entered by Olive Ashdown at" in html and "confirmed by Owen Price at" in html
    assert "Entered by olive" not in html and "confirmed by owen" not in html


def test_the_round_page_reads_the_table_mode_as_people_do(client, club, game):
    client.force_login(game.session.opened_by)
    html = client.get(reverse("games:round", args=[game.round_id])).content.decode()
    assert "Singles (2-player tables, one 3-player table when odd) · drawn" in html
    assert "singles · drawn" not in html
