"""The `clock` filter writes a time of day as `|time:"g:i A"` does, in the current time zone."""

import datetime as dt

import pytest
from django.template import Context, Template
from django.utils import timezone

BOTH = Template('{% load pegboard %}{{ t|clock }}|{{ t|time:"g:i A" }}')


@pytest.mark.parametrize("zone", ["UTC", "America/Toronto", "Australia/Adelaide"])
def test_every_minute_of_a_day_as_the_time_filter_writes_it(zone):
    start = dt.datetime(2026, 3, 7, 0, 0, tzinfo=dt.UTC)  # a weekend DST starts in Toronto
    with timezone.override(zone):
        for minutes in range(0, 2 * 24 * 60, 7):
            written = BOTH.render(Context({"t": start + dt.timedelta(minutes=minutes)}))
            ours, django = written.split("|")
            assert ours == django


def test_a_time_and_nothing():
    assert BOTH.render(Context({"t": dt.time(0, 5)})) == "12:05 AM|12:05 AM"
    assert BOTH.render(Context({"t": dt.time(12, 0)})) == "12:00 PM|12:00 PM"
    assert BOTH.render(Context({"t": None})) == "|"
