"""A tournament's payout sheet in the browser (money's settle preview, the prize fund of
tournaments/prize_fund.py): the pot, what the club keeps and the fund, the qualifiers' prizes
adding up to the fund, on a laptop (1366 pixels) and on a phone (390) without scrolling sideways.
Screenshots: .artifacts/prize-1366.png and prize-390.png.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.factories import PASSWORD, ClubFactory, UserFactory
from tests.tournaments.test_prize_fund import FUND_STEP, finished_tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [1366, 390])
def test_the_prize_sheet_shows_the_fund_and_what_the_club_keeps(
    browser, live_server, screenshot, width
):
    club = ClubFactory(name="Riverside Cribbage", slug="riverside")
    organiser = UserFactory(username="olive", role="organisers", club=club)
    confirmer = UserFactory(role="organisers", club=club)
    tournament = finished_tournament(club, organiser, confirmer)
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_server.url, "olive", PASSWORD)

    page.goto(live_server.url + reverse("money:settle_preview", args=[tournament.session_id]))

    expect(page.get_by_test_id("pot")).to_have_text("$740.00")
    expect(page.get_by_test_id("kept")).to_have_text("$74.00")
    expect(page.get_by_test_id("fund")).to_have_text("$666.00")
    expect(page.get_by_test_id("payout-total")).to_have_text("$666.00")
    expect(page.get_by_test_id("cash-kept")).to_have_text("$74.00")
    expect(page.get_by_test_id("steps").locator("li").first).to_have_text(FUND_STEP)
    expect(page.get_by_test_id("payouts").locator("tbody tr")).to_have_count(10)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"prize-{width}")
    context.close()
