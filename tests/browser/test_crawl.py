"""Every page pattern for every role on a phone (390×844): the page never scrolls sideways, axe-core
finds no critical or serious violation, every tap target is at least 44 × 44 px (a link inside a
paragraph's sentence excepted, WCAG 2.5.8's inline exception: tap_targets.js), and no text is under
16 px.

Terms: the world and its page patterns are tests/browser/crawl_world.py's. A role visits every
pattern, whatever it answers (a 403 or 404 page is a page too, checked the first time each role
meets it, as is the login page a visitor is sent to); a test per role collects every failure of
every page and fails once with the list. `test_every_page_is_crawled` keeps the list whole: a
new page (a URL name some role gets a 200 from in tests/web/test_pages.py) without a pattern here
fails it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse

from club.models import Club
from tests.browser.conftest import keep_shot, log_in
from tests.browser.crawl_world import (
    LOGINS,
    NOT_CRAWLED,
    OTHER_CLUBS_PAGES,
    PASSWORD,
    ROLES,
    build_world,
)
from tests.web.test_pages import PAGES

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
SERIOUS = {"critical", "serious"}
ERROR_PAGES = {403, 404}
# What a page must not do on a phone, measured in the page: sideways scroll, small tap targets
# (a link inside a paragraph's sentence is exempt), text under 16 px. Visually hidden text
# (1 px boxes for screen readers) and SVG drawings are not text a person reads.
# PEGBOARD_CRAWL_SHOTS=1 keeps a full-page screenshot of every page visited, in .artifacts/crawl/.
SHOTS = os.environ.get("PEGBOARD_CRAWL_SHOTS") == "1"
MEASURE = (Path(__file__).parent / "measure.js").read_text()
TAP_TARGETS = (Path(__file__).parent / "tap_targets.js").read_text()


@pytest.fixture
def world(transactional_db):
    return build_world()


def log_in_as(page, base: str, role: str) -> None:
    if role in LOGINS:
        log_in(page, base, LOGINS[role], PASSWORD)


def check_page(page, axe: Axe, label: str) -> list[str]:
    """What is wrong with the page now showing, one line per fault."""
    faults = []
    measured = page.evaluate(MEASURE)
    if measured["width"] > PHONE["width"]:
        wide = ", ".join(measured.get("wide", []))
        faults.append(f"{label}: the page is {measured['width']} px wide ({wide})")
    faults += [f"{label}: tap target {t}" for t in page.evaluate(TAP_TARGETS)]
    faults += [f"{label}: text {t}" for t in measured["small_text"]]
    results = axe.run(page)
    for violation in results.response["violations"]:
        if violation["impact"] in SERIOUS:
            nodes = "; ".join(" ".join(n["target"]) for n in violation["nodes"][:3])
            faults.append(f"{label}: axe {violation['impact']} {violation['id']} at {nodes}")
    return faults


def crawl(
    browser, base: str, role: str, paths: dict[str, str], *, large_type: bool = False
) -> tuple[list[str], dict]:
    context = browser.new_context(viewport=PHONE)
    # axe-core loaded into every page of the context as it opens (the library would send its
    # half a megabyte of script again for every page checked): `axe.run` then only runs it.
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    page.set_default_timeout(15_000)
    axe = Axe(axe_script="void 0")
    faults, statuses = [], {}
    login = reverse("login")
    checked_once = set()  # the kinds of page checked the first time only
    try:
        log_in_as(page, base, role)
        for label, path in paths.items():
            response = page.goto(base + path)
            statuses[label] = response.status if response else None
            if response is None or response.status >= 500:
                faults.append(f"{label}: answered {statuses[label]}")
                continue
            # A member's page sends a visitor to the login page: the same page each time (but
            # for where it leads back to). A refusal is one template whatever was asked
            # (templates/403.html, 404.html). Each role checks its first of each.
            if page.url.split("?")[0] == base + login and not path.startswith(login):
                once = "sent to log in"
            else:
                once = statuses[label] if statuses[label] in ERROR_PAGES else None
            if once is not None:
                if once in checked_once:
                    continue
                checked_once.add(once)
            faults += check_page(page, axe, label)
            if large_type and statuses[label] == 200 and label not in OTHER_CLUBS_PAGES:
                size = page.evaluate("getComputedStyle(document.documentElement).fontSize")
                if size != "20px":
                    faults.append(f"{label}: large type is {size}, not 20px")
            name = label.replace(":", "-").replace("@", "-").replace("/", "_")
            keep_shot(page, f"crawl/{role}-{name}", asked=SHOTS)
    finally:
        context.close()
    return faults, statuses


@pytest.mark.parametrize("role", [*ROLES, "organiser+large_type", "table+large_type"])
def test_every_page_on_a_phone(browser, live_server, world, role):
    """Every role; the organiser and a table again with the club's "high contrast, large type"
    setting on (20 px text, 52 px targets): still nothing wider than the phone."""
    role, _, setting = role.partition("+")
    if setting:
        Club.objects.filter(slug="thursday-peggers").update(large_type=True)
    paths = world.pages if role != "table" else {p: p for p in world.table_paths}
    faults, statuses = crawl(browser, live_server.url, role, paths, large_type=bool(setting))
    print(f"{role}: {len(statuses)} pages: {json.dumps(statuses)}")
    assert not faults, f"{len(faults)} faults on {len(statuses)} pages:\n" + "\n".join(faults)


def test_every_page_is_crawled(transactional_db):
    world = build_world()
    crawled = {label.split("@")[0] for label in world.pages}
    pages = {name for name, row in PAGES.items() if 200 in row or "published" in row}
    assert pages - NOT_CRAWLED - crawled == set()


@pytest.mark.parametrize("role", ["public", "player", "judge", "organiser"])
def test_the_menu_button_reaches_every_link(browser, live_server, world, role):
    """On a phone the navigation folds into "Menu": closed, it hides the links; open, each is a
    full-width row at least 44 px tall; Escape closes it and gives focus back to the button. On
    a laptop there is no button and every link shows."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    log_in_as(page, live_server.url, role)
    page.goto(live_server.url + "/")
    nav = page.get_by_role("navigation", name="Main")
    toggle = page.get_by_role("button", name="Menu")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not nav.is_visible()
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    links = nav.get_by_role("link")
    count = links.count()
    assert count >= 4
    for n in range(count):
        box = links.nth(n).bounding_box()
        assert box and box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.keyboard.press("Escape")
    assert not nav.is_visible()
    assert page.evaluate("document.activeElement.dataset.navToggle") == ""
    page.set_viewport_size({"width": 1280, "height": 800})
    assert not toggle.is_visible()
    for n in range(count):
        assert links.nth(n).is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    context.close()
