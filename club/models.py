"""The club, its players, its sessions and check-ins, and the append-only audit trail.

Terms:
- house rules: the settings a club plays under, typed as `club.rules.HouseRules`; one `Club` row
  each, several clubs may share one site. A session keeps a snapshot of them (`Session.rules`),
  so later edits never rewrite history; read it as `session.house_rules`.
- session: one club morning; check-in: a player present at it, with the fee they owe and, once
  paid, who took it and when.
- audit entry: one append-only row per change, written only by `club.audit.audit_record`; its
  `action` is a verb some app registered (`club.verbs`).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.functional import cached_property

from club import rules, verbs
from club.money import (  # noqa: F401 - the money limits are read from club.models too
    CHECKIN_JACKPOT_FIELDS,
    JACKPOT_FIELDS,
    MONEY_FIELDS,
    MONEY_LIMIT_CENTS,
    MONEY_LIMIT_MESSAGE,
    format_cents,
    money_validators,
)
from club.rules import HouseRules

GAME_TARGETS = rules.GAME_TARGETS


class TableMode(models.TextChoices):
    SINGLES = "singles", "Singles (2-player tables, one 3-player table when odd)"
    PARTNERS = "partners", "Partners (4-player tables, two against two)"


class Weekday(models.IntegerChoices):
    MONDAY = 0, "Monday"
    TUESDAY = 1, "Tuesday"
    WEDNESDAY = 2, "Wednesday"
    THURSDAY = 3, "Thursday"
    FRIDAY = 4, "Friday"
    SATURDAY = 5, "Saturday"
    SUNDAY = 6, "Sunday"


def parse_place_weights(text: str) -> str | list[int]:
    """Read a place-weights rule (see `club.rules.parse_place_weights`); a bad one is a
    ValidationError with a message that says what to write instead."""
    try:
        return rules.parse_place_weights(text)
    except ValueError as error:
        raise ValidationError(str(error)) from None


def validate_place_weights(text: str) -> None:
    parse_place_weights(text)


# Session dates (issue 13): not before 1900 and at most a year ahead (the services say so);
# the database holds every date below EARLIEST_DATE..LATEST_STORED_DATE, so no date computed
# from one (a season's end, the admin's year filter) ever passes the calendar's year 9999.
EARLIEST_DATE = dt.date(1900, 1, 1)
LATEST_STORED_DATE = dt.date(2999, 12, 31)


def latest_session_date(today: dt.date | None = None) -> dt.date:
    """A session may be opened (or moved) at most a year ahead of today."""
    today = today or timezone.localdate()
    try:
        return today.replace(year=today.year + 1)
    except ValueError:  # 29 February
        return today.replace(year=today.year + 1, day=28)


def check_session_date(date: dt.date, today: dt.date | None = None) -> None:
    """ValidationError on `date` unless it is from 1900 to a year ahead: a mistyped year (9999)
    made the standings answer 404 for good."""
    if date < EARLIEST_DATE:
        raise ValidationError({"date": "A session's date cannot be before 1900: check the year."})
    latest = latest_session_date(today)
    if date > latest:
        raise ValidationError(
            {
                "date": f"A session can be opened at most a year ahead (until {latest:%d %B %Y}): "
                "check the year."
            }
        )


class Club(models.Model):
    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=50, unique=True)
    venue = models.CharField(max_length=200, blank=True)
    session_weekday = models.PositiveSmallIntegerField(
        choices=Weekday.choices, default=Weekday.THURSDAY
    )
    session_start = models.TimeField(default=dt.time(9, 30))
    session_end = models.TimeField(default=dt.time(11, 30))

    # House rules (docs/design.md); defaults as written there.
    game_target = models.PositiveSmallIntegerField(
        default=121,
        choices=[(target, f"{target} points") for target in GAME_TARGETS],
        help_text="A game is played to 121 (twice around) or 61 (once around).",
    )
    entry_fee_cents = models.PositiveIntegerField(
        default=25,
        validators=money_validators(),
        help_text="What each player pays per session, in cents (at most 10000).",
    )
    payout_coin_cents = models.PositiveIntegerField(
        default=25,
        validators=money_validators(),
        help_text="Payouts are whole coins of this many cents (at most 10000).",
    )
    players_per_paid_place = models.PositiveSmallIntegerField(
        default=4, help_text="One paid place for every this many players, rounded up."
    )
    place_weights = models.CharField(
        max_length=200,
        default="linear",
        validators=[validate_place_weights],
        help_text='"linear" (k, k-1, ..., 1), "equal", or whole numbers such as "50,30,20".',
    )
    skunk_line = models.PositiveSmallIntegerField(
        default=91, help_text="A loser with a score under this is skunked."
    )
    double_skunk_line = models.PositiveSmallIntegerField(
        default=61, help_text="A loser with a score under this is double skunked."
    )
    points_win = models.PositiveSmallIntegerField(default=2)
    points_skunk_win = models.PositiveSmallIntegerField(default=3)
    points_double_skunk_win = models.PositiveSmallIntegerField(default=3)
    muggins = models.BooleanField(
        default=True, help_text="An opponent may claim points a player overlooked."
    )
    rounds_per_session = models.PositiveSmallIntegerField(
        default=6, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    table_mode = models.CharField(
        max_length=10, choices=TableMode.choices, default=TableMode.SINGLES
    )
    standings_version = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="Bumped by every service that changes what the standings pages show; the key "
        "of their cached copies.",
    )
    standings_public = models.BooleanField(
        default=True, help_text="Anyone may read standings and session results without logging in."
    )
    skunk_bank = models.BooleanField(
        default=False,
        help_text="Side pot: each skunked player pays one coin into the skunk bank; a player who "
        "gives a double skunk wins it; otherwise it rolls over to the next session.",
    )
    season_start_month = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text="Seasons start on this month and day each year (1 January: calendar years).",
    )
    season_start_day = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(28)]
    )
    best_sessions = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text="Count only each player's best N sessions of a season (blank: all).",
    )
    jackpot_29_cents = models.PositiveIntegerField(
        default=0,
        validators=money_validators(),
        help_text="Side pot: each paying player adds this to the 29 jackpot (0: no jackpot); "
        "an accepted 29 hand wins it; otherwise it rolls over.",
    )
    jackpot_28_cents = models.PositiveIntegerField(
        default=0,
        validators=money_validators(),
        help_text="Likewise for a 28 hand (0: no jackpot).",
    )
    jackpot_24_cents = models.PositiveIntegerField(
        default=0,
        validators=money_validators(),
        help_text="Likewise for a 24 hand (0: no jackpot).",
    )

    # The rules a session keeps a snapshot of: every field of `HouseRules` (a test checks that
    # the model's defaults are the dataclass's).
    HOUSE_RULE_FIELDS = HouseRules.names()

    # What an organiser may edit: the meeting, the season and the house rules.
    EDITABLE_FIELDS = (
        "name",
        "venue",
        "session_weekday",
        "session_start",
        "session_end",
        "season_start_month",
        "season_start_day",
        "best_sessions",
        *HOUSE_RULE_FIELDS,
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game_target__in=GAME_TARGETS), name="club_game_target_61_or_121"
            ),
            models.CheckConstraint(
                condition=models.Q(entry_fee_cents__gt=0), name="club_entry_fee_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(payout_coin_cents__gt=0), name="club_payout_coin_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(players_per_paid_place__gt=0),
                name="club_players_per_paid_place_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(double_skunk_line__lte=models.F("skunk_line"))
                & models.Q(skunk_line__lte=models.F("game_target")),
                name="club_skunk_lines_ordered",
            ),
            *(
                models.CheckConstraint(
                    condition=models.Q(**{f"{field}__lte": MONEY_LIMIT_CENTS}),
                    name=f"club_{field}_at_most_100_dollars",
                )
                for field in MONEY_FIELDS
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        # A full save of a row read earlier must not put back an older standings version:
        # only `standings_changed` moves it.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "standings_version"
            ]
        super().save(*args, **kwargs)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.game_target not in GAME_TARGETS:
            errors["game_target"] = "A game is played to 61 or to 121 points."
        if self.entry_fee_cents is not None and self.entry_fee_cents <= 0:
            errors["entry_fee_cents"] = "The entry fee must be at least 1 cent."
        if self.payout_coin_cents is not None and self.payout_coin_cents <= 0:
            errors["payout_coin_cents"] = "The payout coin must be at least 1 cent."
        if self.players_per_paid_place is not None and self.players_per_paid_place <= 0:
            errors["players_per_paid_place"] = (
                "Write how many players make one paid place (1 or more)."
            )
        target = self.game_target if self.game_target in GAME_TARGETS else None
        if target and self.skunk_line is not None and not 0 < self.skunk_line < target:
            errors["skunk_line"] = f"The skunk line must be between 1 and {target - 1}."
        if (
            self.double_skunk_line is not None
            and self.skunk_line is not None
            and "skunk_line" not in errors
            and not 0 < self.double_skunk_line <= self.skunk_line
        ):
            errors["double_skunk_line"] = (
                f"The double skunk line must be between 1 and the skunk line ({self.skunk_line})."
            )
        if (
            self.points_win is not None
            and self.points_skunk_win is not None
            and self.points_skunk_win < self.points_win
        ):
            errors["points_skunk_win"] = "A skunk win must be worth at least a plain win."
        if (
            self.points_skunk_win is not None
            and self.points_double_skunk_win is not None
            and self.points_double_skunk_win < self.points_skunk_win
        ):
            errors["points_double_skunk_win"] = (
                "A double skunk win must be worth at least a skunk win."
            )
        if self.points_win is not None and self.points_win == 0:
            errors["points_win"] = "A win must be worth at least 1 game point."
        if self.session_start and self.session_end and self.session_end <= self.session_start:
            errors["session_end"] = "The session must end after it starts."
        if errors:
            raise ValidationError(errors)

    @property
    def house_rules(self) -> HouseRules:
        """The club's current house rules (a session keeps their `snapshot()`)."""
        return HouseRules(**{field: getattr(self, field) for field in self.HOUSE_RULE_FIELDS})

    def season_of(self, date: dt.date) -> int:
        """The season a date belongs to, named by the year it starts in."""
        start = (self.season_start_month, self.season_start_day)
        return date.year if (date.month, date.day) >= start else date.year - 1

    def season_dates(self, season: int) -> tuple[dt.date, dt.date]:
        """First day of a season and first day of the next (half-open)."""
        first = dt.date(season, self.season_start_month, self.season_start_day)
        return first, dt.date(season + 1, self.season_start_month, self.season_start_day)


# The one answer for a login that cannot be linked to a player, whether it does not exist or
# is another club's: the answer must not reveal which usernames exist (issue 13).
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

    class Meta:
        ordering = ["club", Lower("display_name")]
        constraints = [
            models.UniqueConstraint(
                "club", Lower("display_name"), name="player_display_name_unique_in_club"
            ),
            # Roles are per club (club/auth.py): a login is one player, in one club.
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


def _append_only(model) -> PermissionError:
    what = str(model._meta.verbose_name_plural).capitalize()
    return PermissionError(f"{what} are append-only: correct them with new rows, never edits.")


class AppendOnlyQuerySet(models.QuerySet):
    """Bulk deletes and updates are refused (the audit trail, the ledger)."""

    def delete(self):
        raise _append_only(self.model)

    def update(self, **kwargs):
        raise _append_only(self.model)


class AppendOnlyModel(models.Model):
    """Rows that are written once: saving an existing row or deleting one raises."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None or not self._state.adding:
            raise _append_only(type(self))
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise _append_only(type(self))


class AuditEntry(AppendOnlyModel):
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        help_text="Who made the change; empty for the system itself.",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(
        max_length=40, help_text="The verb: one an app registered (club.verbs)."
    )
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, null=True, blank=True)
    object_id = models.CharField(max_length=40, blank=True)
    object_repr = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["content_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.get_action_display()}: {self.object_repr}"

    def get_action_display(self) -> str:
        """The verb's label, as the app that owns it registered it."""
        return verbs.verb_label(self.action)

    def clean(self) -> None:
        if self.action and not verbs.is_verb(self.action):
            raise ValidationError({"action": f"{self.action!r} is not a registered audit verb."})


class SessionState(models.TextChoices):
    OPEN = "open", "Open"
    SETTLED = "settled", "Settled"


class Session(models.Model):
    """One club morning. `rules` is the snapshot of the house rules it is played under."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="sessions")
    date = models.DateField()
    starts_at = models.TimeField(default=dt.time(9, 30))
    state = models.CharField(max_length=10, choices=SessionState.choices, default=SessionState.OPEN)
    rules = models.JSONField(help_text="The house rules this session is played under.")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    opened_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="session_one_per_club_per_date"),
            models.CheckConstraint(
                condition=models.Q(date__gte=EARLIEST_DATE, date__lte=LATEST_STORED_DATE),
                name="session_date_in_range",
            ),
        ]
        indexes = [models.Index(fields=["club", "date"])]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%a %d %b %Y}"

    @property
    def season(self) -> int:  # the club's season (club.seasons), not the calendar year
        return self.club.season_of(self.date)

    def clean(self) -> None:
        if self.date is not None:
            check_session_date(self.date)

    @property
    def is_open(self) -> bool:
        return self.state == SessionState.OPEN

    @cached_property
    def house_rules(self) -> HouseRules:
        """The house rules this session is played under (its snapshot, typed)."""
        return HouseRules.from_snapshot(self.rules)

    @property
    def game_target(self) -> int:
        return self.house_rules.game_target

    @property
    def fee_cents(self) -> int:
        return self.house_rules.entry_fee_cents


class CheckIn(models.Model):
    """A player present at a session, what they owe and, once paid, who took it and when. What
    is owed (DESIGN.md "A Thursday, step by step", item 2) is the fee plus each jackpot's
    contribution, copied from the session's rules at check-in; "Mark paid" takes it all."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="checkins")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="checkins")
    fee_cents = models.PositiveIntegerField(validators=money_validators())
    jackpot_29_cents = models.PositiveIntegerField(default=0, validators=money_validators())
    jackpot_28_cents = models.PositiveIntegerField(default=0, validators=money_validators())
    jackpot_24_cents = models.PositiveIntegerField(default=0, validators=money_validators())
    from_round = models.PositiveSmallIntegerField(
        default=1, help_text="The first round this player can be drawn in (late arrivals)."
    )
    checked_in_at = models.DateTimeField(default=timezone.now)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["session", "checked_in_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "player"], name="checkin_one_per_player_per_session"
            ),
            models.CheckConstraint(
                condition=models.Q(fee_cents__lte=MONEY_LIMIT_CENTS),
                name="checkin_fee_at_most_100_dollars",
            ),
            models.CheckConstraint(
                condition=models.Q(paid_at__isnull=True) | models.Q(paid_by__isnull=False),
                name="checkin_paid_has_taker",
            ),
            models.CheckConstraint(
                condition=models.Q(**{f"{f}__lte": MONEY_LIMIT_CENTS for f in JACKPOT_FIELDS}),
                name="checkin_jackpots_at_most_100_dollars",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.session}"

    @property
    def is_paid(self) -> bool:
        return self.paid_at is not None

    @property
    def contributions(self) -> dict[int, int]:
        """The jackpots this check-in pays into: hand -> cents (only those above 0)."""
        return {h: c for h, f in CHECKIN_JACKPOT_FIELDS.items() if (c := getattr(self, f))}

    @property
    def owed_cents(self) -> int:  # the whole amount: the fee and every jackpot contribution
        return self.fee_cents + sum(self.contributions.values())

    @property
    def owed_parts(self) -> str:
        """What the amount is made of, for people: "fee 25¢ + 29 jackpot 10¢"."""
        parts = [f"{hand} jackpot {format_cents(c)}" for hand, c in self.contributions.items()]
        return " + ".join([f"fee {format_cents(self.fee_cents)}", *parts])

    def copy_owed(self, rules: HouseRules) -> None:  # at check-in, from the session's rules
        self.fee_cents = rules.entry_fee_cents
        for hand, field in CHECKIN_JACKPOT_FIELDS.items():
            setattr(self, field, rules.jackpot_cents(hand))


class SubmissionToken(models.Model):
    """A form's one-time token, spent by the service that saves the form
    (`club.services.spend_token`) in its transaction: a second post of the same page finds it
    spent and saves nothing again. `made` names what the first post made ("app_label.model:pk")."""

    token = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    made = models.CharField(max_length=80, blank=True)

    def __str__(self) -> str:
        return f"submission {self.token[:8]}…"
