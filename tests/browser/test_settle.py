"""Settling in the browser, on the demo club: the organiser settles a finished session, prints a
payout sheet whose amounts add up to the pot, and the ledger shows the skunk bank rolling over (a
skunk but no double skunk). The skunked player's coin blocks settling until it is marked paid,
and the sheet has a section per side pot."""

import random

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from club import services as club_services
from club.models import Club
from club.selectors import next_session_date
from games import services as game_services
from money.models import Pot
from money.selectors import pot_balances
from tests.browser.conftest import go_to
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished_session(transactional_db):
    """Last Thursday's 13 players, fees paid, 2 rounds confirmed: one skunk, no double skunk."""
    load_demo()
    users = get_user_model().objects
    organiser, confirmer = users.get(username="organiser"), users.get(username="organiser2")
    club = Club.objects.get()
    # The demo's past season is settled; this morning is the next meeting day.
    session = club_services.session_open(club=club, actor=organiser, date=next_session_date(club))
    for player in club.players.filter(active=True)[:13]:
        checkin = club_services.checkin_create(session=session, actor=organiser, player=player)
        club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    rng = random.Random(2)
    for number in (1, 2):
        round_ = game_services.round_draw(session=session, actor=organiser, seed=number)
        for game in round_.games.all():
            loser = 80 if (number, game.table) == (1, 1) else rng.randint(91, 120)
            scores = [121] + [loser] * (game.side_count - 1)
            draft = game_services.result_enter(game=game, actor=organiser, scores=scores)
            game_services.result_confirm(result=draft, actor=confirmer)
    session.skunk_bank_before = pot_balances(club)[Pot.SKUNK_BANK]
    return session


def cents(text: str) -> int:
    text = text.strip()
    if text.endswith("¢"):
        return int(text[:-1])
    dollars, rest = text.lstrip("$").replace(",", "").split(".")
    return int(dollars) * 100 + int(rest)


def cents_text(amount: int) -> str:
    return f"{amount}¢" if amount < 100 else f"${amount // 100:,}.{amount % 100:02d}"


def test_settle_print_and_the_skunk_bank_rolls_over(
    browser, live_server, finished_session, screenshot
):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill("pegboard-demo")
    page.get_by_role("button", name="Log in").click()

    page.goto(f"{live_server.url}/club/sessions/{finished_session.pk}/#settle")
    # The skunked player's coin is owed, a blocker linking to the skunk coins.
    blockers = page.get_by_test_id("blockers")
    expect(blockers).to_contain_text("Skunk coins not paid")
    blockers.get_by_role("link", name="Go there").last.click()
    page.get_by_role("button", name="Mark all owed paid").click()
    expect(page.get_by_role("status")).to_contain_text("1 skunk coin taken: 25¢")
    # Each check-in paid the fee and the demo's three jackpot contributions: 50¢ a player.
    expect(page.get_by_test_id("cash-box")).to_contain_text("collected $6.75")
    page.get_by_role("link", name="Settle the session…").click()
    page.get_by_role("button", name="Settle and lock").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Payouts")
    pot = cents(page.get_by_test_id("pot").inner_text())
    assert pot == 13 * 25
    bank = page.get_by_test_id("side-pot-skunk_bank")
    expect(bank.get_by_test_id("money-in")).to_have_text("25¢")
    expect(bank.get_by_test_id("carried")).to_have_text(
        cents_text(finished_session.skunk_bank_before)
    )
    expect(page.get_by_test_id("side-pot-jackpot_29").get_by_test_id("money-in")).to_have_text(
        "$1.30"
    )
    expect(page.get_by_test_id("cash-collected")).to_have_text("$6.75")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "payout-sheet-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    amounts = [
        cents(t)
        for t in page.get_by_test_id("payouts").locator("tbody td:nth-child(3)").all_inner_texts()
    ]
    assert sum(amounts) == pot
    assert amounts == sorted(amounts, reverse=True)
    expect(page.get_by_test_id("steps")).to_contain_text("13 players")
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print for the cash box")).to_be_hidden()
    screenshot(page, "payout-sheet-print")
    page.emulate_media(media="screen")

    go_to(page, "Ledger")
    expect(page.get_by_test_id("balance-main")).to_have_text("0¢")
    # One skunk, no double skunk: the bank keeps what it had plus the new coin (rolls over).
    rolled = finished_session.skunk_bank_before + 25
    expect(page.get_by_test_id("balance-skunk_bank")).to_have_text(cents_text(rolled))
    expect(page.get_by_test_id("ledger")).to_contain_text("Skunk coin")
    screenshot(page, "ledger-phone")
    context.close()
