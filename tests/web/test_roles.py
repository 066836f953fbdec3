"""Roles are groups synced after every migrate from the permissions each app declares, as
docs/spec.md's role table implies; an organiser may do everything a judge or a player may."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission

from club.backends import member_player_id
from scoring.services import JUDGE_PERMISSION
from tests.factories import ClubFactory, UserFactory
from web.role_groups import role_permissions, user_role

pytestmark = pytest.mark.django_db


def permissions_of(group_name: str) -> set[str]:
    group = Group.objects.get(name=group_name)
    return {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}


def test_migrate_made_the_three_groups_with_exactly_their_permissions():
    assert set(Group.objects.values_list("name", flat=True)) >= {"organisers", "judges", "players"}
    for group_name, perms in role_permissions().items():
        assert permissions_of(group_name) == set(perms)


def test_roles_nest_organiser_over_judge_over_player():
    assert permissions_of("players") < permissions_of("judges") < permissions_of("organisers")


@pytest.mark.parametrize(
    ("perm", "player", "judge", "organiser"),
    [
        ("club.view_player", True, True, True),
        ("core.view_auditentry", False, True, True),
        ("club.change_club", False, False, True),  # edit house rules
        ("club.add_player", False, False, True),  # check in a new player
        ("club.delete_auditentry", False, False, False),  # nobody deletes the audit trail
        ("club.change_auditentry", False, False, False),
    ],
)
def test_role_permissions(perm, player, judge, organiser):
    for group, expected in (("players", player), ("judges", judge), ("organisers", organiser)):
        member = UserFactory(role=group, club=ClubFactory())
        assert member.has_perm(perm) is expected, (group, perm)


def test_header_role_is_the_highest_group():
    club = ClubFactory()
    assert user_role(UserFactory(role="players", club=club)) == "player"
    both = UserFactory(role="players", club=club)
    both.groups.add(Group.objects.get(name="organisers"))
    assert user_role(both) == "organiser"
    assert user_role(UserFactory()) == ""


def test_a_login_with_no_player_record_has_no_role_anywhere():
    """Roles are per club (docs/spec.md "People and what they do"): the organisers group
    alone, with no player record, gives no permission and no role in the header."""
    loose = UserFactory(role="organisers")
    assert user_role(loose) == ""
    assert not loose.has_perm("club.change_club")
    assert loose.get_all_permissions() == set()


def test_a_members_permissions_and_role_are_read_in_one_query_as_djangos_backend_gives_them(
    django_assert_num_queries,
):
    """Groups with and without permissions, and a permission given to the login itself: the
    club's backend answers what Django's own does, in one statement for the page's asking."""
    member = UserFactory(role="judges", club=ClubFactory())
    member.groups.add(Group.objects.create(name="scorers"))  # a group with no permission
    member.user_permissions.add(Permission.objects.get(codename="add_club"))
    django = ModelBackend()
    expected = (
        django.get_user_permissions(member),
        django.get_group_permissions(member),
        django.get_all_permissions(member),
    )
    assert "club.add_club" in expected[0] and JUDGE_PERMISSION in expected[1]

    fresh = get_user_model().objects.get(pk=member.pk)
    assert member_player_id(fresh) is not None  # read first, as the request's club lookup does
    with django_assert_num_queries(1):
        assert user_role(fresh) == "judge"
        assert fresh.get_user_permissions() == expected[0]
        assert fresh.get_group_permissions() == expected[1]
        assert fresh.get_all_permissions() == expected[2]
        assert fresh.has_perm("club.add_club") and not fresh.has_perm("club.change_club")
