"""One organiser is enough: a club whose only login is its organiser runs a whole Thursday in the
browser and settles.

From an empty database: `manage.py club_create` prints the welcome link; the organiser sets a
password there, adds five players (none of them with a login), opens the session, checks them in
and takes their fees, draws round 1 (a 2-player and a 3-player table), and prints the seating
chart. At each table a phone with no login opens the table's link: one player enters the scores
and a player of another side accepts them on the same phone. Round 2 comes in as signed
scorecards typed on one screen. Then the organiser settles, and the payout sheet adds up to the
pot (docs/spec.md "The pot and payouts": 5 players at 25¢, one place per 4 players rounded up).
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from club.models import Club, Player
from games.models import Game, ResultState, Round
from money.models import Settlement

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long pass phrase 9"
PLAYERS = ["Ada Ames", "Ben Birch", "Cora Cole", "Dan Drury", "Eve Eaton"]


def sides_of(game: Game) -> list[list[str]]:
    sides: list[list[str]] = [[] for _ in range(game.side_count)]
    for seat in game.seats.select_related("player").order_by("position"):
        sides[seat.side].append(seat.player.display_name)
    return sides


def final_scores(game: Game, winner: int) -> list[int]:
    """The winner at 121; the losers at 100, 95 (no skunk)."""
    losers = iter([100, 95])
    return [121 if side == winner else next(losers) for side in range(game.side_count)]


def test_a_club_with_one_organiser_runs_a_thursday_and_settles(browser, live_server, screenshot):
    base = live_server.url
    out = io.StringIO()
    call_command(
        "club_create",
        name="Riverside Cribbage",
        slug="riverside",
        organiser="olive",
        organiser_name="Olive Ashdown",
        base_url=base,
        stdout=out,
    )
    welcome = out.getvalue().strip().splitlines()[-1]
    assert re.fullmatch(rf"{re.escape(base)}/welcome/[\w-]+/", welcome), welcome

    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    page = desk.new_page()
    page.set_default_timeout(15_000)

    # The welcome link: a password, then logged in as the club's organiser.
    page.goto(welcome)
    page.get_by_label("New password:", exact=True).fill(PASSWORD)
    page.get_by_label("New password confirmation:").fill(PASSWORD)
    page.get_by_role("button", name="Set my password and log in").click()
    expect(page.get_by_test_id("role")).to_have_text("organiser")
    page.goto(welcome)  # the link is dead now
    expect(page.get_by_test_id("dead-link")).to_contain_text("used already")

    # Five players, none with a login.
    for name in PLAYERS:
        page.goto(f"{base}/club/players/add/")
        page.get_by_label("Name:", exact=True).fill(name)
        page.get_by_role("button", name="Add player").click()
        expect(page.get_by_role("status")).to_contain_text(f"{name} added.")
    club = Club.objects.get(slug="riverside")
    assert Player.objects.filter(club=club, user__isnull=False).count() == 1  # Olive only

    # Open the session, check everyone in, take the fees.
    page.goto(f"{base}/")
    page.get_by_role("link", name="Open a session").click()
    page.get_by_role("button", name="Open the session").click()
    session_url = page.url.split("#")[0]
    for name in PLAYERS:
        page.get_by_label("Player:", exact=True).fill(name)
        page.get_by_role("button", name="Check in").click()
        expect(page.get_by_role("status")).to_contain_text(f"{name} checked in")
    for name in PLAYERS:
        page.get_by_role("button", name=f"Mark {name} paid").click()
        expect(page.get_by_role("status")).to_contain_text(f"{name} paid 25¢")
    expect(page.get_by_test_id("fee-totals")).to_contain_text("Collected $1.25")

    # Round 1: two tables, each through its link on a phone with no login.
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    round_one = Round.objects.get(session__club=club, number=1)
    games = list(Game.objects.filter(round=round_one).order_by("table"))
    assert sorted(game.side_count for game in games) == [2, 3]  # 5 players: one cut-throat table
    page.goto(f"{base}/games/rounds/{round_one.pk}/print/")
    expect(page.locator(".seat-card svg.qr")).to_have_count(2)
    screenshot(page, "one-organiser-seating-chart")
    for game in games:
        text = page.get_by_test_id(f"seat-card-{game.table}").get_by_test_id("table-link")
        path = re.search(r"/t/[a-z0-9]+/", text.inner_text())[0]
        assert path == f"/t/{game.table_token}/"
        sides = sides_of(game)
        entering, accepting = sides[0][0], sides[1][0]
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.set_default_timeout(15_000)
        phone.goto(base + path)
        expect(phone.get_by_role("heading", level=1)).to_contain_text(f"Table {game.table}")
        phone.get_by_role("radio", name=entering, exact=True).check()
        for names, score in zip(sides, final_scores(game, winner=1), strict=True):
            phone.get_by_role("spinbutton", name=" & ".join(names)).fill(str(score))
        phone.get_by_role("button", name="Save the scores").click()
        expect(phone.get_by_role("status")).to_contain_text(f"Saved, entered by {entering}.")
        # The entering side has no Accept button; a player of another side accepts.
        expect(phone.get_by_role("button", name=f"Accept as {entering}")).to_have_count(0)
        phone.get_by_role("button", name=f"Accept as {accepting}").click()
        expect(phone.get_by_test_id("confirmed-by")).to_contain_text(f"{accepting} at the table")
        screenshot(phone, f"one-organiser-table-{game.table}-phone")
        phone.context.close()
    assert all(
        game.results.get(state=ResultState.CONFIRMED).confirmed_by_player is not None
        for game in games
    )

    # Round 2: the paper scorecards, signed by the players, typed in on one screen.
    page.goto(session_url)
    page.get_by_role("button", name="Draw round 2").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 2")
    page.get_by_test_id("type-scorecards").click()
    round_two = Round.objects.get(session__club=club, number=2)
    for game in round_two.games.order_by("table"):
        for side, score in enumerate(final_scores(game, winner=0)):
            page.locator(f"input[name=table_{game.table}_side_{side}]").fill(str(score))
    page.get_by_label("The players signed these scorecards").check()
    page.get_by_role("button", name="Save the scorecards").click()
    expect(page.locator(".messages")).to_contain_text("2 results confirmed from signed scorecards")

    # Settle: nothing blocks it, and the payout sheet adds up to the pot.
    page.goto(session_url + "#settle")
    page.get_by_role("link", name="Settle the session…").click()
    page.get_by_role("button", name="Settle and lock").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Payouts")
    expect(page.get_by_test_id("pot")).to_have_text("$1.25")
    amounts = page.get_by_test_id("payouts").locator("tbody td:nth-child(3)").all_inner_texts()
    paid = [
        int(a.replace("$", "").replace(".", "")) if "$" in a else int(a.rstrip("¢"))
        for a in amounts
    ]
    assert sum(paid) == 125 and len(paid) == 2  # 5 players: two paid places
    screenshot(page, "one-organiser-payout-sheet")
    settlement = Settlement.objects.get(session__club=club)
    assert settlement.pot_cents == 125
    assert sum(p.amount_cents for p in settlement.payouts.all()) == 125
    desk.close()
