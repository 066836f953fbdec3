"""User text that is HTML renders inert: with HTML in every piece of user text (`TEXTS`),
every page each role may see has no raw marker, shows the texts escaped, and the CSV export
writes the name as plain text with a CSV content type. Also: `?season=` on the standings of a
club without sessions is never a 500.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from club import services as club_services
from club.models import CheckIn, Player
from games import services as game_services
from money import services as club_settlement
from scoring import services as scoring_services
from tests.security.hostile_checks import assert_inert
from tests.security.hostile_tournaments import in_the_final
from tests.security.hostile_world import url_of
from tests.security.hostile_world_base import World, confirm_all, file_claim
from tests.web.test_pages import COLUMNS, PAGES

pytestmark = pytest.mark.django_db


# --- User text that is HTML renders inert ---------------------------------------------------------

SCRIPT_NAME = '<script>alert("pegboard")</script>'
ESCAPED_NAME = "&lt;script&gt;alert(&quot;pegboard&quot;)&lt;/script&gt;"
TEXTS = {  # what each piece of user text is set to; every one carries a marker
    "club name": '<script>alert("club")</script>',
    "venue": "<img src=x onerror=alert('venue')>",
    "nickname": "<svg onload=alert('nick')>",
    "other player": 'Eve"><script>alert("eve")</script>',
    "correction reason": "<script>alert('correction')</script>",
    "dispute statement": "<img src=x onerror=alert('statement')>",
    "ruling reason": "<script>alert('ruling')</script>",
    "appeal statement": "<svg onload=alert('appeal')>",
    "reopen reason": "<script>alert('reopen')</script>",
}
TOURNAMENT_NAME = "<svg onload=alert('tournament')>"
# Pages that show players[0]'s name: there the escaped form must be found (so a page that
# leaves the name out cannot pass the "no raw marker" check by accident).
SHOWS_NAME = {
    "club:players",
    "club:player_login",
    "club:audit",
    "web:session",
    "money:player_money",
    "money:ledger",
    "standings:season",
    "standings:all_time",
    "tournaments:standings",
    "standings:player",
    "games:round",
    "games:round_print",
    "games:game",
    "scoring:claim",
    "scoring:session_report",
    "tournaments:detail",  # the first player is in the final
}


@pytest.fixture
def html_world(world, member) -> tuple[World, dict]:
    """`world` played through the services with HTML in every piece of user text."""
    w = world
    organiser = w.organiser
    club_services.club_update_rules(
        club=w.club, actor=organiser, name=TEXTS["club name"], venue=TEXTS["venue"]
    )
    club_services.player_update(
        player=w.players[0], actor=organiser, display_name=SCRIPT_NAME, nickname=TEXTS["nickname"]
    )
    club_services.player_update(
        player=w.players[1], actor=organiser, display_name=TEXTS["other player"]
    )
    for player in w.players[:2]:
        player.refresh_from_db()
    confirm_all(w)
    game_services.result_correct(
        game=w.game, actor=organiser, scores=[121, 93], reason=TEXTS["correction reason"]
    )
    claim = file_claim(w)
    dispute = scoring_services.dispute_open(
        claim=claim, actor=w.seat_users()[1], statement=TEXTS["dispute statement"]
    )
    scoring_services.dispute_rule(
        dispute=dispute,
        actor=w.judge,
        decision="override",
        points={0: 28, 1: 0},
        reason=TEXTS["ruling reason"],
    )
    scoring_services.dispute_appeal(
        dispute=dispute, actor=w.seat_users()[0], statement=TEXTS["appeal statement"]
    )
    scoring_services.dispute_rule(dispute=dispute, actor=member("judge"), decision="agree")
    club_settlement.session_settle(session=w.session, actor=organiser, seed=1)
    club_settlement.session_reopen(
        session=w.session, actor=organiser, reason=TEXTS["reopen reason"]
    )
    # A second dispute of the hand, open while the session is reopened: its judge link is a page.
    open_dispute = scoring_services.dispute_open(
        claim=file_claim(w), actor=w.seat_users()[1], statement=TEXTS["dispute statement"]
    )
    final = in_the_final(w, name=TOURNAMENT_NAME)
    objects = {
        "tournament": final.tournament,
        "match": final,
        "player": w.players[0],
        "session": w.session,
        "checkin": CheckIn.objects.get(session=w.session, player=w.players[0]),
        "round": w.game.round,
        "game": w.game,
        "result": w.game.results.first(),
        "claim": claim,
        "dispute": dispute,
        "open dispute": open_dispute,
    }
    return w, objects


# Pages that exist only while the session is open: the payout sheet before settling and the
# one-time links of a judge and of a player accepting a correction. They are read while the
# session is reopened; every other page after it is settled again.
OPEN_SESSION_PAGES = {"money:settle_preview", "judge_link:page", "accept_link:page"}


@pytest.mark.parametrize("column", ["public", "judge", "organiser"])
def test_user_text_renders_inert_on_every_page(column, html_world):
    w, objects = html_world
    client = Client()
    if column != "public":
        client.force_login({"judge": w.judge, "organiser": w.organiser}[column])
    index = COLUMNS.index(column)
    pages = [name for name, row in PAGES.items() if row[index] in (200, "published")]
    assert "standings:player" in pages
    pages.sort(key=lambda name: name not in OPEN_SESSION_PAGES)
    for name in pages:
        if name not in OPEN_SESSION_PAGES and w.session.is_open:
            scoring_services.dispute_rule(
                dispute=objects["open dispute"], actor=w.judge, decision="agree"
            )
            for checkin in CheckIn.objects.filter(session=w.session, paid_at__isnull=True):
                club_services.fee_mark_paid(checkin=checkin, actor=w.organiser)
            club_settlement.session_settle(session=w.session, actor=w.organiser, seed=2)
            w.session.refresh_from_db()
        response = client.get(url_of(name, objects))
        # Once settled, a table's link says so (410; its open page is checked with the same
        # texts in tests/games/test_table_views.py).
        assert response.status_code == (410 if name == "table:page" else 200), name
        if "html" not in response["Content-Type"]:  # CSV, plain text: never sniffed as HTML
            assert response["X-Content-Type-Options"] == "nosniff", name
        assert_inert(response)
        html = response.content.decode()
        if name in SHOWS_NAME:
            assert ESCAPED_NAME in html, f"{name} does not show the player's name escaped"
    # The SVG charts name the player in their <title>: escaped there too.
    page = client.get(url_of("standings:player", objects)).content.decode()
    assert '&lt;script&gt;alert("pegboard")&lt;/script&gt;: game points per session' in page


def test_every_piece_of_user_text_is_shown_escaped_somewhere(html_world):
    """The texts really reach the pages (so the markers' absence means they were escaped)."""
    w, objects = html_world
    client = Client()
    client.force_login(w.organiser)
    html = "".join(
        client.get(url_of(name, objects)).content.decode()
        for name in ("club:rules", "club:audit", "games:game", "scoring:claim", "money:settlement")
    )
    assert_inert(client.get(url_of("club:audit", objects)))
    for what, text in TEXTS.items():
        assert escape(text) in html, f"the {what} is not on the pages, escaped"


def test_csv_export_carries_names_as_plain_text(html_world):
    """CSV is not HTML: the name is written as it is, with a CSV content type (never text/html,
    which a browser would run)."""
    _, objects = html_world
    client = Client()
    response = client.get(url_of("web:session_export", objects), {"table": "standings"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    cells = {cell for row in csv.reader(io.StringIO(response.content.decode())) for cell in row}
    assert SCRIPT_NAME in cells


@pytest.mark.parametrize("season", ["0", "-5", "9999", "99999", str(10**25), "2026.0", "x"])
def test_season_of_a_club_without_sessions(season, club, member):
    """Before a club's first session no season is known, so `?season=` is not checked against a
    list: a year that no date can have is still a 404, not a 500."""
    client = Client()
    organiser = member("organiser")
    client.force_login(organiser)
    player = Player.objects.get(user=organiser)
    for url in (
        reverse("standings:season"),
        reverse("standings:all_time"),
        reverse("standings:player", args=[player.pk]),
    ):
        response = client.get(url, {"season": season})
        assert response.status_code in (200, 404), url
