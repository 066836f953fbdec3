"""A morning with the fee per game, in the browser (docs/spec.md "A Thursday, step by step",
step 7: with the fee per game a player owes only the games they were seated in, and change paid
back is a ledger refund; "The pot and payouts": the cash box and the ledger agree to the cent).

Four players, three rounds at 25¢ a game. Ann pays for the morning ahead (75¢), plays two games
and leaves; the row then says "change 25¢ to give back", and the session will not settle until
the organiser presses Change given. The others pay what they owe as they go. The session
settles; the payout sheet says how the pot was made, and the cash box equals the ledger.
Screenshots of the check-in card at a phone's and a desk's width go to .artifacts/.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Sum
from playwright.sync_api import expect

from club import services as club_services
from games import services as game_services
from money.models import LedgerEntry, LedgerKind
from money.selectors import current_settlement, session_cash_box
from tests.browser.conftest import log_in
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def play_round(session, organiser, confirmer, number):
    round_ = game_services.round_draw(session=session, actor=organiser, seed=number)
    for game in round_.games.order_by("table"):
        scores = [121] + [100] * (game.side_count - 1)
        draft = game_services.result_enter(game=game, actor=organiser, scores=scores)
        game_services.result_confirm(result=draft, actor=confirmer)


def test_a_player_pays_ahead_leaves_early_and_gets_change(browser, live_server, screenshot):
    club = ClubFactory(name="Per Game Club", slug="per-game", fee_per="game", rounds_per_session=3)
    organiser = UserFactory(username="olive", role="organisers", club=club)
    confirmer = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    names = ["Ann Archer", "Bob Baker", "Cat Cooper", "Dan Dyer"]
    checkins = {
        name: club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club, display_name=name)
        )
        for name in names
    }
    base = live_server.url
    desk = browser.new_context(viewport={"width": 1366, "height": 900})
    page = desk.new_page()
    page.set_default_timeout(15_000)
    log_in(page, base, "olive", PASSWORD)
    session_url = f"{base}/club/sessions/{session.pk}/"
    page.goto(session_url)
    expect(page.get_by_text("25¢ a game")).to_be_visible()

    # Ann pays for the whole morning ahead: 3 rounds at 25¢.
    ann = page.locator('tr[data-player="Ann Archer"]')
    ann.get_by_text("Pays ahead").click()
    expect(ann.get_by_label("Amount (cents)")).to_have_value("75")
    ann.get_by_label("Amount (cents)").fill("7.5")  # a slip: refused on the row
    ann.get_by_role("button", name="Take", exact=True).click()
    ann = page.locator('tr[data-player="Ann Archer"]')
    expect(ann.get_by_role("alert")).to_contain_text("Write the amount in whole cents")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "fees-pays-ahead-390")
    page.set_viewport_size({"width": 1366, "height": 900})
    screenshot(page, "fees-pays-ahead-1366")
    ann.get_by_label("Amount (cents)").fill("75")
    ann.get_by_role("button", name="Take", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Ann Archer paid 75¢ ahead.")

    # Two rounds; Ann leaves after round 2; round 3 without her.
    play_round(session, organiser, confirmer, 1)
    play_round(session, organiser, confirmer, 2)
    club_services.checkin_leaves_after(
        checkin=checkins["Ann Archer"], actor=organiser, round_number=2
    )
    play_round(session, organiser, confirmer, 3)
    page.goto(session_url)
    ann = page.locator('tr[data-player="Ann Archer"]')
    expect(ann.get_by_test_id("owed")).to_contain_text("50¢, 2 games")
    expect(ann.get_by_test_id("change-due")).to_have_text("change 25¢ to give back")
    for name in names[1:]:
        row = page.locator(f'tr[data-player="{name}"]')
        expect(row.get_by_test_id("owed")).to_contain_text("75¢, 3 games")
        row.get_by_role("button", name=f"Take 75¢ from {name}").click()
        expect(page.get_by_role("status")).to_contain_text(f"{name} paid 75¢.")

    # Change not given back blocks settling, with a link to the row.
    blockers = page.locator("#settle")
    expect(blockers).to_contain_text("Change to give back: Ann Archer (25¢).")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "fees-session-390")
    page.set_viewport_size({"width": 1366, "height": 900})
    screenshot(page, "fees-session-1366")
    page.locator('tr[data-player="Ann Archer"]').get_by_role("button", name="Change given").click()
    expect(page.get_by_role("status")).to_contain_text("25¢ change given back to Ann Archer.")
    expect(page.locator('tr[data-player="Ann Archer"]')).to_contain_text("25¢ change given back")

    # It settles; the payout sheet says how the pot was made; cash box = ledger.
    page.goto(session_url + "#settle")
    page.get_by_role("link", name="Settle the session…").click()
    expect(page.get_by_test_id("steps")).to_contain_text("11 games at 25¢")  # the sheet first
    page.get_by_role("button", name="Settle and lock").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Payouts")
    expect(page.get_by_test_id("pot")).to_have_text("$2.75")  # 11 games at 25¢
    expect(page.get_by_test_id("steps")).to_contain_text(
        "The pot: 11 games at 25¢ = $2.75 ($3.00 paid, less change given back: Ann Archer 25¢)."
    )
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "fees-settlement-390")
    page.set_viewport_size({"width": 1366, "height": 900})
    screenshot(page, "fees-settlement-1366")
    settlement = current_settlement(session)
    box = session_cash_box(session, settlement)
    rows = LedgerEntry.objects.filter(settlement=settlement)
    assert (
        box.collected_cents == rows.filter(amount_cents__gt=0).aggregate(t=Sum("amount_cents"))["t"]
    )
    assert box.refunds_cents == 25 == -rows.get(kind=LedgerKind.REFUND).amount_cents
    assert (
        box.refunds_cents + box.paid_out_cents
        == -rows.filter(amount_cents__lt=0).aggregate(t=Sum("amount_cents"))["t"]
    )
    assert box.carried_cents == 0
    page.goto(session_url)
    expect(page.get_by_test_id("cash-refunded")).to_have_text("25¢")
    desk.close()
