"""Forms of the scoring app. The hand counter form parses cards with the engine and counts them.

Terms: `hand` is 4 cards (3 in five-card cribbage) typed or picked; `starter` the cut card. The
forms that save something carry a one-time token (core.submissions): posted twice, they
save once.
"""

from django import forms

from core.submissions import OneTimeFormMixin
from games.forms import pin_field
from scoring.discarding import MINE, THEIRS, DiscardAdvice, advise
from scoring.engine import CardError, ScoringError, parse_card, parse_cards
from scoring.models import ClaimKind
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


class DiscardForm(forms.Form):
    """The discard advisor's question: the dealt hand, the players at the table, whose crib."""

    cards = forms.CharField(
        max_length=120,
        label="Dealt hand",
        help_text="Six cards at two players, five at three or four, e.g. 5H 5C JD 6S 4C KH.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    players = forms.TypedChoiceField(
        coerce=int,
        choices=[(2, "2 players"), (3, "3 players"), (4, "4 players (partners)")],
        initial=2,
        label="Players",
    )
    whose = forms.ChoiceField(
        choices=[(MINE, "Mine: I deal (or my partner does)"), (THEIRS, "An opponent's")],
        initial=MINE,
        label="Whose crib",
        widget=forms.RadioSelect,
    )

    DEFAULTS = {"players": "2", "whose": MINE}

    def __init__(self, data=None, *args, **kwargs):
        if data is not None:  # a shared address may name the cards alone: two players, my crib
            data = data.copy()
            for name, default in self.DEFAULTS.items():
                if not data.get(name):
                    data[name] = default
        super().__init__(data, *args, **kwargs)

    def clean(self):
        data = super().clean()
        if not self.errors:
            try:
                self.advice: DiscardAdvice = advise(
                    data["cards"], whose=data["whose"], players=data["players"]
                )
            except ScoringError as error:
                self.add_error("cards", str(error))
        return data


PLAY_ROWS = 8


class ClaimForm(OneTimeFormMixin, forms.Form):
    """What a player announced. A play lists the cards of the current count in order, each with
    the player who laid it; the claim is for the last card. The deal number and the play rows
    belong to a claim in the play only (`PLAY_FIELDS`): the page shows them for one, and the
    form drops what they hold for a claim of another kind. The points claimed come after the
    cards, where the count of the cards picked shows (static/js/claim-cards.js)."""

    field_order = ["kind", "claimant", "hand", "starter", "claimed_points"]

    kind = forms.ChoiceField(choices=ClaimKind.choices, label="What was counted")
    claimant = forms.TypedChoiceField(coerce=int, label="Claimed by")
    claimed_points = forms.IntegerField(
        min_value=0,
        max_value=99,
        label="Points claimed",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    hand = forms.CharField(
        max_length=80,
        required=False,
        label="Hand or crib",
        help_text="Four cards, e.g. 5H 5C 5S JD (hand or crib only).",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    starter = forms.CharField(
        max_length=10,
        required=False,
        help_text="The starter (hand, crib or his heels).",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    deal = forms.IntegerField(min_value=1, max_value=99, required=False, label="Deal number")

    def __init__(self, *args, seated: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.seated = dict(seated)
        self.fields["claimant"].choices = seated
        for row in range(1, PLAY_ROWS + 1):
            self.fields[f"play_player_{row}"] = forms.TypedChoiceField(
                coerce=int,
                required=False,
                empty_value=None,
                choices=[("", "—")] + seated,
                label=f"Play {row}: who",
            )
            self.fields[f"play_card_{row}"] = forms.CharField(
                max_length=5,
                required=False,
                label=f"Play {row}: card",
                widget=forms.TextInput(
                    attrs={"autocomplete": "off", "spellcheck": "false", "size": 4}
                ),
            )

    def play_rows(self):
        return [
            (self[f"play_player_{row}"], self[f"play_card_{row}"])
            for row in range(1, PLAY_ROWS + 1)
        ]

    def is_play_field(self, name: str) -> bool:
        return name == "deal" or name.startswith("play_")

    def other_fields(self):
        """The visible fields every kind of claim has (not the deal nor the play rows)."""
        return [field for field in self.visible_fields() if not self.is_play_field(field.name)]

    def play_open(self) -> bool:
        """Whether the play's part starts open: a claim in the play, or its fields in error."""
        kind = self["kind"].value()
        return kind == ClaimKind.PLAY or any(
            self.is_play_field(name) for name in self.errors if name
        )

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind != ClaimKind.PLAY:
            # Filled in and left behind when another kind was chosen: not part of this claim.
            for name in list(self.errors):
                if self.is_play_field(name):
                    del self.errors[name]
            data["deal"] = None
            data["plays"] = []
            return self._check_cards(data, kind)
        plays = []
        for row in range(1, PLAY_ROWS + 1):
            player, card = (
                data.get(f"play_player_{row}"),
                (data.get(f"play_card_{row}") or "").strip(),
            )
            if not player and not card:
                continue
            if not player or not card:
                self.add_error(f"play_card_{row}", "Give both the card and who laid it.")
                continue
            plays.append((player, card))
        data["plays"] = plays
        if not plays:
            self.add_error(None, "Give the cards of the current count in the order laid.")
        return data

    def _check_cards(self, data, kind):
        if kind in (ClaimKind.HAND, ClaimKind.CRIB):
            if not data.get("hand"):
                self.add_error("hand", "Write the four cards of the hand or crib.")
            if not data.get("starter"):
                self.add_error("starter", "Write the starter.")
        elif kind == ClaimKind.HEELS and not data.get("starter"):
            self.add_error("starter", "Write the starter (a jack scores his heels).")
        return data


class MugginsForm(OneTimeFormMixin, forms.Form):
    caller = forms.TypedChoiceField(coerce=int, label="Called by")
    points = forms.IntegerField(min_value=1, max_value=29, label="Muggins for")

    def __init__(self, *args, opponents: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["caller"].choices = opponents


class ConfirmCardsForm(OneTimeFormMixin, forms.Form):
    """The one-button form of "I have seen the cards" on a jackpot hand (only its token)."""


class StatementForm(OneTimeFormMixin, forms.Form):
    statement = forms.CharField(
        max_length=500, widget=forms.Textarea(attrs={"rows": 2}), label="What you do not accept"
    )


class RulingForm(OneTimeFormMixin, forms.Form):
    """A judge's override: the points each side scores for the claim, and why."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args, sides: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        for side, label in sides:
            self.fields[f"side_{side}"] = forms.IntegerField(
                min_value=0, max_value=99, label=f"Points to {label}", required=True
            )
        self.fields["reason"] = self.fields.pop("reason")

    def points(self) -> dict[int, int]:
        return {
            int(name.split("_")[1]): value
            for name, value in self.cleaned_data.items()
            if name.startswith("side_")
        }


class NameJudgeForm(OneTimeFormMixin, forms.Form):
    """An organiser names a player present, not a party, as judge for one dispute."""

    player = forms.TypedChoiceField(
        coerce=int,
        label="Player to judge this dispute",
        error_messages={"required": "Choose the player who will judge this dispute."},
    )

    def __init__(self, *args, candidates: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "Choose a player present…"), *candidates]


class LinkRulingForm(RulingForm):
    """The ruling form of a named judge's one-time link: a judge's, with their PIN when the
    session's rules ask for table PINs. `override` says whether the points are asked for."""

    def __init__(self, *args, pin: bool, override: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not override:
            for name in [name for name in self.fields if name.startswith("side_")]:
                del self.fields[name]
        if pin:
            self.fields["pin"] = pin_field()

    def typed_pin(self) -> str:
        return self.cleaned_data.get("pin", "")


# What a claim filed at the table may be: a play needs the cards of the count in order, which the
# organiser's game page takes (docs/club/table-links.md).
TABLE_CLAIM_KINDS = [
    (kind.value, kind.label) for kind in (ClaimKind.HAND, ClaimKind.CRIB, ClaimKind.HEELS)
]


class TableClaimForm(OneTimeFormMixin, forms.Form):
    """A claim filed on the table page (its link, no login): hand, crib or his heels."""

    claimant = forms.TypedChoiceField(
        coerce=int,
        label="Who claimed?",
        widget=forms.RadioSelect,
        error_messages={"required": "Choose who claimed the points."},
    )
    kind = forms.ChoiceField(
        choices=TABLE_CLAIM_KINDS,
        label="What was counted",
        widget=forms.RadioSelect,
        error_messages={
            "required": "Choose hand, crib or his heels.",
            "invalid_choice": "A claim at the table is for a hand, a crib or his heels; a "
            "claim in the play is filed by the organiser on the game page.",
        },
    )
    hand = forms.CharField(
        max_length=80,
        required=False,
        label="The four cards (hand or crib)",
        help_text="e.g. 5H 5C 5S JD (10 or T for ten).",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "autocapitalize": "characters"}
        ),
    )
    starter = forms.CharField(
        max_length=10,
        required=False,
        label="The starter",
        help_text="The card cut, e.g. 5D.",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "autocapitalize": "characters"}
        ),
    )
    claimed_points = forms.IntegerField(
        min_value=0,
        max_value=99,
        label="Points claimed",
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 99}),
        error_messages={
            "required": "Write the points claimed.",
            "invalid": "Write the points as a whole number.",
        },
    )

    def __init__(self, *args, seated: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["claimant"].choices = seated
        self.fields["claimant"].error_messages["invalid_choice"] = (
            "Choose the claimant among the players at this table."
        )

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind in (ClaimKind.HAND, ClaimKind.CRIB):
            if not data.get("hand"):
                self.add_error("hand", "Write the four cards of the hand or crib.")
            if not data.get("starter"):
                self.add_error("starter", "Write the starter.")
        elif kind == ClaimKind.HEELS:
            data["hand"] = ""
            if not data.get("starter"):
                self.add_error("starter", "Write the starter (a jack scores his heels).")
        return data


class TablePlayerForm(OneTimeFormMixin, forms.Form):
    """A form posted on the table page by the player it names in a radio field
    (`player_field`, one of `players`), with their PIN when the session's rules ask for table
    PINs (`pin`). `wrong_player`: what a name not among `players` is told."""

    player_field = "player"
    wrong_player = ""

    def __init__(self, *args, players: list[tuple[int, str]], pin: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields[self.player_field]
        field.choices = players
        field.error_messages["invalid_choice"] = self.wrong_player
        if pin:
            self.fields["pin"] = pin_field()

    def typed_pin(self) -> str:
        return self.cleaned_data.get("pin", "")


class TableDisputeForm(TablePlayerForm):
    """A call for a judge on the table page: who disagrees (a party to the claim) and why."""

    player = forms.TypedChoiceField(
        coerce=int,
        label="Who disagrees?",
        widget=forms.RadioSelect,
        error_messages={"required": "Choose who disagrees."},
    )
    statement = forms.CharField(
        max_length=500,
        label="What you do not accept",
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": "Say in a sentence what you do not accept."},
    )

    wrong_player = "Choose a player who was at the table when the claim was filed."


class TableMugginsForm(TablePlayerForm):
    """A muggins call on the table page: who calls (an opponent of the claimant at filing), for
    how many points, and their PIN when the session's rules ask for table PINs."""

    caller = forms.TypedChoiceField(
        coerce=int,
        label="Who calls muggins?",
        widget=forms.RadioSelect,
        error_messages={"required": "Choose who calls muggins."},
    )
    points = forms.IntegerField(
        min_value=1,
        max_value=29,
        label="Muggins for how many points?",
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": 29}),
        error_messages={
            "required": "Write the points you call muggins for.",
            "invalid": "Write the points as a whole number.",
            "min_value": "Call muggins for 1 point or more.",
            "max_value": "No hand makes more than 29: call muggins for 29 points or fewer.",
        },
    )

    player_field = "caller"
    wrong_player = "Choose an opponent of the claimant: muggins is called by the other side."


class TableConfirmCardsForm(TablePlayerForm):
    """A jackpot hand's cards confirmed on the table page: who has seen them (a player of another
    side than the claimant's at filing), that they have, and their PIN when the session asks."""

    player = forms.TypedChoiceField(
        coerce=int,
        label="Who has seen the cards?",
        widget=forms.RadioSelect,
        error_messages={"required": "Choose who has seen the cards."},
    )
    seen = forms.BooleanField(
        label="I have seen these cards",
        error_messages={"required": "Tick “I have seen these cards” once you have seen them."},
    )

    wrong_player = (
        "Choose a player of another side: the claimant's own side does not confirm its cards."
    )
