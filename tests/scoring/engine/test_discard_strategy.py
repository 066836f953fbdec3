"""The discard engine against the rule texts' advice on laying away, as properties over seeded
random hands.

Terms:
- *place* of a discard X among a hand's discards: how many discards have a strictly higher net than
  X. Place 0 is the best.
- *dealer* / *pone*: the same dealt hand valued with the crib the player's side's
  (``dealer=True``) or the other side's (``dealer=False``). The hand and crib values are the same
  for both; only net = hand ± crib changes, so a discard's place moves with its crib value.

The advice read most simply says "a dealer never prefers laying a 5 away less than the same hand's
pone does", i.e. that a discard holding a 5 is placed no worse for the dealer than for the pone.
Taken literally over all discards that is false at two players: a pair or two touching cards can be
worth more in the crib than a 5 with a wide card, and then it moves ahead of the 5 for the dealer
only (``test_the_literal_form_fails_at_two_players`` shows a hand). The club's text says as much:
"Laying out a pair is usually a poor choice too, and the same goes for sequential cards". What is
tested instead, precisely:

1. Three and four players (one card laid away): in every hand, each 5 is worth more in the crib
   than any card of another rank, and so a 5's place among the discards without a 5 is no worse for
   the dealer than for the pone.
2. Two players (and three): the dealer's best lay-away holds at least as many 5s as the pone's best.
3. 5-5 laid into your own crib is worth more than K-A, in every hand holding both.
"""

import random
from pathlib import Path

import pytest

from scoring.engine import DECK, discard_values, parse_cards

# club-thursday-rules.md, "Strategy", "The Crib":
CLUB_FIVE = (
    "Laying out a five would be the worst choice, for the dealer could use it to make 15 with any "
    "one of the ten-cards (10, J, Q, K)."
)
CLUB_SALT = (
    'If the dealer is discarding for the crib, he should "salt" it with the best possible cards'
)
# hoyle.txt, "Strategy":
HOYLE_BALK = "The best balking cards are kings and aces, because they"

# Beside the checkout, where the project's development machines keep them (not shipped).
RULES = Path(__file__).resolve().parents[3].parent / "shared" / "rules"
FIVES = [card for card in DECK if card.rank == 5]


def fives(cards) -> int:
    return sum(card.rank == 5 for card in cards)


def hands_with_a_five(seed: int, size: int, count: int):
    """``count`` random dealt hands of ``size`` cards, each holding at least one 5."""
    rng = random.Random(seed)
    for _ in range(count):
        five = rng.choice(FIVES)
        rest = rng.sample([card for card in DECK if card != five], size - 1)
        hand = [five, *rest]
        rng.shuffle(hand)
        yield hand


def place(rows, row, among) -> int:
    return sum(other.net > row.net for other in rows if among(other))


def test_the_quoted_advice_is_in_the_rule_texts():
    # The texts are not shipped in the repository (docs/rules.md); where they are at hand, the
    # quotations above must be in them word for word (line breaks aside).
    if not RULES.exists():
        pytest.skip("the rule texts are not beside the checkout")
    club = " ".join((RULES / "club-thursday-rules.md").read_text(encoding="utf-8").split())
    hoyle = " ".join((RULES / "hoyle.txt").read_text(encoding="utf-8").split())
    assert CLUB_FIVE in club and CLUB_SALT in club
    assert HOYLE_BALK in hoyle


@pytest.mark.parametrize("players", [3, 4])
def test_a_five_is_the_best_single_card_for_the_crib(players):
    # CLUB_FIVE: at three and four players a 5 laid away is worth more to the crib than any other
    # card, so the dealer (salting his crib, CLUB_SALT) places it no worse than the pone does.
    for hand in hands_with_a_five(seed=170 + players, size=5, count=150):
        dealer = discard_values(hand, dealer=True, players=players)
        pone = {row.discard: row for row in discard_values(hand, dealer=False, players=players)}
        laid_fives = [row for row in dealer if fives(row.discard)]
        others = [row for row in dealer if not fives(row.discard)]
        assert min(row.crib for row in laid_fives) > max(row.crib for row in others), hand
        without_a_five = lambda row: not fives(row.discard)  # noqa: E731
        for row in laid_fives:
            assert place(dealer, row, without_a_five) <= place(
                pone.values(), pone[row.discard], without_a_five
            ), (hand, row)


@pytest.mark.parametrize(("players", "size"), [(2, 6), (3, 5)])
def test_the_dealer_lays_away_fives_at_least_as_readily_as_the_pone(players, size):
    # CLUB_FIVE and CLUB_SALT: the pone's best lay-away never holds more 5s than the dealer's.
    for hand in hands_with_a_five(seed=1717 + players, size=size, count=200):
        dealer_best = discard_values(hand, dealer=True, players=players)[0]
        pone_best = discard_values(hand, dealer=False, players=players)[0]
        assert fives(dealer_best.discard) >= fives(pone_best.discard), (hand, dealer_best)


def test_the_literal_form_fails_at_two_players():
    # Touching cards 7-8 are worth more in the crib than 5-8 ("the same goes for sequential
    # cards", club-thursday-rules.md), so 7-8 moves ahead of 5S-8H for the dealer only.
    rows = {
        dealer: {
            frozenset(map(str, r.discard)): r
            for r in discard_values("5S 9D 7S 8H 6H 5D", dealer=dealer)
        }
        for dealer in (True, False)
    }
    five_eight, seven_eight = frozenset({"5S", "8H"}), frozenset({"7S", "8H"})
    assert rows[True][seven_eight].crib > rows[True][five_eight].crib
    assert rows[True][seven_eight].net > rows[True][five_eight].net
    assert rows[False][seven_eight].net < rows[False][five_eight].net


def test_five_five_is_worth_more_than_king_ace_in_your_own_crib():
    # HOYLE_BALK: kings and aces are the best balking cards; CLUB_FIVE: fives the worst. In every
    # hand holding two 5s, a king and an ace, 5-5 laid into the dealer's crib beats K-A.
    rng = random.Random(55)
    kings = [card for card in DECK if card.rank == 13]
    aces = [card for card in DECK if card.rank == 1]
    for _ in range(100):
        core = [*rng.sample(FIVES, 2), rng.choice(kings), rng.choice(aces)]
        hand = core + rng.sample([card for card in DECK if card not in core], 2)
        rows = discard_values(hand, dealer=True)
        crib = {frozenset(row.discard): row.crib for row in rows}
        five_fives = [v for d, v in crib.items() if all(card.rank == 5 for card in d)]
        king_aces = [v for d, v in crib.items() if sorted(c.rank for c in d) == [1, 13]]
        assert min(five_fives) > max(king_aces), hand


def test_five_five_against_king_ace_in_one_hand():
    rows = discard_values(parse_cards("5H 5C KS AD 9C 2H"), dealer=True)
    crib = {frozenset(map(str, row.discard)): row.crib for row in rows}
    assert crib[frozenset({"5H", "5C"})] > 2 * crib[frozenset({"KS", "AD"})]
