"""Cards by tap on the claim forms, on a 390-pixel phone: the table page's "File a claim" and the
game page's claim form share the card grid of the hand counter (static/js/claim-cards.js). Taps
fill the typed fields (four cards, then the starter; his heels: the starter alone), typed cards
show on the grid, and once the hand and the starter are whole the hand counter's own count shows
beside "Points claimed". What is filed is the points typed: the count announced at the table (an
under-claim stays open to muggins, hoyle.txt "Muggins"). Without JavaScript the grid stays
hidden."""

import datetime as dt

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club import services as club_services
from games import services as game_services
from scoring.models import Claim
from tests.browser.conftest import log_in
from tests.browser.test_csp import RECORD_VIOLATIONS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def shoot(page, screenshot, name: str) -> None:
    """The page's screenshot into .artifacts/."""
    screenshot(page, f"claim-cards-{name}")


@pytest.fixture
def game(transactional_db):
    organiser = UserFactory(role="organisers", username="olive")
    club = ClubFactory()
    PlayerFactory(club=club, user=organiser, display_name="Olive Ashdown")
    session = club_services.session_open(club=club, actor=organiser, date=dt.date.today())
    players = [PlayerFactory(club=club, display_name=name) for name in ("Ann Able", "Bob Baker")]
    club_services.checkins_create(session=session, actor=organiser, players=players)
    return game_services.round_draw(session=session, actor=organiser, seed=3).games.get()


def open_page(browser, *, width=390, javascript=True):
    context = browser.new_context(
        viewport={"width": width, "height": 844},
        is_mobile=width < 500,
        java_script_enabled=javascript,
    )
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def tap(scope, *cards):
    for card in cards:
        scope.locator(f'button[data-card="{card}"]').click()


def assert_fits_a_phone(page, picker):
    """No sideways scrolling; every card at least 44 x 44 px, a finger's tap."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    sizes = picker.locator("button[data-card]").evaluate_all(
        "buttons => buttons.map(b => { const r = b.getBoundingClientRect();"
        " return [r.width, r.height]; })"
    )
    assert len(sizes) == 52
    assert min(w for w, _ in sizes) >= 44, sizes
    assert min(h for _, h in sizes) >= 44, sizes


def test_a_hand_claim_at_the_table_by_tapping_five_cards(browser, live_server, game, screenshot):
    page = open_page(browser)
    page.goto(live_server.url + reverse("table:page", args=[game.table_token]))
    page.locator("summary", has_text="File a claim").click()
    form = page.get_by_test_id("table-claim-form")
    picker = form.get_by_role("group", name="Cards")
    expect(picker).to_be_visible()
    form.get_by_role("radio", name="Ann Able", exact=True).check()
    form.get_by_role("radio", name="Hand", exact=True).check()
    tap(form, "7H", "7C", "8S", "8D")
    expect(page.locator("#claim-picker-hint")).to_have_text("Now tap the starter.")
    expect(form.get_by_test_id("claim-count")).to_be_hidden()  # not before the starter
    tap(form, "5D")
    expect(form.get_by_label("The four cards")).to_have_value("7H 7C 8S 8D")
    expect(form.get_by_label("The starter")).to_have_value("5D")
    count = form.get_by_test_id("claim-count")
    expect(count).to_contain_text("These cards count 12")
    expect(count).to_contain_text("two pairs")
    expect(count).to_contain_text("Claim the points you announced")
    expect(picker.get_by_role("button", name="5 of diamonds")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert_fits_a_phone(page, picker)
    assert page.evaluate("window.__cspViolations") == []
    shoot(page, screenshot, "table-phone")

    # Announced 10, not 12: the claim records the 10 (the 2 left are open to muggins).
    form.get_by_label("Points claimed").fill("10")
    form.get_by_role("button", name="File the claim").click()
    expect(page.get_by_test_id("table-claims")).to_contain_text("the count is 12")
    claim = Claim.objects.get()
    assert (claim.kind, claim.claimed_points, claim.true_points) == ("hand", 10, 12)
    assert claim.card_list() == ["7H", "7C", "8S", "8D", "5D"]
    page.context.close()


def test_a_crib_claim_on_the_game_page_by_tapping_and_typing(
    browser, live_server, game, screenshot
):
    page = open_page(browser)
    log_in(page, live_server.url, "olive", PASSWORD)
    page.goto(live_server.url + reverse("scoring:claim_new", args=[game.pk]))
    page.get_by_label("What was counted").select_option("crib")
    page.get_by_label("Claimed by").select_option(label="Bob Baker")
    picker = page.get_by_role("group", name="Cards")
    expect(page.locator("#claim-picker-hint")).to_have_text("Tap 4 more for the crib.")
    tap(page, "5H", "6H", "7H", "9H")
    tap(page, "KS")
    # No four-flush in the crib (hoyle.txt "Flush"): 7, where a hand would count 11.
    count = page.get_by_test_id("claim-count")
    expect(count).to_contain_text("These cards count 7")
    # Type a heart starter instead: the grid follows the typed cards; a flush of 5 counts.
    page.get_by_label("Starter").fill("KH")
    expect(picker.get_by_role("button", name="king of spades")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(picker.get_by_role("button", name="king of hearts")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(count).to_contain_text("These cards count 12")
    expect(count).to_contain_text("a flush of 5")
    page.get_by_label("Hand or crib").fill("5H 6H 7H 9C")
    expect(picker.get_by_role("button", name="9 of hearts")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(picker.get_by_role("button", name="9 of clubs")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(count).to_contain_text("These cards count 7")
    page.get_by_label("Hand or crib").fill("5H 6H 7H")
    expect(count).to_be_hidden()  # three cards: no count
    tap(page, "9H")
    expect(page.get_by_label("Hand or crib")).to_have_value("5H 6H 7H 9H")
    expect(count).to_contain_text("These cards count 12")
    assert_fits_a_phone(page, picker)
    assert page.evaluate("window.__cspViolations") == []
    shoot(page, screenshot, "game-phone")

    page.get_by_label("Points claimed").fill("12")
    page.get_by_role("button", name="File the claim").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Claim")
    claim = Claim.objects.get()
    assert (claim.kind, claim.claimed_points, claim.true_points) == ("crib", 12, 12)
    assert claim.card_list() == ["5H", "6H", "7H", "9H", "KH"]
    page.context.close()


def test_tapped_cards_are_kept_on_the_phone_like_typed_ones(browser, live_server, game):
    """The table page keeps what is typed in its forms across a reload (table-offline.js): taps
    count as typing, and the grid shows the cards put back, with their count."""
    page = open_page(browser)
    page.goto(live_server.url + reverse("table:page", args=[game.table_token]))
    page.locator("summary", has_text="File a claim").click()
    form = page.get_by_test_id("table-claim-form")
    form.get_by_role("radio", name="Crib", exact=True).check()
    tap(form, "5H", "6H", "7H", "9H", "KH")
    expect(form.get_by_test_id("claim-count")).to_contain_text("These cards count 12")
    page.reload()
    form = page.get_by_test_id("table-claim-form")
    expect(form.get_by_label("The four cards")).to_have_value("5H 6H 7H 9H")
    expect(form.get_by_label("The starter")).to_have_value("KH")
    expect(form.get_by_role("button", name="king of hearts")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(form.get_by_test_id("claim-count")).to_contain_text("These cards count 12")
    page.context.close()


def test_his_heels_by_tapping_the_starter(browser, live_server, game):
    page = open_page(browser)
    page.goto(live_server.url + reverse("table:page", args=[game.table_token]))
    page.locator("summary", has_text="File a claim").click()
    form = page.get_by_test_id("table-claim-form")
    form.get_by_role("radio", name="Bob Baker", exact=True).check()
    form.get_by_role("radio", name="His heels", exact=True).check()
    expect(page.locator("#claim-picker-hint")).to_have_text(
        "Tap the starter (a jack scores his heels)."
    )
    tap(form, "JC")
    expect(form.get_by_label("The starter")).to_have_value("JC")
    expect(form.get_by_label("The four cards")).to_have_value("")
    tap(form, "JD")  # another tap replaces the starter: his heels has one card
    expect(form.get_by_label("The starter")).to_have_value("JD")
    expect(form.get_by_role("button", name="jack of clubs")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(form.get_by_test_id("claim-count")).to_be_hidden()
    form.get_by_label("Points claimed").fill("2")
    form.get_by_role("button", name="File the claim").click()
    expect(page.get_by_test_id("table-claims")).to_contain_text("the count is 2")
    claim = Claim.objects.get()
    assert (claim.kind, claim.claimed_points, claim.card_list()) == ("heels", 2, ["JD"])
    page.context.close()


def test_a_claim_in_the_play_keeps_its_typed_rows(browser, live_server, game):
    page = open_page(browser)
    log_in(page, live_server.url, "olive", PASSWORD)
    page.goto(live_server.url + reverse("scoring:claim_new", args=[game.pk]))
    page.get_by_label("What was counted").select_option("play")
    expect(page.locator("#claim-card-picker")).to_be_hidden()
    page.get_by_label("What was counted").select_option("hand")
    expect(page.locator("#claim-card-picker")).to_be_visible()
    page.context.close()


def test_the_grid_with_a_keyboard(browser, live_server, game):
    """One tab stop, arrows between cards, Enter picks: as on the hand counter."""
    page = open_page(browser)
    page.goto(live_server.url + reverse("table:page", args=[game.table_token]))
    page.locator("summary", has_text="File a claim").click()
    form = page.get_by_test_id("table-claim-form")
    form.get_by_role("radio", name="Hand", exact=True).focus()
    page.keyboard.press("Tab")  # from the kind to the grid: one stop
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "ace of spades"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(form.get_by_label("The four cards")).to_have_value("2H")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "hand"
    tabbable = page.evaluate(
        "[...document.querySelectorAll('#claim-card-picker button')]"
        ".filter(b => b.tabIndex === 0).length"
    )
    assert tabbable == 1
    page.context.close()


def test_without_javascript_the_typed_fields_file_the_claim(browser, live_server, game):
    page = open_page(browser, javascript=False)
    page.goto(live_server.url + reverse("table:page", args=[game.table_token]))
    page.locator("summary", has_text="File a claim").click()
    form = page.get_by_test_id("table-claim-form")
    expect(page.locator("#claim-card-picker")).to_be_hidden()
    expect(form.get_by_test_id("claim-count")).to_be_hidden()
    form.get_by_role("radio", name="Ann Able", exact=True).check()
    form.get_by_role("radio", name="Hand", exact=True).check()
    form.get_by_label("The four cards").fill("5H 5C 5S JD")
    form.get_by_label("The starter").fill("5D")
    form.get_by_label("Points claimed").fill("29")
    form.get_by_role("button", name="File the claim").click()
    expect(page.get_by_test_id("table-claims")).to_contain_text("the count is 29")
    page.context.close()


def test_the_claim_forms_at_a_desktops_width(browser, live_server, game, screenshot):
    page = open_page(browser, width=1366)
    page.goto(live_server.url + reverse("table:page", args=[game.table_token]))
    page.locator("summary", has_text="File a claim").click()
    form = page.get_by_test_id("table-claim-form")
    tap(form, "5H", "5C", "5S", "JD", "5D")
    expect(form.get_by_test_id("claim-count")).to_contain_text("These cards count 29")
    shoot(page, screenshot, "table-desktop")
    log_in(page, live_server.url, "olive", PASSWORD)
    page.goto(live_server.url + reverse("scoring:claim_new", args=[game.pk]))
    tap(page, "5H", "5C", "5S", "JD", "5D")
    expect(page.get_by_test_id("claim-count")).to_contain_text("These cards count 29")
    shoot(page, screenshot, "game-desktop")
    page.context.close()
