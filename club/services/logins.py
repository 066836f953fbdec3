"""Writes for logins: starting a club with its first organiser, giving a player a login with a
role, one-time links to set a password, changing one's own password.

Terms:
- role: "player", "judge" or "organiser" (`ROLES`), each a Django group (club.roles); a login
  has exactly one of them.
- one-time link: `/welcome/<token>/`, where a login sets its password (club.models.LoginLink).
  The raw token is returned once, to be shown or sent; only its SHA-256 is stored. A login has at
  most one live link: a new one revokes the older.
- site login: a staff or superuser login, the site administrators'. It is managed in Django's
  admin only: no club service (so no club page) gives it a link, a role or a password, even when
  the admin linked it to a player (`refuse_site_login`).

Every service validates, writes in one transaction and records one audit entry per change; a
password never appears in the audit trail.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser, Group
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from club.audit import ClubVerb
from club.models import (
    LOGIN_LINK_DAYS,
    Club,
    LoginLink,
    LoginLinkPurpose,
    Player,
)
from club.roles import JUDGES, ORGANISERS, PLAYERS
from club.services.clubs import club_create
from club.services.players import player_create
from core.audit import audit_record
from core.locking import locked
from core.submissions import spend_token

# Role -> group, lowest first (the order the forms offer them in).
ROLES = {"player": PLAYERS, "judge": JUDGES, "organiser": ORGANISERS}
ORGANISER_PERMISSION = "club.change_player"  # who gives logins and sets others' PINs


# --- One-time links -------------------------------------------------------------------------------


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def login_link_find(token: str) -> LoginLink | None:
    """The link a token opens (live or not), or None: a read, for the welcome page."""
    if not token or len(token) > 100:
        return None
    return (
        LoginLink.objects.filter(token_hash=token_digest(token))
        .select_related("user", "club")
        .first()
    )


def _link_issue(
    *, club: Club, user: AbstractBaseUser, actor: AbstractBaseUser | None, purpose: str
) -> str:
    """A new live link for `user` (call inside a transaction); the older live ones die. Never for
    a site administrator's login."""
    refuse_site_login(user)
    now = timezone.now()
    LoginLink.objects.filter(
        user=user, used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now
    ).update(revoked_at=now)
    token = secrets.token_urlsafe(24)
    link = LoginLink(
        club=club,
        user=user,
        token_hash=token_digest(token),
        purpose=purpose,
        created_by=actor if actor is not None and actor.is_authenticated else None,
        created_at=now,
        expires_at=now + dt.timedelta(days=LOGIN_LINK_DAYS),
    )
    link.full_clean(exclude=["club", "user", "created_by"])
    link.save()
    audit_record(
        actor=actor,
        action=ClubVerb.LOGIN_LINK_MADE,
        obj=link,
        club=club,
        data={
            "username": user.get_username(),
            "purpose": purpose,
            "expires_at": link.expires_at,
        },
    )
    return token


def login_link_use(*, token: str, password: str) -> AbstractBaseUser:
    """Spend a one-time link: the login gets `password` and the link is dead. A link that is
    unknown, used, replaced or expired is a ValidationError saying so; a password Django's
    validators refuse is a ValidationError on `password`. Nothing is saved then."""
    with transaction.atomic():
        link = login_link_find(token)
        if link is None:
            raise ValidationError(link_refusal(None))
        link = locked(LoginLink.objects.select_related("user", "club")).get(pk=link.pk)
        _refuse_dead(link)
        user = link.user
        try:
            password_validation.validate_password(password, user)
        except ValidationError as error:
            raise ValidationError({"password": error.messages}) from None
        user.set_password(password)
        user.save(update_fields=["password"])
        link.used_at = timezone.now()
        link.save(update_fields=["used_at"])
        audit_record(
            actor=user,
            action=ClubVerb.PASSWORD_SET,
            obj=link,
            club=link.club,
            data={"username": user.get_username(), "purpose": link.purpose},
        )
    return user


def link_refusal(link: LoginLink | None) -> str | None:
    """Why a link cannot be used now (None: it can), for the page and the service alike."""
    if link is None:
        return "This link is not one of ours: check it, or ask an organiser for a new one."
    if link.used_at is not None:
        return (
            "This link was used already: each one works once. Log in with the password set "
            "then, or ask an organiser for a new link."
        )
    if link.revoked_at is not None:
        return "A newer link replaced this one: use the newest, or ask an organiser."
    if is_site_login(link.user):
        return "This link cannot set a site administrator's password: use the site's admin."
    if link.expires_at <= timezone.now():
        return (
            f"This link expired on {timezone.localtime(link.expires_at):%d %B %Y} (links last "
            f"{LOGIN_LINK_DAYS} days): ask an organiser for a new one."
        )
    return None


def _refuse_dead(link: LoginLink) -> None:
    refusal = link_refusal(link)
    if refusal:
        raise ValidationError(refusal)


# --- Logins and roles -----------------------------------------------------------------------------


def _check_username(username: str) -> str:
    username = (username or "").strip()
    if not username:
        raise ValidationError({"username": "Write a username for the login."})
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        raise ValidationError(
            {"username": "A username is letters, digits and @ . + - _ only, without spaces."}
        ) from None
    if len(username) > 150:
        raise ValidationError({"username": "A username is at most 150 characters."})
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": f"The username {username!r} is taken: choose another."})
    return username


def _check_email(email: str) -> str:
    email = (email or "").strip()
    if not email:
        return ""
    try:
        if len(email) > 254:
            raise ValidationError("too long")
        validate_email(email)
    except ValidationError:
        raise ValidationError(
            {"email": "Write an e-mail address such as name@example.org, or leave it empty."}
        ) from None
    return email


def _group(role: str) -> Group:
    if role not in ROLES:
        raise ValidationError({"role": "Choose player, judge or organiser."})
    return Group.objects.get(name=ROLES[role])


def require_organiser(actor: AbstractBaseUser | None, club: Club) -> None:
    """The actor may manage the club's logins: an organiser of `club` (the system may too)."""
    if actor is None:
        return
    if not actor.is_authenticated or not actor.has_perm(ORGANISER_PERMISSION):
        raise PermissionDenied("Only an organiser gives logins.")
    if not Player.objects.filter(user=actor, club=club).exists() and not actor.is_superuser:
        raise PermissionDenied("Only an organiser of this club gives its logins.")


SITE_LOGIN_REFUSAL = (
    "This login is a site administrator's: it is managed in the site's admin, not from a club's "
    "pages."
)


def is_site_login(user: AbstractBaseUser | None) -> bool:
    """Whether `user` is a site administrator's login (staff or superuser)."""
    return user is not None and (user.is_staff or user.is_superuser)


def refuse_site_login(user: AbstractBaseUser | None) -> None:
    """No club service changes a site administrator's login: an organiser reaches only the
    logins made for the club's own players (see the module's terms)."""
    if is_site_login(user):
        raise PermissionDenied(SITE_LOGIN_REFUSAL)


def _new_login(*, username: str, display_name: str, email: str, role: str) -> AbstractBaseUser:
    user = get_user_model()(username=username, first_name=display_name[:150], email=email)
    user.set_unusable_password()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        raise ValidationError(
            {"username": f"The username {username!r} is taken: choose another."}
        ) from None
    user.groups.set([_group(role)])
    return user


def login_give(
    *,
    player: Player,
    actor: AbstractBaseUser | None,
    username: str,
    role: str,
    email: str = "",
    token: str | None = None,
) -> str:
    """Give a player without a login a new login (no usable password) in `role`, linked to the
    player; returns the raw token of its welcome link, where the player sets a password. `token`
    is the form's one-time token (core.submissions): a second post of the form is AlreadySaved."""
    with transaction.atomic():
        # The token first: a second post of the form is AlreadySaved, not "username taken".
        spend_token(token=token, actor=actor)
        username = _check_username(username)
        email = _check_email(email)
        _group(role)
        player = locked(Player.objects.select_related("club")).get(pk=player.pk)
        require_organiser(actor, player.club)
        if player.user_id is not None:
            raise ValidationError(
                {"username": f"{player} has a login already: give a new password link instead."}
            )
        user = _new_login(
            username=username, display_name=player.display_name, email=email, role=role
        )
        player.user = user
        player.save(update_fields=["user"])
        audit_record(
            actor=actor,
            action=ClubVerb.LOGIN_GIVEN,
            obj=player,
            club=player.club,
            data={"player": player.display_name, "username": username, "role": role},
        )
        return _link_issue(
            club=player.club, user=user, actor=actor, purpose=LoginLinkPurpose.WELCOME
        )


def login_role(user: AbstractBaseUser | None) -> str:
    """The role ("player", "judge", "organiser") a login's groups give, or ""."""
    if user is None:
        return ""
    names = {group.name for group in user.groups.all()}
    found = [role for role, group in ROLES.items() if group in names]
    return found[-1] if found else ""


def login_role_set(*, player: Player, actor: AbstractBaseUser | None, role: str) -> None:
    """Give a player's login another role. Nobody changes their own role (an organiser would
    lock the club out): another organiser does."""
    group = _group(role)
    with transaction.atomic():
        player = locked(Player.objects.select_related("club", "user")).get(pk=player.pk)
        require_organiser(actor, player.club)
        if player.user is None:
            raise ValidationError({"role": f"{player} has no login: give one first."})
        refuse_site_login(player.user)
        if actor is not None and player.user_id == actor.pk:
            raise ValidationError(
                {"role": "This is your own login: another organiser changes your role."}
            )
        before = login_role(player.user)
        if before == role:
            return
        player.user.groups.set([group])
        audit_record(
            actor=actor,
            action=ClubVerb.LOGIN_ROLE_CHANGED,
            obj=player,
            club=player.club,
            data={
                "username": player.user.get_username(),
                "role": {"before": before, "after": role},
            },
        )


def login_link_new(
    *, player: Player, actor: AbstractBaseUser | None, token: str | None = None
) -> str:
    """A new one-time link for a player's login (a forgotten password); the older one dies.
    `token` is the form's one-time token: a second post of the form is AlreadySaved, so it
    never replaces the link the first post made (and showed)."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        player = locked(Player.objects.select_related("club", "user")).get(pk=player.pk)
        require_organiser(actor, player.club)
        if player.user is None:
            raise ValidationError(f"{player} has no login: give one first.")
        return _link_issue(
            club=player.club, user=player.user, actor=actor, purpose=LoginLinkPurpose.RESET
        )


def password_change(
    *, user: AbstractBaseUser, old_password: str, new_password: str
) -> AbstractBaseUser:
    """A logged-in user changes their own password (the old one first, as Django asks); returns
    the login as saved (for `update_session_auth_hash`, which keeps its session logged in)."""
    with transaction.atomic():
        user = locked(get_user_model().objects.all()).get(pk=user.pk)
        if not user.check_password(old_password):
            raise ValidationError({"old_password": "That is not your current password."})
        try:
            password_validation.validate_password(new_password, user)
        except ValidationError as error:
            raise ValidationError({"new_password": error.messages}) from None
        user.set_password(new_password)
        user.save(update_fields=["password"])
        player = Player.objects.filter(user=user).select_related("club").first()
        audit_record(
            actor=user,
            action=ClubVerb.PASSWORD_CHANGED,
            obj=user,
            club=player.club if player else None,
            data={"username": user.get_username()},
        )
    return user


# --- Starting a club ------------------------------------------------------------------------------


def club_start(
    *, name: str, slug: str, organiser_username: str, organiser_name: str = ""
) -> tuple[Club, Player, str]:
    """A new club with the default house rules and its first organiser: a login with no usable
    password in the organisers' role, linked to a new player of the club. Returns the club, the
    player and the raw token of the welcome link. A taken name, slug or username is a
    ValidationError naming it, and nothing is created."""
    username = _check_username(organiser_username)
    display_name = " ".join((organiser_name or "").split()) or username
    with transaction.atomic():
        if Club.objects.filter(slug=slug).exists():
            raise ValidationError({"slug": f"A club with the slug {slug!r} exists already."})
        if Club.objects.filter(name__iexact=(name or "").strip()).exists():
            raise ValidationError({"name": f"A club called {name!r} exists already."})
        club = club_create(actor=None, name=(name or "").strip(), slug=slug)
        user = _new_login(username=username, display_name=display_name, email="", role="organiser")
        player = player_create(club=club, actor=None, display_name=display_name, user=user)
        audit_record(
            actor=None,
            action=ClubVerb.LOGIN_GIVEN,
            obj=player,
            club=club,
            data={"player": player.display_name, "username": username, "role": "organiser"},
        )
        token = _link_issue(club=club, user=user, actor=None, purpose=LoginLinkPurpose.WELCOME)
    return club, player, token
