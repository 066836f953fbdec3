"""Reads for the scoring app. The hand counter's count: the engine's score with its rarity.

Terms: a *counted hand* is the engine's `HandScore` together with `Rarity` for its total (how many
of the 12,994,800 (hand, starter) pairs count as much or more).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.engine import ENGINE_VERSION, HandScore, Rarity, rarity, score_hand


@dataclass(frozen=True)
class CountedHand:
    score: HandScore
    rarity: Rarity

    def as_dict(self) -> dict:
        """Plain values for JSON (the `count --json` command and the counter's JSON answer)."""
        score = self.score
        return {
            "hand": [str(card) for card in score.hand],
            "starter": str(score.starter),
            "crib": score.crib,
            "total": score.total,
            "items": [
                {"kind": item.kind, "cards": [str(c) for c in item.cards], "points": item.points}
                for item in score.items
            ],
            "combinations": [
                {"name": group.name, "cards": [str(c) for c in group.cards], "points": group.points}
                for group in score.groups
            ],
            "spoken": score.spoken(),
            "rarity": {
                "exactly": self.rarity.exactly,
                "at_least": self.rarity.at_least,
                "one_in": self.rarity.one_in,
                "text": self.rarity.describe(),
            },
            "engine_version": ENGINE_VERSION,
        }


def count_hand(hand, starter, *, crib: bool = False) -> CountedHand:
    """Count a hand; bad cards raise the engine's ScoringError, whose message names the card."""
    score = score_hand(hand, starter, crib=crib)
    return CountedHand(score=score, rarity=rarity(score.total, crib=crib))
