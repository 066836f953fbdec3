"""Table cards in the browser: the organiser makes and prints the club's cards (one per table, a
QR code and short link each), a player's phone opens a card, enters and accepts the result of
round 1, the organiser draws round 2, and the same phone, reloading, is at round 2's game of that
table. A card of a table with no game this round shows where everyone plays, with "Find your name".

Terms: *phone* is a 390 x 844 browser context with no login (tests/browser/test_table_link.py);
*cards page* /games/table-cards/. Screenshots and PDFs go to .artifacts/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services as game_services
from games.models import Game, ResultState
from tests.browser.conftest import keep_file
from tests.browser.test_csp import RECORD_VIOLATIONS
from tests.browser.test_table_link import (
    CM,
    assert_made_for_a_phone,
    enter_scores,
    phone,
    sides_of,
    thursday,
)
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def organiser_browser(browser, base: str, width: int):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("role")).to_have_text("organiser")
    return page


def card_path(page, number: int) -> str:
    text = page.get_by_test_id(f"table-card-{number}").get_by_test_id("card-link").inner_text()
    return re.search(r"/t/[a-z0-9]+/", text)[0]


def test_a_card_printed_once_opens_each_rounds_game(browser, live_server, screenshot):
    club, organiser, session, round_ = thursday(players=8)  # four tables of two
    desk = organiser_browser(browser, live_server.url, 1366)
    desk.goto(f"{live_server.url}/games/rounds/{round_.pk}/")
    desk.get_by_test_id("table-cards-link").click()
    expect(desk.get_by_role("heading", level=1)).to_have_text("Table cards")
    expect(desk.get_by_test_id("cards-missing")).to_contain_text("4 tables in a round")
    expect(desk.get_by_label("Cards for tables 1 to")).to_have_value("4")
    desk.get_by_role("button", name="Make the cards").click()
    expect(desk.get_by_role("status")).to_contain_text("Made the cards of tables 1 to 4")
    expect(desk.locator(".table-card svg.qr")).to_have_count(4)
    expect(desk.get_by_test_id("table-card-1")).to_contain_text("Thursday Peggers")
    assert desk.evaluate("window.__cspViolations") == []
    screenshot(desk, "table-cards-desktop")

    # Printed: two cards to a sheet, the number large, the code 6 cm; no menu, no buttons.
    desk.set_viewport_size({"width": round(186 * CM / 10), "height": round(273 * CM / 10)})
    desk.emulate_media(media="print")  # on an A4 sheet's page area, inside 12 mm margins
    screenshot(desk, "table-cards-print")
    expect(desk.get_by_role("button", name="Add cards")).to_be_hidden()
    sizes = desk.eval_on_selector_all(
        ".table-card__code svg", "els => els.map(e => e.getBoundingClientRect().width)"
    )
    assert min(sizes) >= 5.9 * CM
    number_pt = desk.eval_on_selector(
        ".table-card__number", "e => parseFloat(getComputedStyle(e).fontSize) * 72 / 96"
    )
    assert number_pt >= 90
    for paper in ("A4", "Letter"):
        margin = dict.fromkeys(("top", "right", "bottom", "left"), "12mm")
        pdf = desk.pdf(format=paper, print_background=True, margin=margin)
        keep_file(f"table-cards-{paper}.pdf", pdf)
        # Four cards, two to a sheet: two pages.
        pages = re.findall(rb"/Type\s*/Page[^s]", pdf)
        assert len(pages) == 2, paper
    desk.emulate_media(media="screen")
    desk.set_viewport_size({"width": 390, "height": 844})
    assert desk.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(desk, "table-cards-phone")
    desk.set_viewport_size({"width": 1366, "height": 900})
    path = card_path(desk, 1)

    # A player's phone scans table 1's card: round 1's game there.
    game = Game.objects.get(round=round_, table=1)
    (first, *_), (other, *_) = sides_of(game)[:2]
    mobile = phone(browser)
    mobile.goto(live_server.url + path)
    assert mobile.url == f"{live_server.url}/t/{game.table_token}/"
    expect(mobile.get_by_role("heading", level=1)).to_contain_text("Table 1")
    expect(mobile.get_by_role("heading", level=1)).to_contain_text("round 1")
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-card-opens-round-1-phone")
    enter_scores(mobile, game, first, [121, 97])
    mobile.get_by_role("button", name=f"Accept as {other}").click()
    expect(mobile.get_by_test_id("confirmed-by")).to_contain_text(f"{other} at the table")
    assert game.results.get().state == ResultState.CONFIRMED

    # The next round is drawn; the same phone reloads: round 2's game at table 1.
    round_2 = game_services.round_draw(session=session, actor=organiser, seed=16)
    game_2 = Game.objects.get(round=round_2, table=1)
    mobile.reload()
    assert mobile.url == f"{live_server.url}/t/{game_2.table_token}/"
    expect(mobile.get_by_role("heading", level=1)).to_contain_text("round 2")
    expect(mobile.get_by_text("Who is entering?")).to_be_visible()
    mobile.goto(live_server.url + path)  # the card itself, scanned again
    assert mobile.url == f"{live_server.url}/t/{game_2.table_token}/"
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-card-opens-round-2-phone")

    # The seating chart of round 2: "Scan the card on your table", no code of its own.
    desk.goto(f"{live_server.url}/games/rounds/{round_2.pk}/print/")
    expect(desk.get_by_test_id("scan-the-card")).to_contain_text("Scan the card on your table")
    expect(desk.locator(".seat-card svg.qr")).to_have_count(0)
    screenshot(desk, "seating-chart-with-cards-desktop")
    mobile.context.close()
    desk.context.close()


def test_a_card_of_a_table_with_no_game_shows_where_everyone_plays(
    browser, live_server, screenshot
):
    club, organiser, session, round_ = thursday(players=4)
    game_services.table_cards_make(club=club, actor=organiser, up_to=3)
    card = game_services.current_cards(club).get(number=3)
    mobile = phone(browser)
    response = mobile.goto(f"{live_server.url}/t/{card.token}/")
    assert response.status == 200
    expect(mobile.get_by_test_id("table-card-sentence")).to_contain_text(
        "Table 3 has no game in round 1."
    )
    expect(mobile.locator("[data-table]")).to_have_count(2)
    mobile.get_by_label("Find your name").fill("sam")
    expect(mobile.get_by_test_id("find-result")).to_have_text(re.compile(r"Found at table \d\."))
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-card-no-game-phone")
    mobile.context.close()
