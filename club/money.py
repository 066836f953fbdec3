"""Money in the club app: the limits on every amount, the check-in's jackpot parts, and cents
written for people. Money is integer cents, never a float.

Terms:
- money limit: a fee, the payout coin and each side pot's contribution are at most $100.
- owed: what a check-in owes: the entry fee plus each jackpot's contribution
  (`CheckIn.owed_cents`; `owed_cents_expression()` sums it in the database).
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator
from django.db import models

from club.rules import JACKPOT_HANDS

# Money limits: a fee, the payout coin and each side pot's contribution are at most
# $100. Far above any club's 25 cents, and far below what an integer column or a payout plan of
# 200 players could overflow. Checked by the models' validators (so every form) and the database.
MONEY_LIMIT_CENTS = 10_000
MONEY_FIELDS = (
    "entry_fee_cents",
    "payout_coin_cents",
    "jackpot_29_cents",
    "jackpot_28_cents",
    "jackpot_24_cents",
)
MONEY_LIMIT_MESSAGE = "At most $100 (10000 cents)."


def money_validators() -> list:
    return [MaxValueValidator(MONEY_LIMIT_CENTS, message=MONEY_LIMIT_MESSAGE)]


# The jackpots a check-in contributes to: hand -> the CheckIn column holding its contribution.
CHECKIN_JACKPOT_FIELDS = {hand: f"jackpot_{hand}_cents" for hand in JACKPOT_HANDS}
JACKPOT_FIELDS = tuple(CHECKIN_JACKPOT_FIELDS.values())


def owed_cents_expression():
    """A check-in's whole amount as a database expression (for sums)."""
    total = models.F("fee_cents")
    for field in CHECKIN_JACKPOT_FIELDS.values():
        total = total + models.F(field)
    return total


def format_cents(amount: int) -> str:
    """Cents for people: 35¢, $1.25 (the `cents` template filter says the same)."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if amount < 100:
        return f"{sign}{amount}¢"
    dollars, rest = divmod(amount, 100)
    return f"{sign}${dollars:,}.{rest:02d}"
