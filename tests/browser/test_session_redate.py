"""An organiser moves a session nobody has played in to another date, then deletes another one,
in the browser, so a mistyped year never stays for good."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from club import services
from club.models import Club, Session
from tests.browser.test_foundation import log_in
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(transactional_db):
    load_demo(season=False)


def test_a_mistyped_date_is_refused_and_an_unplayed_session_moves(
    page, live_server, demo, screenshot
):
    club = Club.objects.get()
    today = timezone.localdate()
    session = services.session_open(club=club, actor=None, date=today + dt.timedelta(days=3))
    log_in(page, live_server.url, "organiser")
    expect(page.get_by_test_id("role")).to_have_text("organiser")

    page.goto(f"{live_server.url}/club/sessions/{session.pk}/")
    page.get_by_role("link", name="Change the date or delete").click()
    page.get_by_label("New date").fill("9999-12-31")
    page.get_by_role("button", name="Move the session").click()
    expect(page.locator(".field--error")).to_contain_text("at most a year ahead")
    screenshot(page, "session-redate-error-phone")

    moved = today + dt.timedelta(days=10)
    page.get_by_label("New date").fill(moved.isoformat())
    page.get_by_role("button", name="Move the session").click()
    expect(page.get_by_role("status")).to_contain_text("The session is now on")
    session.refresh_from_db()
    assert session.date == moved

    page.goto(f"{live_server.url}/club/sessions/{session.pk}/date/")
    page.get_by_role("button", name="Delete this session").click()
    expect(page.get_by_role("status")).to_contain_text("is deleted")
    assert not Session.objects.filter(pk=session.pk).exists()
