"""The demo club in a real browser: a visitor reads the home page on a phone, an organiser logs
in, sees their role, fixes a bad house rule and finds the change in the audit log."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import go_to
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(transactional_db):
    load_demo(season=False)


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pegboard-demo")
    page.get_by_role("button", name="Log in").click()


def test_visitor_sees_the_club_on_a_phone(page, live_server, demo, screenshot):
    page.goto(live_server.url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursday Peggers")
    expect(page.get_by_test_id("next-session")).to_contain_text("9:30")
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()
    # Nothing wider than the phone: no sideways scrolling of the page itself.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    stylesheet = page.evaluate(
        "[...document.styleSheets].map(s => s.href).filter(Boolean).join(' ')"
    )
    assert stylesheet.startswith(live_server.url)  # served locally, no CDN
    screenshot(page, "home-public-phone")


def test_organiser_logs_in_fixes_a_rule_and_finds_it_audited(page, live_server, demo, screenshot):
    log_in(page, live_server.url, "organiser")
    expect(page.get_by_test_id("role")).to_have_text("organiser")
    page.get_by_role("link", name="Edit the house rules").click()

    page.get_by_label("Entry fee (cents)").fill("-5")
    page.get_by_role("button", name="Save house rules").click()
    expect(page.locator(".field--error")).to_contain_text("Entry fee")

    page.get_by_label("Entry fee (cents)").fill("30")
    page.get_by_role("button", name="Save house rules").click()
    expect(page.get_by_role("status")).to_contain_text("House rules saved.")
    expect(page.get_by_test_id("house-rules")).to_contain_text("30¢")

    go_to(page, "Audit log")
    expect(page.locator("table")).to_contain_text("House rules changed")
    # Who: the organiser's player, not the login's username; money as money.
    expect(page.locator("table")).to_contain_text("Olive Ashdown")
    expect(page.locator("table")).to_contain_text("entry fee: 25¢ → 30¢")
    screenshot(page, "audit-organiser-phone")


def test_pages_print_without_navigation(page, live_server, demo):
    log_in(page, live_server.url, "judge")
    expect(page.get_by_test_id("role")).to_have_text("judge")
    page.emulate_media(media="print")
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    expect(page.get_by_test_id("user-box")).to_be_hidden()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Thursday Peggers"))
