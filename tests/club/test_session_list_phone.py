"""The sessions list on a phone: a date's weekday, day and month are joined by no-break spaces,
so only the year may wrap, never the date over four lines."""

import datetime as dt

import pytest
from django.urls import reverse

from tests.factories import SessionFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_sessions_date_wraps_only_before_its_year(client, club):
    SessionFactory(club=club, date=dt.date(2026, 11, 19))
    client.force_login(UserFactory(role="players", club=club))
    html = client.get(reverse("club:sessions")).content.decode()
    assert "Thu\u00a019\u00a0Nov 2026</a>" in html
