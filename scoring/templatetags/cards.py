"""Template filters for drawing cards: `card_name` reads a card aloud ("jack of diamonds")."""

from django import template

from scoring.engine.cards import SUIT_NAMES

register = template.Library()

RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


@register.filter
def card_name(card) -> str:
    return f"{RANK_NAMES.get(card.rank, str(card.rank))} of {SUIT_NAMES[card.suit]}"


@register.filter
def suit_symbol(card) -> str:
    return card.symbol[-1]
