"""The scoring app's audit verbs: claims, outcomes, muggins calls, card confirmations, disputes,
rulings and appeals (see `club.verbs`)."""

from django.db import models

from club.verbs import register_verbs


@register_verbs
class ScoringVerb(models.TextChoices):
    CLAIM_FILED = "claim.filed", "Claim filed"
    OUTCOME_COMPUTED = "claim.outcome", "Claim outcome computed"
    MUGGINS_CALLED = "claim.muggins", "Muggins called"
    CARDS_CONFIRMED = "claim.cards_confirmed", "Cards of a jackpot hand confirmed"
    DISPUTE_OPENED = "dispute.opened", "Dispute opened"
    DISPUTE_RULED = "dispute.ruled", "Dispute ruled"
    DISPUTE_APPEALED = "dispute.appealed", "Ruling appealed"
