"""Counting a claim with the engine: the true count of a hand, crib, his heels or a card in the
play, with its items and the count read aloud, and the counts no claim can make (docs/claims.md).

Terms: a *claim* (scoring.models.Claim) is what a player announced; its *kind* is hand, crib, heels
or play; a *play* is the cards of the current count in the order laid, each with who laid it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError

from scoring.engine import (
    ScoringError,
    heels,
    is_possible_hand_total,
    parse_card,
    parse_cards,
    peg_items,
    score_hand,
)
from scoring.models import ClaimKind

# The most one card can peg in the play: a double pair royal (12) that also makes 15 or 31 (2).
MAX_PLAY_POINTS = 14


def count_claim(
    *, kind: str, hand: str = "", starter: str = "", plays: Sequence[tuple[int, str]] = ()
) -> dict:
    """The engine's true count of a claim: points, items, the count read aloud, and the cards in
    canonical form. Bad cards raise ValidationError on the field they came from."""
    if kind in (ClaimKind.HAND, ClaimKind.CRIB):
        try:
            cards = parse_cards(hand)
        except ScoringError as error:
            raise ValidationError({"hand": str(error)}) from None
        try:
            cut = parse_card(starter)
        except ScoringError as error:
            raise ValidationError({"starter": str(error)}) from None
        try:
            score = score_hand(cards, cut, crib=kind == ClaimKind.CRIB)
        except ScoringError as error:
            field = "starter" if "starter" in str(error).lower() else "hand"
            raise ValidationError({field: str(error)}) from None
        return {
            "points": score.total,
            "items": [
                {"label": g.name, "cards": [str(c) for c in g.cards], "points": g.points}
                for g in score.groups
            ],
            "spoken": score.spoken(),
            "cards": " ".join(str(c) for c in score.hand),
            "starter": str(score.starter),
            "plays": [],
        }
    if kind == ClaimKind.HEELS:
        try:
            cut = parse_card(starter)
        except ScoringError as error:
            raise ValidationError({"starter": str(error)}) from None
        points = heels(cut)
        label = "Two for his heels" if points else "No heels: the starter is not a jack"
        items = [{"label": "his heels", "cards": [str(cut)], "points": 2}] if points else []
        return {
            "points": points,
            "items": items,
            "spoken": label,
            "cards": "",
            "starter": str(cut),
            "plays": [],
        }
    if kind == ClaimKind.PLAY:
        return _count_play(plays)
    raise ValidationError({"kind": f"{kind!r} is not something that is counted."})


def _count_play(plays: Sequence[tuple[int, str]]) -> dict:
    if not plays:
        raise ValidationError({"plays": "Give the cards of the current count in the order laid."})
    laid = []
    seen: set[str] = set()
    for number, (_, text) in enumerate(plays, start=1):
        try:
            card = parse_card(text)
        except ScoringError as error:
            raise ValidationError({"plays": f"Card {number}: {error}"}) from None
        if str(card) in seen:
            raise ValidationError({"plays": f"{card} is laid twice in the count."})
        seen.add(str(card))
        laid.append(card)
        count = sum(c.value for c in laid)
        if count > 31:
            raise ValidationError(
                {"plays": f"{card} takes the count to {count}: a count never passes 31."}
            )
    items = peg_items(laid)
    points = sum(item.points for item in items)
    count = sum(c.value for c in laid)
    if items:
        spoken = " and ".join(f"{item.label} {item.points}" for item in items)
        if len(items) > 1:
            spoken += f" makes {points}"
    else:
        spoken = "nothing for that card"
    spoken = f"{spoken[0].upper()}{spoken[1:]} (the count is {count})"
    return {
        "points": points,
        "items": [
            {"label": item.label, "cards": [str(c) for c in item.cards], "points": item.points}
            for item in items
        ],
        "spoken": spoken,
        "cards": "",
        "starter": "",
        "plays": [[player, str(card)] for (player, _), card in zip(plays, laid, strict=True)],
    }


def is_impossible(kind: str, claimed: int, *, cards: int = 4) -> bool:
    """A count no hand of `cards` cards (crib, heels, card in the play) can make: flagged at once.

    A three-card hand (five-card cribbage, britannica-1911.txt) tops out at 20: the engine's
    THREE_CARD_HAND_TOTALS."""
    if kind in (ClaimKind.HAND, ClaimKind.CRIB):
        return not is_possible_hand_total(claimed, crib=kind == ClaimKind.CRIB, cards=cards)
    if kind == ClaimKind.HEELS:
        return claimed not in (0, 2)
    return claimed > MAX_PLAY_POINTS
