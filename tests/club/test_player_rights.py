"""Roles are per club (docs/spec.md "People and what they do"): a login acts only in the club
whose player record it is linked to, the player form links or unlinks no login (a login is made for
its player on the player's login page), a login of another club is never linked, and the player edit
page shows the player as stored, so saving one changed field keeps the others."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club.models import LOGIN_NOT_LINKABLE, Club, Player
from club.services import player_update
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def edit_url(player: Player) -> str:
    return reverse("club:player_edit", args=[player.pk])


def form_values(player: Player, **changes) -> dict:
    """What the edit form posts when only `changes` are typed over the stored values."""
    values = {
        "display_name": player.display_name,
        "nickname": player.nickname,
        "login": player.user.username if player.user else "",
        "joined": player.joined.isoformat(),
    }
    if player.active:
        values["active"] = "on"
    values.update(changes)
    return {key: value for key, value in values.items() if value is not None}


def test_an_organiser_cannot_unlink_his_own_login(client, other_club):
    """Club B's organiser blanking the login on his own player record would make him a login of
    no club, a visitor of club A: the form takes no login, so the record keeps it."""
    organiser = UserFactory(role="organisers", club=other_club)
    me = Player.objects.get(user=organiser)
    client.force_login(organiser)

    client.post(edit_url(me), form_values(me, login=""))

    me.refresh_from_db()
    assert me.user == organiser


def test_the_service_refuses_to_unlink_ones_own_login(other_club):
    """The admin's player form writes through the same service, which keeps the rule."""
    organiser = UserFactory(role="organisers", club=other_club)
    me = Player.objects.get(user=organiser)

    with pytest.raises(ValidationError, match="your own login"):
        player_update(player=me, actor=organiser, user=None)


def test_a_login_with_no_player_record_is_a_visitor_of_the_default_club(client, club):
    loose = UserFactory(role="organisers")
    client.force_login(loose)
    Club.objects.filter(pk=club.pk).update(standings_public=False)

    for name in ("club:rules_edit", "club:player_add", "club:audit", "money:ledger"):
        assert client.get(reverse(name)).status_code == 403, name
    assert client.get(reverse("club:sessions")).status_code == 403
    response = client.post(reverse("club:player_add"), {"display_name": "Intruder"})
    assert response.status_code == 403
    assert not Player.objects.filter(display_name="Intruder").exists()
    assert client.get(reverse("home")).context["role"] == ""


def test_another_clubs_login_is_not_linked_by_adding_a_player(client, member, club, other_club):
    judge_b = UserFactory(role="judges", club=other_club)
    client.force_login(member("organiser"))

    client.post(reverse("club:player_add"), {"display_name": "New", "login": judge_b.username})

    assert Player.objects.get(user=judge_b).club == other_club
    assert Player.objects.get(club=club, display_name="New").user is None


def test_the_model_refuses_another_clubs_login_in_words_that_hide_it(club, other_club):
    """The admin links by hand; its answer for another club's login is the one a missing name
    would get."""
    judge_b = UserFactory(role="judges", club=other_club)
    player = PlayerFactory(club=club, display_name="New")
    player.user = judge_b

    with pytest.raises(ValidationError) as refused:
        player.full_clean()

    assert refused.value.message_dict == {"user": [LOGIN_NOT_LINKABLE]}


def test_another_clubs_login_is_not_moved_by_editing_a_player(client, member, other_club):
    judge_b = UserFactory(role="judges", club=other_club)
    client.force_login(member("organiser"))
    mine = PlayerFactory(club=member("player").players.get().club, display_name="Mine")

    client.post(edit_url(mine), form_values(mine, login=judge_b.username))

    assert Player.objects.get(user=judge_b).club == other_club
    mine.refresh_from_db()
    assert mine.user is None


def test_a_login_is_linked_in_one_club_only_by_the_database_too(other_club, club):
    from django.db import IntegrityError, transaction

    login = UserFactory(role="players", club=other_club)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, display_name="Twice", user=login)


def test_a_login_of_no_club_is_not_linked_by_name_either(client, member, club):
    """A login no player is linked to (an administrator's, or one the admin unlinked) is no
    club's: a new login is made for the player instead (club.services.login_give)."""
    free = UserFactory(role="players")
    client.force_login(member("organiser"))

    client.post(reverse("club:player_add"), {"display_name": "Newcomer", "login": free.username})

    assert Player.objects.get(club=club, display_name="Newcomer").user is None
    assert not Player.objects.filter(user=free).exists()


def test_the_edit_page_shows_the_player_as_stored(client, member, club):
    """The page once opened with every field empty."""
    login = UserFactory(role="players")
    player = PlayerFactory(
        club=club,
        display_name="Agnes Moody",
        nickname="Aggie",
        user=login,
        joined=dt.date(2024, 5, 2),
    )
    client.force_login(member("organiser"))

    page = client.get(edit_url(player))
    form = page.context["form"]

    assert form["display_name"].value() == "Agnes Moody"
    assert form["nickname"].value() == "Aggie"
    assert login.username in page.content.decode()  # shown, with a link to the login page
    assert form["active"].value() is True
    assert form["joined"].value() == dt.date(2024, 5, 2)


def test_saving_one_changed_field_keeps_the_others(client, member, club):
    login = UserFactory(role="players")
    player = PlayerFactory(
        club=club, display_name="Agnes Moody", user=login, joined=dt.date(2024, 5, 2)
    )
    client.force_login(member("organiser"))
    page = client.get(edit_url(player))
    posted = {name: field.value() for name, field in ((f.name, f) for f in page.context["form"])}
    posted = {k: ("on" if v is True else v) for k, v in posted.items() if v not in (None, False)}
    posted["nickname"] = "Aggie"

    client.post(edit_url(player), posted)

    player.refresh_from_db()
    assert (player.display_name, player.nickname, player.user, player.active, player.joined) == (
        "Agnes Moody",
        "Aggie",
        login,
        True,
        dt.date(2024, 5, 2),
    )
