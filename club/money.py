"""Money in the club app: which of the club's amounts the money limit holds (core.cents), and
the check-in's jackpot parts. Money is integer cents, never a float.

Terms:
- money fields: the club's amounts a person types, each at most `core.cents.MONEY_LIMIT_CENTS`.
- owed: what a check-in owes: the entry fee plus each jackpot's contribution
  (`CheckIn.owed_cents`; `owed_cents_expression()` sums it in the database).
"""

from __future__ import annotations

from django.db import models

from club.rules import JACKPOT_HANDS

# The club's amounts under the money limit: checked by the models' validators and
# the database's constraints.
MONEY_FIELDS = (
    "entry_fee_cents",
    "payout_coin_cents",
    "jackpot_29_cents",
    "jackpot_28_cents",
    "jackpot_24_cents",
)

# The jackpots a check-in contributes to: hand -> the CheckIn column holding its contribution.
CHECKIN_JACKPOT_FIELDS = {hand: f"jackpot_{hand}_cents" for hand in JACKPOT_HANDS}
JACKPOT_FIELDS = tuple(CHECKIN_JACKPOT_FIELDS.values())


def owed_cents_expression():
    """A check-in's whole amount as a database expression (for sums)."""
    total = models.F("fee_cents")
    for field in CHECKIN_JACKPOT_FIELDS.values():
        total = total + models.F(field)
    return total
