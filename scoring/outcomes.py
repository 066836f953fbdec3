"""What a claim is worth to each side: exact, over-claim, under-claim, muggins. Pure Python.

Terms (docs/design.md, "Claims, muggins and disputes"):
- claimed / true: the points announced and the engine's count; overlooked = true - claimed when
  positive.
- exact: claimed = true; the claimant scores it.
- over-claim: claimed > true; the claimant is corrected to the true count (hoyle.txt, "Errors in
  scoring": a player who pegs too many is set back; docs/design.md: "corrected to the true count").
- under-claim with muggins off: the claimant scores what they claimed; the overlooked points are
  lost, nobody takes them.
- under-claim with muggins on: the claimant scores what they claimed; an opponent who calls
  "muggins for N" scores min(N, overlooked) (hoyle.txt "Muggins": the opponent may take
  overlooked points).
- wrong muggins call (ACC rule 10, as Pegboard implements it): the part of a call that was not
  overlooked (N when nothing was overlooked, N - overlooked when the call was for more) is scored
  by the claimant as a penalty against the caller. See docs/claims.md.
"""

from __future__ import annotations

from dataclasses import dataclass

EXACT = "exact"
OVER = "over"
UNDER_LOST = "under_lost"
UNDER = "under"
MUGGINS = "muggins"
FALSE_MUGGINS = "false_muggins"


@dataclass(frozen=True)
class ClaimOutcome:
    kind: str
    points: dict[int, int]  # side -> points scored for this claim
    explanation: str


def claim_outcome(
    *,
    claimed: int,
    true: int,
    claimant_side: int,
    muggins: bool,
    caller_side: int | None = None,
    called: int | None = None,
) -> ClaimOutcome:
    """The points each side scores for a claim (and a muggins call on it, if any)."""
    if claimed < 0 or true < 0:
        raise ValueError("Counts are never negative.")
    if (caller_side is None) != (called is None):
        raise ValueError("A muggins call has both a caller and an amount.")
    if caller_side is not None and caller_side == claimant_side:
        raise ValueError("Muggins is called by an opponent.")
    scored = min(claimed, true)
    overlooked = max(0, true - claimed)
    points = {claimant_side: scored}
    if called is None:
        if claimed == true:
            return ClaimOutcome(EXACT, points, f"Claimed {claimed}: right. {claimed} scored.")
        if claimed > true:
            return ClaimOutcome(
                OVER, points, f"Claimed {claimed}, the count is {true}: corrected to {true}."
            )
        if not muggins:
            return ClaimOutcome(
                UNDER_LOST,
                points,
                f"Claimed {claimed}, the count is {true}: {claimed} scored, the {overlooked} "
                "overlooked are lost (muggins is off).",
            )
        return ClaimOutcome(
            UNDER,
            points,
            f"Claimed {claimed}, the count is {true}: {claimed} scored; {overlooked} overlooked, "
            "open to a muggins call.",
        )
    if not muggins:
        raise ValueError("Muggins is off: there is no muggins call.")
    taken = min(called, overlooked)
    penalty = called - taken
    points[caller_side] = taken
    points[claimant_side] = scored + penalty
    if penalty == 0:
        return ClaimOutcome(
            MUGGINS,
            points,
            f"Claimed {claimed}, the count is {true}: muggins for {called} takes {taken}.",
        )
    if taken:
        what = f"only {overlooked} were overlooked: the caller takes {taken}"
    else:
        what = "nothing was overlooked: the caller takes nothing"
    return ClaimOutcome(
        FALSE_MUGGINS,
        points,
        f"Claimed {claimed}, the count is {true}: muggins for {called}, but {what}, and the "
        f"claimant scores the {penalty} wrongly called as a penalty (ACC rule 10).",
    )
