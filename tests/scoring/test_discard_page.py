"""The discard advisor page: every role gets the advice, the page's figures are the engine's, a
shared address needs only the cards, bad input is named on its field, and the page's script gets
just the answer's fragment."""

import re

import pytest

from scoring.discarding import advise
from scoring.engine import discard_values, parse_cards
from tests.conftest import ROLES

pytestmark = pytest.mark.django_db

URL = "/scoring/discard/"
DEALT = "5H 5C JD 6S 4C KH"


def rows_of(html: str) -> list[str]:
    return html.split('data-testid="discard-row"')[1:]


def signed(value) -> str:
    return ("+" if value >= 0 else "\u2212") + f"{abs(float(value)):.2f}"


@pytest.mark.parametrize("role", ROLES)
def test_every_role_gets_every_lay_away_best_first(role, club, client_for):
    response = client_for(role).get(URL, {"cards": DEALT, "players": "2", "whose": "mine"})
    assert response.status_code == 200
    html = response.content.decode()
    engine = discard_values(DEALT, dealer=True, players=2)
    rows = rows_of(html)
    assert len(rows) == len(engine) == 15
    for row, value in zip(rows, engine, strict=True):
        assert f'data-testid="discard-net">{signed(value.net)}<' in row
        assert f'data-testid="discard-hand">{float(value.hand):.2f}<' in row
        assert f'data-testid="discard-crib">{float(value.crib):.2f}<' in row
        lay = re.search(r'data-testid="discard-lay">(.*?)</td>', row).group(1)
        assert re.findall(r'aria-label="([^"]+)"', lay) == [name(c) for c in value.discard]
    classes = re.findall(r'<tbody class="([^"]+)" data-testid="discard-row"', html)
    assert classes == ["discard discard--best"] + ["discard"] * 14


def name(card) -> str:
    from scoring.templatetags.cards import card_name

    return card_name(card)


def test_blank_page_has_the_form_and_the_grid_and_no_advice(client, db):
    response = client.get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert response.context["advice"] is None
    assert 'name="cards"' in html and 'data-card="10D"' in html
    assert re.search(r'<input[^>]*value="mine"[^>]*checked', html)
    assert 'data-testid="discard-row"' not in html


def test_a_shared_address_needs_only_the_cards(client, db):
    """`?cards=...` alone: two players, your own crib, and the form shows those choices."""
    html = client.get(URL, {"cards": DEALT}).content.decode()
    assert len(rows_of(html)) == 15
    assert re.search(r'<input[^>]*value="mine"[^>]*checked', html)
    assert re.search(r'<option value="2" selected', html)
    assert "Your own crib." in html


def test_three_players_an_opponents_crib(client, db):
    response = client.get(URL, {"cards": "5H 5C JD 6S 4C", "players": "3", "whose": "theirs"})
    advice = response.context["advice"]
    assert len(advice.rows) == 5
    engine = discard_values("5H 5C JD 6S 4C", dealer=False, players=3)
    assert [row.value for row in advice.rows] == list(engine)
    assert "gives an opponent's crib" in response.content.decode().replace("&#x27;", "'")


def test_four_players_the_partners_deal_is_your_sides_crib(client, db):
    response = client.get(URL, {"cards": "5H 5C JD 6S 4C", "players": "4", "whose": "mine"})
    assert "in your side's crib is worth" in response.content.decode().replace("&#x27;", "'")


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"cards": "5H 5C JD 6S 4C"}, "cards", "at 2 players each is dealt 6 cards, not 5"),
        ({"cards": DEALT, "players": "3"}, "cards", "at 3 players each is dealt 5 cards, not 6"),
        ({"cards": "5H 5H JD 6S 4C KH"}, "cards", "5H"),
        ({"cards": "5H 5C JD 6S 4C QQ"}, "cards", "'QQ' is not a card"),
        ({"cards": ""}, "cards", "required"),
        ({"cards": DEALT, "players": "7"}, "players", "7 is not one of the available choices"),
        ({"cards": DEALT, "whose": "dealer"}, "whose", "dealer is not one of the available"),
        ({"cards": "<script>alert(1)</script>"}, "cards", "is not a card"),
    ],
)
def test_bad_input_is_named_on_its_field(client, db, params, field, message):
    response = client.get(URL, params)
    assert response.status_code == 200
    assert response.context["advice"] is None
    errors = response.context["form"].errors
    assert message in " ".join(errors[field]), errors
    html = response.content.decode()
    assert "<script>alert(1)</script>" not in html
    assert 'data-testid="discard-row"' not in html


def test_the_script_gets_just_the_answer_fragment(client, db):
    headers = {"X-Requested-With": "fetch"}
    html = client.get(URL, {"cards": DEALT}, headers=headers).content.decode()
    assert "<html" not in html
    assert len(rows_of(html)) == 15
    assert 'data-testid="discard-best"' in html
    bad = client.get(URL, {"cards": "5H 5C JD"}, headers=headers).content.decode()
    assert 'data-testid="discard-errors"' in bad
    assert "not 3" in bad


def test_each_row_has_its_reason_and_its_chart(client, db):
    """Each row says why, as a player would: "keeps fifteen-6 and a run; the 5 in your own crib is
    worth 2.3 on average". Keeping 5-10-J-Q holds three fifteens (5 with each ten-card) and a run of
    3: hoyle.txt "Showing" counts fifteens, then runs."""
    advice = advise("5S 10D JC QH 2C 3H", whose="mine", players=2)
    row = next(r for r in advice.rows if set(r.value.keep) == set(parse_cards("5S 10D JC QH")))
    assert row.held_points == 9
    assert row.reason.startswith("Keeps fifteen\u20116 and a run of 3 (9), the cut adds ")
    assert row.reason.endswith(
        f"the 3-2 in your own crib is worth {float(row.value.crib):.1f} on average."
    )
    html = client_html(client, "5S 10D JC QH 2C 3H")
    assert html.count("<rect ") == sum(len(r.bars) for r in advice.rows)
    assert row.chart_label in html.replace("&#x27;", "'")
    assert sum(bar.starters for bar in row.bars) == 46


def client_html(client, cards: str) -> str:
    return client.get(URL, {"cards": cards}).content.decode()
