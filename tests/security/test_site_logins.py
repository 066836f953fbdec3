"""No club page reaches a site administrator's login (docs/spec.md "People and what they do": an
organiser reaches only the logins made for the club's own players).

Terms: a *site login* is a staff or a superuser login with no player record, the kind a site
administrator makes with `createsuperuser` or in the admin. *Reached* means linked to a player,
given a one-time link, a role, a group, a permission, a password or a PIN lock-out. Every page of
the page table (tests/web/test_pages.py) is opened and posted to by an organiser of each club
(tests/security/test_site_logins_pages.py), and every form of the site
(tests/security/hostile_world.py's targets) is posted with the site logins' usernames in each of
its free-text fields: the site logins stay exactly as they were.
"""

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from club.models import LoginLink, Player
from tests.factories import UserFactory
from tests.security.hostile_world import TARGETS

pytestmark = pytest.mark.django_db

# Fields a page could read a username from.
NAME_FIELDS = ("login", "username", "user", "name", "display_name", "email")


def make_site_logins() -> list:
    return [
        UserFactory(username="site-root", is_staff=True, is_superuser=True),
        UserFactory(username="site-staff", is_staff=True),
    ]


@pytest.fixture
def site_logins():
    return make_site_logins()


def state(users) -> list[tuple]:
    """Everything of the site logins a club page could change."""
    rows = []
    for user in get_user_model().objects.filter(pk__in=[u.pk for u in users]).order_by("pk"):
        rows.append(
            (
                user.username,
                user.password,
                user.is_active,
                user.is_staff,
                user.is_superuser,
                sorted(user.groups.values_list("name", flat=True)),
                sorted(user.user_permissions.values_list("codename", flat=True)),
                Player.objects.filter(user=user).count(),
                LoginLink.objects.filter(user=user).count(),
            )
        )
    return rows


class _Rollback(Exception):
    pass


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_no_form_reaches_a_site_login_by_its_username(name, world, site_logins):
    """Each post is checked, then rolled back, so the next starts from the same world."""
    target = TARGETS[name](world)
    before = state(site_logins)
    posts = 0

    for valid in target.valid:
        for field_name in sorted(target.fields.text) or [None]:
            for login in site_logins:
                data = dict(valid)
                if field_name is not None:
                    data[field_name] = login.username
                try:
                    with transaction.atomic():
                        client = Client()
                        if target.user is not None:
                            client.force_login(target.user)
                        assert client.post(target.url, data).status_code < 500
                        assert state(site_logins) == before, (field_name, login.username)
                        posts += 1
                        raise _Rollback
                except _Rollback:
                    pass

    assert posts >= len(site_logins)
