"""The live board in a real browser: opened on a 1920×1080 screen, it shows a result confirmed
through the services while it is open, without reloading the page, under the site's
Content-Security-Policy; while nothing changes its refreshes swap nothing; on a phone the parts
stack and a refresh keeps the scroll position. Screenshots: .artifacts/board-*.png."""

import time

import pytest
from playwright.sync_api import expect

from games import services as game_services
from tests.browser.conftest import keep_shot
from tests.browser.test_csp import RECORD_VIOLATIONS
from tests.web.test_board import Morning
from web.board import REFRESH_SECONDS

pytestmark = pytest.mark.django_db(transaction=True)

# Counts every change of what the board shows from now on (htmx's own classes on the polling
# element, htmx-request while a refresh is under way, are not what the board shows).
WATCH_MUTATIONS = """
window.__mutations = 0;
const watch = new MutationObserver((records) => { window.__mutations += records.length; });
for (const part of document.querySelectorAll(".board-part__body")) {
  watch.observe(part, {subtree: true, childList: true, characterData: true, attributes: true});
}
"""


def open_board(browser, live_server, session, viewport):
    """The board in a new browser context whose clock the test moves on (`refresh`)."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(RECORD_VIOLATIONS)
    context.clock.install()
    page = context.new_page()
    page.set_default_timeout(20_000)
    console, refreshes = [], []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on(
        "response",
        lambda response: (
            refreshes.append(response.status) if "/board/parts/" in response.url else 0
        ),
    )
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/board/")
    page.wait_for_load_state("load")
    page.evaluate("window.__sameDocument = true")
    return context, page, console, refreshes


def refresh(page, refreshes: list[int]) -> None:
    """The board's next refresh, now: the page's clock moves on by the refresh interval (instead
    of the test waiting it out), and the test waits for that refresh's answer."""
    start = len(refreshes)
    page.clock.run_for(REFRESH_SECONDS * 1000)
    deadline = time.monotonic() + 10
    while len(refreshes) == start:
        assert time.monotonic() < deadline, "no refresh came after the board's clock moved on"
        page.wait_for_timeout(50)


def test_a_result_confirmed_while_the_board_is_open_appears_without_a_reload(
    browser, live_server, club, screenshot
):
    morning = Morning(club, players=16)
    table = morning.games[1].table  # entered, waiting to be accepted
    context, page, console, refreshes = open_board(
        browser, live_server, morning.session, {"width": 1920, "height": 1080}
    )
    tables = page.get_by_test_id("board-tables")
    card = tables.locator(f'[data-table="{table}"]')
    expect(card).to_have_attribute("data-state", "entered")
    expect(page.get_by_role("heading", level=1)).to_contain_text(club.name)
    for title in ("This round", "Standings", "Latest results", "Highlights"):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    screenshot(page, "board-tv-1920")

    # Nothing changes for two refreshes: both answer 204 and nothing on the page is touched.
    page.evaluate(WATCH_MUTATIONS)
    page.wait_for_function("() => true")  # let the observer start
    start = len(refreshes)
    refresh(page, refreshes)
    refresh(page, refreshes)
    # Two at least: the page's clock also runs on by itself, as a TV's does.
    assert len(refreshes[start:]) >= 2 and set(refreshes[start:]) == {204}, refreshes
    assert page.evaluate("window.__mutations") == 0

    game_services.result_confirm(result=morning.draft, actor=morning.confirmer)
    refresh(page, refreshes)
    expect(card).to_have_attribute("data-state", "confirmed")
    expect(card).to_contain_text("121")
    results = page.get_by_test_id("board-results")
    expect(results.locator(".board-result").first).to_have_attribute("data-table", str(table))
    assert page.evaluate("window.__sameDocument") is True  # the same page, never reloaded
    assert 200 in refreshes
    screenshot(page, "board-tv-1920-after")

    # The TV's own view (no scrolling): everything fits the screen.
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 1080, f"the board is {height}px tall on a 1920×1080 screen"
    keep_shot(page, "board-tv-1920-screen", full_page=False)

    assert page.evaluate("window.__cspViolations") == []
    assert not [line for line in console if "Content Security Policy" in line], console
    assert not [line for line in console if line.startswith("error")], console
    context.close()


def test_a_big_morning_fits_a_tv_and_a_laptop(browser, live_server, club, screenshot):
    morning = Morning(club, players=40)
    for viewport, name in (
        ({"width": 1920, "height": 1080}, "board-tv-40-players"),
        ({"width": 1366, "height": 768}, "board-laptop-40-players"),
    ):
        context, page, console, _ = open_board(browser, live_server, morning.session, viewport)
        expect(page.get_by_test_id("board-standings").locator("tr[data-player]")).to_have_count(40)
        screenshot(page, name)
        if viewport["width"] == 1920:
            height = page.evaluate("document.documentElement.scrollHeight")
            assert height <= 1080, f"the board is {height}px tall on a 1920×1080 screen"
        assert page.evaluate("window.__cspViolations") == []
        context.close()


def test_on_a_phone_the_parts_stack_and_a_refresh_keeps_the_scroll(
    browser, live_server, club, screenshot
):
    morning = Morning(club, players=12)
    context, page, console, refreshes = open_board(
        browser, live_server, morning.session, {"width": 390, "height": 844}
    )
    screenshot(page, "board-phone-390")
    page.evaluate("window.scrollTo(0, 400)")  # down to the standings
    where = "document.getElementById('board-standings-title').getBoundingClientRect().top"
    before = page.evaluate(where)
    assert 0 < before < 844
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll

    game_services.result_confirm(result=morning.draft, actor=morning.confirmer)
    card = page.get_by_test_id("board-tables").locator(f'[data-table="{morning.games[1].table}"]')
    refresh(page, refreshes)
    expect(card).to_have_attribute("data-state", "confirmed")
    # The view stays where it was, give or take the few pixels the round's line above moves by
    # when its legend goes (no table waits any more): never back to the top.
    assert abs(page.evaluate(where) - before) <= 4
    assert abs(page.evaluate("window.scrollY") - 400) < 20
    assert page.evaluate("window.__sameDocument") is True
    assert page.evaluate("window.__cspViolations") == []
    context.close()


def test_the_board_with_a_keyboard_and_a_screen_reader(browser, live_server, club):
    """Each part of the board is a region named by its heading, read out when it changes (aria-live
    polite); the keyboard reaches the session link with a visible focus ring, and a refresh leaves
    focus where it was."""
    morning = Morning(club, players=12)
    context, page, console, refreshes = open_board(
        browser, live_server, morning.session, {"width": 390, "height": 844}
    )
    regions = page.get_by_role("region")
    names = [regions.nth(n).get_attribute("aria-labelledby") for n in range(regions.count())]
    for name in ("board-tables-title", "board-standings-title"):
        assert name in names
        region = page.locator(f'[aria-labelledby="{name}"]')
        expect(region.get_by_role("heading", level=2)).to_be_visible()
        assert region.locator(".board-part__body").get_attribute("aria-live") == "polite"
    page.keyboard.press("Tab")
    link = page.get_by_role("link", name="Session page")
    expect(link).to_be_focused()
    assert link.evaluate("a => getComputedStyle(a).outlineStyle") != "none"

    game_services.result_confirm(result=morning.draft, actor=morning.confirmer)
    card = page.get_by_test_id("board-tables").locator(f'[data-table="{morning.games[1].table}"]')
    refresh(page, refreshes)
    expect(card).to_have_attribute("data-state", "confirmed")
    expect(link).to_be_focused()
    context.close()
