"""The discard advisor's engine: what each way of laying away is worth, exactly.

Terms:
- *dealt hand*: the cards a player is dealt: six at two players, five at three or four.
- *discard* (lay-away): the cards the player puts in the crib: two of six, or one of five. The
  other four are the *keep*.
- *unseen cards*: the 52 less the dealt hand (46 at two players, 47 at three or four). Every card
  the player has not seen is equally likely to be anywhere else: in an opponent's hand, in the
  crib, in the stock, or turned up.
- *the other crib cards*: the crib cards that are not the player's: the opponent's two at two
  players; at three the other two players' one each and the one dealt to the crib from the pack;
  at four the three other players' one each. Always 4 − (cards discarded), drawn from the unseen
  cards, every set equally likely (the model knows nothing about how the others lay away).
- *starter*: every unseen card that is not among the other crib cards, equally likely.
- *hand value*: the mean count of the kept four with the starter, over every unseen starter (46 or
  47): ``hand_total(keep, starter)``. Its spread: the best, the worst and how many starters give
  each count (``hand_distribution``).
- *crib value*: the mean count of the crib (the discard and the other crib cards) with the starter,
  under the crib's rules (a flush only with the starter's suit, 5), over every equally likely set
  of the other crib cards and every starter from the rest.
- *net*: hand + crib when the crib is the player's side's (``dealer=True``: the player deals, or
  at four players the partner deals), hand − crib otherwise.

All values are exact (``fractions.Fraction``). The rows come best first by net; ties by hand value
(higher first), then in the order the discards appear in the dealt hand.

How the crib is counted without enumerating the 45,540 (two players) or 713,460 (three or four)
(other cards, starter) cases of each discard, by linearity of the mean over the count's parts:

- *rank part* (fifteens, pairs, runs): depends only on the ranks. The other crib cards and the
  starter are k + 1 distinct unseen cards (k = 2 or 3); every set of k + 1 unseen cards arises as
  (other cards, starter) in exactly k + 1 ways, so the mean is the mean over the C(n, k + 1) sets
  of k + 1 unseen cards. Grouped by rank multiset M (at most 455 or 1,820 of them), a multiset has
  ``prod C(unseen of rank r, times r is in M)`` sets, and its rank part is one ``RANK_TABLE``
  lookup with the discard's ranks. The weights depend only on the unseen cards, the same for every
  discard, so they are worked out once per dealt hand.
- *flush* (5): only when the discard's cards are all one suit and the k other cards and the starter
  are all that suit too: C(u, k) · (u − k) of the cases, u the unseen cards of that suit.
- *his nobs* (1): a jack in the crib of the starter's suit; only one jack has that suit, so the
  mean is a sum over the jacks. A jack in the discard: the starter is of its suit in u · C(n−1, k)
  cases (u unseen cards of the suit). An unseen jack: it is among the other crib cards and the
  starter one of the other u − 1 unseen cards of its suit, the other k − 1 crib cards from the
  remaining n − 2: (u − 1) · C(n − 2, k − 1) cases. A jack kept in hand is not in the crib.

The hand is counted directly, 46 or 47 ``hand_total`` calls per keep. The naive enumeration in
the tests is the oracle; docs/scoring-engine.md "The discard advisor" has the model and its checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb

from .cards import DECK, JACK, SUITS, Card, check_distinct, format_cards, parse_cards
from .errors import ScoringError
from .hand import RANK_TABLE, hand_total

#: players -> (cards dealt to each, cards each lays away).
DEAL: dict[int, tuple[int, int]] = {2: (6, 2), 3: (5, 1), 4: (5, 1)}
CRIB_CARDS = 4


@dataclass(frozen=True)
class DiscardValue:
    """One way of laying away, with its exact values (``Fraction``).

    ``hand``: mean count of ``keep`` over the unseen starters; ``crib``: mean count of the crib;
    ``net``: hand ± crib (+ when the crib is the player's side's). ``hand_distribution``: {count:
    how many of the ``starters`` unseen starters give it}; ``hand_best`` / ``hand_worst``: its
    extremes.
    """

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    dealer: bool
    hand: Fraction
    crib: Fraction
    net: Fraction
    hand_distribution: dict[int, int]
    starters: int

    @property
    def hand_best(self) -> int:
        return max(self.hand_distribution)

    @property
    def hand_worst(self) -> int:
        return min(self.hand_distribution)

    def hand_chance(self, total: int) -> Fraction:
        """The chance that the kept hand counts exactly ``total`` (over the unseen starters)."""
        return Fraction(self.hand_distribution.get(total, 0), self.starters)

    def hand_chance_at_least(self, total: int) -> Fraction:
        """The chance that the kept hand counts ``total`` or more."""
        hits = sum(n for points, n in self.hand_distribution.items() if points >= total)
        return Fraction(hits, self.starters)

    def __str__(self) -> str:
        return (
            f"lay away {format_cards(self.discard)}, keep {format_cards(self.keep)}: "
            f"hand {float(self.hand):.2f}, crib {float(self.crib):.2f}, net {float(self.net):+.2f}"
        )


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def check_deal(cards: Sequence[Card | str] | str, players: int) -> tuple[Card, ...]:
    """Parse and validate a dealt hand for ``players``; raise ScoringError saying what is wrong."""
    if type(players) is not int or players not in DEAL:
        raise ScoringError(f"the discard advisor is for 2, 3 or 4 players, not {players!r}")
    dealt, _ = DEAL[players]
    hand = tuple(parse_cards(cards))
    if len(hand) != dealt:
        raise ScoringError(
            f"at {players} players each is dealt {dealt} cards, not {len(hand)}: "
            f"{format_cards(hand) or 'no cards'}"
        )
    check_distinct(hand, "the dealt hand")
    return hand


# ---------------------------------------------------------------------------------------------
# The rank part of the crib: weights by rank multiset, once per dealt hand
# ---------------------------------------------------------------------------------------------


def _multisets(size: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of ``size`` ranks (no rank more than 4 times), as
    (rank key, ((rank index 0..12, times held), ...))."""
    result = []
    for ranks in combinations_with_replacement(range(13), size):
        counts = Counter(ranks)
        if max(counts.values()) <= 4:
            result.append((sum(5**r for r in ranks), tuple(sorted(counts.items()))))
    return tuple(result)


# Built at import (a few milliseconds), like RANK_TABLE: 455 multisets of 3 ranks (two players: the
# opponent's two and the starter), 1,820 of 4 (three and four players: three cards and the starter).
MULTISETS = {size: _multisets(size) for size in (3, 4)}
_COMB = [[comb(n, k) for k in range(5)] for n in range(5)]


def rank_weights(unseen_by_rank: Sequence[int], size: int) -> list[tuple[int, int]]:
    """(rank key, number of sets of ``size`` unseen cards with that rank multiset), nonzero only.

    ``unseen_by_rank[r]``: unseen cards of rank r + 1.
    """
    weights = []
    for key, counts in MULTISETS[size]:
        weight = 1
        for rank, times in counts:
            weight *= _COMB[unseen_by_rank[rank]][times]
            if not weight:
                break
        else:
            weights.append((key, weight))
    return weights


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------


def discard_values(
    cards: Sequence[Card | str] | str, *, dealer: bool, players: int = 2
) -> tuple[DiscardValue, ...]:
    """Every way to lay away from a dealt hand, best first by ``net`` (see the module docstring).

    ``cards``: six cards at two players, five at three or four (``Card`` objects or card texts).
    ``dealer``: whether the crib is the player's side's (at four players, also the partner's deal).
    """
    if not isinstance(dealer, bool):
        raise ScoringError(f"dealer must be True or False, not {dealer!r}")
    hand = check_deal(cards, players)
    dealt, discarded = DEAL[players]
    others = CRIB_CARDS - discarded  # the other crib cards, all unknown
    held = set(hand)
    unseen = [card for card in DECK if card not in held]
    n = len(unseen)
    unseen_by_rank = [0] * 13
    unseen_by_suit = dict.fromkeys(SUITS, 0)
    for card in unseen:
        unseen_by_rank[card.rank - 1] += 1
        unseen_by_suit[card.suit] += 1

    # Cases of (other crib cards, starter): C(n, k) · (n − k); the rank part is averaged over the
    # C(n, k + 1) sets instead (each set is k + 1 cases), the same mean.
    cases = comb(n, others) * (n - others)
    sets = comb(n, others + 1)
    weights = rank_weights(unseen_by_rank, others + 1)
    # Nobs from an unseen jack, the same for every discard (the unseen cards do not change).
    unseen_jack_nobs = sum(
        (unseen_by_suit[card.suit] - 1) * comb(n - 2, others - 1)
        for card in unseen
        if card.rank == JACK
    )
    rank_part: dict[int, int] = {}  # discard rank key -> sum of the rank part over the sets

    rows = []
    for position, discard in enumerate(combinations(range(dealt), discarded)):
        lay = tuple(hand[i] for i in discard)
        keep = tuple(card for i, card in enumerate(hand) if i not in discard)
        # The hand: every unseen starter, one by one.
        counts: Counter[int] = Counter(hand_total(keep, starter) for starter in unseen)
        hand_sum = sum(points * times for points, times in counts.items())
        # The crib: rank part + flush + nobs (module docstring).
        key = sum(card.rank_key for card in lay)
        if key not in rank_part:
            rank_part[key] = sum(weight * RANK_TABLE[key + rest] for rest, weight in weights)
        suit = lay[0].suit
        flush = 0
        if all(card.suit == suit for card in lay):
            u = unseen_by_suit[suit]
            flush = 5 * comb(u, others) * (u - others)
        nobs = unseen_jack_nobs + sum(
            unseen_by_suit[card.suit] * comb(n - 1, others) for card in lay if card.rank == JACK
        )
        crib = Fraction(rank_part[key], sets) + Fraction(flush + nobs, cases)
        hand_value = Fraction(hand_sum, n)
        net = hand_value + crib if dealer else hand_value - crib
        row = DiscardValue(
            lay, keep, dealer, hand_value, crib, net, dict(sorted(counts.items())), n
        )
        rows.append((-net, -hand_value, position, row))
    rows.sort(key=lambda entry: entry[:3])
    return tuple(entry[3] for entry in rows)
