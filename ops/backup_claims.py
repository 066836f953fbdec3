"""The claims of a backup, counted again (ops.backup_checks): what a claim's cards and claimed
points give, as filing it gives it (scoring.services.claims), against what the file says.

Terms:
- recount: the engine's count of the claim's cards (scoring.counting.count_claim: the true
  count, its items, the count read aloud, the cards in canonical form) and whether the count
  claimed is one no hand can make (`is_impossible`).
- sides: who sat on which side when the claim was filed: the claim's `parties`, or for a claim
  without them (filed before claims kept them) its game's seats in the file, as
  `Claim.party_sides` reads them from the database.
- confirmed at the table: a jackpot hand's cards confirmed through the table's link name the
  player who saw them (`cards_confirmed_by_player`), who was a party of another side than the
  claimant's (scoring.services.table_cards_confirm).
- outcomes: a claim has outcome 1, worked out when it is filed, and outcome 2 when an opponent
  called muggins on it (scoring.outcomes.claim_outcome, with the session's muggins rule); each
  outcome row of the file must say what they say (kind, points per side, explanation).

A claim whose stored count or outcome does not follow from its cards and claimed points is
refused, so an edited file cannot change who scored what, nor which hand won a jackpot.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from scoring.counting import count_claim, is_impossible
from scoring.models import ClaimKind
from scoring.outcomes import claim_outcome

Problem = tuple[models.Model, str] | None


def _first(error: ValidationError) -> str:
    return error.messages[0] if error.messages else str(error)


def _points_text(points: object) -> str:
    if not isinstance(points, dict):
        return repr(points)
    return ", ".join(f"side {side}: {value}" for side, value in points.items()) or "nothing"


def recount_problem(claim, outcomes: list, *, muggins: bool, seat_sides: dict[str, int]) -> Problem:
    """The first row (the claim or one of its outcomes) that disagrees with the recount of
    `claim`, with what is wrong; None when the file's rows say what the engine says.

    `outcomes`: the claim's outcome rows in the file; `muggins`: the session's muggins rule;
    `seat_sides`: its game's seats in the file, player id (as text) -> side."""
    what = "its play" if claim.kind == ClaimKind.PLAY else "its cards"
    try:
        counted = count_claim(
            kind=claim.kind, hand=claim.cards, starter=claim.starter, plays=claim.plays
        )
    except ValidationError as error:
        return claim, f"{what} cannot be counted: {_first(error)}"
    except (TypeError, ValueError):
        return claim, f"{what} cannot be read: {claim.plays!r}."
    if counted["points"] != claim.true_points:
        return claim, f"{what} count {counted['points']}, the file says {claim.true_points}."
    written = (claim.cards, claim.starter, claim.plays)
    if written != (counted["cards"], counted["starter"], counted["plays"]):
        return claim, f"{what} are not written as the engine writes them."
    if claim.breakdown != counted["items"] or claim.spoken != counted["spoken"][:400]:
        return claim, f"its breakdown or its count read aloud is not what {what} count."
    impossible = is_impossible(
        claim.kind, claim.claimed_points, cards=len(counted["cards"].split())
    )
    if impossible != claim.impossible:
        said = "" if impossible else "not "
        return claim, f"a claim of {claim.claimed_points} is {said}one no hand can make."
    sides = claim.parties or seat_sides
    if sides.get(str(claim.claimant_id)) != claim.claimant_side:
        return claim, (
            f"its claimant's side is {claim.claimant_side}, but the claimant (club.player "
            f"#{claim.claimant_id}) sat on side {sides.get(str(claim.claimant_id))}."
        )
    confirmer = claim.cards_confirmed_by_player_id
    if confirmer is not None and sides.get(str(confirmer)) in (None, claim.claimant_side):
        return claim, (
            f"its cards are confirmed at the table by club.player #{confirmer}, who was not a "
            "player of another side than the claimant's."
        )
    return _outcomes_problem(claim, outcomes, muggins=muggins, sides=sides)


def _outcomes_problem(claim, outcomes: list, *, muggins: bool, sides: dict) -> Problem:
    heels = claim.kind == ClaimKind.HEELS
    calls = [(None, None)]
    if claim.muggins_caller_id is not None:
        calls.append((sides.get(str(claim.muggins_caller_id)), claim.muggins_points))
    expected = {}
    for version, (caller_side, called) in enumerate(calls, start=1):
        try:
            expected[version] = claim_outcome(
                claimed=claim.claimed_points,
                true=claim.true_points,
                claimant_side=claim.claimant_side,
                muggins=muggins,
                caller_side=caller_side,
                called=called,
                heels=heels,
            )
        except ValueError as error:
            return claim, f"its muggins call cannot stand: {error}"
    found = {outcome.version: outcome for outcome in outcomes}
    for version, outcome in sorted(found.items()):
        if version not in expected:
            return outcome, f"its claim has no change that makes an outcome {version}."
    for version, computed in expected.items():
        outcome = found.get(version)
        if outcome is None:
            event = "its muggins call" if version > 1 else "filing it"
            return claim, f"it has no outcome {version}, which {event} makes."
        points = {str(side): value for side, value in sorted(computed.points.items())}
        if (outcome.kind, outcome.points) != (computed.kind, points):
            return claim, (
                f"a claim of {claim.claimed_points} with a count of {claim.true_points} makes "
                f"outcome {version} {computed.kind} ({_points_text(points)}); the file says "
                f"{outcome.kind} ({_points_text(outcome.points)}) (scoring.outcome #{outcome.pk})."
            )
        if outcome.explanation != computed.explanation[:400]:
            return outcome, f"its explanation is not its claim's: {computed.explanation!r}."
    return None
