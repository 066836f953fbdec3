"""Forms of the money app: the reason a settled session is reopened, and an amount a player
pays toward their fees (in whole cents, or dollars and cents)."""

import re

from django import forms
from django.core.exceptions import ValidationError

from core.cents import MONEY_LIMIT_CENTS

_CENTS = re.compile(r"^(\d{1,7})\s*(?:¢|c|cents?)?$", re.IGNORECASE)
_DOLLARS = re.compile(r"^\$\s*(\d{1,5})(?:\.(\d{2}))?$")


class ReopenForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why the settled session is reopened; kept with the replaced settlement.",
    )


def parse_amount(text: str) -> int:
    """An amount a person typed, in whole cents: "75", "75¢" or "$1.50". Raises
    ValidationError saying what to write."""
    text = (text or "").strip()
    if text.startswith("-"):
        raise ValidationError("Write an amount above 0, in whole cents.")
    if match := _CENTS.match(text):
        cents = int(match.group(1))
    elif match := _DOLLARS.match(text):
        cents = int(match.group(1)) * 100 + int(match.group(2) or 0)
    else:
        raise ValidationError("Write the amount in whole cents, such as 75, or as $1.50.")
    if cents <= 0:
        raise ValidationError("Write an amount above 0, in whole cents.")
    if cents > 20 * MONEY_LIMIT_CENTS:
        raise ValidationError("That is more than a morning's fees can come to.")
    return cents


class FeeAmountForm(forms.Form):
    """An amount taken ahead ("pays for the morning", or part of it), and what the row showed
    as already kept, so a second press of the same form is refused."""

    amount = forms.CharField(max_length=20, label="Amount")
    kept = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)

    def clean_amount(self) -> int:
        return parse_amount(self.cleaned_data["amount"])
