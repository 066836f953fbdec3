"""The claim form on a 390-pixel phone: the deal number and the labelled play rows show only while
"Play" is the kind chosen (static/js/claim-form.js), fit the phone, and a play claim filed through
them is saved; with JavaScript off they are a part to open."""

import datetime as dt

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club import services as club_services
from games import services as game_services
from scoring.models import Claim
from tests.browser.conftest import log_in
from tests.browser.test_table_link import RECORD_VIOLATIONS
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(transactional_db):
    organiser = UserFactory(role="organisers", username="olive")
    club = ClubFactory()
    PlayerFactory(club=club, user=organiser, display_name="Olive Ashdown")
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    players = [PlayerFactory(club=club, display_name=name) for name in ("Ann Able", "Bob Baker")]
    club_services.checkins_create(session=session, actor=organiser, players=players)
    return game_services.round_draw(session=session, actor=organiser, seed=3).games.get()


def open_form(browser, base, game, *, javascript=True):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, java_script_enabled=javascript
    )
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, base, "olive", PASSWORD)
    page.goto(base + reverse("scoring:claim_new", args=[game.pk]))
    return page


def test_the_play_rows_show_for_a_claim_in_the_play_only(browser, live_server, game, screenshot):
    page = open_form(browser, live_server.url, game)
    play = page.get_by_test_id("claim-play")
    kind = page.get_by_label("What was counted")
    kind.select_option("hand")
    expect(play).to_be_hidden()
    expect(page.get_by_label("Deal number")).to_be_hidden()
    kind.select_option("play")
    expect(play).to_be_visible()
    expect(page.get_by_label("Deal number")).to_be_visible()
    expect(page.get_by_label("Play 8: card")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("window.__cspViolations") == []
    screenshot(page, "claim-form-play-phone")

    page.get_by_label("Claimed by").select_option(label="Bob Baker")
    page.get_by_label("Points claimed").fill("2")
    page.get_by_label("Deal number").fill("4")
    page.get_by_label("Play 1: who").select_option(label="Ann Able")
    page.get_by_label("Play 1: card").fill("10H")
    page.get_by_label("Play 2: who").select_option(label="Bob Baker")
    page.get_by_label("Play 2: card").fill("5S")
    page.get_by_role("button", name="File the claim").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Claim")
    claim = Claim.objects.get()
    assert (claim.kind, claim.deal, claim.claimed_points) == ("play", 4, 2)
    page.context.close()


def test_without_javascript_the_play_rows_are_a_part_to_open(browser, live_server, game):
    page = open_form(browser, live_server.url, game, javascript=False)
    expect(page.get_by_label("Deal number")).to_be_hidden()
    page.get_by_text("A claim in the play: the deal and the cards of the count").click()
    expect(page.get_by_label("Deal number")).to_be_visible()
    expect(page.get_by_label("Play 1: who")).to_be_visible()
    page.context.close()
