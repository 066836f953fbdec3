"""The club row: where it meets, its season and its house rules (typed as
`club.rules.HouseRules`; one `Club` row each, several clubs may share one site), and the limits
on a session's date."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from club import rules
from club.money import MONEY_FIELDS
from club.rules import HouseRules
from core.cents import MONEY_LIMIT_CENTS, money_validators
from core.pages import PagesVersioned

GAME_TARGETS = rules.GAME_TARGETS


class TableMode(models.TextChoices):
    SINGLES = "singles", "Singles (2-player tables, one 3-player table when odd)"
    PARTNERS = "partners", "Partners (4-player tables, two against two)"


class FeePer(models.TextChoices):
    SESSION = rules.FEE_PER_SESSION, "Per session (once a morning)"
    GAME = rules.FEE_PER_GAME, "Per game (for each game a player is seated in)"


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


# Session dates: not before 1900 and at most a year ahead (the services say so);
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


class Club(PagesVersioned):
    """A club: where and when it meets, its season and its house rules. Its public pages
    (standings, results, player pages) are versioned for the visitors' cache (core.pages)."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=50, unique=True)
    venue = models.CharField(max_length=200, blank=True)
    session_weekday = models.PositiveSmallIntegerField(
        choices=Weekday.choices, default=Weekday.THURSDAY
    )
    session_start = models.TimeField(default=dt.time(9, 30))
    session_end = models.TimeField(default=dt.time(11, 30))

    # House rules (docs/spec.md); defaults as written there.
    game_target = models.PositiveSmallIntegerField(
        default=121,
        choices=[(target, f"{target} points") for target in GAME_TARGETS],
        help_text="A game is played to 121 (twice around) or 61 (once around).",
    )
    entry_fee_cents = models.PositiveIntegerField(
        default=25,
        validators=money_validators(),
        help_text="What each player pays per session or per game, in cents (at most 10000).",
    )
    fee_per = models.CharField(
        max_length=10,
        choices=FeePer.choices,
        default=FeePer.SESSION,
        help_text="Per game: each player owes the fee for each game they are seated in.",
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

    table_links = models.BooleanField(
        default=True,
        help_text="The seating chart shows each table's QR code and short link: the players at "
        "the table enter their result there and a player of another side accepts it, no login "
        "needed.",
    )
    table_pins = models.BooleanField(
        default=False,
        help_text="Accepting a result on a table's link needs that player's 4-digit PIN.",
    )
    signed_scorecards_confirm = models.BooleanField(
        default=True,
        help_text="Scorecards an organiser types in, ticked as signed by the players, are "
        "confirmed at once (otherwise they are drafts to confirm).",
    )
    forfeit_points = models.PositiveSmallIntegerField(
        default=2,
        help_text="What a forfeit scores: the game points of the side that stays (a win, no "
        "spread); the side that leaves scores 0. Never a skunk. At most a plain win's points.",
    )

    # How the site looks, for the whole club (not a rule of play: sessions keep no copy).
    large_type = models.BooleanField(
        default=False,
        help_text="High contrast and large type on every page of the club: black on white, "
        "bigger text and buttons, for the venue's screens and members who read better so.",
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
        "large_type",
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
                    name=f"club_{field}_within_money_limit",
                )
                for field in MONEY_FIELDS
            ),
        ]

    def __str__(self) -> str:
        return self.name

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
        if (
            self.forfeit_points is not None
            and self.points_win is not None
            and self.forfeit_points > self.points_win
        ):
            errors["forfeit_points"] = (
                f"A forfeit is worth at most a plain win ({self.points_win} game points)."
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
