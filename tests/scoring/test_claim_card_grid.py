"""The card grid on the claim forms, as the server renders it: the game page's claim form and the
table page's "File a claim" each hold one grid with its ids prefixed `claim-`, hidden until the
script shows it (without JavaScript the typed fields do the same), the place beside "Points
claimed" where the script shows the cards' count, the scripts that drive them, and the address of
the hand counter that counts. The hand counter and the discard advisor keep their own ids.
Browser behaviour: tests/browser/test_claim_cards_by_tap.py."""

import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

IDS = re.compile(r'\sid="([^"]+)"')


def duplicate_ids(html: str) -> list[str]:
    return [name for name, n in Counter(IDS.findall(html)).items() if n > 1]


def assert_claim_grid(html: str) -> None:
    grid = r'<div class="card-picker no-print" id="claim-card-picker"[^>]*\shidden>'
    assert re.search(grid, html)
    assert 'aria-labelledby="claim-picker-title"' in html
    assert 'id="claim-picker-hint"' in html
    assert html.count('data-card="') == 52
    assert re.search(r'<p class="claim-count" data-claim-count[^>]*\shidden>', html)
    assert f'data-count-url="{reverse("scoring:counter")}"' in html
    assert '<script src="/static/js/card-picker.js" defer>' in html
    assert '<script src="/static/js/claim-cards.js" defer>' in html
    assert duplicate_ids(html) == []


def test_the_table_pages_claim_form_holds_the_grid(link_table):
    html = Client().get(reverse("table:page", args=[link_table.game.table_token])).content.decode()
    assert_claim_grid(html)
    # The grid comes before the typed cards, the count after the points claimed.
    assert html.index('id="claim-card-picker"') < html.index('name="hand"')
    assert html.index('name="claimed_points"') < html.index("data-claim-count")


def test_the_game_pages_claim_form_holds_the_grid_and_asks_the_points_after_the_cards(
    client, club_table
):
    client.force_login(club_table.users[0])
    response = client.get(reverse("scoring:claim_new", args=[club_table.game.pk]))
    html = response.content.decode()
    assert_claim_grid(html)
    names = re.findall(r'name="(kind|claimant|hand|starter|claimed_points)"', html)
    assert names == ["kind", "claimant", "hand", "starter", "claimed_points"]


def test_a_refused_claim_keeps_its_typed_cards_for_the_grid(client, club_table):
    client.force_login(club_table.users[0])
    response = client.post(
        reverse("scoring:claim_new", args=[club_table.game.pk]),
        {"kind": "hand", "claimant": club_table.players[0].pk, "hand": "5H 5C 5S JD"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="5H 5C 5S JD"' in html  # the script marks these on the grid
    assert_claim_grid(html)


@pytest.mark.parametrize("page", ["counter", "discard"])
def test_the_card_tools_keep_their_own_ids(client, page):
    html = client.get(reverse(f"scoring:{page}")).content.decode()
    assert 'id="card-picker"' in html
    assert 'id="picker-hint"' in html
    assert "claim-card-picker" not in html
    assert duplicate_ids(html) == []
