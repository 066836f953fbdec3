"""The hand counter in a real browser on a phone: tap cards to pick them and the count appears
without a page reload; with JavaScript off the same page counts through a plain form."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_pick_cards_and_count_without_a_reload(page, live_server, screenshot):
    page.goto(f"{live_server.url}/scoring/counter/")
    page.evaluate("window.__sameDocument = true")
    for card in ("5H", "5C", "5S", "JD"):
        page.locator(f'button[data-card="{card}"]').click()
    expect(page.locator("#picker-hint")).to_have_text("Now tap the starter.")
    page.locator('button[data-card="5D"]').click()
    expect(page.get_by_test_id("count-total")).to_have_text("29")
    expect(page.get_by_test_id("count-spoken")).to_contain_text("double pair royal")
    expect(page.get_by_test_id("count-rarity")).to_contain_text("1 in 3,248,700")
    assert page.evaluate("window.__sameDocument") is True  # no full page load happened
    assert "starter=5D" in page.url  # the answer has its own address to share
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "counter-29-phone")

    # Take the jack back and pick the five of ... no: tick crib and type a flush instead.
    page.get_by_label("Hand:", exact=True).fill("2H 4H 6H 8H")
    page.get_by_label("Starter:", exact=True).fill("KS")
    page.get_by_role("button", name="Count").click()
    expect(page.get_by_test_id("count-spoken")).to_contain_text("flush")
    hand_total = int(page.get_by_test_id("count-total").inner_text())
    page.get_by_label("Count it as a crib").check()
    expect(page.get_by_test_id("count-total")).to_have_text(str(hand_total - 4))

    page.get_by_label("Hand:", exact=True).fill("2H 4H 6H 2H")
    page.get_by_role("button", name="Count").click()
    expect(page.get_by_test_id("count-errors")).to_contain_text("2H")


def test_counts_with_javascript_off(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/scoring/counter/")
    expect(page.locator("#card-picker")).to_be_hidden()  # the picker needs the script
    page.get_by_label("Hand:", exact=True).fill("9S 6H 5D 4C")
    page.get_by_label("Starter:", exact=True).fill("4H")
    page.get_by_role("button", name="Count").click()
    expect(page.get_by_test_id("count-result")).to_be_visible()
    assert "hand=9S" in page.url
    page.get_by_label("Hand:", exact=True).fill("9S 6H 5D ZZ")
    page.get_by_role("button", name="Count").click()
    expect(page.locator(".field--error")).to_contain_text("'ZZ' is not a card")
    context.close()
