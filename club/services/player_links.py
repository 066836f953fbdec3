"""One-time player links: the link an organiser (or a player at the table) hands to one player
present at a session, for one act on their own phone without a login. Two acts use it: ruling on
one dispute as the judge named for it (scoring), and accepting a proposed correction of a game's
result once its round is over (games). Both read and spend their link here, so the rules of a
link are the same for both.

Terms:
- token: 32 random bytes, URL-safe, returned once by `player_link_issue` to be shown (with its QR
  code) to whoever made it; only its SHA-256 is stored (`PlayerLink.token_hash`), as a
  one-time login link's is (club.services.logins).
- live: not used, not replaced by a newer link for the same act (`revoked_at`), within
  PLAYER_LINK_HOURS of being made, and its session still open. A link works for one act: the
  service that does the act spends it (`player_link_spend`) in its own transaction.

The link's own writes have no audit entry of their own: the act that makes a link (naming a judge,
proposing a correction) and the act that spends it are each audited by their service.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone

from club.models import PLAYER_LINK_HOURS, Player, PlayerLink, Session
from core.locking import locked


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def player_link_issue(
    *,
    session: Session,
    purpose: str,
    target: int,
    player: Player | None,
    actor: AbstractBaseUser | None,
) -> str:
    """A new live link for one act (call inside the caller's transaction, which audits the act);
    the older live links for the same act die. Returns the raw token, once."""
    now = timezone.now()
    player_link_revoke(purpose=purpose, target=target, now=now)
    token = secrets.token_urlsafe(32)
    link = PlayerLink(
        session=session,
        purpose=purpose,
        target=target,
        player=player,
        token_hash=_digest(token),
        created_by=actor if actor is not None and actor.is_authenticated else None,
        created_at=now,
        expires_at=now + dt.timedelta(hours=PLAYER_LINK_HOURS),
    )
    link.full_clean(exclude=["session", "player", "created_by"])
    link.save()
    return token


def player_link_revoke(*, purpose: str, target: int, now=None) -> int:
    """Every live link for this act dies (a new one replaces it, or the act is withdrawn)."""
    now = now or timezone.now()
    return PlayerLink.objects.filter(
        purpose=purpose, target=target, used_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=now)


def player_link_find(token: str, purpose: str) -> PlayerLink | None:
    """The link a token opens for `purpose` (live or not), or None: a read, for the link's page.
    A token that is not one we make is not looked up."""
    token = (token or "").strip()
    if not token or len(token) > 100 or not token.isascii():
        return None
    return (
        PlayerLink.objects.filter(token_hash=_digest(token), purpose=purpose)
        .select_related("session__club", "player")
        .first()
    )


def player_link_refusal(link: PlayerLink, now=None) -> str | None:
    """Why the link does not work now, in a plain sentence (None: it does)."""
    now = now or timezone.now()
    if link.used_at is not None:
        return f"This link was used at {timezone.localtime(link.used_at):%H:%M}: it works once."
    if link.revoked_at is not None:
        return (
            "This link was replaced by a newer one: ask the organiser for the link they show now."
        )
    if not link.session.is_open:
        return (
            f"The session of {link.session.date:%A %d %B %Y} is settled: this link no longer works."
        )
    if now >= link.expires_at:
        return "This link has expired: ask the organiser for a new one."
    return None


def player_link_spend(link: PlayerLink) -> PlayerLink:
    """Spend the link (inside the act's transaction, after its session's lock): refused when it
    is no longer live, so two phones pressing at once spend it once."""
    link = locked(PlayerLink.objects.select_related("session")).get(pk=link.pk)
    refusal = player_link_refusal(link)
    if refusal:
        raise ValidationError(refusal)
    link.used_at = timezone.now()
    link.save(update_fields=["used_at"])
    return link
