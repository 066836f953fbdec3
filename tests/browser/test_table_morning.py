"""A morning at the tables with cards printed once: eight players, four tables of two, three rounds,
the club asks for table PINs. The organiser makes and prints the four table cards before round 1;
each table's phone (390 px, no login) scans its card once and keeps the page open all morning:
reloading it after each draw shows that table's game of the new round, the game its card then
opens too. At the tables: a 29 is filed by tapping its cards and its cards are confirmed by the
other side with a PIN (jackpots only from confirmed cards); muggins is called on an under-claim
with a PIN (ACC rule 10.4a: the caller takes the lesser of N and the points overlooked); one
table's phone loses the network while its scores are entered, says they are not sent yet, and
sends them once when it is back.
The hand 5H 5C 5S JD with the 5D turned counts 29 (hoyle.txt "Showing").

Terms: *phone* is a 390 x 844 browser context with no login (tests/browser/test_table_link.py);
*cut* and *restore* take a phone off the network and back (tests/browser/test_table_offline.py);
screenshots go to .artifacts/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from club.services import pins
from games import services as game_services
from games.models import Game, Result, ResultState
from money.selectors import accepted_hands
from scoring.models import Claim
from tests.browser.test_table_cards import card_path, organiser_browser
from tests.browser.test_table_link import assert_made_for_a_phone, phone, sides_of, thursday
from tests.browser.test_table_offline import NOT_SENT, after_a_retry, cut, restore

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = 4
ROUNDS = 3


def pin_of(player) -> str:
    return f"{2000 + player.pk}"


def tap(scope, *cards: str) -> None:
    for card in cards:
        scope.locator(f'button[data-card="{card}"]').click()


def file_claim_by_tapping(page, who: str, cards: list[str], claimed: int) -> Claim:
    page.locator("summary", has_text="File a claim").click()
    form = page.get_by_test_id("table-claim-form")
    form.get_by_role("radio", name=who, exact=True).check()
    form.get_by_role("radio", name="Hand", exact=True).check()
    tap(form, *cards)
    expect(form.get_by_test_id("claim-count")).to_contain_text("These cards count")
    form.get_by_label("Points claimed").fill(str(claimed))
    form.get_by_role("button", name="File the claim").click()
    expect(page.locator("#messages")).to_contain_text("Claim filed.")
    return Claim.objects.order_by("-pk").first()


def enter_and_accept(page, game: Game, scores: list[int], screenshot, *, offline=False) -> None:
    """The first side's player enters the scores; the other side's accepts with a PIN."""
    (first, *_), (other, *_) = sides_of(game)[:2]
    form = page.get_by_test_id("table-result-form")
    form.get_by_role("radio", name=first, exact=True).check()
    for names, score in zip(sides_of(game), scores, strict=True):
        form.get_by_role("spinbutton", name=" & ".join(names)).fill(str(score))
    if offline:
        page.clock.install()  # the page's clock, moved on by `after_a_retry`
        cut(page)
    page.get_by_role("button", name="Save the scores").click()
    if offline:
        expect(page.locator("[data-keep-note]:visible")).to_have_text(NOT_SENT)
        assert_made_for_a_phone(page)
        screenshot(page, "morning-not-sent-yet-phone")
        after_a_retry(page)  # a try while still cut: nothing goes out
        assert not Result.objects.filter(game=game).exists()
        restore(page)
    expect(page.locator("#messages")).to_contain_text(f"Saved, entered by {first}.")
    accepter = game.seats.get(player__display_name=other).player
    accept = page.get_by_test_id(f"accept-{accepter.pk}")
    accept.get_by_label(f"{other}'s PIN").fill(pin_of(accepter))
    accept.get_by_role("button", name=f"Accept as {other}").click()
    expect(page.get_by_test_id("confirmed-by")).to_contain_text(f"{other} at the table")


def claims_at_the_table(page, game: Game, session, screenshot) -> None:
    """A 29 by tapping, its cards confirmed; muggins on an under-claim; both with PINs."""
    (first, *_), (other, *_) = sides_of(game)[:2]
    bob = game.seats.get(player__display_name=other).player
    twenty_nine = file_claim_by_tapping(page, first, ["5H", "5C", "5S", "JD", "5D"], 29)
    assert twenty_nine.card_list() == ["5H", "5C", "5S", "JD", "5D"]
    assert twenty_nine.true_points == 29
    assert accepted_hands(session, 29) == []  # not before its cards are seen
    block = page.get_by_test_id(f"table-claim-{twenty_nine.pk}")
    block.locator("summary", has_text="Confirm the cards").click()
    cards = block.get_by_test_id(f"cards-form-{twenty_nine.pk}")
    cards.get_by_role("radio", name=other, exact=True).check()
    cards.get_by_label("I have seen these cards").check()
    cards.get_by_label("PIN").fill(pin_of(bob))
    screenshot(page, "morning-confirm-the-cards-phone")
    cards.get_by_role("button", name="Confirm the cards").click()
    expect(page.locator("#messages")).to_contain_text(f"Cards confirmed by {other}")
    assert accepted_hands(session, 29) == [twenty_nine.claimant_id]

    under = file_claim_by_tapping(page, first, ["5H", "5C", "5S", "JD", "5D"], 24)
    block = page.get_by_test_id(f"table-claim-{under.pk}")
    expect(block).to_contain_text("5 overlooked, open to a muggins call")
    block.locator("summary", has_text="Call muggins").click()
    form = block.get_by_test_id(f"muggins-form-{under.pk}")
    form.get_by_role("radio", name=other, exact=True).check()
    form.get_by_label("Muggins for how many points?").fill("6")
    form.get_by_label("PIN").fill(pin_of(bob))
    form.get_by_role("button", name="Call muggins").click()
    # ACC rule 10.4a: the lesser of the 6 called and the 5 overlooked.
    expect(page.locator("#messages")).to_contain_text(f"Muggins: {other} takes 5, the points")
    under.refresh_from_db()
    assert (under.muggins_caller, under.muggins_points) == (bob, 6)
    assert_made_for_a_phone(page)
    screenshot(page, "morning-claims-phone")


def test_three_rounds_with_table_cards_printed_once(browser, live_server, screenshot):
    club, organiser, session, round_ = thursday(
        players=2 * TABLES, table_pins=True, jackpot_29_cents=25
    )
    for checkin in session.checkins.select_related("player"):
        pins.pin_set(player=checkin.player, actor=organiser, pin=pin_of(checkin.player))

    # Before round 1: the cards, made and printed once.
    desk = organiser_browser(browser, live_server.url, 1366)
    desk.goto(f"{live_server.url}/games/rounds/{round_.pk}/")
    desk.get_by_test_id("table-cards-link").click()
    desk.get_by_role("button", name="Make the cards").click()
    cards = {table: card_path(desk, table) for table in range(1, TABLES + 1)}
    desk.context.close()

    # Each table scans its card once; the phone stays on the table all morning.
    phones = {}
    for table, path in cards.items():
        phones[table] = phone(browser)
        phones[table].goto(live_server.url + path)

    offline_game = None
    for number in range(1, ROUNDS + 1):
        if number > 1:
            game_services.round_draw(session=session, actor=organiser, seed=15 + number)
        for table, page in phones.items():
            game = Game.objects.get(round__session=session, round__number=number, table=table)
            if number > 1:
                page.reload()  # the page of round 1's game, reloaded, is this round's
            expect(page.get_by_role("heading", level=1)).to_have_text(
                f"Table {table} · round {number}"
            )
            assert page.url == f"{live_server.url}/t/{game.table_token}/"
            # The card on the table, scanned now (by a newcomer's phone), opens this game too.
            scanned = page.request.get(live_server.url + cards[table], max_redirects=0)
            assert (scanned.status, scanned.headers["location"]) == (
                302,
                f"/t/{game.table_token}/",
            )
            if (number, table) == (1, 1):
                claims_at_the_table(page, game, session, screenshot)
            offline = (number, table) == (2, 3)
            if offline:
                offline_game = game
            enter_and_accept(page, game, [121, 90 + table + number], screenshot, offline=offline)
            if (number, table) == (ROUNDS, TABLES):
                screenshot(page, "morning-last-result-phone")

    for page in phones.values():
        page.context.close()
    games = Game.objects.filter(round__session=session)
    assert games.count() == TABLES * ROUNDS
    confirmed = Result.objects.filter(game__in=games, state=ResultState.CONFIRMED)
    assert confirmed.count() == TABLES * ROUNDS
    # The result entered without network arrived once: one version, confirmed.
    assert list(offline_game.results.values_list("version", "state")) == [
        (1, ResultState.CONFIRMED)
    ]
