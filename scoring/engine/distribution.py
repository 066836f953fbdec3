"""How often each hand (or crib) count happens over every deal, and how rare a count is.

Terms:
- *deal* here: one (4-card hand, starter) pair from the 52-card pack; there are
  C(52, 4) * 48 = 12,994,800 of them, each equally likely.
- *rank pattern*: the hand's ranks as a multiset plus the starter's rank. The rank part of the count
  (fifteens, pairs, runs) depends only on it.
- *suit assignment*: a choice of suits for the cards of a rank pattern that makes real, distinct
  cards.
  Only the flush and his nobs depend on it.

``hand_distribution`` walks the 1,820 hand rank multisets times 13 starter ranks, looks up the rank
part once, and counts the suit assignments of each pattern that give each flush / nobs bonus by
closed formulas (``suit_bonus_counts``), instead of scoring 13 million hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod

from .cards import JACK
from .errors import ScoringError
from .hand import RANK_TABLE, rank_key

TOTAL_HANDS = comb(52, 4) * 48  # 12,994,800


def suit_bonus_counts(
    hand_ranks: Sequence[int], starter_rank: int, *, crib: bool = False, suits: int = 4
) -> dict[int, int]:
    """For a rank pattern, how many suit assignments give each flush + nobs bonus.

    ``suits`` is the number of suits in the pack (4; fewer only for the tests' reduced packs).
    With m cards of a rank there are C(suits, m) ways to suit them, and the starter has
    ``suits - m`` suits left when the hand holds m cards of its rank. Then:

    - a 4-card flush needs four different ranks: ``suits`` ways to pick its suit;
    - the starter joins the flush (5 for the flush) in 1 of its suits when its rank is not in the
      hand, never when it is (that card of the flush suit is in the hand already);
      otherwise (``suits - 1`` suits) the flush is 4, which the crib does not score;
    - his nobs: with j jacks in the hand and a starter that is not a jack, the starter's suit is
      one of the jacks' suits in a fraction j / suits of all assignments. With a 5-card flush the
      jack is always of the starter's suit; with a 4-card flush never.
    """
    held = Counter(hand_ranks)
    if len(hand_ranks) != 4 or max(held.values()) > suits or held[starter_rank] >= suits:
        return {}
    total = prod(comb(suits, m) for m in held.values()) * (suits - held[starter_rank])
    jacks = held[JACK] if starter_rank != JACK else 0
    flush5 = flush4 = 0
    if len(held) == 4:
        flush5 = suits if held[starter_rank] == 0 else 0
        flush4 = suits * (suits - 1)
    nobs = total * jacks // suits
    counts: Counter[int] = Counter()
    if jacks:
        counts[6] += flush5
        counts[1] += nobs - flush5
    else:
        counts[5] += flush5
    counts[0 if crib else 4] += flush4
    counts[0] += total - sum(counts.values())
    return {bonus: n for bonus, n in counts.items() if n}


def count_distribution(
    ranks: Sequence[int], *, crib: bool = False, suits: int = 4
) -> dict[int, int]:
    """The number of (hand, starter) pairs with each count, for a pack of the given ranks and suits.

    ``hand_distribution`` is this for the full pack; the reduced packs are for checking it against
    brute force in the tests.
    """
    result: Counter[int] = Counter()
    pack_ranks = sorted(set(ranks))
    for hand_ranks in combinations_with_replacement(pack_ranks, 4):
        for starter_rank in pack_ranks:
            bonuses = suit_bonus_counts(hand_ranks, starter_rank, crib=crib, suits=suits)
            if bonuses:
                base = RANK_TABLE[rank_key((*hand_ranks, starter_rank))]
                for bonus, n in bonuses.items():
                    result[base + bonus] += n
    return dict(sorted(result.items()))


@cache
def _full_distribution(crib: bool) -> tuple[tuple[int, int], ...]:
    counts = count_distribution(range(1, 14), crib=crib)
    if sum(counts.values()) != TOTAL_HANDS:
        raise AssertionError(f"distribution sums to {sum(counts.values())}, not {TOTAL_HANDS}")
    return tuple(counts.items())


def hand_distribution(*, crib: bool = False) -> dict[int, int]:
    """{count: number of the 12,994,800 (hand, starter) pairs with that count}, hand or crib rules.

    Only counts that occur are keys. Computed once per rule set (cached); each call gets a new dict.
    """
    return dict(_full_distribution(crib))


def clear_cache() -> None:
    """Forget the computed distributions (for cold timings)."""
    _full_distribution.cache_clear()


@dataclass(frozen=True)
class Rarity:
    """How rare a count is among all 12,994,800 (hand, starter) pairs."""

    total: int
    crib: bool
    exactly: int  # pairs that count exactly ``total``
    at_least: int  # pairs that count ``total`` or more
    one_in: int | float | None  # 12,994,800 / at_least, rounded; None when nothing reaches it

    def describe(self) -> str:
        """ "A 24 or better: 1 in 2,432 hands (exactly 24: 3,680 of 12,994,800)"."""
        what = "crib" if self.crib else "hand"
        article = "An" if self.total in (8, 11, 18) or 80 <= self.total < 90 else "A"
        if self.one_in is None:
            return f"No {what} counts {self.total} or more"
        exactly = f"exactly {self.total}: {self.exactly:,} of {TOTAL_HANDS:,}"
        return f"{article} {self.total} or better: 1 in {self.one_in:,} {what}s ({exactly})"


def rarity(total: int, *, crib: bool = False) -> Rarity:
    """How often a hand (or crib) counts ``total``, and ``total`` or more."""
    if not isinstance(total, int) or total < 0:
        raise ScoringError(f"{total!r} is not a count: counts are whole numbers from 0")
    counts = _full_distribution(crib)
    exactly = sum(n for points, n in counts if points == total)
    at_least = sum(n for points, n in counts if points >= total)
    one_in: int | float | None = None
    if at_least:
        ratio = TOTAL_HANDS / at_least
        one_in = round(ratio) if ratio >= 10 else round(ratio, 1)
    return Rarity(total, crib, exactly, at_least, one_in)
