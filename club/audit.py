"""The club app's audit verbs, and the one way to write the audit trail.

Terms:
- verb: what an entry records; each app declares its own in its `audit.py` (see `club.verbs`).
  These are the club's: the club and its rules, players, sessions, check-ins and fees.
- actor: the user who made the change; None (or an anonymous user) is recorded as the system.
- data: what changed, as plain JSON values (`plain` turns rows into ids, dates into text).

Every service records one entry per change inside its own transaction, through `audit_record`
(or `audit_record_many` for a service that changes many rows of one kind at once).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from club.models import AuditEntry, Club
from club.verbs import is_verb, register_verbs


@register_verbs
class ClubVerb(models.TextChoices):
    CLUB_RULES_CHANGED = "club.rules_changed", "House rules changed"
    CLUB_CREATED = "club.created", "Club created"
    PLAYER_CREATED = "player.created", "Player added"
    PLAYER_CHANGED = "player.changed", "Player changed"
    SESSION_OPENED = "session.opened", "Session opened"
    SESSION_REDATED = "session.redated", "Session moved to another date"
    SESSION_DELETED = "session.deleted", "Session deleted"
    CHECKIN_CREATED = "checkin.created", "Player checked in"
    CHECKIN_UNDONE = "checkin.undone", "Check-in undone"
    FEE_PAID = "fee.paid", "Fee marked paid"
    FEE_UNPAID = "fee.unpaid", "Fee payment undone"
    LOGIN_GIVEN = "login.given", "Login given"
    LOGIN_ROLE_CHANGED = "login.role_changed", "Login's role changed"
    LOGIN_LINK_MADE = "login.link_made", "One-time password link made"
    PASSWORD_SET = "login.password_set", "Password set with a one-time link"
    PASSWORD_CHANGED = "login.password_changed", "Password changed"
    PIN_SET = "pin.set", "Table PIN set"
    PIN_CLEARED = "pin.cleared", "Table PIN removed"
    PIN_REFUSED = "pin.refused", "Wrong table PIN"
    # No longer written (wrong PINs now make the next try wait instead of locking the PIN for
    # the session); kept so the entries written when they did, and backups holding them, read.
    PIN_LOCKED = "pin.locked", "Table PIN locked after too many wrong tries"


# Changes made through a table's link (no login): the audit entry has no actor and says so, with
# the player who acted on the shared phone (docs/design.md "People and what they do").
AT_THE_TABLE = "at the table"


def at_the_table(player) -> dict:
    """What an audit entry's `data` adds for a change made at the table by `player`."""
    return {"via": AT_THE_TABLE, "by_player": player.display_name, "by_player_id": player.pk}


def plain(value: Any) -> Any:
    """A JSON-safe form of a field value for the audit `data`."""
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, dt.date | dt.time | dt.datetime):
        return value.isoformat()
    return value


def _entry(*, actor, action, obj, club, data) -> AuditEntry:
    """An unsaved audit entry; an anonymous actor is recorded as nobody."""
    if actor is not None and not actor.is_authenticated:
        actor = None
    return AuditEntry(
        club=club,
        actor=actor,
        action=action,
        content_type=ContentType.objects.get_for_model(obj) if obj is not None else None,
        object_id=str(obj.pk) if obj is not None else "",
        object_repr=str(obj)[:200] if obj is not None else "",
        data={key: plain(value) for key, value in (data or {}).items()},
    )


def audit_record(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    obj: models.Model | None = None,
    club: Club | None = None,
    data: dict | None = None,
) -> AuditEntry:
    """Append one entry to the audit trail; the only way entries are written."""
    entry = _entry(actor=actor, action=action, obj=obj, club=club, data=data)
    entry.full_clean()
    entry.save()
    return entry


def audit_record_many(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    club: Club | None,
    entries: Sequence[tuple[models.Model, dict]],
) -> list[AuditEntry]:
    """Append one entry per (object, data) in one insert: for the services that change many
    rows of one kind at once. The entries are the ones `audit_record` would write one by one."""
    if not is_verb(action):
        raise ValidationError({"action": f"{action!r} is not a registered audit verb."})
    rows = []
    now = timezone.now()
    for obj, data in entries:
        entry = _entry(actor=actor, action=action, obj=obj, club=club, data=data)
        entry.created_at = now
        # The references are the caller's saved rows: validate the rest without a query each.
        entry.clean_fields(exclude=["club", "actor", "content_type"])
        rows.append(entry)
    return AuditEntry.objects.bulk_create(rows)
