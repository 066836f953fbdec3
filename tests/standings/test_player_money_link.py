"""A player's money page (money:player_money) is linked from their player page, for those who may
read it (money.selectors.may_see_player_money): the player themself and organisers; never another
player, a judge, or a visitor (whose cached copy of the page must not carry it either)."""

import pytest
from django.urls import reverse

from club.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def player_page(client, player) -> str:
    response = client.get(reverse("standings:player", args=[player.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_player_sees_a_link_to_their_own_money(client, member):
    user = member("player")
    mine = Player.objects.get(user=user)
    client.force_login(user)
    money = reverse("money:player_money", args=[mine.pk])
    assert f'<a href="{money}" data-testid="money-link">Your money</a>' in player_page(client, mine)


@pytest.mark.parametrize(
    ("role", "linked"), [("player", False), ("judge", False), ("organiser", True)]
)
def test_another_players_money_is_linked_for_organisers_only(client, club, member, role, linked):
    ann = PlayerFactory(club=club, display_name="Ann Able")
    client.force_login(member(role))
    money = reverse("money:player_money", args=[ann.pk])
    assert (money in player_page(client, ann)) is linked
    assert client.get(money).status_code == (200 if linked else 403)


def test_a_visitor_gets_no_money_link(client, club):
    ann = PlayerFactory(club=club, display_name="Ann Able")
    assert 'data-testid="money-link"' not in player_page(client, ann)
