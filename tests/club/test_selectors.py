"""club.selectors read per session: a session's check-ins know who is seated in a drawn round
of that session from that session's seats alone."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club import services as club_services
from club.selectors import session_checkins
from tests.builders import run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_seated_means_seated_in_this_session_and_reads_no_other_sessions_seats():
    club = ClubFactory()
    organiser, confirmer = UserFactory(role="organisers"), UserFactory(role="organisers")
    last_week = run_session(club, organiser, confirmer, players=4, date=dt.date(2026, 11, 19))
    veteran = last_week.checkins.first().player
    newcomer = PlayerFactory(club=club)
    today = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    club_services.checkins_create(session=today, actor=organiser, players=[veteran, newcomer])

    with CaptureQueriesContext(connection) as queries:
        seated = {c.player: c.seated for c in session_checkins(today)}

    assert seated == {veteran: False, newcomer: False}
    (sql,) = [q["sql"] for q in queries.captured_queries]
    # An EXISTS over this session's rounds, not a count over every seat the players ever had.
    assert "EXISTS" in sql and "COUNT(" not in sql.upper()
    assert {c.player: c.seated for c in session_checkins(last_week)}[veteran] is True
