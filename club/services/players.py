"""Writes for the club's players: adding one, changing one's details (name, nickname, login,
active flag, joined date)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from club.audit import ClubVerb
from club.models import Club, Player
from club.services.clubs import field_changes, pages_changed
from core.audit import audit_record, plain
from core.locking import locked

PLAYER_FIELDS = ("display_name", "nickname", "user", "active", "joined")


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
    """Add a player to a club. A clashing name is a ValidationError on `display_name`; a staff
    or superuser login given as `user` one on `user` (`_refuse_site_logins`)."""
    _refuse_site_logins(user)
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
        try:
            with transaction.atomic():
                player.save()
        except IntegrityError:
            # Another add of the same name (or login) committed after our check: checking again
            # now sees it and names the field; anything else is a broken invariant.
            player.full_clean()
            raise
        pages_changed(club.pk)
        audit_record(
            actor=actor,
            action=ClubVerb.PLAYER_CREATED,
            obj=player,
            club=club,
            data={field: plain(getattr(player, field)) for field in PLAYER_FIELDS},
        )
    return player


def player_update(*, player: Player, actor: AbstractBaseUser | None, **changes: Any) -> Player:
    """Change a player's details (name, nickname, login, active flag, joined date)."""
    unknown = set(changes) - set(PLAYER_FIELDS)
    if unknown:
        raise TypeError(f"Not a player field: {', '.join(sorted(unknown))}")
    if "user" in changes:
        _refuse_site_logins(changes["user"])
    with transaction.atomic():
        row = locked(Player.objects.all()).get(pk=player.pk)
        _refuse_unlinking_oneself(row, actor, changes)
        before = {field: getattr(row, field) for field in changes}
        for field, value in changes.items():
            setattr(row, field, value)
        row.full_clean()
        diff = field_changes(before, {field: getattr(row, field) for field in changes})
        if diff:
            row.save(update_fields=list(diff))
            pages_changed(row.club_id)
            audit_record(
                actor=actor,
                action=ClubVerb.PLAYER_CHANGED,
                obj=row,
                club=row.club,
                data=diff,
            )
    return row


def _refuse_site_logins(user: AbstractBaseUser | None) -> None:
    """A staff or superuser login runs the site, not a club: the services never link it to a
    player, so no club's organiser reaches it through a player record (its password, its
    one-time links, its role). The forms already refuse such a name as if it did not exist; this
    holds for every other caller too. Only the site's admin links one, by hand."""
    if user is not None and (user.is_staff or user.is_superuser):
        raise ValidationError(
            {"user": "A site administrator's login is linked to a player in the site's admin only."}
        )


def _refuse_unlinking_oneself(row: Player, actor, changes: dict) -> None:
    """Nobody takes their own login off their own player record: it is what makes them a member
    (and an organiser) of this club, and without it the login would belong nowhere."""
    if "user" not in changes or actor is None or row.user_id is None or row.user_id != actor.pk:
        return
    new_user = changes["user"]
    if new_user is None or new_user.pk != actor.pk:
        raise ValidationError(
            {
                "user": "This is your own login: you cannot unlink it or give your player record "
                "another one. Ask another organiser if it must change."
            }
        )
