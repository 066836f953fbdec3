"""Pages that list a whole club (the roster, the season and all-time tables) show each member
their own club's players and nobody else's.

Terms: the *first club* is `club` and the other `other_club` (tests/conftest.py); a *marker* is
text only one club's data carries: its players' names, "Zebulon Firstclub <pk>" in the first
club and "Yolanda Secondclub <pk>" in the other.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tests.builders import run_session
from tests.factories import UserFactory
from tests.security.test_permissions import FIRST, OTHER, mark_players, publish

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("published", [True, False], ids=["published", "private"])
@pytest.mark.parametrize("name", ["club:players", "standings:season", "standings:all_time"])
def test_club_wide_pages_show_each_member_their_own_club(
    name, published, club, other_club, member, stranger, client
):
    """Both clubs played a session; each club's pages list its own players and nobody else's."""
    for each in (club, other_club):
        organisers = [UserFactory(role="organisers", club=each) for _ in range(2)]
        run_session(each, *organisers, players=4)
    mark_players(club, FIRST)
    mark_players(other_club, OTHER)
    publish(club, published)
    owner = Client()
    owner.force_login(member("player"))
    client.force_login(stranger("player"))

    mine = owner.get(reverse(name)).content.decode()
    theirs = client.get(reverse(name)).content.decode()

    assert FIRST in mine and club.name in mine
    assert OTHER not in mine and other_club.name not in mine
    assert OTHER in theirs and other_club.name in theirs
    assert FIRST not in theirs and club.name not in theirs
