"""The ledger on the demo club as an organiser sees it: a page of 50 rows, newest first, the pots'
balances on top, a filter by player that adds the rows up, and the CSV of the filtered rows.
Screenshots at desktop and phone widths."""

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from money.models import LedgerEntry
from tests.browser.conftest import go_to, keep_shot
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_an_organiser_pages_filters_and_downloads_the_ledger(
    browser, live_server, screenshot, width
):
    load_demo()
    organiser = get_user_model().objects.get(username="organiser")
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill("pegboard-demo")
    page.get_by_role("button", name="Log in").click()

    go_to(page, "Ledger")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ledger")
    rows = page.get_by_test_id("ledger").locator("tbody tr")
    expect(rows.first).to_be_visible()
    total = LedgerEntry.objects.filter(club=organiser.players.get().club).count()
    assert total > 50 and rows.count() == 50
    expect(page.get_by_test_id("balance-main")).to_be_visible()
    # No sideways scrolling of the page itself on a phone: the table scrolls in its box.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"ledger-{width}")
    keep_shot(page, f"ledger-{width}-first-screen", full_page=False)  # what one sees
    page.get_by_test_id("ledger").scroll_into_view_if_needed()
    keep_shot(page, f"ledger-{width}-table-screen", full_page=False)

    player = page.get_by_label("Player")
    name = player.locator("option").nth(1).inner_text().strip()
    player.select_option(label=name)
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_test_id("filtered-total")).to_be_visible()
    players = page.get_by_test_id("ledger").locator("tbody tr td:nth-child(5)")
    assert set(players.all_inner_texts()) == {name}
    screenshot(page, f"ledger-{width}-filtered")

    with page.expect_download() as download_info:
        page.get_by_test_id("export-csv").click()
    exported = list(csv.reader(io.StringIO(download_info.value.path().read_text())))
    assert exported[0] == ["Session", "What", "Pot", "Amount", "Balance", "Player"]
    assert len(exported) > 1 and {row[5] for row in exported[1:]} == {name}
    context.close()
