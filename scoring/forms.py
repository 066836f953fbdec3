"""Forms of the scoring app. The hand counter form parses cards with the engine and counts them.

Terms: `hand` is 4 cards (3 in five-card cribbage) typed or picked; `starter` the cut card.
"""

from django import forms

from scoring.engine import CardError, ScoringError, parse_card, parse_cards
from scoring.selectors import CountedHand, count_hand


class HandCounterForm(forms.Form):
    hand = forms.CharField(
        max_length=80,
        label="Hand",
        help_text="Four cards, e.g. 5H 5C 5S JD (10 or T for ten; ♠♥♦♣ work too).",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    starter = forms.CharField(
        max_length=10,
        label="Starter",
        help_text="The card cut for the starter, e.g. 5D.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    crib = forms.BooleanField(required=False, label="Count it as a crib")

    def clean_hand(self):
        try:
            return parse_cards(self.cleaned_data["hand"])
        except CardError as error:
            raise forms.ValidationError(str(error)) from None

    def clean_starter(self):
        try:
            return parse_card(self.cleaned_data["starter"])
        except CardError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self):
        data = super().clean()
        if "hand" in data and "starter" in data:
            try:
                self.counted: CountedHand = count_hand(
                    data["hand"], data["starter"], crib=data.get("crib", False)
                )
            except ScoringError as error:
                field = "starter" if "starter" in str(error).lower() else "hand"
                self.add_error(field, str(error))
        return data
