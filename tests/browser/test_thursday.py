"""A whole Thursday morning in the browser, on the demo club, from opening to the last result.

The organiser opens next Thursday's session, checks in 13 players (two of them new), marks every
fee paid, draws 3 rounds and enters every result; a second organiser confirms them, except at the
demo player's table, where the player confirms it themselves and can confirm nothing else. The
standings on the session page then match a naive recount of the scores entered.
"""

import random
import re
import time

import pytest
from playwright.sync_api import expect

from club.models import Club, Player, Session
from club.selectors import next_session_date
from games.models import Game, Seat
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)

EXISTING = [
    "Olive Ashdown",
    "Judith Barrow",
    "Pat Cowley",
    "Bill Dawson",
    "Marge Ellery",
    "Frank Foley",
    "Gail Grant",
    "Hank Holt",
    "Irene Ives",
    "Jack Jennings",
    "Mae Morrison",
]
NEW = ["Quentin Newcomb", "Rosa Newly"]


def log_in(browser, base: str, username: str):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pegboard-demo")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("role")).to_be_visible()
    return page


def random_scores(rng: random.Random, sides: int, target: int = 121) -> list[int]:
    scores = [rng.randint(40, target - 1) for _ in range(sides)]
    scores[rng.randrange(sides)] = target
    return scores


def naive_standings(entered: dict[int, list[int]]) -> dict[str, tuple[int, int, int, int]]:
    """name -> (game points, won, lost, spread), recounted from the scores entered and the seats."""
    table: dict[str, list[int]] = {}
    for game_id, scores in entered.items():
        target = 121
        seats = Seat.objects.filter(game_id=game_id).select_related("player")
        winner = scores.index(target)
        margins = {side: target - score for side, score in enumerate(scores) if side != winner}
        worst = max(margins.values())
        win_points = 3 if worst > target - 91 else 2  # skunk and double skunk both 3 by default
        for seat in seats:
            row = table.setdefault(seat.player.display_name, [0, 0, 0, 0])
            if seat.side == winner:
                row[0] += win_points
                row[1] += 1
                row[3] += sum(margins.values())
            else:
                row[2] += 1
                row[3] -= margins[seat.side]
    return {name: tuple(row) for name, row in table.items()}


def test_an_organisers_thursday_morning(browser, live_server, screenshot):
    started = time.monotonic()
    load_demo(season=False)
    base = live_server.url
    organiser = log_in(browser, base, "organiser")
    confirmer = log_in(browser, base, "organiser2")
    player = log_in(browser, base, "player")

    # Open next Thursday's session (the date is filled in for the organiser).
    organiser.get_by_role("link", name="Open a session").click()
    thursday = next_session_date(Club.objects.get())
    expect(organiser.get_by_label("Date")).to_have_value(thursday.isoformat())
    organiser.get_by_role("button", name="Open the session").click()
    expect(organiser.get_by_role("heading", level=1)).to_have_text(
        re.compile(thursday.strftime("%A"))
    )

    # Check in 11 players of the club and 2 new ones.
    name_box = organiser.get_by_label("Player:", exact=True)
    for name in EXISTING:
        name_box.fill(name)
        organiser.get_by_role("button", name="Check in").click()
        expect(organiser.get_by_role("status")).to_contain_text(f"{name} checked in")
    name_box.fill(NEW[0])
    organiser.get_by_role("button", name="Check in").click()
    expect(organiser.locator(".field--error")).to_contain_text("tick")  # unknown name: say so
    for name in NEW:
        organiser.get_by_label("Player:", exact=True).fill(name)
        organiser.get_by_label("Add as a new player").check()
        organiser.get_by_role("button", name="Check in").click()
        expect(organiser.get_by_role("status")).to_contain_text(f"{name} checked in")
    organiser.get_by_label("Player:", exact=True).fill("Pat Cowley")
    organiser.get_by_role("button", name="Check in").click()
    expect(organiser.locator(".field--error")).to_contain_text("already checked in")
    expect(organiser.get_by_test_id("fee-totals")).to_contain_text("owed $3.25")

    # Mark every fee paid.
    for name in EXISTING + NEW:
        organiser.get_by_role("button", name=f"Mark {name} paid").click()
        expect(organiser.get_by_role("status")).to_contain_text(f"{name} paid 25¢")
    expect(organiser.get_by_test_id("fee-totals")).to_contain_text("Collected $3.25")
    expect(organiser.get_by_test_id("fee-totals")).to_contain_text("owed 0¢")
    session_url = organiser.url.split("#")[0]

    rng = random.Random(4)
    entered: dict[int, list[int]] = {}
    pat = Player.objects.get(display_name="Pat Cowley")
    for number in (1, 2, 3):
        organiser.goto(session_url)
        organiser.get_by_role("button", name=f"Draw round {number}").click()
        expect(organiser.get_by_role("heading", level=1)).to_have_text(f"Round {number}")
        expect(organiser.get_by_test_id("seed")).to_have_text(re.compile(r"^\d+$"))
        links = organiser.locator("a.table-line__link")
        expect(links).to_have_count(6)  # 13 players: five 2-player tables and one of 3
        game_urls = [
            base + href for href in links.evaluate_all("ls => ls.map(l => l.getAttribute('href'))")
        ]
        for url in game_urls:
            game = Game.objects.get(pk=int(url.rstrip("/").split("/")[-1]))
            scores = random_scores(rng, game.side_count)
            organiser.goto(url)
            for side, score in enumerate(scores):
                organiser.locator(f"#id_side_{side}").fill(str(score))
            organiser.get_by_role("button", name="Enter result").click()
            expect(organiser.get_by_role("status")).to_contain_text("Result entered")
            entered[game.pk] = scores
            at_pats_table = game.seats.filter(player=pat).exists()
            who = player if at_pats_table else confirmer
            who.goto(url)
            who.get_by_role("button", name="Confirm this result").click()
            expect(who.get_by_role("status")).to_contain_text("result confirmed")
            if not at_pats_table:
                continue
            # The player confirms their own table and nothing else: elsewhere, no buttons.
            other = Game.objects.filter(round=game.round).exclude(seats__player=pat).first()
            player.goto(f"{base}/games/{other.pk}/")
            expect(player.get_by_role("button", name="Confirm this result")).to_have_count(0)
            expect(player.get_by_role("button", name="Enter result")).to_have_count(0)

    # The standings on the session page match a naive recount.
    organiser.goto(session_url + "#standings")
    rows = organiser.get_by_test_id("standings").locator("tbody tr")
    expect(rows).to_have_count(13)
    shown = {}
    for row in rows.all():
        cells = [cell.inner_text().strip() for cell in row.locator("td").all()]
        rank, name, points, won, lost, spread = cells[:6]
        shown[name] = (int(points), int(won), int(lost), int(spread.replace("+", "")))
    assert shown == naive_standings(entered)
    assert sum(row[3] for row in shown.values()) == 0
    points_in_order = [int(c) for c in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert points_in_order == sorted(points_in_order, reverse=True)
    screenshot(organiser, "session-after-three-rounds-phone")
    assert Session.objects.get(date=thursday).rounds.count() == 3
    print(f"\nThursday browser test took {time.monotonic() - started:.1f} s")
