"""An organiser takes a player out of the morning, has another sit out a round, and records two
games that cannot be finished, in the browser on a phone and at a desk (docs/spec.md "A
Thursday, step by step", steps 3 and 7; docs/club/exceptions.md "A player has to leave early",
"A player sits out a round", "A game cannot be finished").

Terms: the *morning* is a session of six checked-in players (Ann, Bob, Cy, Di, Ed, Flo) with
round 1 drawn; the organiser has a login and plays in no game. Ann leaves after round 1 and Bob
sits out round 2, so round 2 seats the other four at two tables: the first is marked not played,
the second a forfeit. Screenshots go to .artifacts/leaving-*.png.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from playwright.sync_api import expect

from club import services as club_services
from club.models import CheckIn
from games import services as game_services
from games.models import Game, GameStatus, Seat
from tests.browser.conftest import keep_shot
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
MEASURE = (Path(__file__).parent / "measure.js").read_text()
TAP_TARGETS = (Path(__file__).parent / "tap_targets.js").read_text()


def shoot(locator, name: str) -> None:
    """The element's screenshot, into .artifacts/ (`keep_shot`)."""
    keep_shot(locator, name, full_page=False)


def phone_faults(page, width: int) -> list[str]:
    """On a phone: nothing wider than the screen (measure.js), no tap target under 44 px
    (tap_targets.js)."""
    if width > 400:
        return []
    measured = page.evaluate(MEASURE)
    faults = [f"tap target {target}" for target in page.evaluate(TAP_TARGETS)]
    if measured["width"] > width:
        faults.append(f"{measured['width']} px wide: {measured.get('wide')}")
    return faults


@pytest.fixture
def morning(transactional_db):
    club = ClubFactory(name="Riverside Cribbage", slug="riverside")
    organiser = UserFactory(username="olive", role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for name in NAMES:
        player = PlayerFactory(club=club, display_name=name)
        club_services.checkin_create(session=session, actor=organiser, player=player)
    game_services.round_draw(session=session, actor=organiser, seed=5)
    return session


def row(page, name: str):
    return page.locator(f'tr[data-player="{name}"]')


@pytest.mark.parametrize("width", [390, 1366], ids=["phone", "desktop"])
def test_leaving_sitting_out_and_games_that_cannot_be_finished(
    browser, live_server, morning, width
):
    session = morning
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    session_url = f"{live_server.url}/club/sessions/{session.pk}/"
    faults: list[str] = []

    # The check-in rows, folded: one "Leaves or sits out" per row.
    page.goto(session_url)
    checkins = page.get_by_test_id("checkins")
    shoot(checkins, f"leaving-checkins-folded-{width}")
    faults += [f"folded: {fault}" for fault in phone_faults(page, width)]

    # Ann leaves after round 1 (the round offered first: the latest drawn).
    ann = row(page, "Ann")
    ann.get_by_text("Leaves or sits out").click()
    expect(ann.get_by_label("Leaves after round")).to_have_value("1")
    shoot(ann, f"leaving-checkin-open-{width}")
    faults += [f"open: {fault}" for fault in phone_faults(page, width)]
    ann.get_by_role("button", name="Leaves", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Ann leaves after round 1")
    expect(row(page, "Ann").get_by_test_id("absence-note")).to_have_text("(leaves after round 1)")

    # Bob sits out round 2 (the next round, offered first).
    bob = row(page, "Bob")
    bob.get_by_text("Leaves or sits out").click()
    expect(bob.get_by_label("Sits out round")).to_have_value("2")
    bob.get_by_role("button", name="Sits out", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Bob sits out round 2")
    expect(row(page, "Bob").get_by_test_id("absence-note")).to_contain_text("sits out round 2")
    shoot(page.get_by_test_id("checkins"), f"leaving-checkins-marked-{width}")
    assert CheckIn.objects.get(session=session, player__display_name="Ann").last_round == 1

    # Round 2 seats neither of them.
    page.get_by_role("button", name="Draw round 2").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 2")
    seated = set(
        Seat.objects.filter(game__round__session=session, game__round__number=2).values_list(
            "player__display_name", flat=True
        )
    )
    assert seated == {"Cy", "Di", "Ed", "Flo"}
    first, second = Game.objects.filter(round__session=session, round__number=2).order_by("table")

    # The first table cannot be finished: not played.
    page.goto(f"{live_server.url}/games/{first.pk}/")
    unfinished = page.get_by_test_id("unfinished")
    unfinished.get_by_text("This game cannot be finished").click()
    expect(unfinished.get_by_label("Why")).to_be_visible()
    shoot(unfinished, f"leaving-game-cannot-be-finished-{width}")
    faults += [f"game form: {fault}" for fault in phone_faults(page, width)]
    unfinished.get_by_label("Not played: no result, it counts nowhere").check()
    unfinished.get_by_label("Why").fill("Cy taken ill")
    unfinished.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("game-status")).to_contain_text("Not played")

    # The round's scorecards screen shows it as such, with no score to type.
    page.goto(f"{live_server.url}/games/rounds/{first.round_id}/scorecards/")
    marked = page.get_by_test_id(f"scorecard-{first.table}")
    expect(marked).to_contain_text("Not played")
    expect(marked.get_by_role("spinbutton")).to_have_count(0)
    shoot(page.get_by_test_id("scorecards-form"), f"leaving-scorecards-{width}")
    faults += [f"scorecards: {fault}" for fault in phone_faults(page, width)]

    # The second: a forfeit, its first seat leaving.
    stayer, leaver = [
        seat.player.display_name
        for seat in second.seats.select_related("player").order_by("position")
    ]
    page.goto(f"{live_server.url}/games/{second.pk}/")
    unfinished = page.get_by_test_id("unfinished")
    unfinished.get_by_text("This game cannot be finished").click()
    unfinished.get_by_label("Forfeit: the side that stays wins by the house rule").check()
    unfinished.get_by_label("Who leaves").select_option(label=leaver)
    unfinished.get_by_role("button", name="Save").click()
    forfeit = f"Forfeit: {stayer} wins, {leaver} left"
    expect(page.get_by_test_id("game-status")).to_contain_text(forfeit)
    expect(page.get_by_test_id("current-result")).to_contain_text("won by forfeit")
    shoot(page.locator("section.card").first, f"leaving-game-forfeit-{width}")

    # The session page's rounds say both plainly.
    page.goto(session_url)
    round_two = page.get_by_test_id("round-2")
    expect(round_two).to_contain_text("Not played")
    expect(round_two).to_contain_text(forfeit)
    expect(round_two.get_by_test_id("type-scorecards-2")).to_have_count(0)
    shoot(page.locator("#rounds"), f"leaving-session-rounds-{width}")
    faults += [f"session page: {fault}" for fault in phone_faults(page, width)]
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (GameStatus.NOT_PLAYED, GameStatus.FORFEIT)
    context.close()
    assert faults == []
