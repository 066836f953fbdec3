"""The demo club loads from fixtures/ once, with a login for each role (README lists them)."""

import pytest
from django.core.management import call_command
from django.http import HttpRequest

from club.audit import ClubVerb
from club.models import Club, Player
from core.models import AuditEntry
from web.role_groups import user_role

pytestmark = pytest.mark.django_db


def test_load_demo_loads_the_club_once(client):
    call_command("load_demo", season=False)  # the season: test_demo_season.py
    call_command("load_demo", season=False)  # the season: test_demo_season.py
    club = Club.objects.get()
    assert club.name == "Thursday Peggers"
    assert Player.objects.filter(club=club).count() == 16
    assert AuditEntry.objects.filter(action=ClubVerb.CLUB_CREATED).count() == 1
    club.full_clean()
    for username, role in (("organiser", "organiser"), ("judge", "judge"), ("player", "player")):
        # django-axes checks every login against its lock-outs and needs a request to do so.
        login = {"username": username, "password": "pegboard-demo"}
        assert client.login(request=HttpRequest(), **login), username
        user = Player.objects.get(user__username=username).user
        assert user_role(user) == role
        assert f'data-testid="role">{role}</span>' in client.get("/").content.decode()
        client.logout()
