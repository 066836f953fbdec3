"""Forms of the games app: side scores of a game, a correction's reason, a seat swap, the draw,
withdrawing a round, a whole round's scorecards, finding a name on the round page, and at the
table (its link, no login): the scores with who enters them, and a player's Accept (with their PIN
when the session asks for table PINs).

The forms that save something carry a one-time token (core.submissions), so a double
post saves once; the draw names the round it draws instead.
"""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator

from club.rules import HouseRules
from core.submissions import OneTimeFormMixin
from games.game_result import GameResultError, game_result
from games.models import MOST_TABLE_CARDS, Game, Round
from games.selectors import RoundTable, name_key


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


class UnfinishedForm(OneTimeFormMixin, forms.Form):
    """A game that cannot be finished (games.services.unfinished): not played, or a forfeit
    naming the player whose side leaves; with `leaves`, that player also leaves after this
    round (no later draw seats him)."""

    NOT_PLAYED, FORFEIT = "not_played", "forfeit"
    outcome = forms.ChoiceField(
        label="What happened",
        widget=forms.RadioSelect,
        choices=[
            (NOT_PLAYED, "Not played: no result, it counts nowhere"),
            (FORFEIT, "Forfeit: the side that stays wins by the house rule"),
        ],
    )
    leaving = forms.ChoiceField(label="Who leaves", required=False)
    leaves = forms.BooleanField(
        label="They leave after this round (not drawn again today)", required=False
    )
    reason = forms.CharField(
        required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 2}), label="Why"
    )

    def __init__(self, *args, seated: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["leaving"].choices = [("", "—")] + [(str(pk), name) for pk, name in seated]

    def clean(self):
        data = super().clean()
        needs_player = data.get("outcome") == self.FORFEIT or data.get("leaves")
        if needs_player and not data.get("leaving"):
            self.add_error("leaving", "Choose the player who leaves.")
        return data


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


def _score_field(label: str, target: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=target,
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "min": 0, "max": target, "autocomplete": "off"}
        ),
        error_messages={
            "min_value": "A score cannot be negative.",
            "max_value": f"The game ends at {target}: no score is above it.",
            "invalid": "Write the final score as a whole number.",
        },
    )


class ScorecardsForm(OneTimeFormMixin, forms.Form):
    """A round's paper scorecards on one screen: a score field per side of every table still
    still to type ("table_<n>_side_<i>", in table order, then side order, which is
    the keyboard's order), prefilled with a table's draft, and the "signed" box.

    A table left empty is not entered; a table with only some scores, or scores that cannot end
    a game, is an error on that table (`table_errors`, by table number), so every bad table shows
    at once. `scores()` gives the tables to enter: a draft left as it was is entered again only
    when the entry confirms it (signed, under a rule that lets signed scorecards confirm);
    otherwise it stays the draft it is, entered by whoever entered it.
    """

    signed = forms.BooleanField(required=False, label="The players signed these scorecards")

    def __init__(self, *args, tables: list[RoundTable], rules: HouseRules, **kwargs):
        super().__init__(*args, **kwargs)
        self.tables = tables
        self.rules = rules
        self.table_errors: dict[int, list[str]] = {}
        self.error_sides: dict[int, int] = {}  # the side a table's error is about, when one is
        target = rules.game_target
        signed = self.fields.pop("signed")
        for table in self.open_tables:
            for side, names in enumerate(table.sides):
                name = self.field_name(table.game.table, side)
                self.fields[name] = _score_field(" & ".join(names) or "(empty side)", target)
                if table.draft and side < len(table.scores):
                    self.fields[name].initial = table.scores[side]
        self.fields["signed"] = signed

    @staticmethod
    def field_name(table: int, side: int) -> str:
        return f"table_{table}_side_{side}"

    @property
    def open_tables(self) -> list[RoundTable]:
        """The tables still to type: those without a confirmed result, not marked not played or
        a forfeit."""
        return [table for table in self.tables if table.to_type]

    def fields_of(self, table: RoundTable) -> list[str]:
        return [self.field_name(table.game.table, side) for side in range(len(table.sides))]

    def confirms(self) -> bool:
        """Whether this entry confirms the results (signed, and the rule says signed confirms)."""
        return bool(self.cleaned_data.get("signed")) and self.rules.signed_scorecards_confirm

    def clean(self):
        data = super().clean()
        for table in self.open_tables:
            number = table.game.table
            names = self.fields_of(table)
            if any(name in self.errors for name in names):
                continue  # the field's own error says what to fix
            values = [data.get(name) for name in names]
            if all(value is None for value in values):
                continue
            if any(value is None for value in values):
                self.table_errors[number] = [
                    f"Table {number}: write every side's final score, or leave the table empty."
                ]
                self.error_sides[number] = values.index(None)
                continue
            try:
                game_result(values, rules=self.rules)
            except GameResultError as error:
                self.table_errors[number] = [f"Table {number}: {error}"]
                if error.side is not None:
                    self.error_sides[number] = error.side
        if self.table_errors:
            raise forms.ValidationError(
                "Nothing was saved: fix the tables marked below, then save again."
            )
        return data

    def add_table_errors(self, error: forms.ValidationError) -> None:
        """A service's ValidationError: `table_<n>` keys on their tables, the rest above."""
        if not hasattr(error, "error_dict"):
            self.add_error(None, error)
            return
        for key, errors in error.error_dict.items():
            number = key.removeprefix("table_")
            if key.startswith("table_") and number.isdigit():
                self.table_errors[int(number)] = [m for e in errors for m in e.messages]
            else:
                self.add_error(None, errors)
        if self.table_errors:
            self.add_error(None, "Nothing was saved: fix the tables marked below, then save again.")

    def scores(self) -> dict[int, list[int]]:
        """The tables to enter: table number -> side scores (see the class's docstring)."""
        entered = {}
        confirms = self.confirms()
        for table in self.open_tables:
            values = [self.cleaned_data.get(name) for name in self.fields_of(table)]
            if any(value is None for value in values):
                continue
            if table.draft and values == table.scores and not confirms:
                continue
            entered[table.game.table] = values
        return entered

    def rows(self) -> list[dict]:
        """Every table in table order for the template: its fields (none when confirmed or
        marked not played or a forfeit) with the side's names, and its errors (the fields' and
        the table's)."""
        rows = []
        for table in self.tables:
            fields = []
            errors = list(self.table_errors.get(table.game.table, []))
            if table.to_type:
                for name, names in zip(self.fields_of(table), table.sides, strict=True):
                    bound = self[name]
                    fields.append((names, bound))
                    label = " & ".join(names)
                    errors += [f"Table {table.game.table}, {label}: {e}" for e in bound.errors]
            rows.append({"table": table, "fields": fields, "errors": errors})
        return rows

    def focus(self) -> None:
        """Put `autofocus` where the organiser types next: in the first table in error (on the
        score its error is about, else its first), else on the first empty score field; mark the
        fields of the tables in error for screen readers."""
        first_error = first_empty = None
        for table in self.open_tables:
            number, names = table.game.table, self.fields_of(table)
            wrong = [name for name in names if name in self.errors]
            if number in self.error_sides:
                wrong.append(names[self.error_sides[number]])
            if wrong or number in self.table_errors:
                for name in names:
                    self.fields[name].widget.attrs["aria-invalid"] = "true"
                    self.fields[name].widget.attrs["aria-describedby"] = f"table-{number}-errors"
                first_error = first_error or (wrong or names)[0]
            elif first_empty is None:
                first_empty = next((n for n in names if self[n].value() in (None, "")), None)
        target = first_error or first_empty
        if target is not None:
            self.fields[target].widget.attrs["autofocus"] = True


class FindNameForm(forms.Form):
    """The round page's "Find your name" box (a GET form; the page's script filters as you
    type, and without JavaScript the server does the same)."""

    name = forms.CharField(
        label="Find your name",
        required=False,
        max_length=60,
        widget=forms.TextInput(
            attrs={
                "type": "search",
                "autocomplete": "off",
                "autocapitalize": "words",
                "spellcheck": "false",
                "data-find-name": "",
            }
        ),
    )

    def key(self) -> str:
        """What to look for (a `name_key`), empty when nothing (or nothing valid) was typed."""
        if not self.is_valid():
            return ""
        return name_key(self.cleaned_data["name"])


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


def pin_field(name: str = "") -> forms.CharField:
    """A player's 4-digit table PIN, typed on a shared phone (drawn as dots, never shown back)."""
    return forms.CharField(
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
                # table-offline.js never keeps it on the phone with what else was typed
                "data-keep": "never",
            }
        ),
        error_messages={
            "required": "Type your 4-digit PIN.",
            "min_length": "A PIN is four digits.",
            "max_length": "A PIN is four digits.",
        },
    )


class TableAcceptForm(forms.Form):
    """One player's Accept button: who accepts (hidden; each player has their own button), and
    their 4-digit PIN when the session's rules ask for table PINs."""

    player = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, pin: bool, name: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if pin:
            self.fields["pin"] = pin_field(name)

    def typed_pin(self) -> str:
        return self.cleaned_data.get("pin", "")


TABLES_FROM_1 = f"Give the number of tables, from 1 to {MOST_TABLE_CARDS}."


class TableCardsForm(forms.Form):
    """How many table cards the club needs: cards for tables 1 to this number (the ones it has
    are kept)."""

    up_to = forms.IntegerField(
        label="Cards for tables 1 to",
        min_value=1,
        max_value=MOST_TABLE_CARDS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": MOST_TABLE_CARDS}),
        error_messages={
            "required": TABLES_FROM_1,
            "invalid": TABLES_FROM_1,
            "min_value": TABLES_FROM_1,
            "max_value": TABLES_FROM_1,
        },
    )


class TableCardsRenewForm(OneTimeFormMixin, forms.Form):
    """The confirm step of "New cards": no field but the one-time token, so a second press does
    not replace the cards just printed."""
