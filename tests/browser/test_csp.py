"""The Content-Security-Policy in a real browser: an organiser of the demo club walks the main pages
and chromium reports no violation of the policy (no `securitypolicyviolation` event, no console
message about it); the hand counter still counts a hand with its script, and the print buttons and
the lock-outs page work without inline handlers."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club.models import Club, Player, Session, SessionState
from games.models import Game
from tests.browser.conftest import wait_until
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db(transaction=True)

# Runs before any script of each page: every violation is kept on the window to be read back.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture
def demo(transactional_db):
    load_demo()


def urls_to_visit() -> dict[str, str]:
    club = Club.objects.get()
    session = Session.objects.filter(club=club, state=SessionState.SETTLED).latest("date")
    game = Game.objects.filter(round__session=session).first()
    player = Player.objects.filter(club=club, checkins__session=session).first()
    return {
        "home": reverse("home"),
        "standings": reverse("standings:season"),
        "all-time": reverse("standings:all_time"),
        "session": reverse("web:session", args=[session.pk]),
        "game": reverse("games:game", args=[game.pk]),
        "round sheet": reverse("games:round_print", args=[game.round_id]),
        "player": reverse("standings:player", args=[player.pk]),
        "payout sheet": reverse("money:settlement", args=[session.pk]),
        "ledger": reverse("money:ledger"),
        "audit log": reverse("club:audit"),
        "lock-outs": reverse("web:lockouts"),
        "house rules": reverse("club:rules"),
        "hand counter": reverse("scoring:counter"),
    }


def test_the_main_pages_break_no_policy_and_the_counter_still_counts(
    browser, live_server, demo, screenshot
):
    urls = urls_to_visit()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    console = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))

    def violations() -> list[str]:
        return page.evaluate("window.__cspViolations")

    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill("pegboard-demo")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("role")).to_have_text("organiser")

    seen = {}
    for name, url in urls.items():
        response = page.goto(f"{live_server.url}{url}")
        assert response.status == 200, name
        assert "default-src 'self'" in response.headers["content-security-policy"], name
        page.wait_for_load_state("load")
        seen[name] = violations()
    assert not any(seen.values()), seen

    # The player page's charts are drawn (inline SVG with presentation attributes).
    page.goto(f"{live_server.url}{urls['player']}")
    expect(page.get_by_test_id("charts").locator("svg.chart")).to_have_count(2)
    assert page.evaluate("getComputedStyle(document.querySelector('.chart')).display") != "none"
    assert page.evaluate("getComputedStyle(document.body).marginTop") == "0px"  # the stylesheet

    # The payout sheet's print button works without an inline handler.
    page.goto(f"{live_server.url}{urls['payout sheet']}")
    page.evaluate("window.print = () => { window.__printed = true; }")
    page.get_by_role("button", name="Print for the cash box").click()
    assert page.evaluate("window.__printed") is True

    # The hand counter's script runs: tapping cards counts the hand without a reload.
    page.goto(f"{live_server.url}{urls['hand counter']}")
    page.evaluate("window.__sameDocument = true")
    for card in ("5H", "5C", "5S", "JD", "5D"):
        page.locator(f'button[data-card="{card}"]').click()
    expect(page.get_by_test_id("count-total")).to_have_text("29")
    assert page.evaluate("window.__sameDocument") is True
    assert violations() == []
    screenshot(page, "counter-under-csp-phone")

    refused = [line for line in console if "Content Security Policy" in line]
    assert not refused, refused
    context.close()


def test_an_inline_script_is_refused(browser, live_server, demo):
    """The policy is really enforced: a script written into the page is blocked and reported."""
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.goto(live_server.url)
    page.evaluate(
        """() => {
        const s = document.createElement("script");
        s.textContent = "window.__ran = true";
        document.body.appendChild(s);
        const p = document.createElement("p");
        p.setAttribute("style", "color: red");
        document.body.appendChild(p);
    }"""
    )
    wait_until(page, "() => window.__cspViolations.length >= 1")
    assert page.evaluate("window.__ran") is None
    assert any("script-src" in v for v in page.evaluate("window.__cspViolations"))
    context.close()
