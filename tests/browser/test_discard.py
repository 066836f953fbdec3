"""The discard advisor in a real browser on a phone: tap the dealt cards and every lay-away appears
without a page reload, at an address to share; the crib's owner and the players re-ask; with
JavaScript off the same page answers through a plain form."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

DEALT = ("5H", "5C", "JD", "6S", "4C", "KH")


def test_tap_six_cards_and_the_advice_appears_without_a_reload(page, live_server, screenshot):
    page.goto(f"{live_server.url}/scoring/discard/")
    page.evaluate("window.__sameDocument = true")
    for card in DEALT[:5]:
        page.locator(f'button[data-card="{card}"]').click()
    expect(page.locator("#picker-hint")).to_have_text("Tap 1 more card you were dealt.")
    expect(page.get_by_test_id("discard-row")).to_have_count(0)
    page.locator('button[data-card="KH"]').click()
    expect(page.get_by_test_id("discard-row")).to_have_count(15)
    best = page.get_by_test_id("discard-best")
    expect(best).to_contain_text("Lay away J♦ K♥")
    expect(page.locator("#discard-announce")).to_contain_text("Lay away J♦ K♥ net +19.93")
    expect(page.get_by_test_id("discard-reason").first).to_contain_text(
        "in your own crib is worth 4.0 on average"
    )
    assert page.evaluate("window.__sameDocument") is True  # no full page load happened
    assert "cards=5H+5C+JD+6S+4C+KH" in page.url  # an address to share
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "discard-phone")

    # An opponent's crib: the same cards asked again, the crib now counts against.
    page.get_by_label("An opponent's").check()
    expect(page.get_by_test_id("discard-reason").first).to_contain_text("gives an opponent's crib")
    assert "whose=theirs" in page.url

    # A seventh card is refused; three players need five: take one back and it answers.
    page.locator('button[data-card="2S"]').click()
    expect(page.locator("#picker-hint")).to_contain_text("That is 6 cards")
    page.get_by_label("Players").select_option("3")
    expect(page.locator("#picker-hint")).to_contain_text("Tap a picked card")
    page.locator('button[data-card="KH"]').click()
    expect(page.get_by_test_id("discard-row")).to_have_count(5)

    # The shared address opens the same answer.
    shared = page.url
    other = page.context.new_page()
    other.goto(shared)
    expect(other.get_by_test_id("discard-row")).to_have_count(5)
    other.close()

    page.get_by_label("Dealt hand").fill("5H 5C JD 6S ZZ")
    page.get_by_role("button", name="Advise").click()
    expect(page.get_by_test_id("discard-errors")).to_contain_text("'ZZ' is not a card")


def test_advises_with_javascript_off(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/scoring/discard/")
    expect(page.locator("#card-picker")).to_be_hidden()  # the grid needs the script
    page.get_by_label("Dealt hand").fill(" ".join(DEALT))
    page.get_by_label("An opponent's").check()
    page.get_by_role("button", name="Advise").click()
    expect(page.get_by_test_id("discard-row")).to_have_count(15)
    assert "whose=theirs" in page.url
    page.get_by_label("Dealt hand").fill("5H 5C JD")
    page.get_by_role("button", name="Advise").click()
    expect(page.locator(".field--error")).to_contain_text("not 3")
    context.close()
