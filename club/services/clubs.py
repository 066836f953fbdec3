"""Writes for the club itself: making a club, changing its house rules, and marking its public
pages stale (`pages_changed`), which every app's services call in their transactions.

Terms: field changes (`field_changes`) are what an audit entry records of an edit: each changed
field with its value before and after, as plain JSON values.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from club.audit import ClubVerb
from club.models import Club
from core.audit import audit_record, plain
from core.locking import locked


def pages_changed(club_id: int) -> None:
    """Mark the club's public pages (standings, results, player pages) stale: visitors' cached
    copies are keyed by the club's pages version (core.pages), which this moves on. Every
    service that changes results, money, names or the rules calls it, in its transaction."""
    Club.pages_changed(club_id)


def field_changes(before: dict, after: dict) -> dict:
    """The fields whose value `after` differs from `before`, each as {"before", "after"}."""
    return {
        field: {"before": plain(before[field]), "after": plain(after[field])}
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
            action=ClubVerb.CLUB_CREATED,
            obj=club,
            club=club,
            data={"house_rules": club.house_rules.snapshot()},
        )
    return club


def club_update_rules(*, club: Club, actor: AbstractBaseUser | None, **changes: Any) -> Club:
    """Change a club's house rules (and meeting details); logs before/after of what changed.

    Raises ValidationError naming the field when a value is not allowed; nothing is saved then.
    """
    unknown = set(changes) - set(Club.EDITABLE_FIELDS)
    if unknown:
        raise TypeError(f"Not a house rule: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        row = locked(Club.objects.all()).get(pk=club.pk)
        before = {field: getattr(row, field) for field in changes}
        for field, value in changes.items():
            setattr(row, field, value)
        row.full_clean()
        diff = field_changes(before, {field: getattr(row, field) for field in changes})
        if diff:
            row.save(update_fields=list(diff))
            pages_changed(row.pk)
            audit_record(
                actor=actor,
                action=ClubVerb.CLUB_RULES_CHANGED,
                obj=row,
                club=row,
                data=diff,
            )
    for field in changes:
        setattr(club, field, getattr(row, field))
    return row
