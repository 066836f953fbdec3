"""Impossible totals of a three-card hand claim (two-handed five-card cribbage).

britannica-1911.txt: "two players, five or six cards being dealt to each, and each putting out two
for what is called 'crib'": in the five-card game a hand is 3 cards, counted with the start. The
engine's THREE_CARD_HAND_TOTALS (recomputed in tests/scoring/engine/test_three_card_totals.py) says
a three-card hand makes 0 to 15 and 20; so a claim of 21, 24 or 29 for three cards, which four cards
could make, is flagged at once (docs/spec.md "Claims, muggins and disputes": "A count no hand can
make (... 16 to 19 and over 20 for the three-card hand of five-card cribbage, from the engine's
exact count of every hand) is flagged at once").

Terms: a *table* is `tests.builders.make_table`; the side-1 player files a hand claim of three
cards, 5H 5C 5S with the 5D turned up (the best three-card hand, 20) or 8S 7H 6C with the 2H (7).
"""

import pytest

from scoring import services
from scoring.models import ClaimKind
from tests.builders import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("hand", "starter", "claimed", "impossible"),
    [
        ("5H 5C 5S", "5D", 21, True),
        ("5H 5C 5S", "5D", 24, True),
        ("5H 5C 5S", "5D", 29, True),
        ("8S 7H 6C", "2H", 16, True),
        ("5H 5C 5S", "5D", 20, False),
        ("8S 7H 6C", "2H", 7, False),
    ],
)
def test_a_three_card_hand_claim_is_flagged_by_the_three_card_totals(
    hand, starter, claimed, impossible
):
    table = make_table()

    claim = services.claim_file(
        game=table.game,
        actor=table.users[1],
        kind=ClaimKind.HAND,
        claimant=table.players[1],
        claimed_points=claimed,
        hand=hand,
        starter=starter,
    )

    assert claim.impossible is impossible
    assert claim.true_points == (20 if hand == "5H 5C 5S" else 7)


def test_four_cards_may_claim_what_three_cannot():
    """The same 24 and 29 are possible for a four-card hand (hoyle.txt "Showing")."""
    assert not services.is_impossible(ClaimKind.HAND, 24)
    assert not services.is_impossible(ClaimKind.HAND, 29)
    assert services.is_impossible(ClaimKind.HAND, 24, cards=3)
    assert services.is_impossible(ClaimKind.HAND, 21, cards=3)
    assert services.is_impossible(ClaimKind.HAND, 29, cards=3)
