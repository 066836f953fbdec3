"""Muggins and jackpot cards on a phone at the table (390 px, no login): a player files a 29 on the
table's link, a player of the other side confirms its cards with his PIN, then calls muggins on an
under-claim (ACC rule 10.4a: the caller takes the lesser of N and the points overlooked), with a
wrong PIN first. The same page at 1366 px. The hand 5H 5C 5S JD with the 5D turned counts 29
(hoyle.txt "Showing").

Terms: *phone* is a 390 x 844 browser context with no login (tests/browser/test_table_link.py);
screenshots go to .artifacts/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from club.services import pins
from games.models import Game
from money.selectors import accepted_hands
from scoring.models import Claim
from tests.browser.test_table_link import assert_made_for_a_phone, phone, sides_of, thursday

pytestmark = pytest.mark.django_db(transaction=True)


def file_claim(page, who: str, claimed: int) -> Claim:
    page.locator("summary", has_text="File a claim").click()
    form = page.get_by_test_id("table-claim-form")
    form.get_by_role("radio", name=who, exact=True).check()
    form.get_by_role("radio", name="Hand", exact=True).check()
    form.get_by_label("The four cards").fill("5H 5C 5S JD")
    form.get_by_label("The starter").fill("5D")
    form.get_by_label("Points claimed").fill(str(claimed))
    form.get_by_role("button", name="File the claim").click()
    expect(page.get_by_role("status")).to_contain_text("Claim filed.")
    return Claim.objects.order_by("-pk").first()


def test_a_29s_cards_confirmed_and_muggins_called_on_a_phone(browser, live_server, screenshot):
    club, organiser, session, round_ = thursday(players=4, table_pins=True, jackpot_29_cents=25)
    game = Game.objects.get(round=round_, table=1)
    (first, *_), (other, *_) = sides_of(game)[:2]
    bob = game.seats.get(player__display_name=other).player
    pins.pin_set(player=bob, actor=organiser, pin="2468")

    mobile = phone(browser)
    mobile.goto(f"{live_server.url}/t/{game.table_token}/")
    twenty_nine = file_claim(mobile, first, 29)
    block = mobile.get_by_test_id(f"table-claim-{twenty_nine.pk}")
    expect(block.get_by_test_id("cards-waiting")).to_be_visible()
    block.locator("summary", has_text="Confirm the cards").click()
    cards = block.get_by_test_id(f"cards-form-{twenty_nine.pk}")
    expect(cards.get_by_role("img", name="5 of hearts")).to_be_visible()
    expect(cards.get_by_role("radio", name=first, exact=True)).to_have_count(0)
    cards.get_by_role("radio", name=other, exact=True).check()
    cards.get_by_label("I have seen these cards").check()
    cards.get_by_label("PIN").fill("2468")
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-cards-confirm-phone")
    cards.get_by_role("button", name="Confirm the cards").click()
    expect(mobile.get_by_role("status")).to_contain_text(
        f"Cards confirmed by {other}: {first}'s 29 (5H 5C 5S JD 5D) can win its jackpot."
    )
    block = mobile.get_by_test_id(f"table-claim-{twenty_nine.pk}")
    expect(block.get_by_test_id("cards-confirmed")).to_have_text(
        f"Cards confirmed by {other} at the table."
    )
    expect(block.locator("summary", has_text="Confirm the cards")).to_have_count(0)
    assert accepted_hands(session, 29) == [twenty_nine.claimant_id]

    under = file_claim(mobile, first, 28)
    block = mobile.get_by_test_id(f"table-claim-{under.pk}")
    expect(block).to_contain_text("1 overlooked, open to a muggins call")
    block.locator("summary", has_text="Call muggins").click()
    form = block.get_by_test_id(f"muggins-form-{under.pk}")
    expect(form.get_by_role("radio", name=first, exact=True)).to_have_count(0)
    form.get_by_role("radio", name=other, exact=True).check()
    form.get_by_label("Muggins for how many points?").fill("1")
    form.get_by_label("PIN").fill("1357")
    form.get_by_role("button", name="Call muggins").click()
    block = mobile.get_by_test_id(f"table-claim-{under.pk}")
    form = block.get_by_test_id(f"muggins-form-{under.pk}")
    expect(form.get_by_text(f"Wrong PIN for {other}: try again.")).to_be_visible()
    expect(form.get_by_label("Muggins for how many points?")).to_have_value("1")
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-muggins-wrong-pin-phone")
    form.get_by_label("PIN").fill("2468")
    form.get_by_role("button", name="Call muggins").click()
    expect(mobile.get_by_role("status")).to_contain_text(f"Muggins: {other} takes 1.")
    block = mobile.get_by_test_id(f"table-claim-{under.pk}")
    expect(block.get_by_test_id("muggins-called")).to_have_text(f"Muggins for 1 called by {other}.")
    expect(block.locator("summary", has_text="Call muggins")).to_have_count(0)
    assert_made_for_a_phone(mobile)
    screenshot(mobile, "table-muggins-called-phone")
    under.refresh_from_db()
    assert (under.muggins_caller, under.muggins_points) == (bob, 1)

    mobile.set_viewport_size({"width": 1366, "height": 900})
    mobile.goto(f"{live_server.url}/t/{game.table_token}/")
    mobile.get_by_test_id(f"table-claim-{twenty_nine.pk}").locator(
        "summary", has_text="Call muggins"
    ).click()
    screenshot(mobile, "table-muggins-desktop")
    mobile.context.close()
