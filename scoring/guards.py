"""What of the scoring app holds a round as drawn (games.hooks' round guard): a claim filed at
one of its tables records its parties by the seats it was filed under, so those seats are not
swapped, nor the round withdrawn, once a claim exists (docs/spec.md "A Thursday, step by
step", step 3)."""

from __future__ import annotations

from games.models import Round
from scoring.models import Claim


def claims_hold_round(round_: Round) -> str | None:
    """ "A claim is filed at table 2 of round 1", or None when the round's tables have none."""
    tables = sorted(
        set(Claim.objects.filter(game__round=round_).values_list("game__table", flat=True))
    )
    if not tables:
        return None
    if len(tables) == 1:
        return f"A claim is filed at table {tables[0]} of round {round_.number}"
    named = ", ".join(str(table) for table in tables[:-1]) + f" and {tables[-1]}"
    return f"Claims are filed at tables {named} of round {round_.number}"
