"""Counting a hand or crib with the starter ("the show").

Terms:
- *hand*: the 4 cards a player keeps after laying away (3 in five-card cribbage).
- *starter* (start, turn-up): the card turned up after the lay-away; it is deemed part of every hand
  and of the crib, so a count is over 5 cards (4 with a 3-card hand). hoyle.txt "Showing".
- *crib*: the dealer's 4 laid-away cards, counted like a hand except that a flush counts only when
  all five cards (crib and starter) are one suit.
- *item*: one combination as the rules score it: each fifteen (2), each pair of cards (2), each
  run at its longest length (1 a card), the flush, his nobs (1).
- *group*: items put together the way players announce them: a pair royal is three pairs, a double
  run is two runs and their pair, and so on (see ``Combination``).
- *rank part*: fifteens, pairs and runs together. It depends only on the ranks, which is what the
  fast path (``hand_total``) and the distribution exploit: a table from the rank multiset to points,
  plus a tiny flush / nobs check on the suits.

The fast table and the items are computed by two independent methods (counting formulas on the rank
multiset versus enumerating card combinations); the tests check that they agree on every multiset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations, combinations_with_replacement
from math import comb

from .cards import JACK, Card, check_distinct, format_cards, parse_card, parse_cards
from .errors import ScoringError

IMPOSSIBLE_HAND_TOTALS: frozenset[int] = frozenset({19, 25, 26, 27})
MAX_HAND_TOTAL = 29
# Five-card cribbage (britannica-1911.txt: "five or six cards being dealt to each, and each putting
# out two for what is called crib"): a hand of 3 with the starter. Every count of the 22,100 * 49
# (3-card hand, starter) pairs, counted by this module's own rules (a 3-card flush is 3, 4 with the
# starter: britannica-1911.txt "Flushes.-If all the cards in hand are of the same suit, one is
# reckoned for each card"); the best is 20, 5-5-5 with a 5 turned up (four fifteens and a double
# pair royal). The tests recompute this set from ``hand_total``. The crib of that game is 4 cards,
# counted as in the six-card game, so it makes the four-card totals.
THREE_CARD_HAND_TOTALS: frozenset[int] = frozenset({*range(16), 20})

ITEM_KINDS: tuple[str, ...] = ("fifteen", "pair", "run", "flush", "nobs")


# ---------------------------------------------------------------------------------------------
# Fast path: the rank part from a table keyed by the rank multiset.
# ---------------------------------------------------------------------------------------------


def rank_points(counts: Mapping[int, int]) -> int:
    """Fifteens + pairs + runs for a multiset of ranks ``{rank: how many}``, by counting formulas.

    Pairs: each rank held m times gives C(m, 2) pairs of 2 points. Runs: each maximal stretch of
    three or more consecutive ranks scores its length once per way of picking one card of each rank
    (the product of the multiplicities). Fifteens: the number of card subsets whose values sum to
    15, by a subset-sum count over the ranks.
    """
    pairs = sum(m * (m - 1) for m in counts.values())
    runs = 0
    streak, product = 0, 1
    for rank in range(1, 15):  # 14 closes a stretch that ends at the king
        held = counts.get(rank, 0)
        if held:
            streak += 1
            product *= held
            continue
        if streak >= 3:
            runs += streak * product
        streak, product = 0, 1
    ways = [1] + [0] * 15  # ways[v]: subsets of the ranks seen so far with values summing to v
    for rank, held in counts.items():
        value = min(rank, 10)
        new = ways[:]
        for k in range(1, held + 1):
            add, choose = k * value, comb(held, k)
            for total in range(16 - add):
                new[total + add] += ways[total] * choose
        ways = new
    return 2 * ways[15] + pairs + runs


def rank_key(ranks: Iterable[int]) -> int:
    """The table key of a rank multiset: the sum of 5 ** (rank - 1), unique while no rank is held
    5 times.

    ``Card.rank_key`` holds each card's term, so the hot path adds five attributes.
    """
    return sum(5 ** (rank - 1) for rank in ranks)


def _build_rank_table() -> dict[int, int]:
    table: dict[int, int] = {}
    for size in (4, 5):  # 4 cards: a five-card-cribbage hand of 3 with the starter
        for ranks in combinations_with_replacement(range(1, 14), size):
            counts = Counter(ranks)
            if max(counts.values()) <= 4:
                table[rank_key(ranks)] = rank_points(counts)
    return table


# Keys of 4- and 5-card multisets never collide: the base-5 digits of a key sum to the card count.
RANK_TABLE: dict[int, int] = _build_rank_table()


def hand_total(hand: Sequence[Card] | str, starter: Card | str, *, crib: bool = False) -> int:
    """The count of ``hand`` with ``starter`` (fast path: a table lookup plus a suit check).

    Takes the same arguments as ``score_hand`` and validates them the same way; card objects take
    the fast path, anything else (texts, wrong counts, duplicates) goes through ``check_hand``.
    """
    try:
        if len(hand) == 4:
            a, b, c, d = hand
            if len({a.index, b.index, c.index, d.index, starter.index}) == 5:
                points = RANK_TABLE[
                    a.rank_key + b.rank_key + c.rank_key + d.rank_key + starter.rank_key
                ]
                suit = starter.suit
                if a.suit == b.suit == c.suit == d.suit:
                    if a.suit == suit:
                        points += 5
                    elif not crib:
                        points += 4
                if suit in (a.nobs_suit, b.nobs_suit, c.nobs_suit, d.nobs_suit):
                    points += 1
                return points
        elif len(hand) == 3 and not crib:
            a, b, c = hand
            if len({a.index, b.index, c.index, starter.index}) == 4:
                points = RANK_TABLE[a.rank_key + b.rank_key + c.rank_key + starter.rank_key]
                suit = starter.suit
                if a.suit == b.suit == c.suit:
                    points += 4 if a.suit == suit else 3
                if suit in (a.nobs_suit, b.nobs_suit, c.nobs_suit):
                    points += 1
                return points
    except (AttributeError, TypeError, ValueError):
        pass  # not cards: check_hand below parses them or says what is wrong
    cards, start = check_hand(hand, starter, crib=crib)
    if cards == tuple(hand) and start is starter:  # would recurse for ever; cannot happen
        raise AssertionError(f"hand_total refused valid cards {format_cards(cards)} / {start}")
    return hand_total(cards, start, crib=crib)


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def check_hand(
    hand: Sequence[Card | str] | str, starter: Card | str, *, crib: bool = False
) -> tuple[tuple[Card, ...], Card]:
    """Parse and validate a hand (or crib) and starter; raise ScoringError naming the bad card."""
    start = parse_card(starter)
    cards = tuple(parse_cards(hand))
    what = "crib" if crib else "hand"
    if crib and len(cards) != 4:
        raise ScoringError(f"a crib has 4 cards, not {len(cards)}: {format_cards(cards)}")
    if len(cards) not in (3, 4):
        raise ScoringError(
            f"a hand has 4 cards (3 in five-card cribbage), not {len(cards)}: "
            f"{format_cards(cards) or 'no cards'}"
        )
    check_distinct(cards, f"the {what}")
    if start in cards:
        raise ScoringError(f"the starter {start} is also in the {what}: {format_cards(cards)}")
    return cards, start


# ---------------------------------------------------------------------------------------------
# Items: every combination, by enumerating the cards themselves.
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: ``kind`` is fifteen, pair, run, flush or nobs."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    @property
    def label(self) -> str:
        """``fifteen``, ``pair``, ``run of 4``, ``flush of 5``, ``his nobs``."""
        if self.kind in ("run", "flush"):
            return f"{self.kind} of {len(self.cards)}"
        return "his nobs" if self.kind == "nobs" else self.kind

    def __str__(self) -> str:
        return f"{self.label}: {format_cards(self.cards)} = {self.points}"


@cache
def _rank_template(ranks: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """Every fifteen, run and pair of ranks sorted ascending, as (kind, positions, points).

    Found by enumerating the combinations of positions, once per rank pattern (at most 7,995).
    """
    positions = range(len(ranks))
    template: list[tuple[str, tuple[int, ...], int]] = []
    for size in range(2, len(ranks) + 1):
        template.extend(
            ("fifteen", combo, 2)
            for combo in combinations(positions, size)
            if sum(min(ranks[i], 10) for i in combo) == 15
        )
    # A run counts at its longest only: a run of 4 is not also two runs of 3 (es-lowe.txt (12):
    # 5-7-4-7-6 is two runs of four and a pair, 4+4+2 = 10). With at most five cards every shorter
    # run lies inside a longest one, so the longest length is all there is to count.
    for length in range(len(ranks), 2, -1):
        runs = [
            combo
            for combo in combinations(positions, length)
            if all(ranks[b] == ranks[a] + 1 for a, b in zip(combo, combo[1:], strict=False))
        ]
        if runs:
            template.extend(("run", combo, length) for combo in runs)
            break
    template.extend(
        ("pair", (a, b), 2) for a, b in combinations(positions, 2) if ranks[a] == ranks[b]
    )
    return tuple(template)


def _card_index(card: Card) -> int:
    return card.index


def hand_items(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> tuple[ScoreItem, ...]:
    """Every scoring combination, fifteens first, then runs, pairs, flush and nobs (Hoyle's order).

    Inputs must already be validated (``check_hand``). Cards in each item are in rank order.
    """
    ordered = sorted((*hand, starter), key=_card_index)
    items = [
        ScoreItem(kind, tuple([ordered[i] for i in positions]), points)
        for kind, positions, points in _rank_template(tuple([card.rank for card in ordered]))
    ]
    suit = hand[0].suit
    if all(card.suit == suit for card in hand):
        if starter.suit == suit:
            items.append(ScoreItem("flush", (*hand, starter), len(hand) + 1))
        elif not crib:
            items.append(ScoreItem("flush", tuple(hand), len(hand)))
    items.extend(
        ScoreItem("nobs", (card, starter), 1)
        for card in hand
        if card.rank == JACK and card.suit == starter.suit
    )
    return tuple(items)


def held_items(cards: Sequence[Card]) -> tuple[ScoreItem, ...]:
    """What cards score on their own, before any starter: the fifteens, runs and pairs among them
    and, for four cards of one suit, the hand's flush of 4. No nobs (it needs the starter).

    The discard advisor says what a kept hand already holds ("keeps fifteen-6 and a run of 3").
    Inputs must already be validated (distinct cards).
    """
    ordered = sorted(cards, key=_card_index)
    items = [
        ScoreItem(kind, tuple([ordered[i] for i in positions]), points)
        for kind, positions, points in _rank_template(tuple([card.rank for card in ordered]))
    ]
    if len(ordered) >= 4 and len({card.suit for card in ordered}) == 1:
        items.append(ScoreItem("flush", tuple(ordered), len(ordered)))
    return tuple(items)


# ---------------------------------------------------------------------------------------------
# Groups and the spoken count
# ---------------------------------------------------------------------------------------------

_RUN_NAMES: dict[tuple[int, int], str] = {
    # (run length, number of runs) -> what players call it; hoyle.txt "Showing",
    # club-thursday-rules.md "Combinations" A-F, es-lowe.txt (11)-(14).
    (3, 2): "double run",
    (4, 2): "double run of 4",
    (3, 3): "triple run",
    (3, 4): "double double run",
}
_PAIR_NAMES: dict[int, str] = {2: "pair", 3: "pair royal", 4: "double pair royal"}


@dataclass(frozen=True)
class Combination:
    """Items grouped as players announce them: ``name`` is e.g. ``double run`` (two runs of three
    and their pair, 8), ``pair royal`` (6), ``fifteen``, ``flush of 5``, ``his nobs``."""

    name: str
    kind: str
    cards: tuple[Card, ...]
    points: int

    @property
    def phrase(self) -> str:
        """How it is said within a count: ``a double run``, ``one for his nobs``."""
        if self.kind == "nobs":
            return "one for his nobs"
        if self.kind == "fifteen":
            return "fifteen"
        return f"a {self.name}"


def group_items(items: Sequence[ScoreItem]) -> tuple[Combination, ...]:
    """Fifteens one by one; runs together with the pairs inside them; other pairs by rank;
    then flush and nobs."""
    groups = [
        Combination("fifteen", "fifteen", item.cards, 2) for item in items if item.kind == "fifteen"
    ]
    runs = [item for item in items if item.kind == "run"]
    pairs = [item for item in items if item.kind == "pair"]
    if runs:
        run_ranks = {card.rank for item in runs for card in item.cards}
        inside = [item for item in pairs if item.cards[0].rank in run_ranks]
        pairs = [item for item in pairs if item.cards[0].rank not in run_ranks]
        length = len(runs[0].cards)
        name = _RUN_NAMES.get((length, len(runs)), f"run of {length}")
        cards = sorted({card for item in runs for card in item.cards})
        points = sum(item.points for item in runs + inside)
        groups.append(Combination(name, "run", tuple(cards), points))
    by_rank: dict[int, set[Card]] = {}
    for item in pairs:
        by_rank.setdefault(item.cards[0].rank, set()).update(item.cards)
    for rank in sorted(by_rank, key=lambda r: (-len(by_rank[r]), r)):
        cards = tuple(sorted(by_rank[rank]))
        points = sum(item.points for item in pairs if item.cards[0].rank == rank)
        groups.append(Combination(_PAIR_NAMES[len(cards)], "pair", cards, points))
    groups.extend(
        Combination(item.label, item.kind, item.cards, item.points)
        for item in items
        if item.kind in ("flush", "nobs")
    )
    return tuple(groups)


NOTHING = "Nothing (0)"


def spoken_count(groups: Sequence[Combination], total: int) -> str:
    """The count as players say it, fifteens first: "Fifteen 2, fifteen 4, fifteen 6 and a double
    run makes 14" (hoyle.txt "Showing", with "a" added). Only fifteens: "Fifteen 2, fifteen 4".
    Nothing: "Nothing (0)" rather than the traditional joke "nineteen", which is a real (impossible)
    claim on this site."""
    if total == 0:
        return NOTHING
    phrases = [f"fifteen {2 * n}" for n in range(1, sum(g.kind == "fifteen" for g in groups) + 1)]
    others = [g.phrase for g in groups if g.kind != "fifteen"]
    if others.count("a pair") == 2:  # two pairs of different ranks are said together
        others.remove("a pair")
        others[others.index("a pair")] = "two pairs"
    if not others:  # the last fifteen says the total
        text = ", ".join(phrases)
    elif others == ["one for his nobs"] and not phrases:
        text = others[0]
    else:
        phrases += others
        text = ", ".join(phrases[:-1]) + (" and " if len(phrases) > 1 else "") + phrases[-1]
        text += f" makes {total}"
    return text[0].upper() + text[1:]


# ---------------------------------------------------------------------------------------------
# The public result
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandScore:
    """The count of one hand or crib. ``total`` comes from the fast table; ``items``, ``groups`` and
    ``spoken()`` are worked out on first use from the cards themselves."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    total: int

    @cached_property
    def items(self) -> tuple[ScoreItem, ...]:
        return hand_items(self.hand, self.starter, crib=self.crib)

    @cached_property
    def groups(self) -> tuple[Combination, ...]:
        return group_items(self.items)

    def points(self, kind: str) -> int:
        """Points from items of one kind (fifteen, pair, run, flush, nobs)."""
        if kind not in ITEM_KINDS:
            raise ValueError(f"{kind!r} is not one of {', '.join(ITEM_KINDS)}")
        return sum(item.points for item in self.items if item.kind == kind)

    def spoken(self) -> str:
        return spoken_count(self.groups, self.total)

    def __str__(self) -> str:
        what = "crib" if self.crib else "hand"
        return f"{what} {format_cards(self.hand)} starter {self.starter}: {self.total}"


def score_hand(
    hand: Sequence[Card | str] | str, starter: Card | str, *, crib: bool = False
) -> HandScore:
    """Count a hand (4 cards, or 3 in five-card cribbage) or a 4-card crib with the starter."""
    cards = None if isinstance(hand, str) else tuple(hand)
    if cards is None or type(starter) is not Card or any(type(c) is not Card for c in cards):
        cards, starter = check_hand(hand, starter, crib=crib)
    return HandScore(cards, starter, crib, hand_total(cards, starter, crib=crib))


def heels(starter: Card | str) -> int:
    """Points the dealer pegs for the starter: 2 "for his heels" when it is a jack, else 0."""
    return 2 if parse_card(starter).rank == JACK else 0


def is_possible_hand_total(total: int, *, crib: bool = False, cards: int = 4) -> bool:
    """Whether some hand of ``cards`` cards (or crib: the same set, shown by the distribution)
    counts ``total`` with the starter.

    Four cards: 0 to 29 except 19, 25, 26 and 27 (hoyle.txt "Showing"; western-publishing.txt).
    Three (five-card cribbage): ``THREE_CARD_HAND_TOTALS``, 0 to 15 and 20. A crib is always 4.
    """
    if not isinstance(total, int):
        return False
    if cards == 3 and not crib:
        return total in THREE_CARD_HAND_TOTALS
    if cards != 4:
        raise ScoringError(f"a hand has 4 cards (3 in five-card cribbage), not {cards}")
    # the crib can make exactly the same totals; tests check this against the distribution
    return 0 <= total <= MAX_HAND_TOTAL and total not in IMPOSSIBLE_HAND_TOTALS
