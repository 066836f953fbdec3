"""Roles are per club (docs/design.md "People"; issue 13, defects 1 and 16): a login acts only in
the club whose player record it is linked to, nobody unlinks their own login, a login of another
club is never linked (and the answer does not say whether a username exists), and the player
edit page shows the player as stored, so saving one changed field keeps the others."""

import datetime as dt

import pytest
from django.urls import reverse

from club.models import LOGIN_NOT_LINKABLE, Club, Player
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
    """The reported case: club B's organiser blanked the login on his own player record and
    became an organiser of club A, the visitors' club."""
    organiser = UserFactory(role="organisers", club=other_club)
    me = Player.objects.get(user=organiser)
    client.force_login(organiser)

    response = client.post(edit_url(me), form_values(me, login=""))

    assert response.status_code == 200  # the form again, with its error
    assert "your own login" in response.content.decode()
    me.refresh_from_db()
    assert me.user == organiser


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


def test_another_clubs_login_is_not_linked_and_the_answer_hides_which_names_exist(
    client, member, club, other_club
):
    judge_b = UserFactory(role="judges", club=other_club)
    client.force_login(member("organiser"))

    taken = client.post(
        reverse("club:player_add"), {"display_name": "New", "login": judge_b.username}
    )
    missing = client.post(reverse("club:player_add"), {"display_name": "New", "login": "nobody-x"})

    for response in (taken, missing):
        assert response.status_code == 200
        assert response.context["form"].errors == {"login": [LOGIN_NOT_LINKABLE]}
    assert Player.objects.get(user=judge_b).club == other_club
    assert not Player.objects.filter(club=club, display_name="New").exists()


def test_another_clubs_login_is_not_moved_by_editing_a_player(client, member, other_club):
    judge_b = UserFactory(role="judges", club=other_club)
    client.force_login(member("organiser"))
    mine = PlayerFactory(club=member("player").players.get().club, display_name="Mine")

    response = client.post(edit_url(mine), form_values(mine, login=judge_b.username))

    assert response.context["form"].errors == {"login": [LOGIN_NOT_LINKABLE]}
    assert Player.objects.get(user=judge_b).club == other_club
    mine.refresh_from_db()
    assert mine.user is None


def test_a_login_is_linked_in_one_club_only_by_the_database_too(other_club, club):
    from django.db import IntegrityError, transaction

    login = UserFactory(role="players", club=other_club)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, display_name="Twice", user=login)


def test_a_free_login_can_still_be_linked(client, member, club):
    free = UserFactory(role="players")
    client.force_login(member("organiser"))

    client.post(reverse("club:player_add"), {"display_name": "Newcomer", "login": free.username})

    assert Player.objects.get(user=free).club == club


def test_the_edit_page_shows_the_player_as_stored(client, member, club):
    """Defect 16: the page opened with every field empty."""
    login = UserFactory(role="players")
    player = PlayerFactory(
        club=club,
        display_name="Agnes Moody",
        nickname="Aggie",
        user=login,
        joined=dt.date(2024, 5, 2),
    )
    client.force_login(member("organiser"))

    form = client.get(edit_url(player)).context["form"]

    assert form["display_name"].value() == "Agnes Moody"
    assert form["nickname"].value() == "Aggie"
    assert form["login"].value() == login.username
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
