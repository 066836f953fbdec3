"""Confirming a jackpot hand's cards in the browser, on the demo club (docs/spec.md "Claims,
muggins and disputes": "A 29, 28 or 24 wins its jackpot when accepted as claimed (or upheld by a
judge) and a player of another side at the table (or a judge who is not a party) has confirmed the
cards").

Pat (the demo player) holds the 29 (hoyle.txt "Showing": three fives and the knave of the
starter's suit, a five turned up) at a session that runs the 29 jackpot; his own page says it
waits for the other side; Olive, his opponent, sees the confirm button on the game page's claims
panel (desktop and phone screenshots), presses it, and both then read "cards confirmed by Olive
Ashdown".
"""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from club import services as club_services
from club.models import Club, Player
from games import services as game_services
from games.models import Seat
from scoring import services as scoring_services
from tests.browser.test_disputes import log_in
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)

BUTTON = "I have seen the cards: confirm"


@pytest.fixture
def twenty_nine(transactional_db):
    load_demo(season=False)
    organiser = get_user_model().objects.get(username="organiser")
    Club.objects.update(jackpot_29_cents=25)  # before the session snapshots the rules
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
    return scoring_services.claim_file(
        game=pat_seat.game,
        actor=pat.user,
        kind="hand",
        claimant=pat,
        claimed_points=29,
        hand="5H 5C 5S JD",
        starter="5D",
    )


def test_the_other_side_confirms_a_29(browser, live_server, twenty_nine, screenshot):
    base = live_server.url
    game_url = f"{base}/games/{twenty_nine.game_id}/#claims"
    pat = log_in(browser, base, "player")
    olive = log_in(browser, base, "organiser")

    pat.goto(game_url)
    expect(pat.get_by_test_id("cards-waiting")).to_contain_text("waiting for the other side")
    expect(pat.get_by_role("button", name=BUTTON)).to_have_count(0)

    olive.goto(game_url)
    expect(olive.get_by_role("button", name=BUTTON)).to_be_visible()
    olive.locator("#claims").scroll_into_view_if_needed()
    screenshot(olive, "confirm-cards-phone")
    olive.set_viewport_size({"width": 1280, "height": 900})
    screenshot(olive, "confirm-cards-desktop")
    olive.get_by_role("button", name=BUTTON).click()

    expect(olive.get_by_role("status")).to_contain_text("Cards confirmed: 5H 5C 5S JD 5D")
    expect(olive.get_by_test_id("cards-confirmed")).to_contain_text(
        "cards confirmed by Olive Ashdown"
    )
    screenshot(olive, "confirm-cards-done-desktop")
    pat.reload()
    expect(pat.get_by_test_id("cards-confirmed")).to_contain_text("cards confirmed by Olive")
    screenshot(pat, "confirm-cards-done-phone")
    twenty_nine.refresh_from_db()
    assert twenty_nine.cards_confirmed_by.username == "organiser"
