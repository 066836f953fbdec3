"""Upgrading draws each club's pages version anew (core.pages): a club that counted from 0, or
from where a restored file left it, may meet the cached copies of another database. Migrating
back draws numbers that fit the narrower column of before."""

import pytest
from django.core.management import call_command

from tests.factories import ClubFactory
from tests.migration_support import migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("club", "0028_session_kind")]
AFTER = [("club", "0029_pages_version_drawn_at_random")]


def test_each_clubs_pages_version_is_drawn_anew_and_drawn_small_going_back():
    ClubFactory(slug="first")
    ClubFactory(slug="second")
    try:
        old = migrate_to(BEFORE)
        clubs = old.get_model("club", "Club").objects
        assert all(0 <= v < 2**31 for v in clubs.values_list("pages_version", flat=True))
        clubs.update(pages_version=7)

        new = migrate_to(AFTER).get_model("club", "Club").objects
        versions = set(new.values_list("pages_version", flat=True))
        assert 7 not in versions and len(versions) == 2
    finally:
        call_command("migrate", verbosity=0)
