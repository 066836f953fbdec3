"""A table's link in the browser: the organiser prints the seating chart with a QR code and short
link per table; a player's phone (a new browser, no login) opens its table's link, enters the
scores, a player of the other side accepts them on the same phone, and the game page then shows the
result confirmed. The same with table PINs on (a wrong PIN, then the right one), and a closed
round's link (its form refused, the link opened again at the next round's game). The chart prints
on Letter and A4 (13 and 40 players).

Terms: *phone* is a 390 x 844 browser context with no login; *chart* the round's printable seating
chart (/games/rounds/<pk>/print/). Screenshots and PDFs go to .artifacts/.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from club import services as club_services
from club.services import pins
from games import services as game_services
from games.models import Game, ResultState
from tests.browser.conftest import keep_file
from tests.browser.test_csp import RECORD_VIOLATIONS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Pat Cowley",
    "Sam Smith",
    "Bill Dawson",
    "Marge Ellery",
    "Frank Foley",
    "Gail Grant",
    "Hank Holt",
    "Irene Ives",
    "Jack Jennings",
    "Mae Morrison",
    "Quentin Newcomb",
    "Rosa Newly",
    "Bartholomew Featherstonehaugh",
]
CM = 96 / 2.54  # CSS pixels in a centimetre


def thursday(players: int = 13, **rules):
    """A club, its organiser (login "olive"), `players` players checked in, round 1 drawn."""
    club = ClubFactory(name="Thursday Peggers", slug="peggers", **rules)
    organiser = UserFactory(role="organisers", username="olive", first_name="Olive")
    PlayerFactory(club=club, user=organiser, display_name="Olive Ashdown", active=False)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date.today())
    names = NAMES + [f"Player {n:02d}" for n in range(len(NAMES), players)]
    for name in names[:players]:
        player = PlayerFactory(club=club, display_name=name)
        club_services.checkin_create(session=session, actor=organiser, player=player)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=15)
    return club, organiser, session, round_


def desktop(browser, base: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(RECORD_VIOLATIONS)  # the Content-Security-Policy's, read back below
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("role")).to_have_text("organiser")
    return page


def phone(browser):
    """A player's phone: a new browser with no login."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def print_chart(page, name: str, screenshot, names_pt: float = 16) -> None:
    """The chart as printed: a print-media screenshot and a PDF on Letter and on A4. Its names
    at least `names_pt` (smaller as a chart has more tables: tests/browser/test_print.py)."""
    page.emulate_media(media="print")
    expect(page.get_by_test_id("local-only")).to_be_hidden()
    screenshot(page, f"{name}-print")
    for paper in ("Letter", "A4"):
        # The margins a browser's print dialog gives by default (about 1 cm).
        margin = dict.fromkeys(("top", "right", "bottom", "left"), "12mm")
        pdf = page.pdf(format=paper, print_background=True, margin=margin)
        keep_file(f"{name}-{paper}.pdf", pdf)
        assert pdf.startswith(b"%PDF")
    # QR codes at least 3 cm and names readable from a wall, as printed.
    sizes = page.eval_on_selector_all(
        ".seat-card__code svg", "els => els.map(e => e.getBoundingClientRect().width)"
    )
    assert sizes and min(sizes) >= 3 * CM
    name_px = page.eval_on_selector(
        ".seat-card__players", "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert name_px >= names_pt * 96 / 72 - 0.01
    page.emulate_media(media="screen")


def assert_made_for_a_phone(page) -> None:
    """No sideways scroll at 390 px; every visible control 44 px tall or more; text 16 px+; no
    violation of the Content-Security-Policy."""
    assert page.evaluate("window.__cspViolations") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small_targets = page.evaluate(
        # A radio button's or tick box's target is its whole label (label.choice).
        """() => [...document.querySelectorAll(
              'main button, main input:not([type=hidden]):not([type=radio]):not(.choice > input),'
              + ' main label.choice,'
              + 'main summary, main a.button')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
            .filter(([, h]) => h < 44)"""
    )
    assert small_targets == []
    small_text = page.evaluate(
        """() => [...document.querySelectorAll('main *')]
            .filter(e => e.offsetParent !== null && [...e.childNodes].some(
                n => n.nodeType === 3 && n.textContent.trim()))
            .map(e => [e.tagName + ' ' + e.textContent.trim().slice(0, 40),
                       parseFloat(getComputedStyle(e).fontSize)])
            .filter(([, size]) => size < 16)"""
    )
    assert small_text == []


def table_path(chart_page, table: int) -> str:
    text = chart_page.get_by_test_id(f"seat-card-{table}").get_by_test_id("table-link").inner_text()
    return re.search(r"/t/[a-z0-9]+/", text)[0]


def sides_of(game: Game) -> list[list[str]]:
    sides: list[list[str]] = [[] for _ in range(game.side_count)]
    for seat in game.seats.select_related("player").order_by("position"):
        sides[seat.side].append(seat.player.display_name)
    return sides


def enter_scores(page, game: Game, who: str, scores: list[int]) -> None:
    page.get_by_role("radio", name=who, exact=True).check()
    for names, score in zip(sides_of(game), scores, strict=True):
        page.get_by_role("spinbutton", name=" & ".join(names)).fill(str(score))
    page.get_by_role("button", name="Save the scores").click()
    expect(page.get_by_role("status")).to_contain_text(f"Saved, entered by {who}.")


def test_a_table_enters_and_accepts_its_result_on_a_phone(browser, live_server, screenshot):
    club, organiser, session, round_ = thursday()
    game = Game.objects.get(round=round_, table=1)
    (first, *_), (other, *_) = sides_of(game)[:2]

    chart = desktop(browser, live_server.url)
    chart.goto(f"{live_server.url}/games/rounds/{round_.pk}/print/")
    expect(chart.locator(".seat-card svg.qr")).to_have_count(round_.games.count())
    # The live server answers on localhost: phones at the venue could not open it.
    expect(chart.get_by_test_id("local-only")).to_contain_text("Phones cannot open these links")
    assert chart.evaluate("window.__cspViolations") == []
    screenshot(chart, "seating-chart-13-desktop")
    print_chart(chart, "seating-chart-13", screenshot)
    path = table_path(chart, 1)
    assert path == f"/t/{game.table_token}/"

    mobile = phone(browser)
    mobile.goto(live_server.url + path)
    expect(mobile.get_by_role("heading", level=1)).to_contain_text("Table 1")
    expect(mobile.get_by_test_id("table-sides")).to_contain_text(first)
    expect(mobile.get_by_text("game to 121")).to_be_visible()
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-page-phone")

    scores = [121] + [97] * (game.side_count - 1)
    enter_scores(mobile, game, first, scores)
    expect(mobile.get_by_test_id("result-state")).to_have_text("Waiting for Accept")
    expect(mobile.get_by_role("button", name=f"Accept as {first}")).to_have_count(0)
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-page-draft-phone")

    mobile.get_by_role("button", name=f"Accept as {other}").click()
    expect(mobile.get_by_role("status")).to_contain_text(f"Accepted by {other}")
    expect(mobile.get_by_test_id("confirmed-by")).to_contain_text(f"{other} at the table")
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-page-confirmed-phone")

    # A claim from the same phone: hand, crib or his heels.
    mobile.locator("summary", has_text="File a claim").click()
    claim = mobile.get_by_test_id("table-claim-form")
    claim.get_by_role("radio", name=first, exact=True).check()
    claim.get_by_role("radio", name="Hand", exact=True).check()
    claim.get_by_label("The four cards").fill("5H 5C 5S JD")
    claim.get_by_label("The starter").fill("5D")
    claim.get_by_label("Points claimed").fill("28")
    claim.get_by_role("button", name="File the claim").click()
    expect(mobile.get_by_role("status")).to_contain_text("Claim filed.")
    expect(mobile.get_by_test_id("table-claims")).to_contain_text("the count is 29")
    mobile.locator("summary", has_text="Call a judge").click()
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-page-claim-phone")

    chart.goto(f"{live_server.url}/games/{game.pk}/")
    expect(chart.get_by_test_id("current-result")).to_contain_text("Confirmed")
    expect(chart.get_by_test_id("history")).to_contain_text(f"Entered by {first} at the table")
    expect(chart.get_by_test_id("history")).to_contain_text(f"confirmed by {other} at the table")
    assert game.results.get().state == ResultState.CONFIRMED
    chart.goto(f"{live_server.url}/club/audit/")
    expect(chart.get_by_text(f"At the table: {other}").first).to_be_visible()
    mobile.context.close()
    chart.context.close()


def test_with_table_pins_a_wrong_pin_then_the_right_one(browser, live_server, screenshot):
    club, organiser, session, round_ = thursday(players=4, table_pins=True)
    game = Game.objects.get(round=round_, table=1)
    (first, *_), (other, *_) = sides_of(game)[:2]
    accepter = game.seats.get(player__display_name=other).player
    pins.pin_set(player=accepter, actor=organiser, pin="2468")

    mobile = phone(browser)
    mobile.goto(f"{live_server.url}/t/{game.table_token}/")
    enter_scores(mobile, game, first, [121, 100])
    accept = mobile.get_by_test_id(f"accept-{accepter.pk}")
    pin = accept.get_by_label(f"{other}'s PIN")
    assert pin.get_attribute("inputmode") == "numeric"
    assert pin.get_attribute("autocomplete") == "off"
    pin.fill("1357")
    accept.get_by_role("button", name=f"Accept as {other}").click()
    expect(mobile.get_by_text(f"Wrong PIN for {other}: try again.")).to_be_visible()
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-page-wrong-pin-phone")

    accept = mobile.get_by_test_id(f"accept-{accepter.pk}")
    accept.get_by_label(f"{other}'s PIN").fill("2468")
    accept.get_by_role("button", name=f"Accept as {other}").click()
    expect(mobile.get_by_test_id("confirmed-by")).to_contain_text(f"{other} at the table")
    assert game.results.get().state == ResultState.CONFIRMED
    mobile.context.close()


def test_a_closed_rounds_link_refuses_its_form_and_reloads_to_the_next_round(
    browser, live_server, screenshot
):
    club, organiser, session, round_ = thursday(players=4)
    game = Game.objects.get(round=round_, table=1)
    mobile = phone(browser)
    mobile.goto(f"{live_server.url}/t/{game.table_token}/")
    expect(mobile.get_by_text("Who is entering?")).to_be_visible()
    round_2 = game_services.round_draw(session=session, actor=organiser, seed=16)

    # The phone still shows round 1's form: its scores are refused, nothing saved.
    enter = mobile.get_by_test_id("table-result")
    enter.get_by_role("radio").first.check()
    for box in enter.get_by_role("spinbutton").all():
        box.fill("100")
    response_text = "Round 1 is over (round 2 is drawn): this table's link no longer works."
    enter.get_by_role("button", name="Save the scores").click()  # the page's script posts it
    expect(mobile.get_by_test_id("table-closed")).to_contain_text(response_text)
    assert not game.results.exists()
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-page-closed-phone")

    # Not a dead end: the refusal leads on to the same table's game of round 2.
    mobile.get_by_role("link", name="Open table 1 in round 2").click()
    expect(mobile.get_by_role("heading", level=1)).to_contain_text("round 2")
    assert mobile.url == f"{live_server.url}/t/{round_2.games.get(table=1).table_token}/"

    # Opened again, the link goes to the same table's game of round 2.
    response = mobile.goto(f"{live_server.url}/t/{game.table_token}/")
    assert response.status == 200
    assert mobile.url == f"{live_server.url}/t/{round_2.games.get(table=1).table_token}/"
    expect(mobile.get_by_role("heading", level=1)).to_contain_text("round 2")
    mobile.context.close()


def test_the_chart_of_forty_players_prints(browser, live_server, screenshot):
    club, organiser, session, round_ = thursday(players=40)
    chart = desktop(browser, live_server.url)
    chart.goto(f"{live_server.url}/games/rounds/{round_.pk}/print/")
    expect(chart.locator(".seat-card svg.qr")).to_have_count(20)
    screenshot(chart, "seating-chart-40-desktop")
    print_chart(chart, "seating-chart-40", screenshot, names_pt=12)  # 20 tables, one sheet
    chart.context.close()
