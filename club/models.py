"""The club, its players and the audit trail.

Terms:
- house rules: the settings a club plays under (DESIGN.md, "The club's house rules"); one `Club`
  row each, several clubs may share one site. A session copies them, so later edits never rewrite
  history.
- paid places: one in `players_per_paid_place` players, rounded up (13 players at 4 -> 4 places).
- place weights: "linear" (k, k-1, ..., 1), "equal", or a list of whole numbers such as "50,30,20".
- skunk line: a loser whose score is under it is skunked; the double skunk line likewise (DESIGN.md,
  western-publishing.txt: skunk under 91, double skunk under 61 in a game of 121).
- audit entry: one append-only row per change, written only by `club.services.audit_record`.
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

GAME_TARGETS = (61, 121)


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
    """Read a place-weights rule: "linear", "equal", or whole numbers separated by commas.

    Raises ValidationError with a message that says what to write instead.
    """
    word = (text or "").strip().lower()
    if word in ("linear", "equal"):
        return word
    parts = [part.strip() for part in word.split(",")]
    try:
        weights = [int(part) for part in parts]
    except ValueError:
        raise ValidationError(
            'Write "linear", "equal", or whole numbers separated by commas, such as "50,30,20".'
        ) from None
    if any(weight <= 0 for weight in weights):
        raise ValidationError("Every place weight must be a whole number above zero.")
    if weights != sorted(weights, reverse=True):
        raise ValidationError("Place weights must not grow: a better place never gets less.")
    return weights


def validate_place_weights(text: str) -> None:
    parse_place_weights(text)


class Club(models.Model):
    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=50, unique=True)
    venue = models.CharField(max_length=200, blank=True)
    session_weekday = models.PositiveSmallIntegerField(
        choices=Weekday.choices, default=Weekday.THURSDAY
    )
    session_start = models.TimeField(default=dt.time(9, 30))
    session_end = models.TimeField(default=dt.time(11, 30))

    # House rules (DESIGN.md); defaults as written there.
    game_target = models.PositiveSmallIntegerField(
        default=121,
        choices=[(target, f"{target} points") for target in GAME_TARGETS],
        help_text="A game is played to 121 (twice around) or 61 (once around).",
    )
    entry_fee_cents = models.PositiveIntegerField(
        default=25, help_text="What each player pays per session, in cents."
    )
    payout_coin_cents = models.PositiveIntegerField(
        default=25, help_text="Payouts are whole coins of this many cents."
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
        help_text="Side pot: each paying player adds this to the 29 jackpot (0: no jackpot); "
        "an accepted 29 hand wins it; otherwise it rolls over.",
    )
    jackpot_28_cents = models.PositiveIntegerField(
        default=0, help_text="Likewise for a 28 hand (0: no jackpot)."
    )
    jackpot_24_cents = models.PositiveIntegerField(
        default=0, help_text="Likewise for a 24 hand (0: no jackpot)."
    )

    HOUSE_RULE_FIELDS = (
        "game_target",
        "entry_fee_cents",
        "payout_coin_cents",
        "players_per_paid_place",
        "place_weights",
        "skunk_line",
        "double_skunk_line",
        "points_win",
        "points_skunk_win",
        "points_double_skunk_win",
        "muggins",
        "rounds_per_session",
        "table_mode",
        "standings_public",
        "skunk_bank",
        "jackpot_29_cents",
        "jackpot_28_cents",
        "jackpot_24_cents",
    )

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

    def house_rules(self) -> dict:
        """The house rules as plain values, the snapshot a session keeps and the audit compares."""
        return {field: getattr(self, field) for field in self.HOUSE_RULE_FIELDS}

    def season_of(self, date: dt.date) -> int:
        """The season a date belongs to, named by the year it starts in."""
        start = (self.season_start_month, self.season_start_day)
        return date.year if (date.month, date.day) >= start else date.year - 1

    def season_dates(self, season: int) -> tuple[dt.date, dt.date]:
        """First day of a season and first day of the next (half-open)."""
        first = dt.date(season, self.season_start_month, self.season_start_day)
        return first, dt.date(season + 1, self.season_start_month, self.season_start_day)

    def paid_places(self, players: int) -> int:
        """How many places are paid for a session of `players` players (one in N, rounded up)."""
        if players <= 0:
            return 0
        return -(-players // self.players_per_paid_place)


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
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="player_one_per_user_per_club",
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
                taken = Player.objects.filter(club_id=self.club_id, user_id=self.user_id).exclude(
                    pk=self.pk
                )
                if taken.exists():
                    raise ValidationError(
                        {"user": "That login already belongs to another player of this club."}
                    )


class AuditAction(models.TextChoices):
    CLUB_RULES_CHANGED = "club.rules_changed", "House rules changed"
    CLUB_CREATED = "club.created", "Club created"
    PLAYER_CREATED = "player.created", "Player added"
    PLAYER_CHANGED = "player.changed", "Player changed"
    SESSION_OPENED = "session.opened", "Session opened"
    CHECKIN_CREATED = "checkin.created", "Player checked in"
    CHECKIN_UNDONE = "checkin.undone", "Check-in undone"
    FEE_PAID = "fee.paid", "Fee marked paid"
    FEE_UNPAID = "fee.unpaid", "Fee payment undone"
    ROUND_DRAWN = "round.drawn", "Round drawn"
    SEATS_SWAPPED = "round.seats_swapped", "Seats swapped"
    RESULT_ENTERED = "result.entered", "Result entered"
    RESULT_CONFIRMED = "result.confirmed", "Result confirmed"
    RESULT_CORRECTED = "result.corrected", "Result corrected"
    SESSION_SETTLED = "session.settled", "Session settled"
    SESSION_REOPENED = "session.reopened", "Session reopened"
    CLAIM_FILED = "claim.filed", "Claim filed"
    OUTCOME_COMPUTED = "claim.outcome", "Claim outcome computed"
    MUGGINS_CALLED = "claim.muggins", "Muggins called"
    DISPUTE_OPENED = "dispute.opened", "Dispute opened"
    DISPUTE_RULED = "dispute.ruled", "Dispute ruled"
    DISPUTE_APPEALED = "dispute.appealed", "Ruling appealed"


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
    action = models.CharField(max_length=40, choices=AuditAction.choices)
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
        ]
        permissions = [("settle_session", "Can settle and reopen a session")]
        indexes = [models.Index(fields=["club", "date"])]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%a %d %b %Y}"

    @property
    def season(self) -> int:
        return self.date.year

    @property
    def is_open(self) -> bool:
        return self.state == SessionState.OPEN

    @property
    def game_target(self) -> int:
        return self.rules["game_target"]

    @property
    def fee_cents(self) -> int:
        return self.rules["entry_fee_cents"]


class CheckIn(models.Model):
    """A player present at a session, the fee they owe and, once paid, who took it and when."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="checkins")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="checkins")
    fee_cents = models.PositiveIntegerField()
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
                condition=models.Q(paid_at__isnull=True) | models.Q(paid_by__isnull=False),
                name="checkin_paid_has_taker",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.session}"

    @property
    def is_paid(self) -> bool:
        return self.paid_at is not None


class Pot(models.TextChoices):
    MAIN = "main", "Session pot"
    SKUNK_BANK = "skunk_bank", "Skunk bank"
    JACKPOT_29 = "jackpot_29", "29 jackpot"
    JACKPOT_28 = "jackpot_28", "28 jackpot"
    JACKPOT_24 = "jackpot_24", "24 jackpot"


# The hand each jackpot is for.
JACKPOT_HANDS = {Pot.JACKPOT_29: 29, Pot.JACKPOT_28: 28, Pot.JACKPOT_24: 24}


class LedgerKind(models.TextChoices):
    FEE = "fee", "Entry fee"
    PAYOUT = "payout", "Payout"
    SKUNK_COIN = "skunk_coin", "Skunk coin"
    SKUNK_BANK_WIN = "skunk_bank_win", "Skunk bank won"
    JACKPOT_COIN = "jackpot_coin", "Jackpot contribution"
    JACKPOT_WIN = "jackpot_win", "Jackpot won"
    REVERSAL = "reversal", "Reversed (session reopened)"


class SettlementState(models.TextChoices):
    CURRENT = "current", "Current"
    REPLACED = "replaced", "Replaced (session reopened)"


class Settlement(models.Model):
    """One settling of a session: the pot, how it was split, and (in Payout rows) who got what.

    Reopening a session marks its settlement replaced and reverses its ledger rows; settling
    again makes a new version. Both are kept.
    """

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="settlements")
    version = models.PositiveSmallIntegerField()
    state = models.CharField(
        max_length=10, choices=SettlementState.choices, default=SettlementState.CURRENT
    )
    pot_cents = models.PositiveIntegerField()
    coin_cents = models.PositiveIntegerField()
    paid_places = models.PositiveSmallIntegerField()
    weights = models.JSONField()
    seed = models.BigIntegerField(help_text="Seeds the cut that breaks an indivisible coin.")
    steps = models.JSONField(help_text="How the pot was split, step by step.")
    cuts = models.JSONField(default=list, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    settled_at = models.DateTimeField(default=timezone.now)
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reopened_at = models.DateTimeField(null=True, blank=True)
    reopen_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["session", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "version"], name="settlement_version_unique"
            ),
            models.UniqueConstraint(
                fields=["session"],
                condition=models.Q(state="current"),
                name="settlement_one_current_per_session",
            ),
        ]

    def __str__(self) -> str:
        return f"Settlement {self.version} of {self.session}"


class Payout(models.Model):
    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="payouts")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="payouts")
    rank = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    amount_cents = models.PositiveIntegerField()

    class Meta:
        ordering = ["settlement", "place", "player__display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["settlement", "player"], name="payout_one_per_player_per_settlement"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.amount_cents}¢"


class LedgerEntry(AppendOnlyModel):
    """One signed movement of integer cents into (+) or out of (-) one of the club's pots.
    Every balance shown is a sum of these rows."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="ledger")
    pot = models.CharField(max_length=12, choices=Pot.choices)
    kind = models.CharField(max_length=16, choices=LedgerKind.choices)
    amount_cents = models.IntegerField()
    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="ledger")
    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="ledger")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "ledger entries"
        indexes = [
            models.Index(fields=["club", "pot", "created_at"]),
            # Money won on the standings pages: a club's payouts and side-pot wins.
            models.Index(fields=["club", "kind"]),
        ]

    def __str__(self) -> str:
        return f"{self.get_pot_display()} {self.amount_cents:+d}¢ {self.get_kind_display()}"
