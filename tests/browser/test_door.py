"""Check-in at the door on a phone: "Mark paid" is whole on the screen, the page stays where it is
after each payment, and the name box keeps focus after each check-in (so the phone's keyboard stays
open). Without scripts the page comes back at the row just paid and at the name box, focused."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from club import services as club_services
from club.models import Club
from tests.browser.conftest import log_in
from tests.browser.test_thursday import EXISTING
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = EXISTING[1:10]  # nine of the demo club, Judith Barrow to Jack Jennings


@pytest.fixture
def session(transactional_db):
    load_demo(season=False)
    club = Club.objects.get(slug="thursday-peggers")
    organiser = get_user_model().objects.get(username="organiser")
    return club_services.session_open(club=club, actor=organiser, date=timezone.localdate())


def organiser_page(browser, base: str, *, scripts: bool = True):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, java_script_enabled=scripts
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, base, "organiser")
    return page


def test_nine_players_at_the_door_on_a_phone(browser, live_server, session, screenshot):
    page = organiser_page(browser, live_server.url)
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/")
    name_box = page.get_by_label("Player:", exact=True)
    name_box.click()
    for name in NAMES:
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        expect(page.locator(f'tr[data-player="{name}"]')).to_be_visible()
        expect(page.get_by_role("status")).to_contain_text(f"{name} checked in")
        # Focus stays in the (emptied) name box: typing the next name needs no tap.
        assert page.evaluate("document.activeElement.id") == "id_name"
        assert page.evaluate("document.activeElement.value") == ""

    # Every "Mark paid" is whole: inside the screen, its words not cut.
    for name in NAMES:
        button = page.get_by_role("button", name=f"Mark {name} paid")
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, name
        assert box["height"] >= 44
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth"), name
        expect(button).to_have_text("Mark paid")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "door-checked-in-phone")

    # Paying down the list: the page stays where the organiser is.
    for name in NAMES[4:]:
        button = page.get_by_role("button", name=f"Mark {name} paid")
        button.scroll_into_view_if_needed()
        before = page.evaluate("window.scrollY")
        button.click()
        row = page.locator(f'tr[data-player="{name}"]')
        expect(row).to_contain_text("Paid")
        assert abs(page.evaluate("window.scrollY") - before) < 5, name
    screenshot(page, "door-paid-phone")


def test_without_scripts_the_page_comes_back_where_the_organiser_was(browser, live_server, session):
    page = organiser_page(browser, live_server.url, scripts=False)
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/")
    for name in NAMES[:3]:
        page.get_by_label("Player:", exact=True).fill(name)
        page.get_by_role("button", name="Check in").click()
        expect(page.locator(f'tr[data-player="{name}"]')).to_be_visible()
        # autofocus: the browser moves there at its first paint after the page loads.
        expect(page.locator("#id_name")).to_be_focused()
    page.get_by_role("button", name=f"Mark {NAMES[2]} paid").click()
    checkin = session.checkins.get(player__display_name=NAMES[2])
    assert page.url.endswith(f"#checkin-{checkin.pk}")
    expect(page.locator(f"#checkin-{checkin.pk}")).to_contain_text("Paid")
    top, bottom = page.locator(f"#checkin-{checkin.pk}").evaluate(
        "row => { const r = row.getBoundingClientRect(); return [r.top, r.bottom]; }"
    )
    assert top >= -1 and bottom <= 844, (top, bottom, page.evaluate("window.scrollY"))
