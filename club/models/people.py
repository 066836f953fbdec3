"""The club's players: a name the club knows them by, the login (if any) they act with, the PIN
they accept results with at a table, and the one-time links that let a login set its password.

Terms:
- PIN: four digits a player types to accept a result on a table's link when the club's "table
  PINs" rule is on; stored hashed, like a password (`pin_hash`), set by the player or an
  organiser (club.services), when last in `pin_set_at` (the wrong PINs typed before it are
  guesses at another PIN, and count for no wait: club.pin_waits).
- login link: a one-time link (`/welcome/<token>/`) where a login sets its password: the
  welcome of a new login, or a forgotten password. Only a hash of the token is stored; it is
  valid for LOGIN_LINK_DAYS, for one use, and a newer link of the same login replaces it.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from club.models.clubs import Club

# The one answer for a login that cannot be linked to a player, whether it does not exist or
# is another club's: the answer must not reveal which usernames exist.
LOGIN_NOT_LINKABLE = (
    "No login by that name can be linked here: check the spelling, or leave it empty. "
    "A login already used in another club cannot be linked."
)


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    display_name = models.CharField(max_length=60)
    nickname = models.CharField(max_length=60, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        help_text="The login this player uses, if any.",
    )
    active = models.BooleanField(default=True)
    joined = models.DateField(default=timezone.localdate)
    pin_hash = models.CharField(
        max_length=128,
        blank=True,
        editable=False,
        help_text="The hash of the player's 4-digit PIN for table links (empty: no PIN).",
    )
    pin_set_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the PIN was last set or removed: wrong PINs before it count no more.",
    )

    class Meta:
        ordering = ["club", Lower("display_name")]
        constraints = [
            models.UniqueConstraint(
                "club", Lower("display_name"), name="player_display_name_unique_in_club"
            ),
            # Roles are per club (club/backends.py): a login is one player, in one club.
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(user__isnull=False),
                name="player_one_per_login",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    def clean(self) -> None:
        self.display_name = " ".join((self.display_name or "").split())
        self.nickname = " ".join((self.nickname or "").split())
        if not self.display_name:
            raise ValidationError({"display_name": "Write the name the club knows this player by."})
        if self.club_id:
            self._refuse_name_taken()
            if self.user_id:
                taken = Player.objects.filter(user_id=self.user_id).exclude(pk=self.pk).first()
                if taken is not None and taken.club_id == self.club_id:
                    raise ValidationError(
                        {"user": f"That login already belongs to {taken.display_name}."}
                    )
                if taken is not None:
                    # Said exactly as for a login that does not exist: the form must not tell
                    # one club which usernames another club has.
                    raise ValidationError({"user": LOGIN_NOT_LINKABLE})

    def _refuse_name_taken(self) -> None:
        clash = Player.objects.filter(
            club_id=self.club_id, display_name__iexact=self.display_name
        ).exclude(pk=self.pk)
        if clash.exists():
            raise ValidationError(
                {
                    "display_name": f"{self.display_name!r} is already a player of this club: "
                    "add an initial or a nickname to tell them apart."
                }
            )

    def validate_constraints(self, exclude=None) -> None:
        """The database's constraints, with the name's in the words `clean` uses, on the name:
        another add of the same name may commit between `clean`'s check and this one (two
        organisers adding "Sam Pike" at once), and then only the constraint sees it."""
        try:
            super().validate_constraints(exclude=exclude)
        except ValidationError:
            if self.club_id:
                self._refuse_name_taken()
            raise


LOGIN_LINK_DAYS = 7


class LoginLinkPurpose(models.TextChoices):
    WELCOME = "welcome", "Welcome: set a first password"
    RESET = "reset", "Set a new password"


class LoginLink(models.Model):
    """A one-time link where a login sets its password (see the module's terms)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="login_links")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_links"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    purpose = models.CharField(max_length=10, choices=LoginLinkPurpose.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The organiser who made it; empty when `manage.py club_create` did.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(
        null=True, blank=True, help_text="When a newer link of the same login replaced it."
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_purpose_display()} link for {self.user}"

    def is_live(self, now=None) -> bool:
        now = now or timezone.now()
        return self.used_at is None and self.revoked_at is None and now < self.expires_at
