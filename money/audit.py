"""The money app's audit verbs: settling and reopening a session, taking and handing back
skunk coins, taking fee payments and giving change back (see `core.verbs`), and the pots'
names in the audit log (`core.audit_log`)."""

from django.db import models

from core.audit_log import register_labels
from core.verbs import register_verbs
from money.models import Pot


@register_verbs
class MoneyVerb(models.TextChoices):
    SESSION_SETTLED = "session.settled", "Session settled"
    SESSION_REOPENED = "session.reopened", "Session reopened"
    SKUNK_COIN_PAID = "skunk_coin.paid", "Skunk coin paid"
    SKUNK_COIN_RETURNED = "skunk_coin.returned", "Skunk coin handed back"
    FEE_TAKEN = "fee.taken", "Fee payment taken"
    FEE_CHANGE_GIVEN = "fee.change_given", "Change given back"
    FEE_PAYMENT_UNDONE = "fee.payment_undone", "Fee payment undone"


register_labels("pot", Pot)
