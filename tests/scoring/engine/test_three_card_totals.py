"""The totals a three-card hand of five-card cribbage can make, recomputed from the engine.

britannica-1911.txt: "two players, five or six cards being dealt to each, and each putting out two
for what is called 'crib'": in the two-handed five-card game a hand is 3 cards (with the starter,
4 are counted) and the crib 4. Flushes: "If all the cards in hand are of the same suit, one is
reckoned for each card. If the start is also of the same suit, one is reckoned for that also"
(britannica-1911.txt "Flushes"), which the engine counts for a 3-card hand (3, or 4 with the start).

The recomputation is exact: every 3-rank multiset with every starter rank, every suit assignment
of those ranks with the first card's suit fixed (renaming the suits maps each hand to one with the
same count, so fixing one suit loses no total), each counted by ``hand_total``.
"""

from itertools import combinations_with_replacement, product

import pytest

from scoring.engine import (
    DECK,
    SUITS,
    THREE_CARD_HAND_TOTALS,
    ScoringError,
    hand_total,
    is_possible_hand_total,
)

CARDS = {(card.rank, card.suit): card for card in DECK}


def three_card_totals() -> set[int]:
    totals: set[int] = set()
    for ranks in combinations_with_replacement(range(1, 14), 3):
        for starter_rank in range(1, 14):
            all_ranks = (*ranks, starter_rank)
            for rest in product(SUITS, repeat=3):
                cards = [CARDS[card] for card in zip(all_ranks, ("S", *rest), strict=True)]
                if len({card.index for card in cards}) < 4:  # the same card twice: not a deal
                    continue
                totals.add(hand_total(cards[:3], cards[3]))
    return totals


def test_the_three_card_totals_are_the_engines_own():
    """The stored set is exactly what the engine counts over every 3-card hand and starter."""
    totals = three_card_totals()

    assert totals == THREE_CARD_HAND_TOTALS
    assert max(totals) == 20  # 5-5-5 with a 5 turned up: four fifteens 8, double pair royal 12
    assert hand_total("5H 5D 5C", "5S") == 20


@pytest.mark.parametrize("claimed", [16, 17, 18, 19, 21, 24, 28, 29])
def test_a_three_card_hand_cannot_count_these(claimed):
    """Five-card cribbage (britannica-1911.txt): three cards and the start top out at 20."""
    assert not is_possible_hand_total(claimed, cards=3)


@pytest.mark.parametrize("claimed", [0, 7, 15, 20])
def test_a_three_card_hand_can_count_these(claimed):
    assert is_possible_hand_total(claimed, cards=3)


def test_the_crib_of_the_five_card_game_is_four_cards():
    """Its crib (2 laid out by each player, britannica-1911.txt) makes the four-card totals."""
    assert is_possible_hand_total(24, crib=True, cards=4)
    assert not is_possible_hand_total(19, crib=True, cards=4)
    with pytest.raises(ScoringError):
        is_possible_hand_total(10, cards=5)
