"""Read at arm's length on a phone (390 px wide): a long name is shown whole, wrapped and never
cut, on the live board, the round page and the table page. (That every tap target of every page
each role sees is at least 44 × 44 CSS px, WCAG 2.5.5, with WCAG 2.5.8's inline exception for a
link inside a paragraph of running text, is checked by the crawl, tests/browser/test_crawl.py,
with the measure of tests/browser/tap_targets.js.) A name is
*whole* when its element shows all of its text: no ellipsis, nothing hidden by an overflow, the
element no wider than its box (scrollWidth <= clientWidth) and inside the screen.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Player
from tests.browser.conftest import log_in
from tests.browser.crawl_world import PASSWORD
from tests.web.test_board import Morning

pytestmark = pytest.mark.django_db(transaction=True)

LONG_NAME = "Bartholomew Featherstonehaugh-Smythe"
# Every element whose own text holds the name, and whether it shows it whole.
NAME_SHOWN = """
(name) => {
  const out = [];
  const all = [...document.body.querySelectorAll("*")].filter(
    (el) => el.textContent.replace(/\\s+/g, " ").includes(name)
  );
  const deepest = all.filter((el) => ![...el.children].some((c) => all.includes(c)));
  for (const el of deepest) {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    // Not shown: inside a closed <details>, hidden, or text for screen readers only.
    if (!el.checkVisibility({visibilityProperty: true}) || el.closest(".visually-hidden")) continue;
    const faults = [];
    if (!el.innerText.replace(/\\s+/g, " ").includes(name)) faults.push("text cut");
    if (s.textOverflow === "ellipsis" && s.overflowX !== "visible") faults.push("ellipsis");
    if (el.scrollWidth > el.clientWidth + 1) {
      faults.push(`${el.scrollWidth} px in ${el.clientWidth}`);
    }
    if (r.left < -1 || r.right > window.innerWidth + 1) faults.push("outside the screen");
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const ps = getComputedStyle(p);
      const pr = p.getBoundingClientRect();
      if (ps.overflowX === "hidden" && (r.right > pr.right + 1 || r.left < pr.left - 1)) {
        faults.push(`cut by ${p.tagName.toLowerCase()}.${p.classList[0] || ""}`);
      }
    }
    out.push({where: `${el.tagName.toLowerCase()}.${el.classList[0] || ""}`, faults});
  }
  return out;
}
"""


def test_a_long_name_is_shown_whole_on_a_phone(browser, live_server, club, page):
    """ "Bartholomew Featherstonehaugh-Smythe" at a table still playing: the board's table card,
    the round page's table line and the table page show every letter of it, wrapped."""
    morning = Morning(club, players=8, claims=False)
    game = morning.games[-1]
    player = game.seats.order_by("position").first().player
    Player.objects.filter(pk=player.pk).update(display_name=LONG_NAME)
    morning.organiser.set_password(PASSWORD)
    morning.organiser.save()
    log_in(page, live_server.url, morning.organiser.username, PASSWORD)
    pages = {
        "board": reverse("web:board", args=[morning.session.pk]),
        "round": reverse("games:round", args=[morning.round.pk]),
        "table": reverse("table:page", args=[game.table_token]),
    }
    faults = []
    for label, path in pages.items():
        page.goto(live_server.url + path)
        shown = page.evaluate(NAME_SHOWN, LONG_NAME)
        if not shown:
            faults.append(f"{label}: the name is not on the page")
        faults += [f"{label}: {s['where']}: {', '.join(s['faults'])}" for s in shown if s["faults"]]
    assert not faults, "\n".join(faults)
