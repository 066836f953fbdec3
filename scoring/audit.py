"""The scoring app's audit verbs: claims, outcomes, muggins calls, card confirmations, disputes,
rulings and appeals (see `core.verbs`), and how the audit log names the claims and disputes its
entries refer to (`core.audit_log`)."""

from django.db import models

from core.audit_log import ONE, register_labels, register_reference
from core.verbs import register_verbs
from scoring.models import Claim, ClaimKind, Dispute, OutcomeKind, RulingDecision


@register_verbs
class ScoringVerb(models.TextChoices):
    CLAIM_FILED = "claim.filed", "Claim filed"
    OUTCOME_COMPUTED = "claim.outcome", "Claim outcome computed"
    MUGGINS_CALLED = "claim.muggins", "Muggins called"
    CARDS_CONFIRMED = "claim.cards_confirmed", "Cards of a jackpot hand confirmed"
    DISPUTE_OPENED = "dispute.opened", "Dispute opened"
    DISPUTE_RULED = "dispute.ruled", "Dispute ruled"
    DISPUTE_APPEALED = "dispute.appealed", "Ruling appealed"
    DISPUTE_JUDGE_NAMED = "dispute.judge_named", "Player named judge for one dispute"


CLAIM_FIELDS = (
    "claimant__display_name",
    "claimed_points",
    "kind",
    "game__round__number",
    "game__table",
)


def _claim_name(name: str, points: int, kind: str, number: int, table: int) -> str:
    what = ClaimKind(kind).label.lower() if kind in ClaimKind.values else kind
    return f"{name}'s {points} for {what}, round {number}, table {table}"


def claim_names(club, ids: set[int]) -> dict[int, str]:
    """ "Ann Able's 12 for hand, round 1, table 3" for each claim id, in one query."""
    rows = Claim.objects.filter(game__session__club=club, pk__in=ids).values_list(
        "pk", *CLAIM_FIELDS
    )
    return {pk: _claim_name(*fields) for pk, *fields in rows}


def dispute_names(club, ids: set[int]) -> dict[int, str]:
    """A dispute named by its claim ("over Ann Able's 12 for hand, ..."), in one query."""
    rows = Dispute.objects.filter(claim__game__session__club=club, pk__in=ids).values_list(
        "pk", *(f"claim__{field}" for field in CLAIM_FIELDS)
    )
    return {pk: f"over {_claim_name(*fields)}" for pk, *fields in rows}


register_reference("claim", keys={"claim": ONE}, lookup=claim_names)
register_reference("dispute", keys={"dispute": ONE}, lookup=dispute_names)
register_labels("kind", ClaimKind)
register_labels("kind", OutcomeKind)
register_labels("decision", RulingDecision)
