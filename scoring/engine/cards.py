"""Cards and card text.

Terms:
- *rank*: 1 (ace) to 13 (king); the ace is always low (hoyle.txt "Cards").
- *suit*: one of ``S H D C`` (spades, hearts, diamonds, clubs); written also as ♠ ♥ ♦ ♣.
- *value* (counting value, pips): the rank, except that the tenth cards J, Q and K count 10.
- *card text*: rank then suit, ``5H``, ``10D`` or ``TD``, ``JS``, ``AC``, in any case. The canonical
  form (``str(card)``) uses ``A 2..10 J Q K`` and a capital suit letter: ``"10D"``, never ``"TD"``.

Cards are frozen, hashable and compare by (rank, suit). Each of the 52 is built once at import and
``parse_card`` returns those instances; a ``Card(5, "H")`` built by hand is equal to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import CardError, ScoringError

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_TEXT: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
JACK = 11

# Extra spellings accepted on input: T for ten; white (outline) suit symbols; an emoji variation
# selector that phone keyboards append to suit symbols.
_SUIT_INPUT: dict[str, str] = (
    {s: s for s in SUITS}
    | {sym: s for s, sym in SUIT_SYMBOLS.items()}
    | {"♤": "S", "♡": "H", "♢": "D", "♧": "C"}
)
_RANK_INPUT: dict[str, int] = {text: rank for rank, text in RANK_TEXT.items()} | {"T": 10}
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. ``rank`` 1..13, ``suit`` one of ``S H D C``."""

    rank: int
    suit: str
    # Derived once per card so that the hot scoring path reads plain attributes.
    value: int = field(init=False, compare=False, repr=False)
    index: int = field(init=False, compare=False, repr=False)  # 0..51, unique per card
    rank_key: int = field(init=False, compare=False, repr=False)  # 5 ** (rank - 1)
    nobs_suit: str = field(init=False, compare=False, repr=False)  # suit for a jack, else ""

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 13:
            raise CardError(f"{self.rank!r} is not a card rank (1 = ace to 13 = king)")
        if self.suit not in SUIT_NAMES:
            raise CardError(f"{self.suit!r} is not a suit (one of S, H, D, C)")
        object.__setattr__(self, "value", min(self.rank, 10))
        object.__setattr__(self, "index", (self.rank - 1) * 4 + SUITS.index(self.suit))
        object.__setattr__(self, "rank_key", 5 ** (self.rank - 1))
        object.__setattr__(self, "nobs_suit", self.suit if self.rank == JACK else "")

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, for display: ``"10♦"``."""
        return RANK_TEXT[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are drawn red."""
        return self.suit in ("H", "D")

    @property
    def rank_text(self) -> str:
        """``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``."""
        return RANK_TEXT[self.rank]


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)
_BY_TEXT: dict[str, Card] = {}
for _card in DECK:
    for _suit_text, _suit in _SUIT_INPUT.items():
        if _suit == _card.suit:
            for _rank_text, _rank in _RANK_INPUT.items():
                if _rank == _card.rank:
                    _BY_TEXT[_rank_text + _suit_text] = _card
del _card, _suit_text, _suit, _rank_text, _rank


def parse_card(text: str | Card) -> Card:
    """The card written as ``text`` (``5H``, ``10d``, ``TD``, ``J♠``); a Card is returned as is."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card text such as 5H, 10D, JS or AC")
    card = _BY_TEXT.get(text.strip().replace("\ufe0f", "").upper())
    if card is None:
        raise CardError(
            f"{text!r} is not a card: write rank then suit, such as 5H, 10D (or TD), JS, AC or 5♥"
        )
    return card


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Cards from a string separated by spaces and/or commas, or from a list of card texts."""
    if isinstance(text, str):
        parts: Iterable[str | Card] = [part for part in _SEPARATORS.split(text) if part]
    elif isinstance(text, Card):
        parts = [text]
    else:
        parts = text
    return [parse_card(part) for part in parts]


def check_distinct(cards: Iterable[Card], what: str) -> None:
    """Raise ScoringError naming the first card that is twice in ``cards`` ("the hand", ...)."""
    cards = tuple(cards)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ScoringError(f"{card} is twice in {what}: {format_cards(cards)}")
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical texts joined by spaces: ``"5H 5D JS"``."""
    return " ".join(str(card) for card in cards)
