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

from django.contrib.auth.backends import ModelBackend

MEMBER_CACHE = "_pegboard_player_id"


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
    """Django's model backend, with permissions only for members (see the module's terms)."""

    def _get_permissions(self, user_obj, obj, from_name):
        if not is_member(user_obj):
            return set()
        return super()._get_permissions(user_obj, obj, from_name)
