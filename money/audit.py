"""The money app's audit verbs: settling and reopening a session (see `club.verbs`)."""

from django.db import models

from club.verbs import register_verbs


@register_verbs
class MoneyVerb(models.TextChoices):
    SESSION_SETTLED = "session.settled", "Session settled"
    SESSION_REOPENED = "session.reopened", "Session reopened"
