"""Every page leads on, on the club's pages: the roster links each name to the player's page
(organisers keep their edit and login links); one's account page links to one's player page and
money; a one-time link's "made by" names the organiser's player, not their login."""

import pytest
from django.urls import reverse

from club.models import Player
from club.services import logins
from club.tables import PlayerTable
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

ROSTER = "/club/players/"


@pytest.fixture
def ann(club):
    return PlayerFactory(club=club, display_name="Ann Able")


def test_a_player_reads_the_roster_with_each_name_linking_to_the_players_page(
    client_for, club, ann
):
    html = client_for("player").get(ROSTER).content.decode()
    page = reverse("standings:player", args=[ann.pk])
    assert f'<a href="{page}">Ann Able</a>' in html
    assert reverse("club:player_edit", args=[ann.pk]) not in html


def test_organisers_get_the_players_page_and_keep_their_edit_and_login_links(client_for, club, ann):
    html = client_for("organiser").get(ROSTER).content.decode()
    assert f'<a href="{reverse("standings:player", args=[ann.pk])}">Ann Able</a>' in html
    edit = reverse("club:player_edit", args=[ann.pk])
    assert f'<a href="{edit}">Edit<span class="visually-hidden"> Ann Able</span></a>' in html
    login = reverse("club:player_login", args=[ann.pk])
    assert f'<a href="{login}">Login<span class="visually-hidden"> of Ann Able</span></a>' in html


def test_a_name_links_nowhere_for_who_may_not_read_the_players_page(club, ann):
    """The roster's table links names only when told the reader may open player pages."""
    table = PlayerTable(Player.objects.filter(pk=ann.pk), player_pages=False)
    assert table.rows[0].get_cell("display_name") == "Ann Able"


def test_the_account_page_links_to_ones_player_page_and_money(client, member):
    user = member("player")
    mine = Player.objects.get(user=user)
    client.force_login(user)
    html = client.get(reverse("club:account")).content.decode()
    assert f'href="{reverse("standings:player", args=[mine.pk])}"' in html
    money = reverse("money:player_money", args=[mine.pk])
    assert f'<a href="{money}" data-testid="money-link">Your money</a>' in html
    assert client.get(money).status_code == 200


def test_a_login_of_no_club_gets_no_money_link(client):
    user = UserFactory()
    client.force_login(user)
    assert 'data-testid="money-link"' not in client.get(reverse("club:account")).content.decode()


def test_the_live_links_maker_is_named_by_their_player(client, club, ann):
    olive = UserFactory(role="organisers", username="olive", first_name="", last_name="")
    PlayerFactory(club=club, user=olive, display_name="Olive Ashdown")
    logins.login_give(player=ann, actor=olive, username="ann", role="player")
    client.force_login(olive)
    html = client.get(reverse("club:player_login", args=[ann.pk])).content.decode()
    assert "by Olive Ashdown, expires" in html and "by olive," not in html
