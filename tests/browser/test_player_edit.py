"""An organiser fixes one player's nickname in the browser and nothing else of the player
changes: the page opens with the player as stored (it once opened empty, so saving blanked the
name and marked the player inactive), and it shows the login without offering to change it."""

import pytest
from playwright.sync_api import expect

from club.models import Player
from tests.browser.test_foundation import log_in
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(transactional_db):
    load_demo(season=False)


def test_editing_the_nickname_keeps_every_other_field(page, live_server, demo, screenshot):
    player = Player.objects.select_related("user").get(user__username="player")
    before = (player.display_name, player.user_id, player.active, player.joined)
    log_in(page, live_server.url, "organiser")
    expect(page.get_by_test_id("role")).to_have_text("organiser")

    page.goto(f"{live_server.url}/club/players/{player.pk}/edit/")
    expect(page.locator("#id_display_name")).to_have_value(player.display_name)
    expect(page.get_by_test_id("login-page-link")).to_be_visible()
    expect(page.locator("#id_login")).to_have_count(0)
    screenshot(page, "player-edit-phone")
    page.get_by_label("Nickname").fill("The Peg")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_contain_text("saved")

    player.refresh_from_db()
    assert player.nickname == "The Peg"
    assert (player.display_name, player.user_id, player.active, player.joined) == before
