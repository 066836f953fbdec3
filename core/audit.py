"""The one way to write the audit trail.

Terms:
- verb: what an entry records; each app declares its own in its `audit.py` (see `core.verbs`).
- actor: the user who made the change; None (or an anonymous user) is recorded as the system.
- club: the club the entry belongs to (an instance of the PEGBOARD_CLUB_MODEL setting's model);
  None for a site-wide entry.
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

from core.models import AuditEntry
from core.verbs import is_verb


def plain(value: Any) -> Any:
    """A JSON-safe form of a field value for the audit `data`."""
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, dt.date | dt.time | dt.datetime):
        return value.isoformat()
    return value


# An entry's references to other rows, which `full_clean` would look up one query each.
REFERENCES = ("club", "actor", "content_type")


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
    club: models.Model | None = None,
    data: dict | None = None,
) -> AuditEntry:
    """Append one entry to the audit trail; the only way entries are written."""
    entry = _entry(actor=actor, action=action, obj=obj, club=club, data=data)
    # The references are the caller's saved rows (the database holds them to it at commit):
    # validate the rest without a query each.
    entry.full_clean(exclude=REFERENCES)
    entry.save()
    return entry


def audit_record_many(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    club: models.Model | None,
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
        entry.clean_fields(exclude=REFERENCES)
        rows.append(entry)
    return AuditEntry.objects.bulk_create(rows)
