"""One organiser who plays (docs/club/claims.md "Naming a judge for one dispute"; docs/club/
results.md "An organiser who plays"): a dispute at his own table is ruled by a bystander he names,
on a second phone with no login, and settling no longer waits for it; then he proposes a
correction of his own game and his opponent accepts it on a phone.

Pages are also photographed at 390 and 1366 px wide into .artifacts/.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from games import services as game_services
from games.models import ResultState
from scoring import services as scoring_services
from tests.browser.conftest import keep_shot, log_in
from tests.builders import make_table
from tests.factories import PASSWORD, CheckInFactory, ClubFactory

pytestmark = pytest.mark.django_db(transaction=True)


def shoot(page, name: str) -> None:
    for width in (390, 1366):
        page.set_viewport_size({"width": width, "height": 900})
        keep_shot(page, f"judging-{name}-{width}")


def own_table():
    table = make_table(club=ClubFactory(name="Riverside Cribbage"), roles=("organisers", "players"))
    if not table.users[0].groups.filter(name="organisers").exists():
        table = SimpleNamespace(
            **{**vars(table), "users": table.users[::-1], "players": table.players[::-1]}
        )
    draft = game_services.result_enter(game=table.game, actor=table.users[0], scores=[121, 100])
    game_services.result_confirm(result=draft, actor=table.users[1])
    claim = scoring_services.claim_file(
        game=table.game,
        actor=table.users[0],
        kind="hand",
        claimant=table.players[0],
        claimed_points=12,
        hand="8S 7H 7D 6C",
        starter="2H",
    )
    dispute = scoring_services.dispute_open(claim=claim, actor=table.users[1], statement="No 12.")
    bystander = CheckInFactory(
        session=table.session, player__club=table.club, player__display_name="Bea Bystander"
    ).player
    return SimpleNamespace(**vars(table), claim=claim, dispute=dispute, bystander=bystander)


def test_a_bystander_rules_and_the_opponent_accepts_a_correction(browser, live_server):
    base = live_server.url
    t = own_table()
    desk = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    desk.set_default_timeout(15_000)
    log_in(desk, base, t.users[0].get_username(), PASSWORD)

    # The settle blocker links to the dispute's naming form.
    desk.goto(f"{base}/club/sessions/{t.session.pk}/")
    expect(desk.get_by_test_id("blockers")).to_contain_text("name a player present as judge")
    blocker = desk.get_by_test_id("blockers").locator("li", has_text="dispute")
    blocker.get_by_role("link", name="Go there").click()
    expect(desk.get_by_test_id("rule-refusal")).to_contain_text("You play in this game")
    desk.get_by_label("Player to judge this dispute").select_option(label="Bea Bystander")
    desk.get_by_role("button", name="Name as judge and show the link").click()
    expect(desk.get_by_test_id("judge-qr").locator("svg")).to_be_visible()
    shoot(desk, "claim")
    link = desk.get_by_test_id("judge-link").inner_text()
    assert re.fullmatch(rf"{re.escape(base)}/j/[\w-]+/", link), link

    # A second phone, no login, rules.
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.set_default_timeout(15_000)
    phone.goto(link)
    expect(phone.get_by_test_id("judge-statement")).to_contain_text("No 12.")
    shoot(phone, "judge-link")
    phone.get_by_role("button", name="Agree with the engine").click()
    expect(phone.get_by_role("status")).to_contain_text("Ruled by Bea Bystander")
    phone.goto(link)
    expect(phone.get_by_test_id("judge-link-refusal")).to_contain_text("was used")

    desk.goto(f"{base}/club/sessions/{t.session.pk}/")
    expect(desk.get_by_test_id("blockers")).not_to_contain_text("dispute")

    # His own game: he proposes, his opponent accepts on a phone.
    desk.goto(f"{base}/games/{t.game.pk}/")
    expect(desk.get_by_test_id("correction-refusal")).to_contain_text("You play in this game")
    panel = desk.get_by_test_id("proposal-panel")
    inputs = panel.get_by_role("spinbutton")
    inputs.nth(0).fill("121")
    inputs.nth(1).fill("95")
    panel.get_by_label("Reason").fill("The last hand was 8, not 13.")
    panel.get_by_role("button", name="Propose this correction").click()
    expect(desk.get_by_test_id("accept-qr").locator("svg")).to_be_visible()
    shoot(desk, "game")
    accept = desk.get_by_test_id("accept-link").inner_text()

    opponent = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    opponent.set_default_timeout(15_000)
    opponent.goto(accept)
    shoot(opponent, "accept-link")
    name = t.players[1].display_name
    opponent.get_by_role("button", name=f"Accept: I am {name}").click()
    expect(opponent.get_by_role("status")).to_contain_text(f"Accepted by {name}")
    current = t.game.results.exclude(state=ResultState.SUPERSEDED).get()
    assert current.scores == [121, 95]
    assert current.confirmed_by_player == t.players[1]
