"""games.hooks: the game page shows panels that apps above games fill (scoring's claims), so
the games app shows claims without importing scoring."""

import datetime as dt

import pytest
from django.urls import reverse

from club import services as club_services
from games import hooks
from games import services as game_services
from scoring import services as scoring_services
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(club):
    organiser = UserFactory(role="organisers")
    PlayerFactory(club=club, user=organiser, display_name="Olive Organiser")
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    for _ in range(2):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
    game = game_services.round_draw(session=session, actor=organiser, seed=3).games.get()
    game.organiser = organiser
    return game


@pytest.fixture
def panels(monkeypatch):
    """The registered panels, restored after the test."""
    monkeypatch.setattr(hooks, "_PANELS", dict(hooks._PANELS))
    return hooks


def test_scoring_fills_the_claims_panel(client, game):
    seat = game.seats.first()
    scoring_services.claim_file(
        game=game,
        actor=game.organiser,
        kind="hand",
        claimant=seat.player,
        claimed_points=12,
        hand="5H 5C 6S 4D",
        starter="KH",
    )
    client.force_login(game.organiser)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="claims"' in page
    assert f"{seat.player.display_name}: 12 for hand" in page
    assert "File a claim" in page  # an organiser may file one
    assert [panel.name for panel in hooks.game_panels(_request(game.organiser), game)] == ["claims"]


def test_a_panel_shows_what_its_app_gives_and_nothing_when_it_gives_none(client, game, panels):
    panels.register_game_panel(
        name="note",
        template_name="includes/form.html",  # any template: the page includes it as it is
        context=lambda request, game: {"form": None} if request.user.is_staff else None,
    )
    organiser = game.organiser
    client.force_login(organiser)
    assert [p.name for p in hooks.game_panels(_request(organiser), game)] == ["claims"]
    organiser.is_staff = True
    organiser.save()
    shown = hooks.game_panels(_request(organiser), game)
    assert [p.name for p in shown] == ["claims", "note"]
    assert shown[1].data == {"form": None}
    assert client.get(reverse("games:game", args=[game.pk])).status_code == 200


def _request(user):
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = user
    return request
