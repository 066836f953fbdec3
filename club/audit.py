"""The club app's audit verbs, and how the audit log names the club's rows.

Terms:
- verb: what an entry records; each app declares its own here, in its `audit.py` (see
  `core.verbs`). These are the club's: the club and its rules, players, sessions, check-ins and
  fees, logins, passwords and PINs. Entries are written with `core.audit.audit_record`.
- at the table: a change made through a table's link, with no login: the entry has no actor and
  names the player who acted on the shared phone (`at_the_table`).
- reference: a key of an entry's data that holds the id of a row (core.audit_log); the club
  declares its players, logins and sessions, and reads its table modes as their labels.
"""

from __future__ import annotations

from django.db import models

from club.models import Club, Player, Session, TableMode
from club.names import people_names
from core.audit_log import KEYED, MANY, ONE, register_labels, register_reference
from core.verbs import register_verbs


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
    CHECKIN_LEAVES = "checkin.leaves", "Player leaves after a round"
    CHECKIN_LEAVES_UNDONE = "checkin.leaves_undone", "Leaving early undone"
    CHECKIN_SITS_OUT = "checkin.sits_out", "Player sits out a round"
    CHECKIN_SITS_OUT_UNDONE = "checkin.sits_out_undone", "Sitting out undone"
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
# the player who acted on the shared phone (docs/spec.md "People and what they do").
AT_THE_TABLE = "at the table"


# Changes made through a one-time player link (club.services.player_links): no actor either, the
# player the link was for named.
BY_LINK = "a one-time link"


def by_link(player) -> dict:
    """What an audit entry's `data` adds for a change made by `player` through a one-time link."""
    return {"via": BY_LINK, "by_player": player.display_name, "by_player_id": player.pk}


def at_the_table(player) -> dict:
    """What an audit entry's `data` adds for a change made at the table by `player`."""
    return {"via": AT_THE_TABLE, "by_player": player.display_name, "by_player_id": player.pk}


def _player_names(club: Club, ids: set[int]) -> dict[int, str]:
    return dict(Player.objects.filter(club=club, pk__in=ids).values_list("pk", "display_name"))


def _session_names(club: Club, ids: set[int]) -> dict[int, str]:
    sessions = Session.objects.filter(club=club, pk__in=ids).values_list("pk", "date")
    return {pk: f"{date:%a %-d %b %Y}" for pk, date in sessions}


register_reference(
    "player",
    keys={
        "player": ONE,
        "claimant": ONE,
        "caller": ONE,
        "players": MANY,
        "late_arrivals": MANY,
        "tables": MANY,  # a list of tables, each a list of player ids (read by core.audit_log)
        "payouts": KEYED,
        "parties": KEYED,
    },
    lookup=_player_names,
)
# A login is named by its player's name in the club (club.names), as everywhere on the pages.
register_reference(
    "login",
    keys={"user": ONE, "paid_by": ONE, "drawn_by": ONE},
    lookup=lambda club, ids: people_names(ids, club),
)
register_reference("session", keys={"session": ONE}, lookup=_session_names)
register_labels("mode", TableMode)
register_labels("table_mode", TableMode)
