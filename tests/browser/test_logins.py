"""Logins in the browser: a club started with `club_create`, its organiser's welcome link, a player
given a login on a phone with the link and its QR code shown, the player setting a password in a
second browser (and the link dead after), and a forgotten password. Screenshots of the login page
(phone, desktop, print) and the welcome page go to .artifacts/."""

import io
import re
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from club.models import LoginLink, Player
from club.services import player_create
from tests.browser.conftest import keep_file
from web.role_groups import sync_roles

pytestmark = pytest.mark.django_db(transaction=True)

ORGANISER_PASSWORD = "riverside-organiser-7"
PLAYER_PASSWORD = "pat-plays-cribbage-3"
NEW_PASSWORD = "pat-forgot-it-again-5"


@pytest.fixture
def started(transactional_db):
    """A club made by the command, as a real club starts; the welcome link's path."""
    sync_roles()  # the transactional flush removed the role groups
    out = io.StringIO()
    call_command(
        "club_create",
        "--name", "Riverside Cribbage", "--slug", "riverside",
        "--organiser", "olive", "--organiser-name", "Olive Ashdown",
        stdout=out,
    )  # fmt: skip
    return urlsplit(out.getvalue().splitlines()[-1]).path


def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def set_password(page, password: str) -> None:
    page.get_by_label("New password:", exact=True).fill(password)
    page.get_by_label("New password confirmation:").fill(password)
    page.get_by_role("button", name="Set my password and log in").click()


def shown_link(page) -> str:
    link = page.get_by_test_id("handover-link")
    expect(link).to_be_visible()
    return link.inner_text()


def test_an_organiser_hands_a_player_a_login_on_a_phone(
    page, browser, live_server, started, screenshot
):
    base = live_server.url
    # The organiser opens the link club_create printed and sets a password.
    page.goto(base + started)
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome to Riverside Cribbage")
    expect(page.get_by_label("Your username")).to_have_value("olive")
    screenshot(page, "logins-welcome-phone")
    set_password(page, ORGANISER_PASSWORD)
    expect(page.get_by_test_id("role")).to_have_text("organiser")
    expect(page.get_by_role("status")).to_contain_text("you are logged in as olive")

    pat = player_create(
        club=Player.objects.get(user__username="olive").club, actor=None, display_name="Pat Cowley"
    )
    # From the roster, the player's Login link.
    page.goto(f"{base}/club/players/")
    page.get_by_role("link", name="Login of Pat Cowley").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Login of Pat Cowley")
    expect(page.get_by_label("Username")).to_have_value("pat.cowley")
    page.get_by_label("Role").select_option("player")
    page.get_by_role("button", name="Give a login").click()

    expect(page.get_by_test_id("handover")).to_be_visible()
    expect(page.get_by_test_id("handover-qr").locator("svg.qr")).to_be_visible()
    expect(page.get_by_test_id("local-only")).to_be_visible()  # the live server is localhost
    url = shown_link(page)
    assert re.fullmatch(rf"{re.escape(base)}/welcome/[A-Za-z0-9_-]{{32}}/", url)
    qr_box = page.get_by_test_id("handover-qr").locator("svg").bounding_box()
    assert qr_box["width"] >= 250  # big enough to scan from across a table
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "logins-player-login-phone")

    # Print: only the handover sheet, on one page, the QR code large.
    page.emulate_media(media="print")
    screenshot(page, "logins-player-login-print")
    pdf = page.pdf(format="A4")  # in print media, as emulated
    keep_file("logins-handover.pdf", pdf)
    page.emulate_media(media="screen")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1

    # The same page at a desktop width, once the link has been shown: it is not shown again.
    page.set_viewport_size({"width": 1280, "height": 900})
    page.reload()
    expect(page.get_by_test_id("handover")).to_have_count(0)
    expect(page.get_by_test_id("live-link")).to_contain_text("Waiting to be used: made")
    screenshot(page, "logins-player-login-desktop")

    # The player opens the link on their own phone and sets a password.
    player_page = phone(browser)
    player_page.goto(url)
    expect(player_page.get_by_label("Your username")).to_have_value("pat.cowley")
    set_password(player_page, PLAYER_PASSWORD)
    expect(player_page.get_by_test_id("role")).to_have_text("player")
    expect(player_page.get_by_test_id("account-link")).to_have_text("Pat Cowley")

    # The link is dead now.
    player_page.goto(url)
    expect(player_page.get_by_test_id("dead-link")).to_contain_text("This link was used already")
    expect(player_page.get_by_label("New password:", exact=True)).to_have_count(0)
    screenshot(player_page, "logins-welcome-dead-phone")

    # Forgotten password: the organiser makes a new link, the player uses it.
    page.goto(f"{base}/club/players/{pat.pk}/login/")
    expect(page.get_by_test_id("live-link")).to_contain_text("None waiting")
    page.get_by_role("button", name="Make a new password link").click()
    expect(page.get_by_test_id("handover")).to_contain_text("A new password for Pat Cowley")
    reset = shown_link(page)
    assert reset != url
    player_page.goto(reset)
    expect(player_page.get_by_role("heading", level=1)).to_have_text("Set a new password")
    set_password(player_page, NEW_PASSWORD)
    expect(player_page.get_by_test_id("role")).to_have_text("player")
    player_page.goto(reset)
    expect(player_page.get_by_test_id("dead-link")).to_be_visible()
    assert LoginLink.objects.filter(used_at__isnull=False).count() == 3

    # The player changes their own password from the header's link and stays logged in.
    player_page.goto(base)
    player_page.get_by_test_id("account-link").click()
    player_page.get_by_label("Current password").fill(NEW_PASSWORD)
    player_page.get_by_label("New password:", exact=True).fill(PLAYER_PASSWORD + "x")
    player_page.get_by_label("New password again").fill(PLAYER_PASSWORD + "x")
    player_page.get_by_role("button", name="Change my password").click()
    expect(player_page.get_by_role("status")).to_contain_text("Your password is changed.")
    player_page.get_by_label("New PIN (4 digits)").fill("2580")
    player_page.get_by_role("button", name="Set my PIN").click()
    expect(player_page.get_by_test_id("pin-state")).to_contain_text("set")
    screenshot(player_page, "logins-account-phone")
    player_page.context.close()
