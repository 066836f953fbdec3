"""A round's paper scorecards typed in on one screen, and a visitor finding their table
(docs/spec.md "A Thursday, step by step", steps 3 and 4).

An organiser on a laptop types a whole round with the keyboard only: the screen opens on the
first score, Tab goes side by side and table by table, then to "The players signed these
scorecards" (Space ticks it) and the save button. One table is wrong the first time: its error
shows on its row, nothing is saved and the keyboard starts again at that table; put right, the
signed round is confirmed at once. A visitor on a phone finds a name on the public round page,
with JavaScript (the list filters as they type) and without (the server does the same).

Terms: *round* is round 1 of a session of the demo club with seven players checked in (two
2-player tables and a cut-throat one), the demo's "player" login among them.
"""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from club import services as club_services
from club.models import Club, Player
from games import services
from games.models import Game, Result, ResultState
from tests.browser.test_foundation import log_in
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def round_(transactional_db):
    load_demo(season=False)
    club = Club.objects.get()
    session = club_services.session_open(
        club=club, actor=None, date=timezone.localdate() + dt.timedelta(days=3)
    )
    # The demo's "player" login plays, with six others.
    player = Player.objects.get(club=club, user__username="player")
    others = Player.objects.filter(club=club, active=True).exclude(pk=player.pk)
    players = [player, *others.order_by("display_name")[:6]]
    club_services.checkins_create(session=session, actor=None, players=players)
    organiser = club.players.get(user__username="organiser").user
    return services.round_draw(session=session, actor=organiser, seed=11)


def card(round_) -> list[tuple[str, int]]:
    """Every score field in keyboard order with the score to type in it."""
    fields = []
    for game in Game.objects.filter(round=round_).order_by("table"):
        scores = [95, 121, 88] if game.side_count == 3 else [121, 100 - game.table]
        fields += [(f"table_{game.table}_side_{s}", score) for s, score in enumerate(scores)]
    return fields


def focused(page) -> str:
    return page.evaluate("document.activeElement.name || document.activeElement.textContent")


def test_an_organiser_types_a_round_of_signed_scorecards_with_the_keyboard(
    browser, live_server, round_, screenshot
):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_server.url, "organiser")
    page.goto(f"{live_server.url}/games/rounds/{round_.pk}/")
    page.get_by_test_id("type-scorecards").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scorecards, round 1")
    screenshot(page, "scorecards-empty-desktop")

    fields = card(round_)
    # Table 2's loser typed as 121 too: two winners.
    wrong = next(name for name, score in fields if name.startswith("table_2_") and score != 121)
    for name, score in fields:
        # The browser moves to an `autofocus` field at its first paint after the page loads,
        # not with the page's last element: waited for, as a person's eye would.
        expect(page.locator(f'[name="{name}"]')).to_be_focused()
        page.keyboard.type(str(121 if name == wrong else score))
        page.keyboard.press("Tab")
    assert focused(page) == "signed"
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    assert focused(page).strip() == "Save the scorecards"
    page.keyboard.press("Enter")

    row = page.get_by_test_id("scorecard-2")
    expect(row).to_contain_text("Only one side can reach 121")
    expect(page.get_by_test_id("scorecards-errors")).to_contain_text("Nothing was saved")
    assert not Result.objects.exists()
    # The keyboard starts again at the table in error.
    expect(page.locator(f'[name="{wrong}"]')).to_be_focused()
    expect(page.get_by_label("The players signed these scorecards")).to_be_checked()
    screenshot(page, "scorecards-error-desktop")

    page.keyboard.press("Control+A")
    page.keyboard.type(str(dict(fields)[wrong]))
    page.keyboard.press("Enter")  # submits the form from a score field

    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    expect(page.locator(".messages")).to_contain_text("3 results confirmed from signed scorecards")
    results = Result.objects.filter(game__round=round_)
    assert results.count() == 3
    assert set(results.values_list("state", flat=True)) == {ResultState.CONFIRMED}
    for game in Game.objects.filter(round=round_):
        expected = [score for name, score in fields if name.startswith(f"table_{game.table}_")]
        assert results.get(game=game).scores == expected
    screenshot(page, "scorecards-saved-round-desktop")
    context.close()


def test_the_scorecards_screen_fits_a_phone(page, live_server, round_, screenshot):
    log_in(page, live_server.url, "organiser")
    page.goto(f"{live_server.url}/games/rounds/{round_.pk}/scorecards/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Scorecards, round 1")
    name, score = card(round_)[0]
    page.locator(f"input[name={name}]").fill(str(score))
    page.get_by_role("button", name="Save the scorecards").click()
    expect(page.get_by_test_id("scorecard-1")).to_contain_text("write every side's final score")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "scorecards-error-phone")


def seated_name(round_) -> tuple[str, int]:
    game = Game.objects.filter(round=round_).order_by("-table").first()
    seat = game.seats.select_related("player").order_by("position").first()
    return seat.player.display_name, game.table


def test_a_visitor_finds_their_table_on_a_phone(page, live_server, round_, screenshot):
    name, table = seated_name(round_)
    page.goto(f"{live_server.url}/games/rounds/{round_.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    lines = page.locator("[data-find-list] > li")
    expect(lines).to_have_count(3)
    expect(page.get_by_text("Type in the scorecards")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "round-public-phone")

    box = page.get_by_label("Find your name")
    box.press_sequentially(name.split()[0][:4].lower())
    expect(page.locator("[data-find-list] > li:visible").first).to_contain_text(name.split()[0])
    box.fill(name.upper())
    expect(page.locator("[data-find-list] > li:visible")).to_have_count(1)
    expect(page.locator("li.table-line--found")).to_contain_text(f"Table {table}")
    expect(page.get_by_test_id("find-result")).to_have_text(f"Found at table {table}.")
    screenshot(page, "round-find-phone")
    box.fill("Nobody Here")
    expect(page.get_by_test_id("find-result")).to_have_text(
        "No player called “Nobody Here” in round 1."
    )
    expect(page.locator("[data-find-list] > li:visible")).to_have_count(3)
    box.fill("")
    expect(page.get_by_test_id("find-result")).to_have_text("")
    expect(page.locator("[data-find-list] > li:visible")).to_have_count(3)


def test_without_javascript_the_server_finds_the_name(browser, live_server, round_, screenshot):
    name, table = seated_name(round_)
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/games/rounds/{round_.pk}/")
    page.get_by_label("Find your name").fill(name)
    page.get_by_role("button", name="Find").click()
    expect(page.get_by_test_id("find-result")).to_have_text(f"Found at table {table}.")
    expect(page.locator("[data-find-list] > li:visible")).to_have_count(1)
    expect(page.locator("li.table-line--found")).to_contain_text(name)
    screenshot(page, "round-find-nojs-phone")
    page.get_by_label("Find your name").fill("Nobody Here")
    page.get_by_role("button", name="Find").click()
    expect(page.get_by_test_id("find-result")).to_have_text(
        "No player called “Nobody Here” in round 1."
    )
    expect(page.locator("[data-find-list] > li:visible")).to_have_count(3)
    page.get_by_role("link", name="Show every table").click()
    expect(page.get_by_test_id("find-result")).to_have_text("")
    context.close()


def test_the_round_page_on_a_laptop(browser, live_server, round_, screenshot):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server.url, "organiser")
    page.goto(f"{live_server.url}/club/sessions/{round_.session_id}/")
    link = page.get_by_test_id("type-scorecards-1")
    link.scroll_into_view_if_needed()
    screenshot(page, "session-rounds-desktop")
    link.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scorecards, round 1")
    page.goto(f"{live_server.url}/games/rounds/{round_.pk}/")
    expect(page.get_by_test_id("type-scorecards")).to_be_visible()
    screenshot(page, "round-organiser-desktop")
    context.close()


def test_a_player_sees_their_table_on_the_home_page(page, live_server, round_, screenshot):
    game = Game.objects.get(round=round_, seats__player__user__username="player")
    log_in(page, live_server.url, "player")
    page.goto(live_server.url)
    box = page.get_by_test_id("your-table")
    expect(box).to_contain_text(f"Round 1, table {game.table}, with ")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "home-your-table-phone")
    box.get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {game.table}")
