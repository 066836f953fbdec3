"""An organiser withdraws a round drawn by mistake from the round page, through its confirm
step, then draws it again (docs/spec.md "A Thursday, step by step", step 3)."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from club import services
from club.models import Club, Player
from games.models import Round
from tests.browser.test_foundation import log_in
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(transactional_db):
    load_demo(season=False)


@pytest.mark.parametrize("width", [390, 1280], ids=["phone", "desktop"])
def test_an_organiser_withdraws_a_round_and_draws_it_again(
    browser, live_server, demo, screenshot, width
):
    club = Club.objects.get()
    session = services.session_open(
        club=club, actor=None, date=timezone.localdate() + dt.timedelta(days=3)
    )
    for player in Player.objects.filter(club=club, active=True)[:6]:
        services.checkin_create(session=session, actor=None, player=player)
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, live_server.url, "organiser")
    expect(page.get_by_test_id("role")).to_have_text("organiser")

    page.goto(f"{live_server.url}/club/sessions/{session.pk}/")
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    seed = Round.objects.get(session=session).seed
    screenshot(page, f"round-withdraw-button-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.get_by_test_id("withdraw-round").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Withdraw round 1?")
    screenshot(page, f"round-withdraw-confirm-{width}")
    page.get_by_role("button", name="Withdraw round 1").click()
    expect(page.get_by_role("status")).to_contain_text(f"its seed ({seed})")
    assert not Round.objects.filter(session=session).exists()
    screenshot(page, f"round-withdrawn-session-{width}")

    page.get_by_role("button", name="Draw round 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    assert Round.objects.filter(session=session, number=1).exists()
    context.close()
