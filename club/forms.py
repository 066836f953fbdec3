"""Forms of the club app. They validate input; the services do the writing.

Terms: the player form never takes a login: a login is made for its player on the player's login
page (club.services.login_give), so no club page links an existing username. The login forms
(giving a login, its role, a new one-time link, a table PIN) feed `club.services`; a PIN is four
ASCII digits.
"""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator

from club.models import Club, Player
from club.services.logins import ROLES
from core.submissions import OneTimeFormMixin


class HouseRulesForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = list(Club.EDITABLE_FIELDS)
        labels = {
            "entry_fee_cents": "Entry fee (cents)",
            "fee_per": "Entry fee is paid",
            "payout_coin_cents": "Payout coin (cents)",
            "players_per_paid_place": "Players per paid place",
            "skunk_line": "Skunk line (loser under)",
            "double_skunk_line": "Double skunk line (loser under)",
            "points_win": "Game points for a win",
            "points_skunk_win": "Game points for a skunk win",
            "points_double_skunk_win": "Game points for a double skunk win",
            "session_weekday": "Meets on",
            "session_start": "Starts at",
            "session_end": "Ends about",
            "best_sessions": "Count each player's best N sessions",
            "season_start_month": "Season starts: month",
            "season_start_day": "Season starts: day",
            "jackpot_29_cents": "29 jackpot, per player (cents)",
            "jackpot_28_cents": "28 jackpot, per player (cents)",
            "jackpot_24_cents": "24 jackpot, per player (cents)",
            "table_links": "Table links (QR codes on the seating chart)",
            "table_pins": "Table PINs (accepting at the table needs the player's PIN)",
            "signed_scorecards_confirm": "Signed scorecards confirm results",
            "forfeit_points": "Game points of a forfeit, for the side that stays",
            "large_type": "High contrast, large type",
        }
        widgets = {
            "session_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "session_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }


class PlayerForm(forms.Form):
    display_name = forms.CharField(max_length=60, label="Name")
    nickname = forms.CharField(max_length=60, required=False)
    active = forms.BooleanField(required=False, initial=True)
    joined = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), help_text="Default: today."
    )

    def __init__(self, *args, club: Club, player: Player | None = None, **kwargs):
        self.club = club
        self.player = player
        if player is not None:
            # The player as stored, under whatever the caller gives: FormView always passes an
            # `initial` (empty by default), which must not hide the stored values.
            stored = {
                "display_name": player.display_name,
                "nickname": player.nickname,
                "active": player.active,
                "joined": player.joined,
            }
            kwargs["initial"] = {**stored, **(kwargs.get("initial") or {})}
        super().__init__(*args, **kwargs)

    def service_values(self) -> dict:
        data = dict(self.cleaned_data)
        if data.get("joined") is None:
            data.pop("joined", None)
        return data


class SessionOpenForm(forms.Form):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    starts_at = forms.TimeField(
        label="Starts at", widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )


class SessionRedateForm(forms.Form):
    date = forms.DateField(label="New date", widget=forms.DateInput(attrs={"type": "date"}))


class CheckInForm(forms.Form):
    """Type-ahead check-in: a name from the club's list, or a new player's name with the box
    ticked."""

    name = forms.CharField(
        max_length=60,
        label="Player",
        widget=forms.TextInput(
            attrs={
                "list": "player-names",
                "autocomplete": "off",
                "placeholder": "Start typing a name",
            }
        ),
    )
    new_player = forms.BooleanField(required=False, label="Add as a new player")

    def __init__(self, *args, club: Club, **kwargs):
        self.club = club
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean()
        name = " ".join(data.get("name", "").split())
        if not name:
            return data
        found = Player.objects.filter(club=self.club, display_name__iexact=name).first()
        if found is None:
            found = Player.objects.filter(club=self.club, nickname__iexact=name).first()
        if data.get("new_player"):
            if found is not None:
                self.add_error(
                    "name",
                    f"There is already a player called {found.display_name}: untick "
                    "“new player” to check them in.",
                )
            data["player"], data["new_player_name"] = None, name
        elif found is None:
            self.add_error(
                "name", f"No player called {name!r}: tick “Add as a new player” to add them."
            )
        else:
            data["player"], data["new_player_name"] = found, ""
        return data


# --- Logins, passwords and PINs (club.services does the writing) ---------------------------------

ROLE_CHOICES = [(role, role.capitalize()) for role in ROLES]
PIN_WIDGET = forms.PasswordInput(
    attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": "4", "size": "4"}
)


class LoginGiveForm(OneTimeFormMixin, forms.Form):
    """Give a player a login: a username, a role, an optional e-mail address."""

    username = forms.CharField(
        max_length=150,
        help_text="Suggested from the name; letters, digits and @ . + - _ only.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    role = forms.ChoiceField(choices=ROLE_CHOICES, initial="player")
    email = forms.EmailField(
        required=False,
        label="E-mail (optional)",
        help_text="Only to send the link by e-mail, when the site can send e-mail.",
    )


class LoginRoleForm(forms.Form):
    role = forms.ChoiceField(choices=ROLE_CHOICES, label="Role")


class LoginLinkForm(OneTimeFormMixin, forms.Form):
    """A new one-time password link: nothing to fill in but the one-time token."""


class PinForm(forms.Form):
    """Set a table PIN (four digits); `clear` (the "Remove the PIN" button) removes it."""

    pin = forms.CharField(
        required=False,
        max_length=4,
        label="New PIN (4 digits)",
        widget=PIN_WIDGET,
        validators=[
            RegexValidator(r"^[0-9]{4}\Z", "A PIN is exactly four digits, e.g. 4071."),
        ],
    )

    def __init__(self, *args, clear: bool = False, **kwargs):
        self.clear = clear
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean()
        if self.clear:
            self.errors.pop("pin", None)
            data["pin"] = ""
        elif "pin" not in self.errors and not data.get("pin"):
            self.add_error("pin", "Type four digits, or press “Remove the PIN”.")
        return data


class OwnPasswordForm(forms.Form):
    """Change one's own password: the current one, then the new one twice. Whether the current
    one is right and the new one strong enough is for `club.services.password_change` to say."""

    old_password = forms.CharField(
        label="Current password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    new_password1 = forms.CharField(
        label="New password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="At least 8 characters, not only digits, not a common password.",
    )
    new_password2 = forms.CharField(
        label="New password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = super().clean()
        first, second = data.get("new_password1"), data.get("new_password2")
        if first and second and first != second:
            self.add_error("new_password2", "The two new passwords differ: type the same twice.")
        return data
