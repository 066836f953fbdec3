"""Forms of the director's tournament pages: a new tournament, the draw and close buttons, and
a forfeit in the playoffs. They validate input; the services do the writing.

Terms:
- match lengths: best of 3 or 5 per playoff round, the final first (tournaments.models). The
  form asks for four (the final, the semi-finals, the quarter-finals, earlier rounds) and fills
  every round of the biggest bracket (`BRACKET_ROUNDS`, 256 qualifiers) with "earlier rounds".
- entry fee: typed as the club's other amounts are (money.forms.parse_amount): whole cents,
  such as 2000, or dollars, such as $20; 0 for a tournament with no fee. The side pots (the 29,
  28 and 24 jackpots: what each entrant adds) are typed the same way, the club's own offered.
- prize shares: each prize level's part of the fund in percent (two decimals at most), kept in
  basis points (tournaments.prizes).
"""

from __future__ import annotations

from decimal import Decimal

from django import forms

from club.rules import JACKPOT_HANDS
from core.cents import format_cents
from money.forms import parse_amount
from tournaments.models import BEST_OF

USUAL_QUALIFYING_GAMES = (7, 9, 12, 14, 16, 18, 21, 22)
BRACKET_ROUNDS = 8
BEST_OF_CHOICES = [(length, f"Best of {length}") for length in BEST_OF]
BYE_CHOICES = [(0, "0 game points (nothing)"), (2, "2 game points (a win)"), (3, "3 game points")]
FREE = {"0", "$0", "$0.00", "0¢"}
JACKPOT_HELP = "What each entrant adds to it, as the entry fee is typed; empty or 0: none."


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120)
    starts_on = forms.DateField(label="First day", widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(
        label="Last day",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Leave empty for a one-day tournament.",
    )
    entry_fee_cents = forms.CharField(
        label="Entry fee",
        max_length=20,
        help_text="In whole cents (2000) or dollars ($20); at most $500. 0: no fee.",
    )
    qualifying_games = forms.TypedChoiceField(
        choices=[(games, f"{games} games") for games in USUAL_QUALIFYING_GAMES],
        coerce=int,
        initial=7,
        help_text="Every entrant plays this many qualifying games.",
    )
    club_share_percent = forms.IntegerField(
        label="Club's share (percent)",
        min_value=0,
        max_value=50,
        initial=0,
        help_text="The part of the entry fees the club keeps; the rest is the prize fund.",
    )
    bye_points = forms.TypedChoiceField(
        label="A qualifying bye scores",
        choices=BYE_CHOICES,
        coerce=int,
        initial=2,
    )
    best_of_final = forms.TypedChoiceField(
        label="The final", choices=BEST_OF_CHOICES, coerce=int, initial=5
    )
    best_of_semis = forms.TypedChoiceField(
        label="The semi-finals", choices=BEST_OF_CHOICES, coerce=int, initial=3
    )
    best_of_quarters = forms.TypedChoiceField(
        label="The quarter-finals", choices=BEST_OF_CHOICES, coerce=int, initial=3
    )
    best_of_earlier = forms.TypedChoiceField(
        label="Earlier rounds", choices=BEST_OF_CHOICES, coerce=int, initial=3
    )

    jackpot_29_cents = forms.CharField(
        label="29 jackpot", max_length=20, required=False, help_text=JACKPOT_HELP
    )
    jackpot_28_cents = forms.CharField(
        label="28 jackpot", max_length=20, required=False, help_text=JACKPOT_HELP
    )
    jackpot_24_cents = forms.CharField(
        label="24 jackpot", max_length=20, required=False, help_text=JACKPOT_HELP
    )

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        if club is not None:  # the club's side pots, until the director says otherwise
            for hand, cents in club.house_rules.jackpots.items():
                self.fields[f"jackpot_{hand}_cents"].initial = format_cents(cents)

    def clean_entry_fee_cents(self) -> int:
        text = self.cleaned_data["entry_fee_cents"].strip()
        return 0 if text in FREE else parse_amount(text)

    def _clean_jackpot(self, name: str) -> int:
        text = self.cleaned_data[name].strip()
        return 0 if not text or text in FREE else parse_amount(text)

    def clean_jackpot_29_cents(self) -> int:
        return self._clean_jackpot("jackpot_29_cents")

    def clean_jackpot_28_cents(self) -> int:
        return self._clean_jackpot("jackpot_28_cents")

    def clean_jackpot_24_cents(self) -> int:
        return self._clean_jackpot("jackpot_24_cents")

    def clean(self):
        data = super().clean()
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", "The last day is before the first day: check the dates.")
        return data

    def service_values(self) -> dict:
        """The form as `tournaments.services.tournament_create`'s keyword arguments."""
        data = self.cleaned_data
        lengths = [data["best_of_final"], data["best_of_semis"], data["best_of_quarters"]]
        lengths += [data["best_of_earlier"]] * (BRACKET_ROUNDS - len(lengths))
        return {
            "name": data["name"],
            "starts_on": data["starts_on"],
            "ends_on": data["ends_on"],
            "entry_fee_cents": data["entry_fee_cents"],
            "qualifying_games": data["qualifying_games"],
            "club_share_percent": data["club_share_percent"],
            "bye_points": data["bye_points"],
            "match_lengths": lengths,
            "jackpots": {hand: data[f"jackpot_{hand}_cents"] for hand in JACKPOT_HANDS},
        }


class PrizeSharesForm(forms.Form):
    """The director's share of the fund for each prize level, in percent with up to two
    decimals (kept as basis points); "the default shares" clears them."""

    use_default = forms.BooleanField(label="Use the default shares", required=False)

    def __init__(self, *args, levels, **kwargs):
        super().__init__(*args, **kwargs)
        self.levels = levels
        for index, level in enumerate(levels):
            self.fields[f"level_{index}"] = forms.DecimalField(
                label=f"{level.name} ({level.players} player{'s' if level.players != 1 else ''})",
                min_value=Decimal("0.01"),
                max_value=Decimal("100"),
                decimal_places=2,
                required=False,
                initial=Decimal(level.share) / 100,
                help_text="Percent of the fund for the level, shared by its players.",
            )

    def clean(self):
        data = super().clean()
        if data.get("use_default"):
            return data
        missing = [
            level.name
            for index, level in enumerate(self.levels)
            if data.get(f"level_{index}") is None and f"level_{index}" not in self.errors
        ]
        if missing:
            raise forms.ValidationError(
                "Give every level a share (or tick the default shares): " + ", ".join(missing)
            )
        return data

    def shares(self) -> list[int]:
        """The shares in basis points, the champion first (empty: the default)."""
        if self.cleaned_data.get("use_default"):
            return []
        return [int(self.cleaned_data[f"level_{index}"] * 100) for index in range(len(self.levels))]


class DrawForm(forms.Form):
    """The draw button: the qualifying round it draws (a hidden field), so a second press
    draws nothing (`qualifying_round_draw`'s `expected_number`)."""

    round_number = forms.IntegerField(
        required=False, min_value=1, max_value=99, widget=forms.HiddenInput
    )


class ForfeitForm(forms.Form):
    """ACC rule 13.1: the player of the match who has not appeared forfeits its current game."""

    absent = forms.TypedChoiceField(label="Who has not appeared", coerce=int)

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        # No one chosen until the director chooses: a forfeit by a slip of the thumb is a game.
        self.fields["absent"].choices = [("", "Choose a player"), *players]
