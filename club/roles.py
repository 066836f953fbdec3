"""Roles: Django groups that carry the permissions DESIGN.md's role table implies.

Terms: a role is one of the groups below; each includes the permissions of the roles under it
(an organiser may do everything a judge or a player may). Views check permissions, never group
names; the group name is only shown in the header. Later apps add their permissions here and ship a
migration that calls `sync_roles` again.
"""

from __future__ import annotations

ORGANISERS = "organisers"
JUDGES = "judges"
PLAYERS = "players"

PLAYER_PERMISSIONS = (
    "club.view_club",
    "club.view_player",
    "club.view_session",
    "games.view_round",
    "games.view_game",
    "games.view_result",
    # Object rules in the services: only at one's own table, only the other side's entry.
    "games.add_result",
    "games.confirm_result",
    "scoring.view_claim",
    "scoring.add_claim",
    "scoring.view_dispute",
    "scoring.add_dispute",
    "club.view_settlement",
)
JUDGE_PERMISSIONS = PLAYER_PERMISSIONS + (
    "club.view_auditentry",
    "scoring.rule_dispute",
    "scoring.view_ruling",
)
ORGANISER_PERMISSIONS = JUDGE_PERMISSIONS + (
    "club.change_club",
    "club.add_player",
    "club.change_player",
    "club.add_session",
    "club.view_checkin",
    "club.add_checkin",
    "club.change_checkin",
    "club.delete_checkin",
    "games.add_round",
    "games.change_round",
    "games.correct_result",
    "club.settle_session",
    "club.view_ledgerentry",
)

ROLE_PERMISSIONS: dict[str, tuple[str, ...]] = {
    ORGANISERS: ORGANISER_PERMISSIONS,
    JUDGES: JUDGE_PERMISSIONS,
    PLAYERS: PLAYER_PERMISSIONS,
}

# Highest first: the header names the highest role a user has.
ROLE_LABELS = ((ORGANISERS, "organiser"), (JUDGES, "judge"), (PLAYERS, "player"))


def sync_roles(apps, schema_editor=None) -> None:
    """Create the role groups and give each exactly its permissions (for data migrations).

    Permissions are normally created after migrations run; create them first so a fresh database
    gets complete groups in one `migrate`. A permission of a model that a later migration creates
    is skipped here and given by that app's own `sync_roles` migration (tests check the end state).
    """
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        # Migration state apps have no models module, and create_permissions skips those.
        models_module = getattr(app_config, "models_module", None)
        app_config.models_module = models_module or True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = models_module

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group_name, perms in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=group_name)
        wanted = []
        for perm in perms:
            app_label, codename = perm.split(".")
            found = Permission.objects.filter(
                content_type__app_label=app_label, codename=codename
            ).first()
            if found is not None:
                wanted.append(found)
        group.permissions.set(wanted)


def user_role(user) -> str:
    """The highest role label of a user for the header: organiser, judge, player, admin or ''."""
    if not user.is_authenticated:
        return ""
    names = {group.name for group in user.groups.all()}
    for group_name, label in ROLE_LABELS:
        if group_name in names:
            return label
    if user.is_superuser:
        return "admin"
    return ""
