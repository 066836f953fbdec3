"""Template filters for drawing cards: `card_name` reads a card aloud ("jack of diamonds")."""

from django import template

from scoring.engine import DECK, SUITS
from scoring.engine.cards import SUIT_NAMES, parse_card

register = template.Library()

RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


@register.filter
def card_name(card) -> str:
    return f"{RANK_NAMES.get(card.rank, str(card.rank))} of {SUIT_NAMES[card.suit]}"


@register.filter
def suit_symbol(card) -> str:
    return card.symbol[-1]


@register.simple_tag
def deck_by_suit() -> list[tuple[str, list]]:
    """The deck as the card grid draws it: (suit name, its thirteen cards), spades first."""
    return [(SUIT_NAMES[suit], [card for card in DECK if card.suit == suit]) for suit in SUITS]


@register.filter
def as_card(text):
    """A stored card text ("10D") as a Card, for drawing it."""
    return parse_card(text)


@register.filter
def side_points(points: dict, side) -> int:
    """Points a side scores in an outcome or ruling (`points` maps side text -> points)."""
    return points.get(str(side), 0)


@register.filter
def suit_symbol_text(card) -> str:
    """A card as short text with its suit symbol: "10♦"."""
    return card.symbol


@register.filter
def points_by_side(points: dict, game) -> str:
    """An outcome's or ruling's points with the players' names: "Pat Cowley 3 · Olive Ashdown 0"."""
    names: dict[int, list[str]] = {}
    for seat in game.seats.all():
        names.setdefault(seat.side, []).append(seat.player.display_name)
    return " · ".join(
        f"{' & '.join(members)} {points.get(str(side), 0)}"
        for side, members in sorted(names.items())
    )
