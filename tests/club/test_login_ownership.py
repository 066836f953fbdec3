"""A login belongs to its club: an organiser reaches only the logins made for the club's own players
(docs/spec.md "People and what they do"). A site administrator's login (staff or superuser) is
never linked, given a link, given a role or given a new password from a club page, and the player
form never takes a username, so it cannot tell which usernames exist."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from club.models import LoginLink, Player
from club.services import logins, players
from tests.factories import PASSWORD, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

SITE_LOGINS = {
    "superuser": {"is_staff": True, "is_superuser": True},
    "staff": {"is_staff": True},
}


def site_login(kind: str):
    return UserFactory(username=f"site-{kind}", **SITE_LOGINS[kind])


def login_state(user) -> tuple:
    user = get_user_model().objects.get(pk=user.pk)
    return (
        user.password,
        user.is_staff,
        user.is_superuser,
        sorted(user.groups.values_list("name", flat=True)),
        sorted(user.user_permissions.values_list("codename", flat=True)),
        Player.objects.filter(user=user).count(),
        LoginLink.objects.filter(user=user).count(),
    )


@pytest.mark.parametrize("kind", sorted(SITE_LOGINS))
def test_another_clubs_organiser_cannot_take_over_a_site_administrators_login(
    kind, client, other_club
):
    """The way in to close: club B's organiser adds a player, edits it with the administrator's
    username as its login, opens the player's login page and makes a password link."""
    admin = site_login(kind)
    before = login_state(admin)
    client.force_login(UserFactory(role="organisers", club=other_club))

    client.post(reverse("club:player_add"), {"display_name": "Mallory", "login": admin.username})
    mallory = Player.objects.get(club=other_club, display_name="Mallory")
    client.post(
        reverse("club:player_edit", args=[mallory.pk]),
        {"display_name": "Mallory", "login": admin.username, "active": "on"},
    )
    page = client.get(reverse("club:player_login", args=[mallory.pk]))
    client.post(reverse("club:player_login_link", args=[mallory.pk]), {})

    mallory.refresh_from_db()
    assert mallory.user is None
    assert admin.username not in page.content.decode()
    assert login_state(admin) == before
    assert get_user_model().objects.get(pk=admin.pk).check_password(PASSWORD)


def test_the_player_form_answers_alike_whatever_username_is_typed(client, member, club, stranger):
    """No username is taken from the player form, so its answer cannot tell an administrator's,
    another club's, a free or a made-up username apart."""
    names = [
        site_login("superuser").username,
        stranger("judge").username,
        UserFactory().username,  # a login linked to no player
        "nobody-by-that-name",
    ]
    client.force_login(member("organiser"))
    player = PlayerFactory(club=club, display_name="Agnes Moody")

    answers = set()
    for name in names:
        response = client.post(
            reverse("club:player_edit", args=[player.pk]),
            {"display_name": "Agnes Moody", "login": name, "active": "on"},
        )
        answers.add((response.status_code, response.get("Location")))

    assert answers == {(302, reverse("club:players"))}
    assert not Player.objects.filter(club=club, user__username__in=names).exists()
    assert "login" not in client.get(reverse("club:player_add")).context["form"].fields


@pytest.mark.parametrize("kind", sorted(SITE_LOGINS))
def test_a_site_login_linked_to_a_player_is_not_managed_from_the_clubs_pages(
    kind, client, member, club
):
    """A site administrator linked (in the admin) to a player of the club: the club's other
    organiser can neither give it a link nor change its role; the page says where it is managed."""
    admin = site_login(kind)
    player = PlayerFactory(club=club, display_name="Site Keeper", user=admin)
    before = login_state(admin)
    client.force_login(member("organiser"))

    page = client.get(reverse("club:player_login", args=[player.pk])).content.decode()
    client.post(reverse("club:player_login_link", args=[player.pk]), {})
    client.post(reverse("club:player_login_role", args=[player.pk]), {"role": "player"})

    assert login_state(admin) == before
    assert "managed in the site's admin" in page
    assert reverse("club:player_login_link", args=[player.pk]) not in page


@pytest.mark.parametrize("kind", sorted(SITE_LOGINS))
def test_the_services_refuse_a_site_login_to_any_organiser(kind, club, member):
    admin = site_login(kind)
    player = PlayerFactory(club=club, display_name="Site Keeper", user=admin)
    organiser = member("organiser")

    with pytest.raises(PermissionDenied, match="site's admin"):
        logins.login_link_new(player=player, actor=organiser)
    with pytest.raises(PermissionDenied, match="site's admin"):
        logins.login_role_set(player=player, actor=organiser, role="player")
    assert not LoginLink.objects.filter(user=admin).exists()


@pytest.mark.parametrize("kind", sorted(SITE_LOGINS))
def test_the_player_services_never_link_a_site_login(kind, club, member):
    """Whoever calls them (a page, a command, a script), adding or changing a player never links
    a site administrator's login: only the site's admin does, by hand."""
    admin = site_login(kind)
    organiser = member("organiser")
    player = PlayerFactory(club=club, display_name="Plain Player")
    before = login_state(admin)

    with pytest.raises(ValidationError, match="site's admin only"):
        players.player_create(club=club, actor=organiser, display_name="Keeper", user=admin)
    with pytest.raises(ValidationError, match="site's admin only"):
        players.player_update(player=player, actor=organiser, user=admin)

    assert login_state(admin) == before
    assert not Player.objects.filter(display_name="Keeper").exists()
    assert Player.objects.get(pk=player.pk).user_id is None


def test_a_live_link_to_a_site_login_sets_no_password(client, club):
    """A link made for an administrator's login before such links were refused (or written into
    the database by hand) sets no password: the welcome page refuses it."""
    admin = site_login("superuser")
    now = timezone.now()
    LoginLink.objects.create(
        club=club,
        user=admin,
        token_hash=logins.token_digest("a" * 32),
        purpose="reset",
        created_at=now,
        expires_at=now + dt.timedelta(days=1),
    )
    before = login_state(admin)

    opened = client.get(reverse("welcome", args=["a" * 32]))
    with pytest.raises(ValidationError, match="site administrator"):
        logins.login_link_use(token="a" * 32, password="a-new-password-42")

    assert opened.status_code == 410
    assert login_state(admin) == before
