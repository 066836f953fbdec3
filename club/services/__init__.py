"""Writes for the club app: the club and its house rules, players, sessions, check-ins and fees,
logins and table PINs.

Every service takes keyword arguments, validates with `full_clean()`, saves inside
`transaction.atomic`, and records one audit entry per change in the same transaction. `actor` is
the user who made the change (None for the system itself, e.g. a data migration).

- `clubs`: club_create, club_update_rules, and pages_changed, which every app's services call
  when they change what the club's public pages show;
- `players`: player_create, player_update;
- `sessions`: session_open, session_redate, session_delete, and the check other apps' services
  make (session_require_open);
- `checkins`: checkin_create, checkins_create, checkin_undo, fee_mark_paid, fee_mark_unpaid,
  checkin_leaves_after, checkin_leaves_undo, checkin_sits_out, checkin_sits_out_undo;
- `logins`: club_start, login_give, login_role_set, login_link_new, login_link_use,
  password_change (and the reads of a link and a login their pages make);
- `pins`: pin_set, pin_verify, pin_refusal;
- `player_links`: player_link_issue, player_link_revoke, player_link_find, player_link_refusal,
  player_link_spend (the one-time links a player present uses once, without a login).

Every one is read from `club.services`.
"""

from club.services.checkins import (
    checkin_create,
    checkin_leaves_after,
    checkin_leaves_undo,
    checkin_sits_out,
    checkin_sits_out_undo,
    checkin_undo,
    checkins_create,
    fee_mark_paid,
    fee_mark_unpaid,
)
from club.services.clubs import club_create, club_update_rules, field_changes, pages_changed
from club.services.logins import (
    club_start,
    is_site_login,
    link_refusal,
    login_give,
    login_link_find,
    login_link_new,
    login_link_use,
    login_role,
    login_role_set,
    password_change,
    refuse_site_login,
    token_digest,
)
from club.services.pins import pin_refusal, pin_set, pin_verify
from club.services.player_links import (
    player_link_find,
    player_link_issue,
    player_link_refusal,
    player_link_revoke,
    player_link_spend,
)
from club.services.players import PLAYER_FIELDS, player_create, player_update
from club.services.sessions import (
    session_delete,
    session_open,
    session_redate,
    session_require_open,
)

__all__ = [
    "PLAYER_FIELDS",
    "checkin_create",
    "checkin_leaves_after",
    "checkin_leaves_undo",
    "checkin_sits_out",
    "checkin_sits_out_undo",
    "checkin_undo",
    "checkins_create",
    "club_create",
    "club_start",
    "club_update_rules",
    "fee_mark_paid",
    "fee_mark_unpaid",
    "field_changes",
    "is_site_login",
    "link_refusal",
    "login_give",
    "login_link_find",
    "login_link_new",
    "login_link_use",
    "login_role",
    "login_role_set",
    "pages_changed",
    "password_change",
    "pin_refusal",
    "pin_set",
    "player_link_find",
    "player_link_issue",
    "player_link_refusal",
    "player_link_revoke",
    "player_link_spend",
    "pin_verify",
    "player_create",
    "player_update",
    "refuse_site_login",
    "session_delete",
    "session_open",
    "session_redate",
    "session_require_open",
    "token_digest",
]
