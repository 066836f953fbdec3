"""The Thursday a club really has, in the browser, with no made-up result (docs/club/exceptions.md).

One organiser, Olive, who also plays, and ten players on phones, the fee per game (docs/spec.md
"The club's house rules": "entry fee [25¢] per [session] or per game"), three rounds:

- Jo arrives after round 1 and plays from round 2; Ann pays for the whole morning at the door
  and leaves after round 2, so she is given change, recorded as a refund; Ben sits out round 3.
- Round 1 is played on the tables' phones. At Olive's table a hand is claimed 30 (a 29: the
  claim is corrected down) and the claimant calls a judge; Olive, the only judge, plays there,
  so she names Jo, a bystander, as judge for that dispute, and Jo rules on his phone through a
  one-time link. Olive's own result is then corrected: she proposes it on the game page and her
  opponent accepts it on his phone.
- Round 2: a game is abandoned (not played) and the rest come in as signed scorecards.
- Round 3: a game is forfeited (a player called away); the others play on their phones.
- The session settles after its payout sheet is shown, and the cash box equals the ledger.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.db.models import Sum
from playwright.sync_api import expect

from club.models import Club
from games.models import Game, GameStatus, Result, ResultSource, ResultState, Round
from money.models import LedgerEntry, LedgerKind, Pot, Settlement
from money.selectors import session_cash_box
from scoring.models import Ruling

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long pass phrase 9"
OLIVE = "Olive Ashdown"
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
FEE = 25


def shoot(page, screenshot, name: str) -> None:
    """The page at a phone's width and a laptop's, for people to look at."""
    size = page.viewport_size
    for width in (390, 1366):
        page.set_viewport_size({"width": width, "height": 900})
        screenshot(page, f"real-thursday-{name}-{width}")
    page.set_viewport_size(size)


def names(game: Game) -> list[list[str]]:
    sides: list[list[str]] = [[] for _ in range(game.side_count)]
    for seat in game.seats.select_related("player").order_by("position"):
        sides[seat.side].append(seat.player.display_name)
    return sides


def scores(game: Game, winner: int = 0) -> list[int]:
    """The winner at 121, the others at 100 and 95: nobody skunked."""
    losers = iter([100, 95])
    return [121 if side == winner else next(losers) for side in range(game.side_count)]


def phone(browser):
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(20_000)
    return page


def play_at_the_table(browser, base: str, game: Game) -> None:
    """A phone at the table opens its link; one side enters, a player of another side accepts."""
    sides = names(game)
    table = phone(browser)
    table.goto(f"{base}/t/{game.table_token}/")
    table.get_by_role("radio", name=sides[0][0], exact=True).check()
    for side, score in zip(sides, scores(game), strict=True):
        table.get_by_role("spinbutton", name=" & ".join(side)).fill(str(score))
    table.get_by_role("button", name="Save the scores").click()
    expect(table.get_by_role("status")).to_contain_text(f"Saved, entered by {sides[0][0]}.")
    table.get_by_role("button", name=f"Accept as {sides[1][0]}").click()
    expect(table.get_by_test_id("confirmed-by")).to_contain_text(f"{sides[1][0]} at the table")
    table.context.close()


def olives_game(round_: Round) -> Game:
    return Game.objects.get(round=round_, seats__player__display_name=OLIVE)


def a_pair_without(round_: Round, *away: str) -> Game:
    """A two-player table of the round where none of `away` plays."""
    return next(
        game
        for game in round_.games.order_by("table")
        if game.side_count == 2 and not set(sum(names(game), [])) & {OLIVE, *away}
    )


def draw(page, number: int) -> Round:
    page.get_by_role("button", name=f"Draw round {number}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Round {number}")
    return Round.objects.get(number=number)


def row(page, name: str):
    return page.locator(f'tr[data-player="{name}"]')


def test_a_real_thursday_with_an_organiser_who_plays(browser, live_server, screenshot):
    base = live_server.url
    out = io.StringIO()
    call_command(
        "club_create",
        name="Riverside Cribbage",
        slug="riverside",
        organiser="olive",
        organiser_name=OLIVE,
        base_url=base,
        stdout=out,
    )
    welcome = out.getvalue().strip().splitlines()[-1]
    desk = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    desk.set_default_timeout(20_000)
    desk.goto(welcome)
    desk.get_by_label("New password:", exact=True).fill(PASSWORD)
    desk.get_by_label("New password confirmation:").fill(PASSWORD)
    desk.get_by_role("button", name="Set my password and log in").click()
    expect(desk.get_by_test_id("role")).to_have_text("organiser")

    # The house rules: the fee per game, three rounds.
    desk.goto(f"{base}/club/rules/edit/")
    desk.get_by_label("Entry fee is paid").select_option(
        label="Per game (for each game a player is seated in)"
    )
    desk.get_by_label("Rounds per session").fill("3")
    desk.get_by_role("button", name="Save house rules").click()
    assert Club.objects.get(slug="riverside").fee_per == "game"

    for name in PLAYERS:
        desk.goto(f"{base}/club/players/add/")
        desk.get_by_label("Name:", exact=True).fill(name)
        desk.get_by_role("button", name="Add player").click()
        expect(desk.get_by_role("status")).to_contain_text(f"{name} added.")

    # At the door: Olive and nine players; Ann pays for the whole morning and will leave after
    # round 2; Jo is not there yet.
    desk.goto(f"{base}/")
    desk.get_by_role("link", name="Open a session").click()
    desk.get_by_role("button", name="Open the session").click()
    session_url = desk.url.split("#")[0].split("?")[0]
    for name in [OLIVE, *PLAYERS[:-1]]:
        desk.get_by_label("Player:", exact=True).fill(name)
        desk.get_by_role("button", name="Check in").click()
        expect(desk.get_by_role("status")).to_contain_text(f"{name} checked in")
    ann = row(desk, "Ann")
    ann.get_by_text("Pays ahead").click()
    ann.get_by_label("Amount (cents)").fill(str(3 * FEE))
    ann.get_by_role("button", name="Take", exact=True).click()
    expect(row(desk, "Ann").get_by_test_id("paid")).to_contain_text("Paid 75¢")
    ann = row(desk, "Ann")
    ann.get_by_text("Leaves or sits out").click()
    ann.get_by_label("Leaves after round").select_option("2")
    ann.get_by_role("button", name="Leaves", exact=True).click()
    expect(row(desk, "Ann").get_by_test_id("absence-note")).to_have_text("(leaves after round 2)")

    # Round 1, on the tables' phones.
    round_one = draw(desk, 1)
    assert round_one.seats.count() == 10
    for game in round_one.games.order_by("table"):
        play_at_the_table(browser, base, game)
    desk.goto(session_url)
    desk.get_by_label("Player:", exact=True).fill("Jo")
    desk.get_by_role("button", name="Check in").click()
    expect(desk.get_by_role("status")).to_contain_text("Jo checked in (from round 2)")

    # At Olive's table a 29 is claimed as 30 and its claimant calls a judge.
    own = olives_game(round_one)
    opponent = next(n for side in names(own) for n in side if n != OLIVE)
    table = phone(browser)
    table.goto(f"{base}/t/{own.table_token}/")
    table.locator("summary", has_text="File a claim").click()
    claim = table.get_by_test_id("table-claim-form")
    claim.get_by_role("radio", name=opponent, exact=True).check()
    claim.get_by_role("radio", name="Hand", exact=True).check()
    claim.get_by_label("The four cards").fill("5H 5D 5C JS")
    claim.get_by_label("The starter").fill("5S")
    claim.get_by_label("Points claimed").fill("30")
    claim.get_by_role("button", name="File the claim").click()
    expect(table.get_by_test_id("table-claims")).to_contain_text("the count is 29")
    table.locator("summary", has_text="Call a judge").click()
    table.get_by_role("radio", name=opponent, exact=True).check()
    table.get_by_label("What you do not accept").fill("I count 30 with the jack.")
    table.get_by_role("button", name="Call a judge").click()
    expect(table.get_by_test_id("disputed")).to_be_visible()
    table.context.close()

    # Olive is the only judge and plays there: she names Jo, who rules on his phone.
    desk.goto(session_url)
    blocker = desk.get_by_test_id("blockers").locator("li", has_text="dispute")
    expect(blocker).to_contain_text("name a player present as judge")
    blocker.get_by_role("link", name="Go there").click()
    expect(desk.get_by_test_id("rule-refusal")).to_contain_text("You play in this game")
    desk.get_by_label("Player to judge this dispute").select_option(label="Jo")
    desk.get_by_role("button", name="Name as judge and show the link").click()
    expect(desk.get_by_test_id("judge-qr").locator("svg")).to_be_visible()
    judge_link = desk.get_by_test_id("judge-link").inner_text()
    jo = phone(browser)
    jo.goto(judge_link)
    expect(jo.get_by_test_id("judge-statement")).to_contain_text("I count 30 with the jack.")
    jo.get_by_role("button", name="Agree with the engine").click()
    expect(jo.get_by_role("status")).to_contain_text("Ruled by Jo")
    jo.context.close()

    # Olive's own result was entered wrong: she proposes the correction, her opponent accepts.
    desk.goto(f"{base}/games/{own.pk}/")
    expect(desk.get_by_test_id("correction-refusal")).to_contain_text("You play in this game")
    panel = desk.get_by_test_id("proposal-panel")
    corrected = [121, 110]
    for box, value in zip(panel.get_by_role("spinbutton").all(), corrected, strict=True):
        box.fill(str(value))
    panel.get_by_label("Reason").fill("The last crib was 10, not 0.")
    panel.get_by_role("button", name="Propose this correction").click()
    accept_link = desk.get_by_test_id("accept-link").inner_text()
    other = phone(browser)
    other.goto(accept_link)
    other.get_by_role("button", name=f"Accept: I am {opponent}").click()
    expect(other.get_by_role("status")).to_contain_text(f"Accepted by {opponent}")
    other.context.close()

    # Round 2: one game abandoned (a player taken ill), the rest on signed scorecards.
    desk.goto(session_url)
    round_two = draw(desk, 2)
    assert round_two.seats.filter(player__display_name="Ann").exists()  # she leaves after it
    assert round_two.seats.filter(player__display_name="Jo").exists()
    abandoned = a_pair_without(round_two, "Ann")  # she plays both her games, and pays for two
    desk.goto(f"{base}/games/{abandoned.pk}/")
    unfinished = desk.get_by_test_id("unfinished")
    unfinished.get_by_text("This game cannot be finished").click()
    unfinished.get_by_label("Not played: no result, it counts nowhere").check()
    unfinished.get_by_label("Why").fill("Taken ill at the first deal")
    unfinished.get_by_role("button", name="Save").click()
    expect(desk.get_by_test_id("game-status")).to_contain_text("Not played")
    desk.goto(f"{base}/games/rounds/{round_two.pk}/scorecards/")
    for game in round_two.games.exclude(pk=abandoned.pk).order_by("table"):
        for side, score in enumerate(scores(game, winner=game.side_count - 1)):
            desk.locator(f"input[name=table_{game.table}_side_{side}]").fill(str(score))
    desk.get_by_label("The players signed these scorecards").check()
    desk.get_by_role("button", name="Save the scorecards").click()
    expect(desk.locator(".messages")).to_contain_text("results confirmed from signed scorecards")

    # Ben sits out round 3; Ann has left.
    desk.goto(session_url)
    ben = row(desk, "Ben")
    ben.get_by_text("Leaves or sits out").click()
    ben.get_by_label("Sits out round").select_option("3")
    ben.get_by_role("button", name="Sits out", exact=True).click()
    expect(row(desk, "Ben").get_by_test_id("absence-note")).to_contain_text("sits out round 3")
    round_three = draw(desk, 3)
    seated = set(round_three.seats.values_list("player__display_name", flat=True))
    assert "Ann" not in seated and "Ben" not in seated and len(seated) == 9

    # Round 3: a player is called away mid-game (a forfeit); the others play on their phones.
    forfeited = a_pair_without(round_three)
    leaver = names(forfeited)[0][0]
    desk.goto(f"{base}/games/{forfeited.pk}/")
    unfinished = desk.get_by_test_id("unfinished")
    unfinished.get_by_text("This game cannot be finished").click()
    unfinished.get_by_label("Forfeit: the side that stays wins by the house rule").check()
    unfinished.get_by_label("Who leaves").select_option(label=leaver)
    unfinished.get_by_role("button", name="Save").click()
    expect(desk.get_by_test_id("current-result")).to_contain_text("won by forfeit")
    for game in round_three.games.exclude(pk=forfeited.pk).order_by("table"):
        play_at_the_table(browser, base, game)

    # The money: everyone pays what their games cost; Ann is given her change.
    desk.goto(session_url)
    take = desk.get_by_role("button", name=re.compile(r"^Take \S+ from "))
    while take.count():
        label = take.first.get_attribute("aria-label")
        take.first.click()
        expect(desk.get_by_role("button", name=label, exact=True)).to_have_count(0)
    expect(row(desk, "Ann").get_by_test_id("change-due")).to_contain_text("change 25¢")
    row(desk, "Ann").get_by_role("button", name="Change given").click()
    expect(row(desk, "Ann").get_by_test_id("paid")).to_contain_text("25¢ change given back")
    shoot(desk, screenshot, "session")

    # Settle: the payout sheet first, then settle and lock. The pot is the fee for each game a
    # player was seated in, a game not played excepted: what was kept, Ann's change given back.
    expect(desk.get_by_test_id("blockers")).to_have_count(0)
    games_charged = sum(
        game.seats.count() for game in Game.objects.exclude(status=GameStatus.NOT_PLAYED)
    )
    expect(desk.locator("#settle")).to_contain_text(
        f"the pot of ${games_charged * FEE / 100:.2f} can be paid out"
    )
    desk.get_by_role("link", name="Settle the session…").click()
    expect(desk.get_by_test_id("steps")).to_contain_text(f"{games_charged} games at 25¢")
    expect(desk.get_by_test_id("pot")).to_have_text(f"${games_charged * FEE / 100:.2f}")
    shoot(desk, screenshot, "payout-sheet-preview")
    assert not Settlement.objects.exists()
    desk.get_by_role("button", name="Settle and lock").click()
    expect(desk.get_by_role("heading", level=1)).to_have_text("Payouts")
    shoot(desk, screenshot, "payout-sheet")

    # What was recorded: every exception as itself, no made-up result, the money to the cent.
    settlement = Settlement.objects.get()
    session = settlement.session
    assert settlement.pot_cents == games_charged * FEE
    assert sum(p.amount_cents for p in settlement.payouts.all()) == settlement.pot_cents
    assert not Game.objects.get(pk=abandoned.pk).results.filter(state=ResultState.CONFIRMED)
    forfeit = Result.objects.get(game=forfeited, state=ResultState.CONFIRMED)
    assert forfeit.source == ResultSource.FORFEIT
    assert not forfeit.lines.filter(skunked=True).exists()
    assert Ruling.objects.get().judge_player.display_name == "Jo"
    fixed = Result.objects.get(game=own, state=ResultState.CONFIRMED)
    assert fixed.source == ResultSource.CORRECTION
    assert fixed.confirmed_by_player.display_name == opponent
    for result in Result.objects.filter(state=ResultState.CONFIRMED).exclude(
        source=ResultSource.FORFEIT
    ):
        assert sorted(result.scores)[0] >= 95  # every score as played: no 121–0
    ledger = LedgerEntry.objects.filter(session=session)
    main = ledger.filter(pot=Pot.MAIN)
    assert main.aggregate(total=Sum("amount_cents"))["total"] == 0  # all of the pot paid out
    refunds = main.filter(kind=LedgerKind.REFUND)
    assert [(r.player.display_name, r.amount_cents) for r in refunds] == [("Ann", -FEE)]
    box = session_cash_box(session)
    assert box.refunds_cents == FEE
    assert box.collected_cents - box.refunds_cents - box.paid_out_cents == box.carried_cents
    side_pots = ledger.exclude(pot=Pot.MAIN).aggregate(total=Sum("amount_cents"))["total"]
    assert box.carried_cents == (side_pots or 0) == 0  # no side pots: nothing carried
    assert box.paid_out_cents == settlement.pot_cents
    fees = main.filter(kind=LedgerKind.FEE).aggregate(total=Sum("amount_cents"))["total"]
    assert fees - FEE == settlement.pot_cents == box.collected_cents - box.refunds_cents
    desk.context.close()
