"""The pure claim outcome (scoring/outcomes.py): what a claim, and a muggins call on it, is worth.

Terms: *claimed* is what the player announced, *true* the engine's count, *overlooked* = true -
claimed when positive; *C* is the claimant's side, *X* the caller's. The counts come from hands
in the rule texts, so each case reads as a table story:
- the 8-7-7-6-2 hand counts 16 (club-thursday-rules.md, "Combinations");
- 9-6-5-4-4 counts 14, "Fifteen 6 and 8 is 14" (hoyle.txt, "Showing");
- the 29 (hoyle.txt, "Showing"; club-thursday-rules.md, "A PERFECT 29!").
Muggins: hoyle.txt "Muggins" (over-claim corrected on demand; the opponent may score what was
overlooked); a call for N: ACC rule 10.4a as docs/spec.md "Claims, muggins and disputes" gives it
(the caller scores the lesser of N and the points overlooked; only when nothing was overlooked is
the call false, and the claimant is given N); ACC rule 10.3: no muggins on his heels.
docs/claims.md.
"""

import pytest

from scoring.outcomes import (
    EXACT,
    FALSE_MUGGINS,
    MUGGINS,
    MUGGINS_OVERCALLED,
    OVER,
    UNDER,
    UNDER_LOST,
    ClaimOutcome,
    claim_outcome,
)

C, X = 1, 0  # the claimant's side and the other (the caller's) side at a two-player table

# (case, claimed, true, muggins on, muggins called for, kind, points by side)
CASES = [
    # The 8-7-7-6-2 hand counted right: "fifteen 8, and 8 for double run is 16".
    ("exact", 16, 16, True, None, EXACT, {C: 16}),
    ("exact, muggins off", 16, 16, False, None, EXACT, {C: 16}),
    # The 9-6-5-4-4 hand claimed as 16 (two too many): corrected to 14 (hoyle "Muggins").
    ("over-claim", 16, 14, True, None, OVER, {C: 14}),
    ("over-claim, muggins off", 16, 14, False, None, OVER, {C: 14}),
    # The 8-7-7-6-2 hand claimed as 12 ("fifteen 8" and a run of 4, forgetting the double run).
    ("under-claim, muggins off: overlooked lost", 12, 16, False, None, UNDER_LOST, {C: 12}),
    ("under-claim, muggins on, no call yet", 12, 16, True, None, UNDER, {C: 12}),
    ("muggins for exactly the overlooked", 12, 16, True, 4, MUGGINS, {C: 12, X: 4}),
    ("muggins for less than overlooked", 12, 16, True, 2, MUGGINS, {C: 12, X: 2}),
    # ACC rule 10.4a: called for 6, only 4 overlooked: the caller takes the lesser, 4; points
    # were overlooked, so the call is not false and the claimant keeps 12, no penalty.
    ("muggins for more than overlooked", 12, 16, True, 6, MUGGINS_OVERCALLED, {C: 12, X: 4}),
    # ACC rule 10.4a: the 29 counted right and "muggins for 2": nothing was overlooked, a false
    # call: the claimant is given the 2.
    ("muggins when nothing was overlooked", 29, 29, True, 2, FALSE_MUGGINS, {C: 31, X: 0}),
    # ACC rule 10.4a: over-claimed 16 for the 14 hand (nothing overlooked) and a call for 3:
    # corrected to 14, and given the 3 as a penalty.
    ("muggins on an over-claim", 16, 14, True, 3, FALSE_MUGGINS, {C: 17, X: 0}),
    # A hand that counts nothing ("I have nineteen", hoyle "Showing") claimed as 0.
    ("zero claimed, zero true", 0, 0, True, None, EXACT, {C: 0}),
]


@pytest.mark.parametrize(
    ("claimed", "true", "muggins", "called", "kind", "points"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_claim_outcome_branches(claimed, true, muggins, called, kind, points):
    outcome = claim_outcome(
        claimed=claimed,
        true=true,
        claimant_side=C,
        muggins=muggins,
        caller_side=None if called is None else X,
        called=called,
    )

    assert isinstance(outcome, ClaimOutcome)
    assert outcome.kind == kind
    assert outcome.points == points


def test_a_three_player_table_scores_only_the_sides_involved():
    """Cut-throat (es-lowe.txt, "THREE PLAYER GAME"): side 2 claims, side 0 calls, side 1 is out."""
    outcome = claim_outcome(
        claimed=12, true=16, claimant_side=2, muggins=True, caller_side=0, called=4
    )

    assert outcome.kind == MUGGINS
    assert outcome.points == {2: 12, 0: 4}


def test_explanations_say_what_happened():
    lost = claim_outcome(claimed=12, true=16, claimant_side=C, muggins=False)
    assert "4 overlooked are lost" in lost.explanation
    assert "muggins is off" in lost.explanation

    open_ = claim_outcome(claimed=12, true=16, claimant_side=C, muggins=True)
    assert "4 overlooked, open to a muggins call" in open_.explanation

    over = claim_outcome(claimed=16, true=14, claimant_side=C, muggins=True)
    assert "corrected to 14" in over.explanation

    taken = claim_outcome(
        claimed=12, true=16, claimant_side=C, muggins=True, caller_side=X, called=2
    )
    assert "muggins for 2 takes 2" in taken.explanation

    wrong = claim_outcome(
        claimed=12, true=16, claimant_side=C, muggins=True, caller_side=X, called=6
    )
    assert "only 4 were overlooked: the caller takes 4" in wrong.explanation
    assert "no penalty" in wrong.explanation
    assert "ACC rule 10.4a" in wrong.explanation

    nothing = claim_outcome(
        claimed=29, true=29, claimant_side=C, muggins=True, caller_side=X, called=2
    )
    assert "nothing was overlooked" in nothing.explanation
    assert "the claimant is given 2 as a penalty (ACC rule 10.4a)" in nothing.explanation

    heels = claim_outcome(claimed=0, true=2, claimant_side=C, muggins=True, heels=True)
    assert "no muggins on his heels, ACC rule 10.3" in heels.explanation


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"claimed": -1, "true": 16}, "never negative"),
        ({"claimed": 16, "true": -1}, "never negative"),
        ({"claimed": 12, "true": 16, "caller_side": X}, "both a caller and an amount"),
        ({"claimed": 12, "true": 16, "called": 4}, "both a caller and an amount"),
        ({"claimed": 12, "true": 16, "caller_side": C, "called": 4}, "called by an opponent"),
        (
            {"claimed": 12, "true": 16, "caller_side": X, "called": 4, "muggins": False},
            "Muggins is off",
        ),
        ({"claimed": 0, "true": 2, "caller_side": X, "called": 2, "heels": True}, "ACC rule 10.3"),
        ({"claimed": 12, "true": 16, "caller_side": X, "called": 0}, "1 point or more"),
    ],
    ids=[
        "negative claim",
        "negative true count",
        "caller without amount",
        "amount without caller",
        "claimant's own side calls",
        "call with muggins off",
        "a call on his heels",
        "a call for nothing",
    ],
)
def test_impossible_calls_are_refused(kwargs, message):
    kwargs = {"claimant_side": C, "muggins": True, **kwargs}
    with pytest.raises(ValueError, match=message):
        claim_outcome(**kwargs)


def test_every_call_follows_acc_rule_10_4a():
    """ACC rule 10.4a over every claim and call up to the 29: the caller scores the lesser of N
    and the points overlooked; the claimant is given N as a penalty only when nothing was
    overlooked (exact or over-claim), and otherwise keeps what was claimed, no more."""
    for true in range(30):
        for claimed in range(32):
            plain = claim_outcome(claimed=claimed, true=true, claimant_side=C, muggins=True)
            assert plain.points == {C: min(claimed, true)}
            for called in range(1, 32):
                outcome = claim_outcome(
                    claimed=claimed,
                    true=true,
                    claimant_side=C,
                    muggins=True,
                    caller_side=X,
                    called=called,
                )
                overlooked = max(0, true - claimed)
                assert outcome.points[X] == min(called, overlooked)
                penalty = called if overlooked == 0 else 0
                assert outcome.points[C] == min(claimed, true) + penalty
                if overlooked == 0:
                    expected = FALSE_MUGGINS
                elif called <= overlooked:
                    expected = MUGGINS
                else:
                    expected = MUGGINS_OVERCALLED
                assert outcome.kind == expected
