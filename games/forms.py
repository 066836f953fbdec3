"""Forms of the games app: side scores of a game, a correction's reason, a seat swap, the draw,
withdrawing a round, and at the table (its link, no login): the scores with who enters them, and
a player's Accept (with their PIN when the session asks for table PINs).

The forms that save something carry a one-time token (club.web.OneTimeFormMixin), so a double
post saves once; the draw names the round it draws instead.
"""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator

from club.web import OneTimeFormMixin
from games.models import Game, Round


class ResultForm(OneTimeFormMixin, forms.Form):
    """One score field per side, labelled with the side's players ("side_0", "side_1", ...)."""

    def __init__(self, *args, game: Game, sides: list[list[str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        target = game.session.house_rules.game_target
        for index, names in enumerate(sides):
            self.fields[f"side_{index}"] = forms.IntegerField(
                label=" & ".join(names),
                min_value=0,
                max_value=target,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": target}),
                error_messages={
                    "min_value": "A score cannot be negative.",
                    "max_value": f"The game ends at {target}: no score is above it.",
                    "invalid": "Write the final score as a whole number.",
                    "required": "Write this side's final score.",
                },
            )

    def scores(self) -> list[int]:
        return [self.cleaned_data[name] for name in self.fields if name.startswith("side_")]


class CorrectionForm(ResultForm):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why the confirmed result changes; kept with the new version.",
    )


class SwapForm(OneTimeFormMixin, forms.Form):
    player_a = forms.ChoiceField(label="Swap")
    player_b = forms.ChoiceField(label="with")

    def __init__(self, *args, round_: Round, seated: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        choices = [("", "—")] + [(str(pk), name) for pk, name in seated]
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices


class DrawForm(forms.Form):
    """The draw button: the number of the round it draws (a hidden field), so that a second
    press draws nothing (games.services.round_draw's `expected_number`). Without it (an old
    page) the next round is drawn."""

    round_number = forms.IntegerField(
        required=False, min_value=1, max_value=99, widget=forms.HiddenInput
    )


class WithdrawForm(OneTimeFormMixin, forms.Form):
    """The confirm step of withdrawing a round: no field but the one-time token, so a second
    press withdraws nothing (not the round drawn again in its place)."""


class TableResultForm(ResultForm):
    """The scores entered at the table: who is entering (a radio button per player at it, by
    name), then one score field per side."""

    def __init__(self, *args, seated: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"] = forms.TypedChoiceField(
            coerce=int,
            choices=seated,
            label="Who is entering?",
            widget=forms.RadioSelect,
            error_messages={
                "required": "Choose your name: who is entering the scores?",
                "invalid_choice": "Choose your name among the players at this table.",
            },
        )
        # The name first: it is the first thing asked.
        self.order_fields(["player"])


class PinInput(forms.TextInput):
    """A PIN field drawn as dots (pegboard.css `.pin-input`) that never shows a PIN back: a
    refused one is typed again. Not a password field: a shared phone must not offer to save a
    player's PIN."""

    def format_value(self, value):
        return None


class TableAcceptForm(forms.Form):
    """One player's Accept button: who accepts (hidden; each player has their own button), and
    their 4-digit PIN when the session's rules ask for table PINs."""

    player = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, pin: bool, name: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if pin:
            self.fields["pin"] = forms.CharField(
                label=f"{name}'s PIN" if name else "PIN",
                max_length=4,
                min_length=4,
                strip=True,
                # Not four digits is a typing slip, told on the field: it costs no try.
                validators=[RegexValidator(r"^[0-9]{4}$", "A PIN is four digits.")],
                widget=PinInput(
                    attrs={
                        "class": "pin-input",
                        "inputmode": "numeric",
                        "autocomplete": "off",
                        "pattern": "[0-9]*",
                        "maxlength": 4,
                        "size": 4,
                        "spellcheck": "false",
                    }
                ),
                error_messages={
                    "required": "Type your 4-digit PIN.",
                    "min_length": "A PIN is four digits.",
                    "max_length": "A PIN is four digits.",
                },
            )

    def typed_pin(self) -> str:
        return self.cleaned_data.get("pin", "")
