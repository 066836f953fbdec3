"""The pages of logins: the welcome page of a one-time link, an organiser's page for a player's
login (give a login, change its role, a new password link, the table PIN; the link and its QR code
shown once), and everyone's own account page (password, PIN). Forms' error paths, double posts,
e-mail when configured, and the headers that keep a link secret."""

import datetime as dt
import re

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.messages import get_messages
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from club.audit import ClubVerb
from club.models import LoginLink, Player
from club.selectors import username_suggestion
from club.services import logins, pins
from club.views.logins import HANDOVER, WELCOME_TOKEN
from core.models import AuditEntry
from core.submissions import TOKEN_FIELD
from tests.factories import ClubFactory, PlayerFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-pass-phrase-7"


def messages_of(response) -> list[str]:
    return [m.message for m in get_messages(response.wsgi_request)]


def assert_secret(response) -> None:
    assert "no-store" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "no-referrer"


@pytest.fixture
def newcomer(club):
    return PlayerFactory(club=club, display_name="Nora Newcomer")


@pytest.fixture
def token(newcomer, organiser):
    return logins.login_give(player=newcomer, actor=organiser, username="nora", role="player")


def welcome(token: str) -> str:
    return reverse("welcome", kwargs={"link": token})


SET_PASSWORD = "/welcome/set-password/"


def test_the_welcome_link_moves_the_token_out_of_the_address(client, token):
    """As Django's password reset does: the token's address redirects to a form whose address
    holds no secret (a page sent with no-referrer could not post: its Origin is "null")."""
    response = client.get(welcome(token))
    assert response.status_code == 302 and response.url == SET_PASSWORD
    assert_secret(response)
    page = client.get(SET_PASSWORD)
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]
    assert token not in page.content.decode()
    html = page.content.decode()
    assert "Welcome to Thursday Test Club" in html
    assert 'value="nora"' in html
    assert 'name="new_password1"' in html and 'name="new_password2"' in html


def test_setting_the_password_logs_in_and_kills_the_link(client, token, newcomer):
    client.get(welcome(token))
    response = client.post(
        SET_PASSWORD, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert response.status_code == 302 and response.url == reverse("home")
    newcomer.refresh_from_db()
    assert client.session[SESSION_KEY] == str(newcomer.user.pk)
    assert WELCOME_TOKEN not in client.session
    assert newcomer.user.check_password(NEW_PASSWORD)
    assert "you are logged in as nora" in messages_of(response)[0]
    home = client.get("/").content.decode()
    assert 'data-testid="role">player' in home
    dead = client.get(welcome(token))
    assert dead.status_code == 410
    assert_secret(dead)
    html = dead.content.decode()
    assert "This link was used already" in html and "new_password1" not in html
    again = client.post(welcome(token), {"new_password1": "x-other-pass-9", "new_password2": "x"})
    assert again.status_code == 410
    newcomer.user.refresh_from_db()
    assert newcomer.user.check_password(NEW_PASSWORD)


def test_the_token_address_takes_a_post_too(client, token, newcomer):
    """A client without the redirect (or an old form) posts to the token's address."""
    post = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    response = client.post(welcome(token), post)
    assert response.status_code == 302 and response.url == reverse("home")
    assert_secret(response)
    assert client.session[SESSION_KEY] == str(Player.objects.get(pk=newcomer.pk).user_id)


def test_the_form_address_without_a_link_says_to_open_it_again(client):
    response = client.get(SET_PASSWORD)
    assert response.status_code == 404
    assert "open it again" in response.content.decode()
    assert "new_password1" not in response.content.decode()


def test_an_unknown_link_is_a_404_page_that_says_what_to_do(client):
    response = client.get(welcome("not-a-real-token"))
    assert response.status_code == 404
    assert_secret(response)
    html = response.content.decode()
    assert "This link is not one of ours" in html and "Ask an organiser" in html
    assert "new_password1" not in html
    assert client.post(welcome("not-a-real-token"), {}).status_code == 404


def test_a_replaced_link_is_a_410(client, token, newcomer, organiser):
    logins.login_link_new(player=newcomer, actor=organiser)
    response = client.get(welcome(token))
    assert response.status_code == 410
    assert "A newer link replaced this one" in response.content.decode()


def test_an_expired_link_is_a_410(client, token):
    LoginLink.objects.update(expires_at=timezone.now())
    response = client.get(welcome(token))
    assert response.status_code == 410
    assert "This link expired on" in response.content.decode()


@pytest.mark.parametrize(
    "post, field, message",
    [
        ({"new_password1": NEW_PASSWORD, "new_password2": "other"}, "new_password2", "didn"),
        ({"new_password1": "short", "new_password2": "short"}, "new_password2", "too short"),
        (
            {"new_password1": "nora.newcomer", "new_password2": "nora.newcomer"},
            "new_password2",
            "similar",
        ),
        ({"new_password1": "", "new_password2": ""}, "new_password1", "required"),
    ],
)
def test_a_refused_password_shows_why_and_keeps_the_link(client, token, post, field, message):
    client.get(welcome(token))
    response = client.post(SET_PASSWORD, post)
    assert response.status_code == 400
    assert "no-store" in response["Cache-Control"]
    assert message in " ".join(response.context["form"].errors[field])
    assert SESSION_KEY not in client.session
    assert LoginLink.objects.get().is_live()


def test_someone_logged_in_is_told_and_then_becomes_the_links_login(client, token, member):
    judge = member("judge")
    client.force_login(judge)
    page = client.get(welcome(token), follow=True)
    assert page.status_code == 200
    assert f"You are logged in as {judge.username}" in page.content.decode()
    client.post(SET_PASSWORD, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert client.session[SESSION_KEY] == str(Player.objects.get(user__username="nora").user_id)


def test_a_link_used_in_another_tab_meanwhile_gets_the_dead_page(client, token):
    assert client.get(welcome(token), follow=True).status_code == 200
    logins.login_link_use(token=token, password="first-tab-pass-3")
    response = client.post(
        SET_PASSWORD, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert response.status_code == 410
    assert "used already" in response.content.decode()


# --- A player's login page (organisers) -----------------------------------------------------------


def login_page(player) -> str:
    return reverse("club:player_login", args=[player.pk])


def action(name: str, player) -> str:
    return reverse(f"club:{name}", args=[player.pk])


def test_the_page_of_a_player_without_a_login_suggests_a_username(client, organiser, newcomer):
    client.force_login(organiser)
    response = client.get(login_page(newcomer))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert response.context["give_form"].initial["username"] == "nora.newcomer"
    html = response.content.decode()
    assert "Give a login" in html and "None yet" in html
    assert 'data-testid="handover"' not in html


def test_giving_a_login_shows_the_link_and_its_qr_code_once(client, organiser, newcomer):
    client.force_login(organiser)
    post = {"username": "nora", "role": "judge", "email": ""}
    response = client.post(action("player_login_give", newcomer), post)
    assert response.status_code == 302 and response.url == login_page(newcomer)
    assert "hand over the link below" in messages_of(response)[0]
    page = client.get(login_page(newcomer))
    assert "no-store" in page["Cache-Control"]
    html = page.content.decode()
    found = re.search(r'data-testid="handover-link">(http://testserver/welcome/([^/]+)/)<', html)
    assert found, html
    url, raw = found.groups()
    assert logins.login_link_find(raw).user.username == "nora"
    assert re.search(r'<svg viewBox="0 0 \d+ \d+" class="qr"><title>One-time link for Nora', html)
    assert 'data-testid="local-only"' not in html  # testserver is not a loopback host
    assert 'data-testid="login-role">judge' in html
    assert "Waiting to be used: made" in html
    # The raw token is in no row of the database, and the next view shows it no more.
    assert HANDOVER not in client.session
    stored = str(list(LoginLink.objects.values_list())) + str(
        list(AuditEntry.objects.values_list("data", flat=True))
    )
    assert raw not in stored
    assert raw not in client.get(login_page(newcomer)).content.decode()


def test_a_local_only_address_is_warned_about(client, organiser, newcomer, settings):
    settings.PEGBOARD_BASE_URL = "http://127.0.0.1:8000"
    client.force_login(organiser)
    client.post(action("player_login_give", newcomer), {"username": "nora", "role": "player"})
    html = client.get(login_page(newcomer)).content.decode()
    assert 'data-testid="handover-link">http://127.0.0.1:8000/welcome/' in html
    assert 'data-testid="local-only"' in html and "PEGBOARD_BASE_URL" in html


def test_a_link_used_before_the_page_is_seen_is_not_handed_over(client, organiser, newcomer):
    client.force_login(organiser)
    client.post(action("player_login_give", newcomer), {"username": "nora", "role": "player"})
    raw = client.session[HANDOVER]["token"]
    logins.login_link_use(token=raw, password=NEW_PASSWORD)
    assert 'data-testid="handover"' not in client.get(login_page(newcomer)).content.decode()


@pytest.mark.parametrize(
    "post, field, message",
    [
        ({"username": "Taken", "role": "player"}, "username", "The username 'Taken' is taken"),
        ({"username": "no spaces", "role": "player"}, "username", "without spaces"),
        ({"username": "", "role": "player"}, "username", "required"),
        ({"username": "nora", "role": "boss"}, "role", "Select a valid choice"),
        ({"username": "nora", "role": "player", "email": "nora@"}, "email", "valid email"),
    ],
)
def test_giving_a_login_shows_each_error_on_its_field(
    client, organiser, newcomer, post, field, message
):
    UserFactory(username="taken")
    client.force_login(organiser)
    response = client.post(action("player_login_give", newcomer), post)
    assert response.status_code == 400
    assert message in " ".join(response.context["give_form"].errors[field])
    assert Player.objects.get(pk=newcomer.pk).user is None
    assert not LoginLink.objects.exists()


def test_giving_a_login_posted_twice_gives_one(client, organiser, newcomer):
    client.force_login(organiser)
    form = client.get(login_page(newcomer)).context["give_form"]
    post = {"username": "nora", "role": "player", TOKEN_FIELD: form[TOKEN_FIELD].value()}
    assert client.post(action("player_login_give", newcomer), post).status_code == 302
    second = client.post(action("player_login_give", newcomer), post)
    assert second.status_code == 302
    assert messages_of(second)[-1] == "This was already saved."
    assert LoginLink.objects.count() == 1
    assert AuditEntry.objects.filter(action=ClubVerb.LOGIN_GIVEN).count() == 1
    # The link the first post made is still shown, once.
    assert 'data-testid="handover"' in client.get(login_page(newcomer)).content.decode()


def test_the_same_name_posted_without_a_token_twice_says_the_player_has_a_login(
    client, organiser, newcomer
):
    client.force_login(organiser)
    post = {"username": "nora", "role": "player"}
    client.post(action("player_login_give", newcomer), post)
    second = client.post(action("player_login_give", newcomer), {**post, "username": "nora2"})
    assert second.status_code == 400
    assert "has a login already" in " ".join(second.context["give_form"].errors["username"])


def test_an_organiser_changes_the_role_but_not_their_own(client, organiser, token, newcomer):
    client.force_login(organiser)
    response = client.post(action("player_login_role", newcomer), {"role": "organiser"})
    assert response.status_code == 302
    assert messages_of(response)[-1] == "Nora Newcomer's login is now a organiser."
    assert logins.login_role(Player.objects.get(pk=newcomer.pk).user) == "organiser"
    same = client.post(action("player_login_role", newcomer), {"role": "organiser"})
    assert "already" in messages_of(same)[-1]
    own = Player.objects.get(user=organiser)
    refused = client.post(action("player_login_role", own), {"role": "player"})
    assert refused.status_code == 400
    assert refused.context["role_form"].errors["role"] == [
        "This is your own login: another organiser changes your role."
    ]
    assert logins.login_role(organiser) == "organiser"
    page = client.get(login_page(own)).content.decode()
    assert "This is your own login: another organiser changes your role." in page


def test_a_new_password_link_replaces_the_waiting_one(client, organiser, token, newcomer):
    client.force_login(organiser)
    form = client.get(login_page(newcomer)).context["link_form"]
    post = {TOKEN_FIELD: form[TOKEN_FIELD].value()}
    response = client.post(action("player_login_link", newcomer), post)
    assert response.status_code == 302
    assert "the older one no longer works" in messages_of(response)[-1]
    assert logins.link_refusal(logins.login_link_find(token)).startswith("A newer link")
    html = client.get(login_page(newcomer)).content.decode()
    assert "A new password for Nora Newcomer" in html
    # Posted twice (the same form): one new link, and it is the one shown.
    again = client.post(action("player_login_link", newcomer), post)
    assert messages_of(again)[-1] == "This was already saved."
    assert LoginLink.objects.filter(purpose="reset").count() == 1
    assert LoginLink.objects.get(purpose="reset").is_live()


def test_a_new_link_for_a_player_without_a_login_is_an_error_message(client, organiser, newcomer):
    client.force_login(organiser)
    response = client.post(action("player_login_link", newcomer), {})
    assert messages_of(response)[-1] == "Nora Newcomer has no login: give one first."
    assert not LoginLink.objects.exists()


def test_an_organiser_sets_and_removes_a_pin(client, organiser, newcomer):
    client.force_login(organiser)
    response = client.post(action("player_pin", newcomer), {"pin": "4071"})
    assert response.status_code == 302
    assert messages_of(response)[-1] == "Nora Newcomer's table PIN is set."
    assert Player.objects.get(pk=newcomer.pk).pin_hash
    page = client.get(login_page(newcomer)).content.decode()
    assert 'data-testid="pin-state">set' in page and "Remove the PIN" in page
    removed = client.post(action("player_pin", newcomer), {"pin": "", "clear": "on"})
    assert messages_of(removed)[-1] == "Nora Newcomer's table PIN is removed."
    assert Player.objects.get(pk=newcomer.pk).pin_hash == ""


def test_the_pin_pages_show_the_wrong_pins_that_count_and_the_next_try(
    client, club, member, organiser, clock
):
    """The organiser's page of a player's login and the player's own account page: how many
    wrong PINs count for the wait, the last, and from when the next try is read."""
    user = member("player")
    pat = Player.objects.get(user=user)
    pins.pin_set(player=pat, actor=organiser, pin="4071")
    session = SessionFactory(club=club)
    for _ in range(4):
        with pytest.raises(ValidationError):
            pins.pin_verify(session=session, player=pat, pin="0000")
    next_try = timezone.localtime(clock.now + dt.timedelta(seconds=5))
    for viewer, page in [(organiser, login_page(pat)), (user, reverse("club:account"))]:
        client.force_login(viewer)
        html = client.get(page).content.decode()
        state = re.search(r'data-testid="pin-state">(.*?)</dd>', html, re.S)[1]
        assert state.startswith("set; 4 wrong PINs typed at tables in the last 30 days")
        assert f"the next try from {next_try:%-I:%M:%S} {next_try:%p}" in state
        assert "locked" not in state
    clock.advance(5)
    html = client.get(reverse("club:account")).content.decode()
    assert "the next try from" not in html and "4 wrong PINs" in html


@pytest.mark.parametrize(
    "pin, message",
    [
        ("", "Type four digits, or press “Remove the PIN”."),
        ("123", "A PIN is exactly four digits, e.g. 4071."),
        ("12345", "at most 4 characters"),
        ("١٢٣٤", "A PIN is exactly four digits"),
    ],
)
def test_a_bad_pin_is_a_field_error(client, organiser, newcomer, pin, message):
    client.force_login(organiser)
    response = client.post(action("player_pin", newcomer), {"pin": pin})
    assert response.status_code == 400
    assert message in " ".join(response.context["pin_form"].errors["pin"])
    assert Player.objects.get(pk=newcomer.pk).pin_hash == ""


@pytest.mark.parametrize(
    "name", ["player_login", "player_login_give", "player_login_role", "player_login_link"]
)
def test_another_clubs_player_is_a_404(client, organiser, name):
    elsewhere = PlayerFactory(club=ClubFactory(), user=UserFactory())
    client.force_login(organiser)
    post = {"username": "x", "role": "player", "pin": "4071"}
    if name == "player_login":
        assert client.get(action(name, elsewhere)).status_code == 404
    else:
        assert client.post(action(name, elsewhere), post).status_code == 404
    assert client.post(action("player_pin", elsewhere), post).status_code == 404
    assert Player.objects.get(pk=elsewhere.pk).pin_hash == ""
    assert not LoginLink.objects.exists()


# --- E-mail, when configured ----------------------------------------------------------------------


def test_with_email_configured_the_link_is_also_mailed(
    client, organiser, newcomer, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_HOST = "smtp.example.org"
    client.force_login(organiser)
    post = {"username": "nora", "role": "player", "email": "nora@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(action("player_login_give", newcomer), post)
    assert "The link was also e-mailed to nora@example.org." in messages_of(response)
    (sent,) = mail.outbox
    assert sent.to == ["nora@example.org"]
    assert sent.subject == "Your login for Thursday Test Club"
    raw = client.session[HANDOVER]["token"]
    assert f"http://testserver/welcome/{raw}/" in sent.body
    assert "Your username: nora" in sent.body


def test_without_email_configured_nothing_is_sent(
    client, organiser, newcomer, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_HOST = ""
    client.force_login(organiser)
    post = {"username": "nora", "role": "player", "email": "nora@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(action("player_login_give", newcomer), post)
    assert response.status_code == 302
    assert mail.outbox == []
    assert not any("e-mailed" in message for message in messages_of(response))


def test_a_mail_server_that_fails_is_a_warning_not_an_error(
    client, organiser, token, newcomer, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.EMAIL_HOST = "smtp.example.org"
    get_user_model().objects.filter(username="nora").update(email="nora@example.org")

    def refuse(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr("core.mail.send_mail", refuse)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(action("player_login_link", newcomer), {})
    assert response.status_code == 302
    assert "could not be e-mailed to nora@example.org" in messages_of(response)[-1]
    assert 'data-testid="handover"' in client.get(login_page(newcomer)).content.decode()


# --- One's own account ----------------------------------------------------------------------------


def test_a_player_changes_their_password_and_stays_logged_in(client, member):
    user = member("player")
    client.force_login(user)
    page = client.get(reverse("club:account"))
    assert page.status_code == 200 and "Change your password" in page.content.decode()
    post = {
        "old_password": "test-password-123",
        "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD,
    }
    response = client.post(reverse("club:account_password"), post)
    assert response.status_code == 302
    assert messages_of(response)[-1] == "Your password is changed."
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert client.get(reverse("club:account")).status_code == 200  # still logged in
    assert AuditEntry.objects.filter(action=ClubVerb.PASSWORD_CHANGED).count() == 1


@pytest.mark.parametrize(
    "post, field, message",
    [
        (
            {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
            "old_password",
            "That is not your current password.",
        ),
        (
            {"old_password": "test-password-123", "new_password1": NEW_PASSWORD},
            "new_password2",
            "required",
        ),
        (
            {
                "old_password": "test-password-123",
                "new_password1": NEW_PASSWORD,
                "new_password2": NEW_PASSWORD + "x",
            },
            "new_password2",
            "The two new passwords differ",
        ),
        (
            {"old_password": "test-password-123", "new_password1": "1234", "new_password2": "1234"},
            "new_password1",
            "too short",
        ),
    ],
)
def test_a_refused_password_change_shows_why(client, member, post, field, message):
    user = member("player")
    client.force_login(user)
    response = client.post(reverse("club:account_password"), post)
    assert response.status_code == 400
    assert message in " ".join(response.context["password_form"].errors[field])
    user.refresh_from_db()
    assert user.check_password("test-password-123")


def test_a_player_sets_and_removes_their_own_pin(client, member):
    user = member("player")
    client.force_login(user)
    response = client.post(reverse("club:account_pin"), {"pin": "2580"})
    assert messages_of(response)[-1] == "Your table PIN is set."
    player = Player.objects.get(user=user)
    assert player.pin_hash
    bad = client.post(reverse("club:account_pin"), {"pin": "25"})
    assert bad.status_code == 400
    client.post(reverse("club:account_pin"), {"clear": "on"})
    player.refresh_from_db()
    assert player.pin_hash == ""


def test_a_login_without_a_player_has_a_password_but_no_pin(client):
    user = UserFactory(role="organisers")
    client.force_login(user)
    html = client.get(reverse("club:account")).content.decode()
    assert "Change your password" in html and "Your table PIN" not in html
    assert "linked to no player" in html
    assert client.post(reverse("club:account_pin"), {"pin": "2580"}).status_code == 404


def test_the_header_links_the_users_name_to_their_account(client, member):
    client.force_login(member("judge"))
    html = client.get("/").content.decode()
    assert f'href="{reverse("club:account")}"' in html
    assert 'data-testid="account-link"' in html
    client.logout()
    assert 'data-testid="account-link"' not in client.get("/").content.decode()


# --- Where the page is linked from ----------------------------------------------------------------


def test_organisers_see_a_login_link_per_player_and_players_do_not(client, member, newcomer):
    client.force_login(member("organiser"))
    html = client.get(reverse("club:players")).content.decode()
    assert f'href="{login_page(newcomer)}"' in html
    assert 'Login<span class="visually-hidden"> of Nora Newcomer</span>' in html
    edit = client.get(reverse("club:player_edit", args=[newcomer.pk])).content.decode()
    assert f'href="{login_page(newcomer)}"' in edit
    client.force_login(member("player"))
    assert login_page(newcomer) not in client.get(reverse("club:players")).content.decode()


@pytest.mark.parametrize(
    "name, suggested",
    [
        ("Nora Newcomer", "nora.newcomer"),
        ("Zoë O'Hara", "zoe.o.hara"),
        ("  Li   Wei  ", "li.wei"),
        ("和子", "player"),
        ("Taken Name", "taken.name2"),
    ],
)
def test_the_suggested_username(db, name, suggested):
    UserFactory(username="Taken.Name")
    assert username_suggestion(name) == suggested


def test_the_mail_subject_is_one_line_whatever_the_clubs_name(token, club, settings):
    from club.mail import login_link_message

    type(club).objects.filter(pk=club.pk).update(name="Thursday\nBcc: x@example.org")
    link = LoginLink.objects.select_related("club", "user").get()
    subject, body = login_link_message(link, "http://example.org/welcome/x/", "Nora")
    assert "\n" not in subject and subject.startswith("Your login for Thursday Bcc:")
    assert "Your username: nora" in body
