"""The authentication backend's new module path (club.backends) logs nobody out: a session logged
in under the old path (club.auth) before the upgrade is still logged in after `migrate`, and
migrating back gives it its old path again."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tests.migration_support import migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("club", "0022_pages_version")]
OLD = "club.auth.ClubBackend"


def stored_backend(client) -> str:
    return SessionStore(client.session.session_key).load()[BACKEND_SESSION_KEY]


def test_a_session_logged_in_before_the_rename_stays_logged_in(client):
    club = ClubFactory()
    user = UserFactory(role="players", club=club)
    client.force_login(user)
    try:
        migrate_to(BEFORE)
        # The way back gives it the old path: a session the site logged in before the upgrade.
        assert stored_backend(client) == OLD

        call_command("migrate", verbosity=0)

        assert stored_backend(client) == "club.backends.ClubBackend"
        page = client.get(reverse("club:account"))
        assert page.status_code == 200
        assert page.wsgi_request.user == user
    finally:
        call_command("migrate", verbosity=0)
