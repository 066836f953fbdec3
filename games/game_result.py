"""A game's result from its final scores: winner, margin, skunks, game points and spread. Pure
Python: the house rules come as `club.rules.HouseRules`, a plain dataclass. (Not a claim's
outcome, which scoring.outcomes reads: the points a claim of a hand is worth.)

Terms (docs/spec.md, "Scoring of a game"):
- side: one player (2- and 3-player games) or two partners (4-player games); sides are indexed
  in seat order.
- target: 121 or 61; exactly one side reaches it, every other side is below it.
- margin of a loser: target - loser's score. Spread: two sides, the winner +m and the loser -m;
  three sides, each loser -(target - own score) and the winner the sum of both. Partners get
  their side's figures. Every game's spreads sum to zero.
- skunked: a loser under the skunk line (91 in a game of 121, western-publishing.txt); double
  skunked: under the double skunk line (61; Hoyle's and Britannica's "lurch").
- game points: a win 2, a skunk win 3, a double skunk win as the club sets (3); losers 0. With two
  losers (cut-throat) the winner scores by the worse-beaten loser, and gives a skunk for each
  skunked loser.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from club.rules import HouseRules


class GameResultError(ValueError):
    """Scores that cannot end a game. `side` is the side the message is about (None: all)."""

    def __init__(self, message: str, *, side: int | None = None) -> None:
        super().__init__(message)
        self.side = side


@dataclass(frozen=True)
class SideResult:
    score: int
    won: bool
    skunked: bool
    double_skunked: bool
    skunks_given: int
    game_points: int
    spread: int


@dataclass(frozen=True)
class GameResult:
    sides: tuple[SideResult, ...]

    @property
    def winner(self) -> int:
        return next(index for index, side in enumerate(self.sides) if side.won)

    @property
    def margin(self) -> int:
        """How far the closest loser finished from the target."""
        return min(-side.spread for side in self.sides if not side.won)


def game_result(scores: Sequence[int], *, rules: HouseRules) -> GameResult:
    """The result of a finished game with these side scores under the session's `rules`.

    Raises GameResultError, naming the side, when the scores cannot end a game.
    """
    target = rules.game_target
    if len(scores) not in (2, 3):
        raise GameResultError(f"A game has 2 or 3 sides, not {len(scores)}.")
    for side, score in enumerate(scores):
        if type(score) is not int:
            raise GameResultError("Write each score as a whole number.", side=side)
        if score < 0:
            raise GameResultError("A score cannot be negative.", side=side)
        if score > target:
            raise GameResultError(
                f"{score} is past the target: the game ends at {target}, so the winner's "
                f"score is {target}.",
                side=side,
            )
    winners = [side for side, score in enumerate(scores) if score == target]
    if not winners:
        raise GameResultError(
            f"Nobody reached {target}: the winner's score is {target}. "
            "Enter the final scores of a finished game."
        )
    if len(winners) > 1:
        raise GameResultError(
            f"Only one side can reach {target}: the game ends the moment one side does.",
            side=winners[1],
        )
    winner = winners[0]
    losers = [side for side in range(len(scores)) if side != winner]
    skunked = {side: rules.is_skunked(scores[side]) for side in losers}
    double = {side: rules.is_double_skunked(scores[side]) for side in losers}
    win_points = rules.win_points(skunk=any(skunked.values()), double_skunk=any(double.values()))
    margins = {side: target - scores[side] for side in losers}
    sides = []
    for side, score in enumerate(scores):
        if side == winner:
            sides.append(
                SideResult(
                    score=score,
                    won=True,
                    skunked=False,
                    double_skunked=False,
                    skunks_given=sum(skunked.values()),
                    game_points=win_points,
                    spread=sum(margins.values()),
                )
            )
        else:
            sides.append(
                SideResult(
                    score=score,
                    won=False,
                    skunked=skunked[side],
                    double_skunked=double[side],
                    skunks_given=0,
                    game_points=0,
                    spread=-margins[side],
                )
            )
    return GameResult(sides=tuple(sides))
