"""Login throttling: ten wrong passwords for a username from one address lock that username out from
there for the cool-off, with a page that says until when; an organiser of the login's club lifts the
lock-out from the "Lock-outs" page, with an audit entry."""

import datetime as dt
import logging

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.models import AuditEntry
from tests.factories import PASSWORD
from web import services
from web.audit import WebVerb

pytestmark = pytest.mark.django_db

LOGIN = "/login/"
LOCKOUTS = "/club/lockouts/"
LIFT = "/club/lockouts/lift/"


def try_login(client, username, password, **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


def fail(client, username, times, **extra):
    for _ in range(times):
        response = try_login(client, username, "wrong-password", **extra)
    return response


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_settings_are_the_ones_the_readme_gives():
    assert settings.AXES_FAILURE_LIMIT == 10
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_ENABLED


def test_thirty_wrong_passwords_then_the_right_one_is_refused_with_the_lockout_page(member):
    user = member("player")
    client = Client()
    fail(client, user.username, 30)
    response = try_login(client, user.username, PASSWORD)
    assert response.status_code == 429
    assert not logged_in(client)
    html = response.content.decode()
    assert 'data-testid="locked-out"' in html
    assert "Try again after" in html
    assert "organiser" in html
    assert response.context["username"] == user.username
    ends = response.context["ends"]
    assert dt.timedelta(minutes=59) < ends - timezone.now() <= dt.timedelta(hours=1)
    assert response["Content-Security-Policy"]  # the lock-out page is a page like any other


def test_the_tenth_wrong_password_locks(member):
    user = member("player")
    client = Client()
    assert fail(client, user.username, 9).status_code == 200  # the form, with its error
    assert fail(client, user.username, 1).status_code == 429


def test_nine_wrong_passwords_then_the_right_one_logs_in(member):
    user = member("player")
    client = Client()
    fail(client, user.username, 9)
    response = try_login(client, user.username, PASSWORD)
    assert response.status_code == 302
    assert logged_in(client)


def test_a_lockout_is_for_that_username_from_that_address_only(member):
    user, other = member("player"), member("player")
    client = Client()
    fail(client, user.username, 10)
    assert try_login(Client(), other.username, PASSWORD).status_code == 302
    elsewhere = Client(REMOTE_ADDR="10.1.2.3")
    assert try_login(elsewhere, user.username, PASSWORD).status_code == 302


def test_a_lockout_ends_by_itself_after_the_cool_off(member):
    user = member("player")
    client = Client()
    fail(client, user.username, 10)
    AccessAttempt.objects.update(attempt_time=timezone.now() - dt.timedelta(minutes=61))
    assert try_login(client, user.username, PASSWORD).status_code == 302


def test_failures_are_logged_as_warnings_without_a_traceback(member, caplog):
    user = member("player")
    with caplog.at_level(logging.INFO):
        fail(Client(), user.username, 12)
    assert caplog.records  # axes says what it does
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r for r in caplog.records if r.exc_info]


def test_organiser_sees_and_lifts_a_lockout_and_the_right_password_works(member, client_for):
    user = member("player")
    locked = Client()
    fail(locked, user.username, 30)
    organiser = client_for("organiser")

    page = organiser.get(LOCKOUTS)
    assert page.status_code == 200
    html = page.content.decode()
    assert user.username in html and f"Player {user.username}" in html
    assert 'data-testid="lockouts"' in html

    response = organiser.post(LIFT, {"username": user.username}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("web:lockouts")
    assert "may log in again" in response.content.decode()
    assert 'data-testid="no-lockouts"' in response.content.decode()
    assert not AccessAttempt.objects.filter(username=user.username).exists()

    assert try_login(locked, user.username, PASSWORD).status_code == 302
    assert logged_in(locked)


def test_lifting_writes_an_audit_entry_the_audit_log_shows(club, member, client_for):
    user = member("player")
    fail(Client(), user.username, 10)
    organiser = client_for("organiser")
    organiser.post(LIFT, {"username": user.username})
    entry = AuditEntry.objects.get(action=WebVerb.LOCKOUT_LIFTED)
    assert entry.club == club
    assert entry.data == {"login": user.username, "failed_attempts": 10}
    assert entry.object_repr == f"Player {user.username}"
    html = organiser.get("/club/audit/").content.decode()
    assert "Login lock-out lifted" in html
    assert f"login: {user.username}" in html


def test_another_clubs_organiser_can_neither_see_nor_lift_it(member, stranger):
    user = member("player")
    fail(Client(), user.username, 10)
    theirs = Client()
    theirs.force_login(stranger("organiser"))
    assert user.username not in theirs.get(LOCKOUTS).content.decode()
    assert theirs.post(LIFT, {"username": user.username}).status_code == 404
    assert AccessAttempt.objects.filter(username=user.username).exists()
    assert not AuditEntry.objects.filter(action=WebVerb.LOCKOUT_LIFTED).exists()


@pytest.mark.parametrize("role", ["player", "judge"])
def test_players_and_judges_may_not(role, member, client_for):
    user = member("player")
    fail(Client(), user.username, 10)
    client = client_for(role)
    assert client.get(LOCKOUTS).status_code == 403
    assert client.post(LIFT, {"username": user.username}).status_code == 403
    assert AccessAttempt.objects.filter(username=user.username).exists()


def test_anonymous_visitors_are_sent_to_log_in(club):
    response = Client().get(LOCKOUTS)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_an_unknown_login_is_a_404_and_one_not_locked_out_an_error(member, client_for):
    user = member("player")
    fail(Client(), user.username, 3)  # failures, but no lock-out
    organiser = client_for("organiser")
    assert organiser.post(LIFT, {"username": "nobody-here"}).status_code == 404
    assert organiser.post(LIFT, {}).status_code == 404
    response = organiser.post(LIFT, {"username": user.username}, follow=True)
    assert "is not locked out" in response.content.decode()
    assert AccessAttempt.objects.filter(username=user.username).exists()
    assert not AuditEntry.objects.filter(action=WebVerb.LOCKOUT_LIFTED).exists()


def test_the_service_refuses_a_login_of_another_club(club, other_club, member, stranger):
    outsider = stranger("player")
    fail(Client(), outsider.username, 10)
    with pytest.raises(ValidationError, match="not locked out"):
        services.lockout_lift(actor=member("organiser"), club=club, username=outsider.username)
    assert AccessAttempt.objects.filter(username=outsider.username).exists()
