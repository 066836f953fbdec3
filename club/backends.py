"""Roles are per club: a login has its role's permissions only through a player record.

Terms:
- member: a login linked to a player record (`Player.user`). A login is linked in one club at
  most (a database constraint), so "the member's club" is one club, and it is the club every
  request of that login is about (`club.selectors.current_club`).
- role: a Django group (organisers, judges, players; `club.roles`). The groups are site-wide, so
  a group alone must not be enough: a login in the organisers group with no player record (never
  linked, or unlinked since) would otherwise be an organiser of whichever club the site shows
  visitors. `ClubBackend` gives a login its groups' permissions only while it is a member; with
  no player record it is a visitor everywhere.
- site administrator: an active superuser; Django answers every permission for them before any
  backend is asked, so they keep the admin and every page (docs/decisions/roles-and-logins.md).
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db import connections, router

from core.plain_reads import column, first_read, quoted

MEMBER_CACHE = "_pegboard_player_id"
GROUPS_CACHE = "_pegboard_group_names"


def member_player_id(user) -> int | None:
    """The pk of the player record the login is linked to (None: not a member); read once per
    user object, so a page asking about many objects asks the database once."""
    if not getattr(user, "is_authenticated", False) or user.pk is None:
        return None
    if not hasattr(user, MEMBER_CACHE):
        from club.models import Player

        player_id = Player.objects.filter(user_id=user.pk).values_list("pk", flat=True).first()
        setattr(user, MEMBER_CACHE, player_id)
    return getattr(user, MEMBER_CACHE)


def is_member(user) -> bool:
    """Whether the login is linked to a player record; read once per user object."""
    return member_player_id(user) is not None


class ClubBackend(ModelBackend):
    """Django's model backend, with permissions only for members (see the module's terms).

    A member's permissions, from their groups and their own, and their groups' names (the role
    the header shows, web.role_groups) are read in one statement and kept on the user object,
    as Django's backend keeps them: compiling the two querysets Django's backend builds, and the
    groups' one, cost several times what the database takes to answer (`member_groups`)."""

    def get_user(self, user_id):
        """The login a session names (as Django's backend reads it, by a plain statement:
        core.plain_reads), or None when it is gone or may not log in."""
        User = get_user_model()
        user = first_read(User, _user_sql(User), [user_id])
        return user if user is not None and self.user_can_authenticate(user) else None

    def _get_permissions(self, user_obj, obj, from_name):
        if not is_member(user_obj):
            return set()
        if user_obj.is_superuser or not user_obj.is_active or obj is not None:
            return super()._get_permissions(user_obj, obj, from_name)
        member_groups(user_obj)
        return getattr(user_obj, f"_{from_name}_perm_cache")


def member_groups(user) -> frozenset[str]:
    """The names of a member's groups, read once per user object with the member's permissions
    (ClubBackend), in the shape Django's backend caches them ("app_label.codename")."""
    if not hasattr(user, GROUPS_CACHE):
        names, group_perms, own_perms = set(), set(), set()
        for group, app_label, codename in _read_groups_and_permissions(user):
            if group is None:
                own_perms.add(f"{app_label}.{codename}")
                continue
            names.add(group)
            if codename is not None:
                group_perms.add(f"{app_label}.{codename}")
        setattr(user, GROUPS_CACHE, frozenset(names))
        # Where Django's ModelBackend keeps them (its get_user_permissions and
        # get_group_permissions read these first).
        user._user_perm_cache = own_perms
        user._group_perm_cache = group_perms
    return getattr(user, GROUPS_CACHE)


def _read_groups_and_permissions(user) -> list[tuple[str | None, str | None, str | None]]:
    """(group name, app label, codename) for each permission of each of the user's groups (a
    group without one: its name and two Nones), then (None, app label, codename) for each
    permission given to the user directly."""
    with connections[router.db_for_read(get_user_model())].cursor() as cursor:
        cursor.execute(_groups_and_permissions_sql(), [user.pk, user.pk])
        return cursor.fetchall()


@cache
def _user_sql(User) -> str:
    return f"SELECT * FROM {quoted(User)} WHERE {quoted(User, User._meta.pk.name)} = %s"


@cache
def _groups_and_permissions_sql() -> str:
    """The statement of `_read_groups_and_permissions`, written once: the user's groups with
    their permissions (a group without one kept, by outer joins), then the user's own
    permissions, each permission with its content type's app label."""
    from django.contrib.contenttypes.models import ContentType

    User = get_user_model()
    groups = User._meta.get_field("groups")
    own = User._meta.get_field("user_permissions")
    Group, Permission = groups.related_model, own.related_model
    in_group = Group._meta.get_field("permissions")
    q = connections[router.db_for_read(User)].ops.quote_name
    member_of, given, granted = (q(field.m2m_db_table()) for field in (groups, own, in_group))
    names = f"{column(ContentType, 'app_label')}, {column(Permission, 'codename')}"
    typed = f"{column(Permission, 'content_type')} = {column(ContentType, 'id')}"
    return (  # names quoted by the database's own rules, the user's key a parameter
        f"SELECT {column(Group, 'name')}, {names} FROM {member_of} "
        f"INNER JOIN {quoted(Group)} "
        f"ON {member_of}.{q(groups.m2m_reverse_name())} = {column(Group, 'id')} "
        f"LEFT OUTER JOIN {granted} "
        f"ON {granted}.{q(in_group.m2m_column_name())} = {column(Group, 'id')} "
        f"LEFT OUTER JOIN {quoted(Permission)} "
        f"ON {granted}.{q(in_group.m2m_reverse_name())} = {column(Permission, 'id')} "
        f"LEFT OUTER JOIN {quoted(ContentType)} ON {typed} "
        f"WHERE {member_of}.{q(groups.m2m_column_name())} = %s "
        f"UNION ALL SELECT NULL, {names} FROM {given} "
        f"INNER JOIN {quoted(Permission)} "
        f"ON {given}.{q(own.m2m_reverse_name())} = {column(Permission, 'id')} "
        f"INNER JOIN {quoted(ContentType)} ON {typed} "
        f"WHERE {given}.{q(own.m2m_column_name())} = %s"
    )
