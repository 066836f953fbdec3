"""The role groups, built from the permissions each app declares for itself.

Terms:
- role: a Django group named in `club.roles` (organisers, judges, players); roles nest, lowest
  first in `club.roles.ROLES`: a judge has every player permission, an organiser every judge one.
- declared permissions: an app's AppConfig says, in `role_permissions`, which of its permissions
  each role gets (`"app_label.codename"`). `role_permissions()` puts them together.
- sync: each group is given exactly its permissions. It runs after every `migrate` (and every
  test-database flush), once all apps' permissions exist, so a new permission or a new app
  needs no data migration: declaring it is enough.
"""

from __future__ import annotations

from django.apps import apps as django_apps
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import ImproperlyConfigured

from club.backends import is_member, member_groups
from club.roles import JUDGES, ORGANISERS, PLAYERS, ROLES

# Highest first: the header names the highest role a user has.
ROLE_LABELS = ((ORGANISERS, "organiser"), (JUDGES, "judge"), (PLAYERS, "player"))


def declared_permissions() -> dict[str, list[str]]:
    """What every installed app declares for each role (its own level only)."""
    declared: dict[str, list[str]] = {role: [] for role in ROLES}
    for config in django_apps.get_app_configs():
        for role, perms in getattr(config, "role_permissions", {}).items():
            if role not in declared:
                raise ImproperlyConfigured(f"{config.label} declares permissions for {role!r}.")
            declared[role].extend(perms)
    return declared


def role_permissions() -> dict[str, tuple[str, ...]]:
    """Each role's permissions: its own and those of every role under it."""
    declared = declared_permissions()
    result: dict[str, tuple[str, ...]] = {}
    inherited: list[str] = []
    for role in ROLES:
        inherited = inherited + declared[role]
        result[role] = tuple(dict.fromkeys(inherited))
    return result


def sync_roles(*, using: str = "default") -> None:
    """Make the role groups and give each exactly its permissions. A declared permission that
    does not exist yet (a database migrated back to before its model) is left out; at the
    latest migration every one exists (tests/web/test_roles.py checks the groups whole)."""
    wanted = role_permissions()
    names = {perm for perms in wanted.values() for perm in perms}
    found = {
        f"{app_label}.{codename}": pk
        for pk, app_label, codename in Permission.objects.using(using).values_list(
            "pk", "content_type__app_label", "codename"
        )
        if f"{app_label}.{codename}" in names
    }
    for role, perms in wanted.items():
        group, _ = Group.objects.using(using).get_or_create(name=role)
        group.permissions.set([found[perm] for perm in perms if perm in found])


def sync_roles_after_migrate(sender, using="default", **kwargs) -> None:
    """post_migrate handler (connected for the web app, which comes after every app whose
    permissions it gives out, so they exist by then)."""
    sync_roles(using=using)


def user_role(user) -> str:
    """The highest role label of a user for the header: organiser, judge, player, admin or ''."""
    if not user.is_authenticated:
        return ""
    if not is_member(user):
        # Roles are per club: no player record, no role (club/backends.py).
        return "admin" if user.is_superuser else ""
    names = member_groups(user)  # read with the member's permissions (club/backends.py)
    for group_name, label in ROLE_LABELS:
        if group_name in names:
            return label
    if user.is_superuser:
        return "admin"
    return ""
