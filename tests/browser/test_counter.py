"""The hand counter in a real browser on a phone: tap cards to pick them and the count appears
without a page reload; with JavaScript off the same page counts through a plain form."""

import re

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


def test_the_counter_with_a_keyboard_and_a_screen_reader(page, live_server):
    """The picker is one tab stop, the arrow keys move between cards, Enter and Space pick; every
    card has its name and pressed state; the total is announced in a status."""
    page.goto(f"{live_server.url}/scoring/counter/")
    picker = page.get_by_role("group", name="Cards")
    expect(picker.get_by_role("group", name="Hearts")).to_be_visible()
    five_of_hearts = picker.get_by_role("button", name="5 of hearts")
    expect(five_of_hearts).to_have_attribute("aria-pressed", "false")
    page.locator("#card-picker button").first.focus()
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "ace of spades"
    # Down to hearts, right to the five: pick it; the same for the fives of clubs... by keys.
    page.keyboard.press("ArrowDown")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(five_of_hearts).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowUp")
    page.keyboard.press(" ")  # 5 of spades
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # 5 of clubs
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")  # jack of diamonds
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # 5 of diamonds, the starter
    expect(page.get_by_role("status").filter(has_text="points")).to_have_text(
        re.compile(r"^29 points: .*double pair royal")
    )
    # One tab stop: Tab leaves the grid for the hand box.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "hand"
    tabbable = page.evaluate(
        "[...document.querySelectorAll('#card-picker button')].filter(b => b.tabIndex === 0).length"
    )
    assert tabbable == 1
