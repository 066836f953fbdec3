"""The money app's audit verbs: settling and reopening a session, taking and
handing back skunk coins (see `club.verbs`)."""

from django.db import models

from club.verbs import register_verbs


@register_verbs
class MoneyVerb(models.TextChoices):
    SESSION_SETTLED = "session.settled", "Session settled"
    SESSION_REOPENED = "session.reopened", "Session reopened"
    SKUNK_COIN_PAID = "skunk_coin.paid", "Skunk coin paid"
    SKUNK_COIN_RETURNED = "skunk_coin.returned", "Skunk coin handed back"
