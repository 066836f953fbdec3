"""The tournament's bracket and standings in a browser: on a wide screen, on a phone (the
rounds stacked, nothing wider than the screen) and printed: one landscape sheet up to 64 places,
two (the top half, then the bottom half and the final) for 128.

Terms: a bracket's places are its first round's seats, a power of two (ACC rule 13.2.b:
http://cribbage.org/rules/rule13.asp); screenshots and PDFs go to .artifacts/ as bracket-* when
PEGBOARD_SHOTS=1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from club.models import Club
from tests.browser.conftest import SHOTS, keep_file, keep_shot
from tests.tournaments.builders import closed, playoff_games_played

pytestmark = pytest.mark.django_db(transaction=True)

MEASURE = (Path(__file__).parent / "measure.js").read_text()
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 900}


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


@pytest.fixture
def confirmer(member):
    return member("organiser")


def shots(browser, url: str, name: str) -> bytes:
    """Screenshots of `url` wide, on a phone and as printed; the printed PDF. The wide view is
    only a screenshot: opened when one is asked for (PEGBOARD_SHOTS=1)."""
    views = (("1366", WIDE), ("390", PHONE)) if SHOTS else (("390", PHONE),)
    for label, viewport in views:
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(url)
        keep_shot(page, f"bracket-{name}-{label}")
        if label == "390":
            measured = page.evaluate(MEASURE)
            assert measured["width"] <= PHONE["width"], f"{name} is wider than a 390 px phone"
            assert measured["small_text"] == [], f"{name} has text under 16 px on a phone"
        context.close()
    context = browser.new_context(viewport={"width": 1123, "height": 794})  # A4 landscape
    page = context.new_page()
    page.goto(url)
    page.emulate_media(media="print")
    keep_shot(page, f"bracket-{name}-print")
    pdf = page.pdf(prefer_css_page_size=True, print_background=False)
    keep_file(f"bracket-{name}.pdf", pdf)
    context.close()
    return pdf


@pytest.mark.parametrize(
    ("entrants", "played", "sheets"),
    [(37, 6, 1), (160, 30, 1), (260, 0, 2)],
    ids=["10-qualifiers", "40-qualifiers", "65-qualifiers"],
)
def test_the_bracket_fits_its_sheets_and_a_phone(
    entrants, played, sheets, browser, live_server, club, organiser, confirmer
):
    Club.objects.filter(pk=club.pk).update(standings_public=True)
    tournament = closed(club, organiser, confirmer, entrants=entrants, match_lengths=[3])
    playoff_games_played(tournament, organiser, confirmer, games=played)
    qualifiers = len(tournament.seeds)

    pdf = shots(
        browser,
        live_server.url + reverse("tournaments:bracket", args=[tournament.pk]),
        f"{qualifiers}",
    )
    assert pdf_pages(pdf) == sheets
    standings = live_server.url + reverse("tournaments:standings", args=[tournament.pk])
    shots(browser, standings, f"{qualifiers}-standings")
    context = browser.new_context(viewport=WIDE)
    board = context.new_page()
    board.goto(live_server.url + reverse("web:board", args=[tournament.session_id]))
    assert board.get_by_test_id("board-tournament").is_visible()
    keep_shot(board, f"bracket-{qualifiers}-board")
    context.close()
