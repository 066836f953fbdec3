"""Claims, muggins and a disputed ruling in the browser, on the demo club, from claim to ruling.

Pat (the demo player) claims 12 for a hand that counts 14 and Olive, his opponent, calls muggins
for 2 and gains 2; Olive claims 10 for a crib worth 8 and is corrected; Pat disputes a play claim,
a judge rules, Pat appeals, a second judge rules finally; the session's disputes report shows all
three with their breakdowns. The session itself is set up through the services (the Thursday
browser test covers doing that by hand).
"""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from club import services as club_services
from club.models import Club, Player
from games import services as game_services
from games.models import Seat
from tests.browser.conftest import go_to
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


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


@pytest.fixture
def demo_table(transactional_db):
    """A drawn round of the demo club where Pat and Olive are opponents; judges not playing."""
    load_demo(season=False)
    users = get_user_model().objects
    organiser = users.get(username="organiser")
    club = Club.objects.get()
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    judges = ["Judith Barrow", "Opal Ortiz"]
    for player in club.players.filter(active=True).exclude(display_name__in=judges):
        club_services.checkin_create(session=session, actor=organiser, player=player)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=11)
    pat = Player.objects.get(display_name="Pat Cowley")
    olive = Player.objects.get(display_name="Olive Ashdown")
    pat_seat = Seat.objects.get(round=round_, player=pat)
    opponent = pat_seat.game.seats.exclude(side=pat_seat.side).first()
    if opponent.player != olive:
        game_services.round_swap_seats(
            round_=round_, player_a=olive, player_b=opponent.player, actor=organiser
        )
    return {"session": session, "game": pat_seat.game, "pat": pat, "olive": olive}


def file_claim(page, base, game, *, kind, points, hand="", starter="", plays=()):
    page.goto(f"{base}/games/{game.pk}/")
    page.get_by_role("link", name="File a claim").click()
    page.get_by_label("What was counted").select_option(kind)
    page.get_by_label("Points claimed").fill(str(points))
    if hand:
        page.get_by_label("Hand or crib:").fill(hand)
    if starter:
        page.get_by_label("Starter:").fill(starter)
    for row, (player, card) in enumerate(plays, start=1):
        page.get_by_label(f"Play {row}: who").select_option(label=player)
        page.get_by_label(f"Play {row}: card").fill(card)
    page.get_by_role("button", name="File the claim").click()


def test_muggins_a_correction_and_an_appealed_ruling(browser, live_server, demo_table, screenshot):
    base, game = live_server.url, demo_table["game"]
    pat = log_in(browser, base, "player")
    olive = log_in(browser, base, "organiser")

    # 1. Pat claims 12 for a hand worth 14; Olive calls muggins for 2 and gains 2.
    file_claim(pat, base, game, kind="hand", points=12, hand="2S QD AD 2H", starter="3S")
    expect(pat.get_by_test_id("claim-outcome")).to_contain_text("2 overlooked")
    expect(pat.get_by_test_id("claim-spoken")).to_contain_text("double run makes 14")
    claim_url = pat.url
    olive.goto(claim_url)
    olive.get_by_label("Called by").select_option(label="Olive Ashdown")
    olive.get_by_label("Muggins for").fill("2")
    olive.get_by_role("button", name="Call muggins").click()
    expect(olive.get_by_role("status")).to_contain_text("muggins for 2 takes 2")
    row = olive.locator("table.side-points tr", has_text="Olive Ashdown")
    expect(row.locator("td").nth(1)).to_have_text("2")

    # 2. Olive claims 10 for a crib worth 8 and is corrected to 8.
    file_claim(olive, base, game, kind="crib", points=10, hand="AS 7H 7C 8D", starter="QH")
    expect(olive.get_by_test_id("claim-outcome")).to_contain_text("corrected to 8")

    # 3. Pat claims 5 in the play for 7 then 8 (fifteen 2) and disputes the correction.
    file_claim(
        pat,
        base,
        game,
        kind="play",
        points=5,
        plays=[("Olive Ashdown", "7D"), ("Pat Cowley", "8S")],
    )
    expect(pat.get_by_test_id("claim-outcome")).to_contain_text("corrected to 2")
    pat.get_by_label("What you do not accept").fill("I count a run as well as the fifteen.")
    pat.get_by_role("button", name="Open a dispute").click()
    expect(pat.get_by_test_id("dispute-state")).to_contain_text("Open")
    play_claim_url = pat.url

    judge = log_in(browser, base, "judge")
    go_to(judge, "Disputes")
    item = judge.get_by_test_id("queue-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Fifteen 2")
    expect(item.locator(".pcard--red").first).to_be_visible()  # cards drawn in colour
    screenshot(judge, "judges-queue-phone")
    item.get_by_role("link", name="Rule").click()
    judge.get_by_role("button", name="Agree with the engine").click()
    expect(judge.get_by_role("status")).to_contain_text("agrees with the engine")

    pat.goto(play_claim_url)
    pat.get_by_label("What you do not accept").fill("A run of two is not a run, but 7-8 is 15.")
    pat.get_by_role("button", name="Appeal").click()
    expect(pat.get_by_test_id("dispute-state")).to_contain_text("Appealed")

    judge.goto(play_claim_url)  # the first judge cannot hear the appeal
    expect(judge.get_by_role("button", name="Agree with the engine")).to_have_count(0)
    judge2 = log_in(browser, base, "judge2")
    judge2.goto(play_claim_url)
    judge2.get_by_label("Points to Pat Cowley").fill("3")
    judge2.get_by_label("Points to Olive Ashdown").fill("0")
    judge2.get_by_role("button", name="Override with these points").click()
    expect(judge2.locator(".field--error, .form-errors")).to_contain_text("why")
    judge2.get_by_label("Points to Pat Cowley").fill("3")
    judge2.get_by_label("Points to Olive Ashdown").fill("0")
    judge2.get_by_label("Reason").fill("Fifteen 2 and one for the go that followed.")
    judge2.get_by_role("button", name="Override with these points").click()
    expect(judge2.get_by_role("status")).to_contain_text("final")
    expect(judge2.get_by_test_id("dispute-state")).to_contain_text("Final")

    # 4. The session's report shows all three claims with their breakdowns.
    judge2.goto(f"{base}/scoring/sessions/{demo_table['session'].pk}/disputes/")
    report = judge2.locator("article.report-item")
    expect(report).to_have_count(3)
    expect(report.nth(0)).to_contain_text("double run makes 14")
    expect(report.nth(0)).to_contain_text("Muggins for 2 called by Olive Ashdown")
    expect(report.nth(1)).to_contain_text("corrected to 8")
    expect(report.nth(1)).to_contain_text("Fifteen 2, fifteen 4, fifteen 6 and a pair makes 8")
    expect(report.nth(2)).to_contain_text("Appeal ruling (final)")
    expect(report.nth(2)).to_contain_text("Fifteen 2 and one for the go")
    assert judge2.evaluate("document.body.scrollWidth") <= 390  # readable on a phone
    screenshot(judge2, "disputes-report-phone")
