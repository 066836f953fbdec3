"""Writes for table PINs: the 4-digit PIN a player accepts results with at a table, set by the
player or an organiser, and checked when typed.

Terms:
- PIN: four digits, hashed like a password (Django's hashers). `pin_verify` keeps each wrong one
  (`WrongPin`); after the first few, each makes the next try of that player's PIN wait longer,
  up to a few minutes (club.pin_waits), in any session; a new PIN set by an organiser (or the
  player) starts the count afresh. Nothing ever locks a PIN for longer than a wait.

Every service validates, writes in one transaction and records one audit entry per change; a PIN
never appears in the audit trail.
"""

from __future__ import annotations

import datetime as dt
import math
import re

from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from club.audit import ClubVerb, at_the_table
from club.models import (
    Player,
    Session,
    WrongPin,
)
from club.pin_waits import LONGEST_WAIT, wait_after, wait_text
from club.selectors import pin_tries
from club.services.logins import require_organiser
from core.audit import audit_record
from core.locking import locked

PIN_PATTERN = re.compile(r"[0-9]{4}")


def pin_set(*, player: Player, actor: AbstractBaseUser, pin: str) -> None:
    """Set (or, with an empty `pin`, remove) a player's table PIN: by the player themselves or an
    organiser of the club. Four digits. The wrong PINs typed before count no more for a wait
    (they were guesses at the old PIN); they stay on their sessions' pages as history."""
    pin = (pin or "").strip()
    if pin and not PIN_PATTERN.fullmatch(pin):
        raise ValidationError({"pin": "A PIN is exactly four digits, e.g. 4071."})
    with transaction.atomic():
        player = locked(Player.objects.select_related("club")).get(pk=player.pk)
        own = actor.is_authenticated and player.user_id == actor.pk
        if not own:
            require_organiser(actor, player.club)
        now = timezone.now()
        forgotten = pin_tries(player, now=now).wrong
        player.pin_hash = make_password(pin) if pin else ""
        player.pin_set_at = now
        player.save(update_fields=["pin_hash", "pin_set_at"])
        audit_record(
            actor=actor,
            action=ClubVerb.PIN_SET if pin else ClubVerb.PIN_CLEARED,
            obj=player,
            club=player.club,
            data={"player": player.display_name, "wrong_pins_forgotten": forgotten},
        )


def pin_refusal(player: Player) -> str | None:
    """Why `player` cannot accept with a PIN at all (None: they can type one)."""
    if not player.pin_hash:
        return (
            f"{player} has no PIN yet: an organiser sets one on the player's page (or the "
            "organiser confirms the result on the game page)."
        )
    return None


ORGANISER_HELP = "set a new PIN, or confirm the result on the game page."


def _seconds_until(moment: dt.datetime, now: dt.datetime) -> int:
    return math.ceil((moment - now).total_seconds())


def pin_verify(*, session: Session, player: Player, pin: str) -> None:
    """Check the PIN `player` typed at a table in `session`. During the wait after wrong PINs
    (club.pin_waits) the try is refused before the PIN is read, and is not counted. A wrong PIN
    is kept (`WrongPin`) and audited even though the caller's change is refused: this commits
    its own transaction, then raises a ValidationError on `pin` that says how long the next try
    waits. Locks the player's row, so two phones trying one player's PIN take turns. Call it
    before (outside) the transaction of what it guards."""
    with transaction.atomic():
        player = locked(Player.objects.all()).get(pk=player.pk)
        refusal = pin_refusal(player)
        if refusal:
            raise ValidationError({"pin": refusal})
        now = timezone.now()
        tries = pin_tries(player, now=now)
        if tries.next_try is not None:
            wait = wait_text(_seconds_until(tries.next_try, now))
            raise ValidationError(
                {
                    "pin": f"Too many wrong PINs for {player}: the next try in {wait}. "
                    f"An organiser can {ORGANISER_HELP}"
                }
            )
        typed = (pin or "").strip()
        if PIN_PATTERN.fullmatch(typed) and check_password(typed, player.pin_hash):
            return
        wrong_pin = WrongPin(session=session, player=player, typed_at=now)
        wrong_pin.full_clean(exclude=["session", "player"])
        wrong_pin.save()
        wrong = tries.wrong + 1
        seconds = wait_after(wrong)
        audit_record(
            actor=None,
            action=ClubVerb.PIN_REFUSED,
            obj=player,
            club=session.club,
            data={
                **at_the_table(player),
                "session": session.pk,
                "wrong_pins": wrong,
                "wait_seconds": seconds,
            },
        )
    if not seconds:
        raise ValidationError({"pin": f"Wrong PIN for {player}: try again."})
    raise ValidationError(
        {
            "pin": f"Wrong PIN for {player}: the next try in {wait_text(seconds)}. Each wrong "
            f"PIN makes the wait longer, up to {wait_text(LONGEST_WAIT)}; an organiser can "
            f"{ORGANISER_HELP}"
        }
    )
