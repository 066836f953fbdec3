"""club.selectors.visitors_club: the club anonymous visitors see, read in one plain query for the
visitors' cache, is the club `default_club` chooses, whatever the setting says."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Club
from club.selectors import default_club, visitors_club
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _same_as_default():
    chosen, read = default_club(), visitors_club()
    assert (read.pk, read.pages_version, read.standings_public) == (
        chosen.pk,
        chosen.pages_version,
        chosen.standings_public,
    )
    return read


@pytest.mark.parametrize("setting", ["", "the-named-one", "no-such-club"])
def test_the_visitors_club_is_the_default_club(settings, setting):
    first = ClubFactory(slug="first-made", standings_public=False)
    named = ClubFactory(slug="the-named-one")
    Club.pages_changed(named.pk)
    settings.PEGBOARD_DEFAULT_CLUB = setting

    read = _same_as_default()

    assert read.pk == (named.pk if setting == "the-named-one" else first.pk)
    assert read.pages_label == "club.club"


def test_a_site_with_no_club_has_no_visitors_club():
    assert visitors_club() is None


def test_the_visitors_club_is_one_query(settings):
    ClubFactory(slug="only")
    settings.PEGBOARD_DEFAULT_CLUB = "only"

    with CaptureQueriesContext(connection) as queries:
        visitors_club()

    assert len(queries) == 1
