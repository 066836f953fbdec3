"""The discard engine: every value checked to the last digit against a naive oracle.

Terms:
- *oracle*: ``naive_values`` below: for each discard, the kept hand counted with every unseen
  starter, and the crib counted with ``hand_total(..., crib=True)`` for every set of the other crib
  cards drawn from the unseen cards and every starter from the rest. No shortcut at all.
- The normal suite checks a handful of hands (chosen ones for the crib's flush and his nobs, and
  random ones; about 10 s); ``PEGBOARD_SLOW_TESTS=1`` checks 200 random hands of each size (six
  cards at two players, five at three), which takes about 15 minutes on one core.
"""

import os
import random
from fractions import Fraction
from itertools import combinations

import pytest

from scoring.engine import DECK, CardError, ScoringError, discard_values, hand_total, parse_cards
from scoring.engine.discard import DEAL, DiscardValue


def naive_values(hand, players):
    """{discard: (hand value, crib value, {hand count: starters})} by brute force."""
    _, laid = DEAL[players]
    unseen = [card for card in DECK if card not in hand]
    values = {}
    for lay in combinations(hand, laid):
        keep = tuple(card for card in hand if card not in lay)
        hand_counts = [hand_total(keep, starter) for starter in unseen]
        crib_sum = cases = 0
        for others in combinations(unseen, 4 - laid):
            crib = lay + others
            for starter in unseen:
                if starter not in others:
                    crib_sum += hand_total(crib, starter, crib=True)
                    cases += 1
        distribution = {n: hand_counts.count(n) for n in sorted(set(hand_counts))}
        values[lay] = (
            Fraction(sum(hand_counts), len(unseen)),
            Fraction(crib_sum, cases),
            distribution,
        )
    return values


def check_against_oracle(hand, players):
    rows = discard_values(hand, dealer=True, players=players)
    oracle = naive_values(tuple(hand), players)
    assert len(rows) == len(oracle)
    for row in rows:
        hand_value, crib_value, distribution = oracle[row.discard]
        assert row.hand == hand_value, row
        assert row.crib == crib_value, row
        assert row.hand_distribution == distribution, row
        assert row.net == hand_value + crib_value


CHOSEN = [
    # two players: laying away same-suit cards (a crib flush is possible) and a jack (his nobs)
    ("JH 5H 6H 7H 8H 9C", 2),
    ("5S 5C JD QD KD AS", 2),
    # three players: a jack and four of its suit
    ("JS 5S 6S 7S KS", 3),
]


@pytest.mark.parametrize(("text", "players"), CHOSEN)
def test_chosen_hands_match_the_oracle(text, players):
    check_against_oracle(parse_cards(text), players)


def test_random_hands_match_the_oracle():
    rng = random.Random(17)
    for _ in range(3):
        check_against_oracle(rng.sample(DECK, 6), 2)


@pytest.mark.skipif(
    not os.environ.get("PEGBOARD_SLOW_TESTS"),
    reason="set PEGBOARD_SLOW_TESTS=1 (about 15 minutes)",
)
@pytest.mark.parametrize("players", [2, 3])
def test_200_random_hands_of_each_size_match_the_oracle(players):
    rng = random.Random(1700 + players)
    dealt, _ = DEAL[players]
    for _ in range(200):
        check_against_oracle(rng.sample(DECK, dealt), players)


def test_rows_come_best_first_and_cover_every_discard():
    hand = parse_cards("5H 5C JD 10S 4C 9D")
    for dealer in (True, False):
        rows = discard_values(hand, dealer=dealer)
        assert len(rows) == 15 and all(isinstance(row, DiscardValue) for row in rows)
        assert [row.net for row in rows] == sorted((row.net for row in rows), reverse=True)
        assert {frozenset(row.discard) for row in rows} == {
            frozenset(pair) for pair in combinations(hand, 2)
        }
        for row in rows:
            assert set(row.discard) | set(row.keep) == set(hand) and len(row.keep) == 4
            assert row.net == (row.hand + row.crib if dealer else row.hand - row.crib)
            assert row.dealer is dealer
    for players in (3, 4):
        rows = discard_values(hand[:5], dealer=False, players=players)
        assert len(rows) == 5 and all(len(row.discard) == 1 for row in rows)


def test_the_dealer_and_the_pone_see_the_same_hand_and_crib():
    hand = parse_cards("2S 3S 7H 8C QD KH")
    dealer = {row.discard: row for row in discard_values(hand, dealer=True)}
    pone = {row.discard: row for row in discard_values(hand, dealer=False)}
    for discard, row in dealer.items():
        assert (row.hand, row.crib) == (pone[discard].hand, pone[discard].crib)


def test_three_and_four_players_share_the_model():
    # Three unknown crib cards from the 47 unseen either way; only who owns the crib differs.
    hand = parse_cards("AC 4D 6H 10S JC")
    three = discard_values(hand, dealer=True, players=3)
    four = discard_values(hand, dealer=True, players=4)
    assert [(r.discard, r.hand, r.crib, r.net) for r in three] == [
        (r.discard, r.hand, r.crib, r.net) for r in four
    ]


def test_the_spread_of_the_hand():
    # Keep 5-5-5-J: 29 with the fourth 5 of the jack's suit turned up, never less than 12.
    rows = discard_values("5H 5C 5S JD AS 2S", dealer=False)
    row = next(r for r in rows if set(r.keep) == set(parse_cards("5H 5C 5S JD")))
    assert row.starters == 46
    assert sum(row.hand_distribution.values()) == 46
    assert row.hand_best == 29 and row.hand_chance(29) == Fraction(1, 46)
    assert row.hand_worst == 14
    assert row.hand_chance_at_least(row.hand_worst) == 1
    mean = sum(Fraction(points * n, 46) for points, n in row.hand_distribution.items())
    assert mean == row.hand
    assert all(isinstance(v, Fraction) for v in (row.hand, row.crib, row.net))
    assert "lay away AS 2S, keep 5H 5C 5S JD" in str(row)


@pytest.mark.parametrize(
    ("cards", "kwargs", "message"),
    [
        ("5H 5C JD 10S 4C", {}, "at 2 players each is dealt 6 cards, not 5"),
        ("5H 5C JD 10S 4C 9D", {"players": 3}, "at 3 players each is dealt 5 cards, not 6"),
        ("5H 5C JD 10S 4C 9D 2S", {"players": 4}, "at 4 players each is dealt 5 cards, not 7"),
        ("5H 5C JD 10S 4C 5H", {}, "5H is twice in the dealt hand"),
        ("5H 5C JD 10S 4C", {"players": 5}, "for 2, 3 or 4 players, not 5"),
        ("5H 5C JD 10S 4C", {"players": 1}, "for 2, 3 or 4 players, not 1"),
        ("", {}, "not 0: no cards"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(cards, kwargs, message):
    with pytest.raises(ScoringError, match=message):
        discard_values(cards, dealer=True, **kwargs)


def test_bad_cards_and_dealer_are_refused():
    with pytest.raises(CardError, match="'5X' is not a card"):
        discard_values("5H 5C JD 10S 4C 5X", dealer=True)
    with pytest.raises(ScoringError, match="dealer must be True or False"):
        discard_values("5H 5C JD 10S 4C 9D", dealer=None)
