"""Pegboard's cribbage scoring engine: pure Python, no Django.

Terms used across the package (each module defines its own in full):
- *card*: a frozen ``Card`` (rank 1..13, suit S/H/D/C); card texts such as ``5H``, ``10D``, ``J♠``.
- *hand* / *crib* / *starter*: the cards counted in the show (``hand``); the count of a hand or crib
  is its *total*, made of *items* (each fifteen, pair, run, flush, his nobs).
- *play*: the pegging, recorded as ``(seat, card)`` in the order laid (``play``).
- *discard values*: what each way of laying away is worth to the hand and the crib (``discard``).
- *distribution*: how many of the 12,994,800 (hand, starter) pairs make each total.
- ``ENGINE_VERSION`` is stored with every computed claim; it is bumped whenever any count this
  package produces could change.

The rule texts and every decision where they differ: docs/scoring-engine.md.
"""

from .cards import DECK, SUIT_SYMBOLS, SUITS, Card, format_cards, parse_card, parse_cards
from .discard import DiscardValue, discard_values
from .distribution import TOTAL_HANDS, Rarity, hand_distribution, rarity
from .errors import CardError, PlayError, ScoringError
from .hand import (
    IMPOSSIBLE_HAND_TOTALS,
    MAX_HAND_TOTAL,
    THREE_CARD_HAND_TOTALS,
    Combination,
    HandScore,
    ScoreItem,
    group_items,
    hand_total,
    heels,
    held_items,
    is_possible_hand_total,
    score_hand,
)
from .play import (
    LeadRule,
    PlayedCard,
    PlayItem,
    PlayScore,
    default_lead_rule,
    peg_items,
    score_play,
    table_sides,
)

#: Stored with every computed claim; bump it whenever any count the engine gives could change.
ENGINE_VERSION = "1.0.0"

__all__ = [
    "DECK",
    "ENGINE_VERSION",
    "IMPOSSIBLE_HAND_TOTALS",
    "MAX_HAND_TOTAL",
    "SUITS",
    "SUIT_SYMBOLS",
    "THREE_CARD_HAND_TOTALS",
    "TOTAL_HANDS",
    "Card",
    "CardError",
    "Combination",
    "DiscardValue",
    "HandScore",
    "LeadRule",
    "PlayError",
    "PlayItem",
    "PlayScore",
    "PlayedCard",
    "Rarity",
    "ScoreItem",
    "ScoringError",
    "default_lead_rule",
    "discard_values",
    "format_cards",
    "group_items",
    "hand_distribution",
    "hand_total",
    "heels",
    "held_items",
    "is_possible_hand_total",
    "parse_card",
    "parse_cards",
    "peg_items",
    "rarity",
    "score_hand",
    "score_play",
    "table_sides",
]
