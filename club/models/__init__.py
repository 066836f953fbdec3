"""The club, its players, its sessions and check-ins.

Terms:
- house rules: the settings a club plays under, typed as `club.rules.HouseRules`; one `Club` row
  each, several clubs may share one site. A session keeps a snapshot of them (`Session.rules`),
  so later edits never rewrite history; read it as `session.house_rules`.
- session: one club morning; check-in: a player present at it, with the fee they owe and, once
  paid, who took it and when.

One module per kind of row (`clubs`, `people`, `sessions`); everything is read from
`club.models`. The audit trail every app writes is core's (`core.models.AuditEntry`).
"""

from club.models.clubs import (
    EARLIEST_DATE,
    GAME_TARGETS,
    LATEST_STORED_DATE,
    Club,
    FeePer,
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
    PLAYER_LINK_HOURS,
    CheckIn,
    PlayerLink,
    PlayerLinkPurpose,
    Session,
    SessionKind,
    SessionState,
    WrongPin,
)
from club.money import CHECKIN_JACKPOT_FIELDS, JACKPOT_FIELDS, MONEY_FIELDS
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
    "PLAYER_LINK_HOURS",
    "CheckIn",
    "Club",
    "HouseRules",
    "LoginLink",
    "LoginLinkPurpose",
    "Player",
    "PlayerLink",
    "PlayerLinkPurpose",
    "Session",
    "SessionKind",
    "SessionState",
    "FeePer",
    "TableMode",
    "Weekday",
    "WrongPin",
    "check_session_date",
    "latest_session_date",
    "parse_place_weights",
    "validate_place_weights",
]
