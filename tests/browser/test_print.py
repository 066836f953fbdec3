"""The printed pages on paper: the seating chart, the payout sheet and the disputes report each
print on one sheet of Letter and of A4, for the demo club's sessions and for bigger ones; the chart
fills its sheet with names read from across the room and QR codes a phone reads; the brand and the
footer start at the content's left edge.

Terms: *sheet* is one page of the PDF Chromium prints (`page.pdf`, the page's own `@page` margins
of 12 mm); *page area* the sheet inside those margins, which is the viewport each print-media
screenshot is taken at (Letter 192 x 255 mm, A4 186 x 273 mm), so the screenshot shows what lands
on the sheet. Screenshots (`print-<page>-<paper>.png`), PDFs and what was measured
(`print-<page>.json`) go to .artifacts/ when PEGBOARD_SHOTS=1. The organiser logs in through
the login page and sees the chart with its table links' QR codes.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from club import services as club_services
from club.models import Club, Session
from games import services as game_services
from money.services import session_settle
from tests.browser.conftest import keep_file, keep_shot, log_in
from tests.browser.crawl_world import PASSWORD, build_world
from tests.builders import run_session
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

MM = 96 / 25.4  # CSS pixels in a millimetre
PT = 96 / 72  # CSS pixels in a point
MARGIN_MM = 12  # print.css: @page { margin: 12mm }
PAPERS = {"Letter": (215.9, 279.4), "A4": (210, 297)}
# More members for the big sessions, with names as long as a club's get.
NAMES = [
    "Agnes Abernathy",
    "Beatrice Okonkwo",
    "Bernard Henderson",
    "Clara O'Sullivan",
    "Desmond Vanderberg",
    "Edith Etheridge",
    "Fergus Lindqvist",
    "Gwen Sutherland",
    "Harold Blackwood",
    "Ingrid Iverson",
    "Jasper Pemberton",
    "Kathleen Whitlock",
    "Leonard Fairweather",
    "Muriel MacDonald",
    "Norman Thibodeaux",
    "Oswald Castellano",
    "Phyllis Jablonski",
    "Quentin Quigley",
    "Rosalind Yarborough",
    "Stanley Gallagher",
    "Theodora Northcott",
    "Ursula Underwood",
    "Victor Donnelly",
    "Winifred Kowalczyk",
    "Yvonne Rasmussen",
]


def pdf_pages(pdf: bytes) -> int:
    """The number of pages in a PDF: its /Type /Page objects (not the /Pages tree)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def print_sheets(page, base: str, path: str, name: str) -> dict:
    """Open `path`, print it on Letter and on A4 and hold it to one sheet each; what was measured
    under print media, by paper."""
    page.goto(base + path)
    page.emulate_media(media="print")
    measured = {}
    for paper, (width, height) in PAPERS.items():
        area = {"width": round((width - 2 * MARGIN_MM) * MM), "height": round((height - 24) * MM)}
        page.set_viewport_size(area)
        keep_shot(page, f"print-{name}-{paper}")
        pdf = page.pdf(format=paper)
        keep_file(f"print-{name}-{paper}.pdf", pdf)
        assert pdf_pages(pdf) == 1, f"{name} prints on {pdf_pages(pdf)} sheets of {paper}"
        measured[paper] = page.evaluate(MEASURE)
        measured[paper]["sheets"] = pdf_pages(pdf)
        # Nothing wider than the sheet (Chromium would shrink the whole page to fit it).
        assert measured[paper]["scroll_width"] <= area["width"], (name, paper)
        # The brand and the footer line up with the content: no indent of their own.
        edges = measured[paper]["left"]
        assert abs(edges["brand"] - edges["content"]) < 0.5, (name, paper, edges)
        assert abs(edges["footer"] - edges["content"]) < 0.5, (name, paper, edges)
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 1280, "height": 900})
    keep_file(f"print-{name}.json", json.dumps(measured, indent=1))
    return measured


MEASURE = """() => {
  const box = s => document.querySelector(s)?.getBoundingClientRect();
  const size = e => parseFloat(getComputedStyle(e).fontSize);
  const all = s => [...document.querySelectorAll(s)];
  const names = document.querySelector('.seat-card__players');
  const codes = all('.seat-card__code svg').map(e => e.getBoundingClientRect().width);
  return {
    scroll_width: document.documentElement.scrollWidth,
    page_height: innerHeight,
    left: {brand: box('.site-header__brand').left, footer: box('.site-footer').left,
           content: box('main h1').left},
    footer_bottom: box('.site-footer').bottom,
    names_px: names && size(names),
    smallest_name_px: names && Math.min(...all('.seat-card__players li').map(size)),
    code_px: codes.length ? Math.min(...codes) : null,
  };
}"""


@pytest.fixture
def organiser_browser(browser, live_server):
    """Logs the organiser in, in a desktop browser, once the test's world is built."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})

    def log_in_page():
        page = context.new_page()
        page.set_default_timeout(10_000)
        log_in(page, live_server.url, "organiser", PASSWORD)
        return page

    yield log_in_page
    context.close()


def assert_wall_chart(measured: dict, *, names_pt: float, smallest_pt: float) -> None:
    """The chart's names at least `names_pt` (a long name, or one of three at a table, at least
    `smallest_pt`), every QR code at least 3 cm, and the chart the whole sheet: its footer at the
    foot of the page area."""
    for paper, facts in measured.items():
        assert facts["names_px"] >= names_pt * PT - 0.01, (paper, facts["names_px"] / PT)
        assert facts["smallest_name_px"] >= smallest_pt * PT - 0.01, (paper, facts)
        assert facts["code_px"] >= 30 * MM, (paper, facts["code_px"] / MM)
        assert facts["footer_bottom"] >= facts["page_height"] - 2, (paper, facts)


def test_the_demo_clubs_pages_print_on_one_sheet(organiser_browser, live_server):
    world = build_world()
    busiest = (
        Session.objects.annotate(claims=Count("rounds__games__claims"))
        .order_by("-claims", "date")
        .first()
    )
    assert busiest.claims >= 8  # the demo season's busiest report
    page, base = organiser_browser(), live_server.url

    chart = print_sheets(page, base, world.pages["games:round_print"], "seating-chart-demo")
    expect(page.locator(".seat-card svg.qr")).to_have_count(5)  # ten players, five tables
    # Names read from three metres: 32 pt on both papers (five tables, two columns).
    assert_wall_chart(chart, names_pt=28, smallest_pt=28)

    print_sheets(page, base, world.pages["money:settlement@settled"], "payout-sheet-demo")
    print_sheets(page, base, world.pages["scoring:session_report@ruled"], "disputes-report-demo")
    print_sheets(page, base, world.pages["scoring:session_report@open"], "disputes-report-today")
    path = reverse("scoring:session_report", args=[busiest.pk])
    print_sheets(page, base, path, "disputes-report-busiest")
    expect(page.locator(".report-item")).to_have_count(busiest.claims)


def test_big_sessions_pages_print_on_one_sheet(organiser_browser, live_server):
    """32 and 40 players: the chart of round 1 (16 and 20 tables) and a settled session's payout
    sheet (four rounds, a skunk in about one game of eight)."""
    build_world()  # the demo club, with its side pots and today's session
    club = Club.objects.get(slug="thursday-peggers")
    users = get_user_model().objects
    organiser, confirmer = users.get(username="organiser"), users.get(username="organiser2")
    for name in NAMES:
        PlayerFactory(club=club, display_name=name)
    assert club.players.filter(active=True).count() >= 40
    today = timezone.localdate()
    rounds, settled = {}, {}
    for players in (40, 32):
        rounds[players] = draw(club, organiser, players, free_date(club, today + dt.timedelta(1)))
        settled[players] = run_session(
            club,
            organiser,
            confirmer,
            players=players,
            rounds=4,
            date=free_date(club, today - dt.timedelta(1), step=-1),
            seed=players,
            scores=realistic_scores(random.Random(players)),
        )
        session_settle(session=settled[players], actor=organiser, seed=players)
    page, base = organiser_browser(), live_server.url

    names_pt = {32: (14, 11), 40: (12, 8.5)}  # as large as fits; a long name a little smaller
    for players, (typical, smallest) in names_pt.items():
        path = reverse("games:round_print", args=[rounds[players].pk])
        chart = print_sheets(page, base, path, f"seating-chart-{players}")
        expect(page.locator(".seat-card svg.qr")).to_have_count(players // 2)
        assert_wall_chart(chart, names_pt=typical, smallest_pt=smallest)

        path = reverse("money:settlement", args=[settled[players].pk])
        print_sheets(page, base, path, f"payout-sheet-{players}")
        expect(page.get_by_test_id("steps")).to_contain_text(f"{players} players")


def free_date(club, date: dt.date, step: int = 1) -> dt.date:
    """`date`, or the first day from it (going by `step` days) without a session of the club."""
    while Session.objects.filter(club=club, date=date).exists():
        date += dt.timedelta(days=step)
    return date


def draw(club, organiser, players: int, date: dt.date):
    """A session of `players` (the club's first, by name) with round 1 drawn."""
    session = club_services.session_open(club=club, actor=organiser, date=date)
    for player in club.players.filter(active=True).order_by("display_name")[:players]:
        club_services.checkin_create(session=session, actor=organiser, player=player)
    return game_services.round_draw(session=session, actor=organiser, seed=players)


def realistic_scores(rng: random.Random):
    """A game's scores as a club's go: the winner 121, a loser 91 to 120, skunked (61 to 90)
    about one game in eight and double-skunked one in fifty."""

    def scores(game) -> list[int]:
        roll = rng.random()
        if roll < 0.02:
            losing = (40, 60)
        elif roll < 0.14:
            losing = (61, 90)
        else:
            losing = (91, 120)
        these = [rng.randint(*losing) for _ in range(game.side_count)]
        these[rng.randrange(game.side_count)] = 121
        return these

    return scores
