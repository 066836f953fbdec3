"""Writes for the club app: house rules, players, and the one way to write the audit trail.

Every service takes keyword arguments, validates with `full_clean()`, saves inside
`transaction.atomic`, and records one audit entry in the same transaction. `actor` is the user who
made the change (None for the system itself, e.g. a data migration).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction

from club.models import AuditAction, AuditEntry, Club, Player

PLAYER_FIELDS = ("display_name", "nickname", "user", "active", "joined")


def _plain(value: Any) -> Any:
    """A JSON-safe form of a field value for the audit `data`."""
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, dt.date | dt.time | dt.datetime):
        return value.isoformat()
    return value


def audit_record(
    *,
    actor: AbstractBaseUser | None,
    action: AuditAction | str,
    obj: models.Model | None = None,
    club: Club | None = None,
    data: dict | None = None,
) -> AuditEntry:
    """Append one entry to the audit trail; the only way entries are written."""
    if actor is not None and not actor.is_authenticated:
        actor = None
    entry = AuditEntry(
        club=club,
        actor=actor,
        action=action,
        content_type=ContentType.objects.get_for_model(obj) if obj is not None else None,
        object_id=str(obj.pk) if obj is not None else "",
        object_repr=str(obj)[:200] if obj is not None else "",
        data={key: _plain(value) for key, value in (data or {}).items()},
    )
    entry.full_clean()
    entry.save()
    return entry


def _changes(before: dict, after: dict) -> dict:
    return {
        field: {"before": _plain(before[field]), "after": _plain(after[field])}
        for field in after
        if before.get(field) != after[field]
    }


def club_create(*, actor: AbstractBaseUser | None, name: str, slug: str, **rules: Any) -> Club:
    with transaction.atomic():
        club = Club(name=name, slug=slug, **rules)
        club.full_clean()
        club.save()
        audit_record(
            actor=actor,
            action=AuditAction.CLUB_CREATED,
            obj=club,
            club=club,
            data={"house_rules": {k: _plain(v) for k, v in club.house_rules().items()}},
        )
    return club


def club_update_rules(*, club: Club, actor: AbstractBaseUser | None, **changes: Any) -> Club:
    """Change a club's house rules (and meeting details); logs before/after of what changed.

    Raises ValidationError naming the field when a value is not allowed; nothing is saved then.
    """
    allowed = set(Club.HOUSE_RULE_FIELDS) | {
        "name",
        "venue",
        "session_weekday",
        "session_start",
        "session_end",
    }
    unknown = set(changes) - allowed
    if unknown:
        raise TypeError(f"Not a house rule: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        before = {field: getattr(locked, field) for field in changes}
        for field, value in changes.items():
            setattr(locked, field, value)
        locked.full_clean()
        diff = _changes(before, {field: getattr(locked, field) for field in changes})
        if diff:
            locked.save(update_fields=list(diff))
            audit_record(
                actor=actor,
                action=AuditAction.CLUB_RULES_CHANGED,
                obj=locked,
                club=locked,
                data=diff,
            )
    for field in changes:
        setattr(club, field, getattr(locked, field))
    return locked


def player_create(
    *,
    club: Club,
    actor: AbstractBaseUser | None,
    display_name: str,
    nickname: str = "",
    user: AbstractBaseUser | None = None,
    active: bool = True,
    joined: dt.date | None = None,
) -> Player:
    """Add a player to a club. A clashing name is a ValidationError on `display_name`."""
    with transaction.atomic():
        player = Player(
            club=club,
            display_name=display_name,
            nickname=nickname,
            user=user,
            active=active,
        )
        if joined is not None:
            player.joined = joined
        player.full_clean()
        player.save()
        audit_record(
            actor=actor,
            action=AuditAction.PLAYER_CREATED,
            obj=player,
            club=club,
            data={field: _plain(getattr(player, field)) for field in PLAYER_FIELDS},
        )
    return player


def player_update(*, player: Player, actor: AbstractBaseUser | None, **changes: Any) -> Player:
    """Change a player's details (name, nickname, login, active flag, joined date)."""
    unknown = set(changes) - set(PLAYER_FIELDS)
    if unknown:
        raise TypeError(f"Not a player field: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        before = {field: getattr(locked, field) for field in changes}
        for field, value in changes.items():
            setattr(locked, field, value)
        locked.full_clean()
        diff = _changes(before, {field: getattr(locked, field) for field in changes})
        if diff:
            locked.save(update_fields=list(diff))
            audit_record(
                actor=actor,
                action=AuditAction.PLAYER_CHANGED,
                obj=locked,
                club=locked.club,
                data=diff,
            )
    return locked
