"""Writes of the web app: lifting a login lock-out.

Terms: see web.selectors (failures, lock-out, a club's lock-outs). Lifting a lock-out forgets
every failed login django-axes keeps for that username, from every address, so the login gets
its full `AXES_FAILURE_LIMIT` tries again at once.
"""

from __future__ import annotations

from axes.utils import reset
from django.core.exceptions import ValidationError
from django.db import transaction

from club.models import Club, Player
from core.audit import audit_record
from core.locking import locked
from web.audit import WebVerb
from web.selectors import Lockout, login_lockout


def lockout_lift(*, actor, club: Club, username: str) -> Lockout:
    """Lift the current lock-out of one of the club's logins, with an audit entry. Refuses a
    username no player of the club is linked to, and one that is not locked out. Locks the
    player row (as `player_update` does), so two organisers lifting at once take turns and the
    second finds nothing left to lift."""
    with transaction.atomic():
        player = locked(Player.objects.filter(club=club, user__username=username)).first()
        lockout = login_lockout(club, username) if player is not None else None
        if lockout is None:
            raise ValidationError(f"The login {username!r} is not locked out.")
        reset(username=username)
        audit_record(
            actor=actor,
            action=WebVerb.LOCKOUT_LIFTED,
            obj=lockout.player,
            club=club,
            data={"login": username, "failed_attempts": lockout.failures},
        )
    return lockout
