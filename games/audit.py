"""The games app's audit verbs: draws, seat swaps, withdrawn rounds, results (`club.verbs`)."""

from django.db import models

from club.verbs import register_verbs


@register_verbs
class GameVerb(models.TextChoices):
    ROUND_DRAWN = "round.drawn", "Round drawn"
    SEATS_SWAPPED = "round.seats_swapped", "Seats swapped"
    ROUND_WITHDRAWN = "round.withdrawn", "Round withdrawn"
    RESULT_ENTERED = "result.entered", "Result entered"
    RESULT_CONFIRMED = "result.confirmed", "Result confirmed"
    RESULT_SIGNED = "result.signed_scorecard", "Result confirmed from a signed scorecard"
    RESULT_CORRECTED = "result.corrected", "Result corrected"
