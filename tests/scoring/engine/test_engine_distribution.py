"""The distribution of hand and crib counts over all 12,994,800 (hand, starter) pairs, and rarity.

``hand_distribution`` counts suit assignments by formula. These tests check it against brute force
that scores real hands one by one: complete reduced packs (every hand and starter from fewer ranks
or suits), every suit assignment of sampled rank patterns of the full pack, and every hand for the
13 starters of one suit in the full pack (the other suits follow by symmetry: renaming suits maps
hands to hands with the same count). An opt-in test (PEGBOARD_SLOW_TESTS=1) scores all 12,994,800.
"""

import os
from collections import Counter
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    DECK,
    IMPOSSIBLE_HAND_TOTALS,
    TOTAL_HANDS,
    Card,
    ScoringError,
    hand_distribution,
    hand_total,
    is_possible_hand_total,
    rarity,
    score_hand,
)
from scoring.engine.distribution import count_distribution, suit_bonus_counts
from scoring.engine.hand import RANK_TABLE, rank_key

# The full distributions. Each figure is checked in this file by brute force (every hand with a
# spade starter, times 4), and was also checked once against an independent scorer run over all
# 12,994,800 pairs (see test_full_brute_force, opt-in). They agree with the usually published
# figures.
HAND = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324,
    8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168,
    16: 58248, 17: 11196, 18: 2708, 20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680, 28: 76, 29: 4,
}  # fmt: skip
CRIB = {
    0: 1022208, 1: 99792, 2: 2839800, 3: 508908, 4: 2868960, 5: 703496, 6: 1787176, 7: 755320,
    8: 1118336, 9: 358368, 10: 378240, 11: 43880, 12: 310956, 13: 16548, 14: 88132, 15: 9072,
    16: 57288, 17: 11196, 18: 2264, 20: 7828, 21: 2472, 22: 444, 23: 356, 24: 3680, 28: 76, 29: 4,
}  # fmt: skip


@pytest.mark.parametrize(("crib", "expected"), [(False, HAND), (True, CRIB)])
def test_distribution(crib: bool, expected: dict[int, int]) -> None:
    counts = hand_distribution(crib=crib)
    assert counts == expected
    assert sum(counts.values()) == TOTAL_HANDS == 12_994_800  # C(52, 4) * 48


@pytest.mark.parametrize("crib", [False, True])
def test_every_count_but_19_25_26_27_is_reachable(crib: bool) -> None:
    # hoyle.txt "Showing" / western-publishing.txt: "No hand can make a count of 19, 25, 26, or 27";
    # the crib cannot either, and no count passes 29.
    reachable = {points for points, n in hand_distribution(crib=crib).items() if n}
    assert reachable == set(range(30)) - IMPOSSIBLE_HAND_TOTALS
    assert all(is_possible_hand_total(n, crib=crib) == (n in reachable) for n in range(-1, 35))


def test_29_and_28_by_hand() -> None:
    # The 29 (hoyle.txt): J and three 5s, the fourth 5 turned up in the jack's suit: 4 jacks, 4.
    # A 28: four 5s with a tenth card that is not the nobs jack. Starter a 5 (4 ways), the other
    # three 5s in hand with any of the 16 tenth cards but the jack of the starter's suit: 4 * 15;
    # or the four 5s in hand and any of the 16 tenth cards turned up: 16. 60 + 16 = 76.
    tenth = [card for card in DECK if card.value == 10 and card.rank != 5]
    fives = [card for card in DECK if card.rank == 5]
    assert len(tenth) == 16
    found: Counter[int] = Counter()
    for starter in fives + tenth:
        others = [card for card in fives + tenth if card != starter]
        for hand in combinations(others, 4):
            found[hand_total(hand, starter)] += 1
    assert (found[29], found[28]) == (4, 4 * 15 + 16)
    counts = hand_distribution()
    assert (counts[29], counts[28]) == (found[29], found[28])


def test_brute_force_every_hand_for_the_spade_starters() -> None:
    # Complete: all C(51, 4) hands for each of the 13 spade starters, scored one by one; by suit
    # symmetry the whole distribution is 4 times this. The crib count is the hand count less a
    # four-flush that the starter does not join (hoyle.txt "No count for four-flush in crib").
    hand_counts, crib_counts = [0] * 30, [0] * 30
    for starter in (card for card in DECK if card.suit == "S"):
        rest = [card for card in DECK if card != starter]
        for hand in combinations(rest, 4):
            points = hand_total(hand, starter)
            hand_counts[points] += 1
            suit = hand[0].suit
            if (
                suit != "S"
                and hand[1].suit == suit
                and hand[2].suit == suit
                and hand[3].suit == suit
            ):
                points -= 4
            crib_counts[points] += 1
    assert {p: 4 * n for p, n in enumerate(hand_counts) if n} == hand_distribution()
    assert {p: 4 * n for p, n in enumerate(crib_counts) if n} == hand_distribution(crib=True)


def _pack(ranks: tuple[int, ...], suits: str) -> list[Card]:
    return [Card(rank, suit) for rank in ranks for suit in suits]


@pytest.mark.parametrize(
    ("ranks", "suits"),
    [
        ((3, 4, 5, 11), "SHDC"),  # runs, fifteens (3+3+4+5, 5+J), pairs to four of a kind, nobs
        ((1, 5, 6, 10, 11), "SHD"),  # three suits: flushes are common, so are nobs
        ((2, 7, 8, 11, 13), "SH"),  # two suits: at most pairs
    ],
)
@pytest.mark.parametrize("crib", [False, True])
def test_reduced_packs_by_brute_force(ranks: tuple[int, ...], suits: str, crib: bool) -> None:
    # Every (hand, starter) of a reduced pack, counted item by item with score_hand.
    pack = _pack(ranks, suits)
    expected: Counter[int] = Counter()
    for hand in combinations(pack, 4):
        for starter in pack:
            if starter not in hand:
                score = score_hand(hand, starter, crib=crib)
                expected[sum(item.points for item in score.items)] += 1
    got = count_distribution(ranks, crib=crib, suits=len(suits))
    assert got == dict(sorted(expected.items()))
    assert sum(got.values()) == len(list(combinations(pack, 4))) * (len(pack) - 4)


rank_patterns = st.tuples(
    st.lists(st.integers(1, 13), min_size=4, max_size=4)
    .map(sorted)
    .filter(lambda ranks: max(Counter(ranks).values()) <= 4),
    st.integers(1, 13),
).filter(lambda pattern: Counter(pattern[0])[pattern[1]] < 4)

# Rank patterns where flush and nobs interact; the random ones rarely hold jacks.
SPECIAL_PATTERNS = [
    ((2, 5, 9, 11), 13),  # a flush can be 5 with the nobs jack in it
    ((2, 5, 9, 11), 5),  # starter's rank in hand: no 5-card flush
    ((2, 5, 9, 11), 11),  # a jack turned up: never nobs
    ((11, 11, 5, 5), 5),
    ((1, 11, 11, 11), 7),
    ((3, 4, 5, 6), 7),
]


def _brute_force_pattern(hand_ranks, starter_rank, crib) -> Counter[int]:
    """Every real (hand, starter) with these ranks, by trying all suit choices."""
    seen: Counter[int] = Counter()
    for suits in product("SHDC", repeat=5):
        cards = [
            Card(rank, suit) for rank, suit in zip((*hand_ranks, starter_rank), suits, strict=True)
        ]
        if len(set(cards)) == 5:
            seen[score_hand(cards[:4], cards[4], crib=crib).total] += 1
    # Each hand was found once per order of its equal-rank cards.
    repeats = 1
    for m in Counter(hand_ranks).values():
        repeats *= [1, 1, 2, 6, 24][m]
    return Counter({points: n // repeats for points, n in seen.items()})


def _formula_pattern(hand_ranks, starter_rank, crib) -> Counter[int]:
    base = RANK_TABLE[rank_key((*hand_ranks, starter_rank))]
    bonuses = suit_bonus_counts(hand_ranks, starter_rank, crib=crib)
    return Counter({base + bonus: n for bonus, n in bonuses.items()})


@pytest.mark.parametrize(("hand_ranks", "starter_rank"), SPECIAL_PATTERNS)
@pytest.mark.parametrize("crib", [False, True])
def test_suit_counts_of_special_patterns(hand_ranks, starter_rank, crib: bool) -> None:
    assert _formula_pattern(hand_ranks, starter_rank, crib) == _brute_force_pattern(
        hand_ranks, starter_rank, crib
    )


@settings(max_examples=40, deadline=None)
@given(rank_patterns, st.booleans())
def test_suit_counts_of_random_patterns(pattern, crib: bool) -> None:
    hand_ranks, starter_rank = pattern
    assert _formula_pattern(hand_ranks, starter_rank, crib) == _brute_force_pattern(
        hand_ranks, starter_rank, crib
    )


def test_distribution_is_cached_and_returned_as_a_fresh_dict() -> None:
    first = hand_distribution()
    first[29] = 0
    assert hand_distribution()[29] == 4


@pytest.mark.parametrize(
    ("total", "crib", "exactly", "at_least", "one_in"),
    [
        (29, False, 4, 4, 3_248_700),
        (28, False, 76, 80, 162_435),
        (24, False, 3680, 3760, 3456),
        (19, False, 0, 8068 + 2496 + 444 + 356 + 3680 + 76 + 4, 859),
        (0, False, 1_009_008, TOTAL_HANDS, 1.0),
        (2, True, 2_839_800, TOTAL_HANDS - 1_022_208 - 99_792, 1.1),
        (30, False, 0, 0, None),
    ],
)
def test_rarity(total: int, crib: bool, exactly: int, at_least: int, one_in) -> None:
    found = rarity(total, crib=crib)
    assert (found.total, found.crib, found.exactly, found.at_least) == (
        total,
        crib,
        exactly,
        at_least,
    )
    assert found.one_in == one_in


def test_rarity_describe() -> None:
    assert rarity(24).describe() == (
        "A 24 or better: 1 in 3,456 hands (exactly 24: 3,680 of 12,994,800)"
    )
    assert rarity(8, crib=True).describe().startswith("An 8 or better: 1 in ")
    assert rarity(30).describe() == "No hand counts 30 or more"


@pytest.mark.parametrize("total", [-1, 2.5, "24"])
def test_rarity_refuses_non_counts(total) -> None:
    with pytest.raises(ScoringError, match="is not a count"):
        rarity(total)


@pytest.mark.skipif(
    not os.environ.get("PEGBOARD_SLOW_TESTS"), reason="set PEGBOARD_SLOW_TESTS=1 (about 20 seconds)"
)
def test_full_brute_force() -> None:
    # Every one of the 12,994,800 pairs, scored by hand_total one at a time.
    hand_counts, crib_counts = Counter(), Counter()
    for starter in DECK:
        rest = [card for card in DECK if card != starter]
        for hand in combinations(rest, 4):
            hand_counts[hand_total(hand, starter)] += 1
            crib_counts[hand_total(hand, starter, crib=True)] += 1
    assert dict(sorted(hand_counts.items())) == hand_distribution() == HAND
    assert dict(sorted(crib_counts.items())) == hand_distribution(crib=True) == CRIB
