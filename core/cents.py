"""Money as integer cents, never a float: written for people, and the most any amount may be.

Terms:
- cents: every amount the site keeps is a whole number of cents, in a field named `*_cents`.
- money limit: an amount a person types (a fee, the payout coin, a side pot's contribution) is at
  most $500 (`MONEY_LIMIT_CENTS`): a tournament's entry fee at most, far above any club's 25
  cents, and far below what an integer column or the prize fund of 600 entrants could overflow.
  The models' validators check it (so every form), and the club's database constraints too.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator

MONEY_LIMIT_CENTS = 50_000
MONEY_LIMIT_MESSAGE = "At most $500 (50000 cents)."


def money_validators() -> list:
    return [MaxValueValidator(MONEY_LIMIT_CENTS, message=MONEY_LIMIT_MESSAGE)]


def format_cents(amount: int) -> str:
    """Cents for people: 35¢, $1.25 (the `cents` template filter says the same)."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if amount < 100:
        return f"{sign}{amount}¢"
    dollars, rest = divmod(amount, 100)
    return f"{sign}${dollars:,}.{rest:02d}"
