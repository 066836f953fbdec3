"""A backup's claims are counted again on import (ops.backup_claims), however the file is
signed: a claim whose true count, items or outcomes do not follow from its cards and claimed
points under its session's rules is refused with exit code 2, naming the row, and nothing is
imported. So an edit cannot change who scored what for a hand, nor which hand won a jackpot.

Terms: the *document* is the export of the history (tests/ops/conftest.py); an *edit* changes
one thing in a copy of it; the edited document is written *signed* with this site's key, or
unsigned and imported with `--trust-unsigned`.
"""

import pytest
from django.contrib.contenttypes.models import ContentType

from ops.backup_claims import recount_problem
from scoring.counting import count_claim, is_impossible
from scoring.models import Claim, ClaimKind, Outcome
from scoring.outcomes import claim_outcome
from tests.ops.backup_support import find, refused, rows, write, write_unsigned

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_content_types():
    ContentType.objects.clear_cache()
    yield
    ContentType.objects.clear_cache()


def claim_cards_changed(document):
    claim = find(document, "scoring.claim", true_points=24)
    # Three fives and the jack of the starter's suit: 29.
    claim["fields"].update(cards="5C 5D 5H JS", starter="5S")
    return f"scoring.claim #{claim['pk']}: its cards count 29, the file says 24."


def claim_true_count_raised(document):
    claim = find(document, "scoring.claim", true_points=12)
    claim["fields"]["true_points"] = 16
    return f"scoring.claim #{claim['pk']}: its cards count 12, the file says 16."


def claimed_points_raised(document):
    claim = find(document, "scoring.claim", true_points=12)
    assert claim["fields"]["claimed_points"] == 12
    claim["fields"]["claimed_points"] = 14
    outcome = find(document, "scoring.outcome", claim=claim["pk"], version=1)
    side = claim["fields"]["claimant_side"]
    return (
        f"scoring.claim #{claim['pk']}: a claim of 14 with a count of 12 makes outcome 1 over "
        f"(side {side}: 12); the file says exact (side {side}: 12) "
        f"(scoring.outcome #{outcome['pk']})."
    )


def outcome_points_raised(document):
    claim = find(document, "scoring.claim", true_points=12)
    outcome = find(document, "scoring.outcome", claim=claim["pk"], version=1)
    side = str(claim["fields"]["claimant_side"])
    outcome["fields"]["points"][side] = 20
    return (
        f"scoring.claim #{claim['pk']}: a claim of 12 with a count of 12 makes outcome 1 exact "
        f"(side {side}: 12); the file says exact (side {side}: 20)"
    )


def muggins_call_dropped(document):
    claim = next(row for row in rows(document, "scoring.claim") if row["fields"]["muggins_caller"])
    claim["fields"].update(muggins_caller=None, muggins_points=None, muggins_called_at=None)
    outcome = find(document, "scoring.outcome", claim=claim["pk"], version=2)
    return f"scoring.outcome #{outcome['pk']}: its claim has no change that makes an outcome 2."


CLAIM_EDITS = [
    claim_cards_changed,
    claim_true_count_raised,
    claimed_points_raised,
    outcome_points_raised,
    muggins_call_dropped,
]


@pytest.mark.parametrize("edit", CLAIM_EDITS)
def test_an_edited_claim_is_refused_naming_the_row(monkeypatch, capsys, tmp_path, document, edit):
    message = edit(document)
    err = refused(monkeypatch, capsys, write(document, tmp_path / "edited.json"))
    assert message in err


@pytest.mark.parametrize("edit", CLAIM_EDITS)
def test_a_trusted_unsigned_file_has_its_claims_recounted(
    monkeypatch, capsys, tmp_path, document, edit
):
    message = edit(document)
    path = write_unsigned(document, tmp_path / "edited.json")
    err = refused(monkeypatch, capsys, path, "--trust-unsigned")
    assert message in err


# --- Every kind of claim, as filing it writes it --------------------------------------------------


def filed(kind: str, claimed: int, *, muggins_call: int | None = None, **cards) -> tuple:
    """An unsaved claim of player 1 (side 0) against player 2 (side 1) and its outcomes, as
    scoring.services writes them when it is filed (and called muggins on)."""
    counted = count_claim(kind=kind, **cards)
    claim = Claim(
        pk=7,
        kind=kind,
        claimant_id=1,
        claimant_side=0,
        cards=counted["cards"],
        starter=counted["starter"],
        plays=counted["plays"],
        claimed_points=claimed,
        true_points=counted["points"],
        breakdown=counted["items"],
        spoken=counted["spoken"],
        impossible=is_impossible(kind, claimed, cards=len(counted["cards"].split())),
        parties={"1": 0, "2": 1},
        muggins_caller_id=2 if muggins_call else None,
        muggins_points=muggins_call,
    )
    calls = [(None, None)] + ([(1, muggins_call)] if muggins_call else [])
    outcomes = []
    for version, (caller_side, called) in enumerate(calls, start=1):
        worked = claim_outcome(
            claimed=claimed,
            true=claim.true_points,
            claimant_side=0,
            muggins=True,
            caller_side=caller_side,
            called=called,
            heels=kind == ClaimKind.HEELS,
        )
        points = {str(side): value for side, value in sorted(worked.points.items())}
        outcomes.append(
            Outcome(
                pk=10 + version,
                claim=claim,
                version=version,
                kind=worked.kind,
                points=points,
                explanation=worked.explanation,
            )
        )
    return claim, outcomes


KINDS = {
    "hand": lambda: filed(ClaimKind.HAND, 12, hand="2C 3S 4C QH", starter="2D"),
    "crib": lambda: filed(ClaimKind.CRIB, 4, hand="AH 4C 9D KS", starter="2S"),
    "heels": lambda: filed(ClaimKind.HEELS, 2, starter="JD"),
    "play": lambda: filed(ClaimKind.PLAY, 2, plays=[(2, "10S"), (1, "5H")]),
    "muggins": lambda: filed(ClaimKind.HAND, 8, muggins_call=4, hand="2C 3S 4C QH", starter="2D"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_claim_as_filed_recounts_clean(kind):
    claim, outcomes = KINDS[kind]()
    assert recount_problem(claim, outcomes, muggins=True, seat_sides={}) is None


def test_a_play_whose_cards_were_changed_is_refused():
    claim, outcomes = KINDS["play"]()
    claim.plays = [[2, "10S"], [1, "JH"]]
    assert recount_problem(claim, outcomes, muggins=True, seat_sides={}) == (
        claim,
        "its play count 0, the file says 2.",
    )


def test_a_muggins_call_by_the_claimants_own_side_is_refused():
    claim, outcomes = KINDS["muggins"]()
    claim.parties = {"1": 0, "2": 0}
    claim_row, message = recount_problem(claim, outcomes, muggins=True, seat_sides={})
    assert claim_row is claim
    assert message == "its muggins call cannot stand: Muggins is called by an opponent."


def test_a_claim_flagged_possible_that_no_hand_makes_is_refused():
    claim, outcomes = KINDS["hand"]()
    claim.claimed_points = 19
    assert recount_problem(claim, outcomes, muggins=True, seat_sides={}) == (
        claim,
        "a claim of 19 is one no hand can make.",
    )


def test_a_claimant_moved_to_the_other_side_is_refused():
    claim, outcomes = KINDS["hand"]()
    claim.parties = {}  # filed before claims kept them: the game's seats say the sides
    problem = recount_problem(claim, outcomes, muggins=True, seat_sides={"1": 1, "2": 0})
    assert problem == (
        claim,
        "its claimant's side is 0, but the claimant (club.player #1) sat on side 1.",
    )
