"""The public hand counter page: every role sees it, it counts without JavaScript (plain GET),
answers the fragment the page's script asks for, and names the bad card."""

import pytest

from tests.conftest import ROLES

pytestmark = pytest.mark.django_db

URL = "/scoring/counter/"


@pytest.mark.parametrize("role", ROLES)
def test_every_role_counts_a_hand(role, club, client_for):
    # hoyle.txt "Showing": 9-6-5-4-4 ... a double run of 3 and two fifteens.
    response = client_for(role).get(URL, {"hand": "9S 6H 5D 4C", "starter": "4H"})
    assert response.status_code == 200
    counted = response.context["counted"]
    html = response.content.decode()
    assert f'data-testid="count-total">{counted.score.total}<' in html
    assert counted.score.spoken() in html.replace("&#x27;", "'")
    assert 'aria-label="9 of spades"' in html
    assert "pcard--red" in html  # hearts and diamonds are drawn red
    assert "1 in" in html


def test_blank_page_has_the_form_and_no_result(client, db):
    response = client.get(URL)
    assert response.status_code == 200
    assert response.context["counted"] is None
    assert 'name="hand"' in response.content.decode()
    assert 'data-card="10D"' in response.content.decode()  # the picker's cards


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"hand": "5H 5C 5S QQ", "starter": "5D"}, "hand", "'QQ' is not a card"),
        ({"hand": "5H 5C 5S JD", "starter": "5Z"}, "starter", "'5Z' is not a card"),
        ({"hand": "5H 5C 5S 5H", "starter": "5D"}, "hand", "5H"),
        ({"hand": "5H 5C 5S JD", "starter": "5H"}, "starter", "5H"),
        ({"hand": "5H 5C", "starter": "5D"}, "hand", "2"),
        ({"hand": "", "starter": ""}, "hand", "required"),
        ({"hand": "<script>alert(1)</script>", "starter": "5D"}, "hand", "is not a card"),
    ],
)
def test_bad_cards_are_named_on_the_field(client, db, params, field, message):
    response = client.get(URL, params)
    assert response.status_code == 200
    assert response.context["counted"] is None
    errors = response.context["form"].errors
    assert message in " ".join(errors[field]), errors
    assert "<script>alert(1)</script>" not in response.content.decode()


def test_crib_flag_changes_a_four_card_flush(client, db):
    # club-thursday-rules.md: no four-card flush in the crib.
    hand = client.get(URL, {"hand": "2H 4H 6H 8H", "starter": "KS"}).context["counted"]
    crib = client.get(URL, {"hand": "2H 4H 6H 8H", "starter": "KS", "crib": "on"})
    assert hand.score.total - crib.context["counted"].score.total == 4


def test_the_script_gets_just_the_result_fragment(client, db):
    headers = {"X-Requested-With": "fetch"}
    response = client.get(URL, {"hand": "5H 5C 5S JD", "starter": "5D"}, headers=headers)
    html = response.content.decode()
    assert 'data-testid="count-total">29<' in html
    assert "<html" not in html
    bad = client.get(URL, {"hand": "5H 5C 5S XX", "starter": "5D"}, headers=headers)
    assert "'XX' is not a card" in bad.content.decode().replace("&#x27;", "'")
    assert 'data-testid="count-errors"' in bad.content.decode()
