"""What a claim is worth to each side: exact, over-claim, under-claim, muggins. Pure Python.

Terms (docs/spec.md, "Claims, muggins and disputes"):
- claimed / true: the points announced and the engine's count; overlooked = true - claimed when
  positive.
- exact: claimed = true; the claimant scores it.
- over-claim: claimed > true; the claimant is corrected to the true count (hoyle.txt "Muggins":
  "if a player claims a greater total than is due him, his opponent may require correction").
- under-claim with muggins off, or on his heels: the claimant scores what they claimed; the
  overlooked points are lost, nobody takes them (ACC rule 10.3: no muggins on his heels).
- under-claim with muggins on: the claimant scores what they claimed; the overlooked points stand
  open to a call (hoyle.txt "Muggins": the opponent "may say 'Muggins' and himself score the
  points overlooked").
- a muggins call for N (ACC rule 10.4a): the caller scores the lesser of N and the points actually
  overlooked; only when nothing was overlooked (the claim was exact or over) is the call false, and
  then the claimant is given N as a penalty. See docs/claims.md.
"""

from __future__ import annotations

from dataclasses import dataclass

EXACT = "exact"
OVER = "over"
UNDER_LOST = "under_lost"
UNDER = "under"
MUGGINS = "muggins"
MUGGINS_OVERCALLED = "muggins_overcalled"
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
    heels: bool = False,
) -> ClaimOutcome:
    """The points each side scores for a claim (and a muggins call on it, if any).

    ``heels``: the claim is his heels, on which there is no muggins (ACC rule 10.3).
    """
    if claimed < 0 or true < 0:
        raise ValueError("Counts are never negative.")
    if (caller_side is None) != (called is None):
        raise ValueError("A muggins call has both a caller and an amount.")
    if caller_side is not None and caller_side == claimant_side:
        raise ValueError("Muggins is called by an opponent.")
    if called is not None and called < 1:
        raise ValueError("Muggins is called for 1 point or more.")
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
        if heels:
            return ClaimOutcome(
                UNDER_LOST,
                points,
                f"Claimed {claimed}, the count is {true}: {claimed} scored, the {overlooked} "
                "overlooked are lost (no muggins on his heels, ACC rule 10.3).",
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
    if heels:
        raise ValueError("No muggins on his heels (ACC rule 10.3).")
    if overlooked == 0:
        # ACC rule 10.4a: nothing overlooked, the call is false: the claimant is given N.
        points[claimant_side] = scored + called
        points[caller_side] = 0
        return ClaimOutcome(
            FALSE_MUGGINS,
            points,
            f"Claimed {claimed}, the count is {true}: muggins for {called}, but nothing was "
            f"overlooked: a false call, the claimant is given {called} as a penalty "
            "(ACC rule 10.4a).",
        )
    taken = min(called, overlooked)
    points[caller_side] = taken
    if called <= overlooked:
        return ClaimOutcome(
            MUGGINS,
            points,
            f"Claimed {claimed}, the count is {true}: muggins for {called} takes {taken}.",
        )
    return ClaimOutcome(
        MUGGINS_OVERCALLED,
        points,
        f"Claimed {claimed}, the count is {true}: muggins for {called}, but only {overlooked} "
        f"were overlooked: the caller takes {taken}, the lesser of the call and the points "
        "overlooked; no penalty, since points were overlooked (ACC rule 10.4a).",
    )
