"""The standings app's audit verbs (`core.verbs`): the ratings rebuilt from scratch by hand
(`manage.py ratings --rebuild`). The replays that follow a confirmed or corrected result are
part of that result's own entry."""

from django.db import models

from core.verbs import register_verbs


@register_verbs
class StandingsVerb(models.TextChoices):
    RATINGS_REBUILT = "ratings.rebuilt", "Ratings rebuilt from the results"
