"""Roles: the names of the three role groups, and the club app's own permissions for each.

Terms: a role is a Django group (organisers, judges, players). Each app declares, in its
AppConfig's `role_permissions`, which of its own permissions each role gets (the club declares
core's too: core, beneath the club, knows no roles); roles nest (an organiser may do everything
a judge may, a judge everything a player may: `ROLES` lists them lowest first). `web.role_groups`
builds the groups from those declarations after every `migrate`. Views check permissions, never
group names.
"""

from __future__ import annotations

ORGANISERS = "organisers"
JUDGES = "judges"
PLAYERS = "players"

# Lowest first: each role holds its own permissions and those of the roles before it.
ROLES = (PLAYERS, JUDGES, ORGANISERS)

# The club app's permissions, by the lowest role that has them. The audit trail is core's, and
# core knows no roles: the club gives its judges the right to read it.
PERMISSIONS: dict[str, tuple[str, ...]] = {
    PLAYERS: ("club.view_club", "club.view_player", "club.view_session"),
    JUDGES: ("core.view_auditentry",),
    ORGANISERS: (
        "club.change_club",
        "club.add_player",
        "club.change_player",
        "club.add_session",
        "club.view_checkin",
        "club.add_checkin",
        "club.change_checkin",
        "club.delete_checkin",
    ),
}


def sync_roles(apps, schema_editor=None) -> None:
    """Kept for club's migrations 0002, 0004, 0006 and 0008, which call it. The role groups are
    now built by `web.role_groups.sync_roles` from every app's declared permissions after each
    `migrate` (a post_migrate handler, once every app's permissions exist), so a migration has
    nothing left to do here and a new permission needs no migration."""
