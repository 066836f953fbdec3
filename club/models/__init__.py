"""The club, its players, its sessions and check-ins, and the append-only audit trail.

Terms:
- house rules: the settings a club plays under, typed as `club.rules.HouseRules`; one `Club` row
  each, several clubs may share one site. A session keeps a snapshot of them (`Session.rules`),
  so later edits never rewrite history; read it as `session.house_rules`.
- session: one club morning; check-in: a player present at it, with the fee they owe and, once
  paid, who took it and when.
- audit entry: one append-only row per change, written only by `club.audit.audit_record`; its
  `action` is a verb some app registered (`club.verbs`).

One module per kind of row (`clubs`, `people`, `audit`, `sessions`); everything is read from
`club.models`.
"""

from club.models.audit import AppendOnlyModel, AppendOnlyQuerySet, AuditEntry
from club.models.clubs import (
    EARLIEST_DATE,
    GAME_TARGETS,
    LATEST_STORED_DATE,
    Club,
    TableMode,
    Weekday,
    check_session_date,
    latest_session_date,
    parse_place_weights,
    validate_place_weights,
)
from club.models.people import (
    LOGIN_LINK_DAYS,
    LOGIN_NOT_LINKABLE,
    LoginLink,
    LoginLinkPurpose,
    Player,
)
from club.models.sessions import (
    CheckIn,
    Session,
    SessionState,
    SubmissionToken,
    WrongPin,
)
from club.money import (  # the money limits are read from club.models too
    CHECKIN_JACKPOT_FIELDS,
    JACKPOT_FIELDS,
    MONEY_FIELDS,
    MONEY_LIMIT_CENTS,
    MONEY_LIMIT_MESSAGE,
    format_cents,
    money_validators,
)
from club.rules import HouseRules

__all__ = [
    "CHECKIN_JACKPOT_FIELDS",
    "EARLIEST_DATE",
    "GAME_TARGETS",
    "JACKPOT_FIELDS",
    "LATEST_STORED_DATE",
    "LOGIN_LINK_DAYS",
    "LOGIN_NOT_LINKABLE",
    "MONEY_FIELDS",
    "MONEY_LIMIT_CENTS",
    "MONEY_LIMIT_MESSAGE",
    "AppendOnlyModel",
    "AppendOnlyQuerySet",
    "AuditEntry",
    "CheckIn",
    "Club",
    "HouseRules",
    "LoginLink",
    "LoginLinkPurpose",
    "Player",
    "Session",
    "SessionState",
    "SubmissionToken",
    "TableMode",
    "Weekday",
    "WrongPin",
    "check_session_date",
    "format_cents",
    "latest_session_date",
    "money_validators",
    "parse_place_weights",
    "validate_place_weights",
]
