"""The services of logins, passwords and PINs (`club.services`): each refusal and its message,
one-time links (live, used, replaced, expired; only a hash stored), roles (nobody changes their
own), passwords, and table PINs (four digits, hashed, wrong tries counted and audited; the waits
they make: tests/club/test_pin_waits.py). One audit entry per change, and no PIN, password or raw
token in any of them."""

import datetime as dt
import hashlib
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from club.audit import ClubVerb
from club.models import LoginLink, Player, WrongPin
from club.roles import JUDGES, ORGANISERS, PLAYERS
from club.services import logins, pins
from core.models import AuditEntry, SubmissionToken
from core.submissions import AlreadySaved, new_token
from tests.factories import ClubFactory, PlayerFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-new-pass-phrase-7"
PIN = "4071"


@pytest.fixture
def newcomer(club):
    return PlayerFactory(club=club, display_name="Nora Newcomer")


def give(newcomer, organiser, **kwargs) -> str:
    values = {"username": "nora", "role": "player", **kwargs}
    return logins.login_give(player=newcomer, actor=organiser, **values)


def audit_text() -> str:
    return json.dumps(list(AuditEntry.objects.values_list("data", flat=True)))


def actions() -> list[str]:
    return list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))


def state() -> tuple:
    """Everything a refused service must leave as it was."""
    users = get_user_model().objects.order_by("pk")
    return (
        list(users.values_list("pk", "username", "password", "email")),
        list(Player.objects.order_by("pk").values_list("pk", "user_id", "pin_hash")),
        list(LoginLink.objects.order_by("pk").values_list()),
        list(WrongPin.objects.order_by("pk").values_list()),
        AuditEntry.objects.count(),
        sorted(get_user_model().groups.through.objects.values_list("user_id", "group_id")),
    )


def refused(call, match: str, error=ValidationError):
    before = state()
    with pytest.raises(error) as caught:
        call()
    said = " ".join(caught.value.messages) if hasattr(caught.value, "messages") else ""
    assert match in (said or str(caught.value)), said or str(caught.value)
    assert state() == before
    return caught.value


# --- Giving a login -------------------------------------------------------------------------------


def test_giving_a_login_links_a_login_without_password_in_the_role(newcomer, organiser):
    start = AuditEntry.objects.count()
    token = give(newcomer, organiser, role="judge", email=" nora@example.org ")
    newcomer.refresh_from_db()
    user = newcomer.user
    assert user.username == "nora"
    assert user.email == "nora@example.org"
    assert user.first_name == "Nora Newcomer"
    assert not user.has_usable_password()
    assert list(user.groups.values_list("name", flat=True)) == [JUDGES]
    assert logins.login_role(user) == "judge"
    link = LoginLink.objects.get(user=user)
    assert link.purpose == "welcome" and link.created_by == organiser and link.club == newcomer.club
    assert link.is_live()
    assert link.expires_at - link.created_at == dt.timedelta(days=7)
    new = actions()[start:]
    assert new == [ClubVerb.LOGIN_GIVEN, ClubVerb.LOGIN_LINK_MADE]
    given = AuditEntry.objects.get(action=ClubVerb.LOGIN_GIVEN)
    assert given.actor == organiser
    assert given.data == {"player": "Nora Newcomer", "username": "nora", "role": "judge"}
    assert token not in audit_text()


def test_only_a_hash_of_the_token_is_stored(newcomer, organiser):
    token = give(newcomer, organiser)
    assert len(token) >= 32
    link = LoginLink.objects.get()
    assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
    stored = json.dumps(list(LoginLink.objects.values_list()), default=str)
    assert token not in stored
    assert token not in audit_text()
    assert logins.login_link_find(token) == link


@pytest.mark.parametrize(
    "username, message",
    [
        ("", "Write a username for the login."),
        ("   ", "Write a username for the login."),
        ("nora newcomer", "A username is letters, digits and @ . + - _ only, without spaces."),
        ("nora/", "A username is letters, digits and @ . + - _ only"),
        ("n\x00", "A username is letters, digits and @ . + - _ only"),
        ("n" * 151, "A username is at most 150 characters."),
    ],
)
def test_a_bad_username_is_refused(newcomer, organiser, username, message):
    refused(lambda: give(newcomer, organiser, username=username), message)


def test_a_taken_username_is_refused_whatever_its_case(newcomer, organiser):
    UserFactory(username="Nora")
    refused(lambda: give(newcomer, organiser, username="nORA"), "The username 'nORA' is taken")


@pytest.mark.parametrize(
    "email", ["nora", "nora@", "a@b@c", "nora@example.org\x00", "x" * 250 + "@e.org"]
)
def test_a_bad_email_is_refused(newcomer, organiser, email):
    refused(lambda: give(newcomer, organiser, email=email), "Write an e-mail address")


@pytest.mark.parametrize("role", ["", "admin", "organisers", "Player"])
def test_a_role_that_is_not_one_of_the_three_is_refused(newcomer, organiser, role):
    refused(lambda: give(newcomer, organiser, role=role), "Choose player, judge or organiser.")


def test_a_player_with_a_login_gets_no_second_one(newcomer, organiser):
    give(newcomer, organiser)
    refused(
        lambda: give(newcomer, organiser, username="nora2"),
        "Nora Newcomer has a login already: give a new password link instead.",
    )


@pytest.mark.parametrize("role", ["player", "judge"])
def test_only_an_organiser_gives_logins(newcomer, member, role):
    actor = member(role)
    refused(lambda: give(newcomer, actor), "Only an organiser gives logins.", PermissionDenied)


def test_an_organiser_of_another_club_gives_none_of_this_clubs_logins(newcomer, stranger):
    actor = stranger("organiser")
    refused(
        lambda: give(newcomer, actor),
        "Only an organiser of this club gives its logins.",
        PermissionDenied,
    )


def test_a_form_posted_twice_gives_one_login(newcomer, organiser):
    token = new_token()
    give(newcomer, organiser, token=token)
    with pytest.raises(AlreadySaved):
        give(newcomer, organiser, username="nora2", token=token)
    assert LoginLink.objects.count() == 1
    assert not get_user_model().objects.filter(username="nora2").exists()
    assert SubmissionToken.objects.filter(token=token).count() == 1


# --- One-time links -------------------------------------------------------------------------------


def test_a_link_sets_the_password_once(newcomer, organiser):
    token = give(newcomer, organiser)
    link = LoginLink.objects.get()
    assert logins.link_refusal(link) is None
    user = logins.login_link_use(token=token, password=PASSWORD)
    assert user.check_password(PASSWORD)
    link.refresh_from_db()
    assert link.used_at is not None and not link.is_live()
    entry = AuditEntry.objects.get(action=ClubVerb.PASSWORD_SET)
    assert entry.actor == user
    assert entry.data == {"username": "nora", "purpose": "welcome"}
    assert PASSWORD not in audit_text()
    message = "This link was used already: each one works once."
    refused(lambda: logins.login_link_use(token=token, password="another-pass-phrase-8"), message)
    assert logins.link_refusal(link).startswith(message)


def test_a_second_link_kills_the_first(newcomer, organiser):
    first = give(newcomer, organiser)
    second = logins.login_link_new(player=newcomer, actor=organiser)
    old, new = LoginLink.objects.order_by("created_at", "pk")
    assert old.revoked_at is not None and not old.is_live()
    assert new.is_live() and new.purpose == "reset"
    message = "A newer link replaced this one: use the newest, or ask an organiser."
    assert logins.link_refusal(old) == message
    refused(lambda: logins.login_link_use(token=first, password=PASSWORD), message)
    logins.login_link_use(token=second, password=PASSWORD)
    assert AuditEntry.objects.filter(action=ClubVerb.LOGIN_LINK_MADE).count() == 2


def test_an_expired_link_is_refused_with_its_date(newcomer, organiser):
    token = give(newcomer, organiser)
    when = timezone.now() - dt.timedelta(minutes=1)
    LoginLink.objects.update(expires_at=when)
    expected = f"This link expired on {timezone.localtime(when):%d %B %Y} (links last 7 days)"
    assert logins.link_refusal(LoginLink.objects.get()).startswith(expected)
    refused(lambda: logins.login_link_use(token=token, password=PASSWORD), expected)


@pytest.mark.parametrize("token", ["", "nonsense", "x" * 101, "a\x00b"])
def test_a_link_that_is_not_ours_is_refused(newcomer, organiser, token):
    give(newcomer, organiser)
    assert logins.login_link_find(token) is None
    message = "This link is not one of ours: check it, or ask an organiser for a new one."
    assert logins.link_refusal(None) == message
    refused(lambda: logins.login_link_use(token=token, password=PASSWORD), message)


@pytest.mark.parametrize(
    "password, message",
    [
        ("short", "This password is too short."),
        ("12345678901", "This password is entirely numeric."),
        ("password123", "This password is too common."),
        ("nora", "This password is too short."),
    ],
)
def test_a_weak_password_is_refused_and_the_link_stays_live(newcomer, organiser, password, message):
    token = give(newcomer, organiser)
    error = refused(lambda: logins.login_link_use(token=token, password=password), message)
    assert "password" in error.message_dict
    assert LoginLink.objects.get().is_live()


def test_a_new_link_for_a_player_without_a_login_is_refused(newcomer, organiser):
    refused(
        lambda: logins.login_link_new(player=newcomer, actor=organiser),
        "Nora Newcomer has no login: give one first.",
    )


def test_only_an_organiser_of_the_club_makes_a_new_link(newcomer, organiser, member, stranger):
    give(newcomer, organiser)
    for actor, message in [
        (member("judge"), "Only an organiser gives logins."),
        (stranger("organiser"), "Only an organiser of this club gives its logins."),
    ]:
        refused(
            lambda actor=actor: logins.login_link_new(player=newcomer, actor=actor),
            message,
            PermissionDenied,
        )


def test_a_new_link_posted_twice_keeps_the_first(newcomer, organiser):
    give(newcomer, organiser)
    token = new_token()
    made = logins.login_link_new(player=newcomer, actor=organiser, token=token)
    with pytest.raises(AlreadySaved):
        logins.login_link_new(player=newcomer, actor=organiser, token=token)
    assert logins.link_refusal(logins.login_link_find(made)) is None
    assert LoginLink.objects.count() == 2  # the welcome link (replaced) and this one


def test_a_refused_password_change_rolls_back_the_whole_link_use(newcomer, organiser):
    """The link is spent in the same transaction as the password: a failure after the check
    leaves both as they were."""
    token = give(newcomer, organiser)
    with pytest.raises(ValidationError), transaction.atomic():
        logins.login_link_use(token=token, password=PASSWORD)
        raise ValidationError("later step fails")
    assert LoginLink.objects.get().is_live()
    newcomer.refresh_from_db()
    assert not newcomer.user.has_usable_password()


# --- Roles ----------------------------------------------------------------------------------------


def test_login_role_names_the_highest_group(db):
    assert logins.login_role(None) == ""
    assert logins.login_role(UserFactory()) == ""
    user = UserFactory(role=PLAYERS)
    assert logins.login_role(user) == "player"
    user.groups.add(Group.objects.get(name=ORGANISERS))
    assert logins.login_role(user) == "organiser"


def test_an_organiser_changes_a_players_role_with_an_audit_entry(newcomer, organiser):
    give(newcomer, organiser)
    start = AuditEntry.objects.count()
    logins.login_role_set(player=newcomer, actor=organiser, role="organiser")
    newcomer.refresh_from_db()
    assert list(newcomer.user.groups.values_list("name", flat=True)) == [ORGANISERS]
    entry = AuditEntry.objects.get(action=ClubVerb.LOGIN_ROLE_CHANGED)
    assert entry.data == {"username": "nora", "role": {"before": "player", "after": "organiser"}}
    logins.login_role_set(player=newcomer, actor=organiser, role="organiser")  # no change
    assert AuditEntry.objects.count() == start + 1


def test_nobody_changes_their_own_role(club, organiser):
    own = Player.objects.get(user=organiser)
    refused(
        lambda: logins.login_role_set(player=own, actor=organiser, role="player"),
        "This is your own login: another organiser changes your role.",
    )


def test_a_role_for_a_player_without_a_login_is_refused(newcomer, organiser):
    refused(
        lambda: logins.login_role_set(player=newcomer, actor=organiser, role="judge"),
        "Nora Newcomer has no login: give one first.",
    )


def test_a_bad_role_is_refused(newcomer, organiser):
    give(newcomer, organiser)
    refused(
        lambda: logins.login_role_set(player=newcomer, actor=organiser, role="boss"),
        "Choose player, judge or organiser.",
    )


def test_a_judge_changes_no_role(newcomer, organiser, member):
    give(newcomer, organiser)
    judge = member("judge")
    refused(
        lambda: logins.login_role_set(player=newcomer, actor=judge, role="judge"),
        "Only an organiser gives logins.",
        PermissionDenied,
    )


# --- Passwords ------------------------------------------------------------------------------------


def test_changing_ones_own_password(member):
    user = member("player")
    changed = logins.password_change(
        user=user, old_password="test-password-123", new_password=PASSWORD
    )
    assert changed.pk == user.pk and changed.check_password(PASSWORD)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    entry = AuditEntry.objects.get(action=ClubVerb.PASSWORD_CHANGED)
    assert entry.actor == user and entry.club == Player.objects.get(user=user).club
    assert entry.data == {"username": user.username}
    assert PASSWORD not in audit_text() and "test-password-123" not in audit_text()


def test_a_wrong_current_password_is_refused(member):
    user = member("player")
    error = refused(
        lambda: logins.password_change(user=user, old_password="wrong", new_password=PASSWORD),
        "That is not your current password.",
    )
    assert list(error.message_dict) == ["old_password"]


def test_a_weak_new_password_is_refused(member):
    user = member("player")
    error = refused(
        lambda: logins.password_change(
            user=user, old_password="test-password-123", new_password="123"
        ),
        "This password is too short.",
    )
    assert list(error.message_dict) == ["new_password"]


def test_a_login_without_a_player_changes_its_password_audited_without_a_club(db):
    user = UserFactory(role=ORGANISERS)
    logins.password_change(user=user, old_password="test-password-123", new_password=PASSWORD)
    assert AuditEntry.objects.get(action=ClubVerb.PASSWORD_CHANGED).club is None


# --- PINs -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pin", ["123", "12345", "abcd", "12 34", "١٢٣٤", "１２３４", "-123", "12.3", "4071\x00"]
)
def test_a_pin_is_exactly_four_digits(newcomer, organiser, pin):
    refused(
        lambda: pins.pin_set(player=newcomer, actor=organiser, pin=pin),
        "A PIN is exactly four digits, e.g. 4071.",
    )


def test_an_organiser_sets_a_pin_stored_hashed_and_audited(newcomer, organiser):
    pins.pin_set(player=newcomer, actor=organiser, pin=" 4071 ")
    newcomer.refresh_from_db()
    assert newcomer.pin_hash and PIN not in newcomer.pin_hash
    assert check_password(PIN, newcomer.pin_hash)
    entry = AuditEntry.objects.get(action=ClubVerb.PIN_SET)
    assert entry.actor == organiser
    assert entry.data == {"player": "Nora Newcomer", "wrong_pins_forgotten": 0}
    pins.pin_set(player=newcomer, actor=organiser, pin="")
    newcomer.refresh_from_db()
    assert newcomer.pin_hash == ""
    assert AuditEntry.objects.filter(action=ClubVerb.PIN_CLEARED).count() == 1
    assert PIN not in audit_text()


def test_a_player_sets_their_own_pin_but_nobody_elses(club, member, newcomer):
    user = member("player")
    own = Player.objects.get(user=user)
    pins.pin_set(player=own, actor=user, pin=PIN)
    own.refresh_from_db()
    assert check_password(PIN, own.pin_hash)
    refused(
        lambda: pins.pin_set(player=newcomer, actor=user, pin=PIN),
        "Only an organiser gives logins.",
        PermissionDenied,
    )


def test_an_organiser_of_another_club_sets_no_pin(newcomer, stranger):
    actor = stranger("organiser")
    refused(
        lambda: pins.pin_set(player=newcomer, actor=actor, pin=PIN),
        "Only an organiser of this club gives its logins.",
        PermissionDenied,
    )


@pytest.fixture
def session(club):
    return SessionFactory(club=club)


def test_a_player_without_a_pin_cannot_accept_with_one(session, newcomer):
    message = "Nora Newcomer has no PIN yet: an organiser sets one on the player's page"
    assert pins.pin_refusal(newcomer).startswith(message)
    refused(lambda: pins.pin_verify(session=session, player=newcomer, pin="0000"), message)


def test_the_right_pin_passes(session, newcomer, organiser):
    pins.pin_set(player=newcomer, actor=organiser, pin=PIN)
    before = AuditEntry.objects.count()
    assert pins.pin_verify(session=session, player=newcomer, pin=PIN) is None
    assert AuditEntry.objects.count() == before
    assert not WrongPin.objects.exists()


# --- Starting a club ------------------------------------------------------------------------------


def test_club_start_makes_everything_or_nothing(db):
    club, player, token = logins.club_start(
        name="Riverside", slug="riverside", organiser_username="olive", organiser_name="Olive A"
    )
    assert player.club == club and player.user.username == "olive"
    assert logins.login_role(player.user) == "organiser"
    assert logins.login_link_find(token).user == player.user
    before = state()
    for kwargs, message in [
        ({"slug": "riverside", "name": "Else"}, "A club with the slug 'riverside' exists already."),
        ({"slug": "else", "name": "RIVERSIDE"}, "A club called 'RIVERSIDE' exists already."),
        ({"slug": "else", "name": "Else", "organiser_username": "OLIVE"}, "is taken"),
        ({"slug": "else", "name": "Else", "organiser_name": "x" * 61}, "at most 60 characters"),
    ]:
        values = {"organiser_username": "olive2", **kwargs}
        with pytest.raises(ValidationError, match=message):
            logins.club_start(**values)
        assert state() == before
    assert ClubFactory._meta.model.objects.count() == 1
