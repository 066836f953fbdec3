"""A logged-out visitor on the demo club: reads the season standings, opens a player, sees their
charts, and downloads the standings as CSV. Saves a screenshot of the player page."""

import csv
import io

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import go_to
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


def test_visitor_reads_standings_player_charts_and_csv(browser, live_server, screenshot):
    load_demo()
    context = browser.new_context(viewport={"width": 390, "height": 844}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url)
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()  # not logged in
    go_to(page, "Standings")
    table = page.get_by_test_id("season-standings")
    rows = table.locator("tbody tr")
    expect(rows.first).to_be_visible()
    assert rows.count() >= 8
    first_name = rows.first.locator("td").nth(1).inner_text().strip()

    with page.expect_download() as download_info:
        page.get_by_test_id("export-csv").click()
    exported = list(csv.reader(io.StringIO(download_info.value.path().read_text())))
    assert exported[0][:3] == ["Rank", "Player", "Sessions"]
    assert exported[1][1] == first_name
    assert len(exported) - 1 == rows.count()

    rows.first.get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(first_name)
    charts = page.get_by_test_id("charts").locator("svg.chart")
    expect(charts).to_have_count(2)
    expect(charts.first.locator("circle").first).to_be_visible()
    expect(page.get_by_test_id("head-to-head").locator("tbody tr").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "player-page-public-phone")
    context.close()
