"""Sessions (one club morning each, with the house rules it is played under), check-ins (a
player present, what they owe and who took it), and the wrong table PINs typed in a session."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.functional import cached_property

from club.models.clubs import EARLIEST_DATE, LATEST_STORED_DATE, Club, check_session_date
from club.models.people import Player
from club.money import CHECKIN_JACKPOT_FIELDS, JACKPOT_FIELDS
from club.rules import HouseRules
from core.cents import MONEY_LIMIT_CENTS, format_cents, money_validators


class SessionState(models.TextChoices):
    OPEN = "open", "Open"
    SETTLED = "settled", "Settled"


class SessionKind(models.TextChoices):
    """A club morning, or the day(s) of a tournament (the tournaments app owns its format: its
    rounds are drawn there, its tables seat a match game by game, its fund is paid as prizes)."""

    CLUB = "club", "Club session"
    TOURNAMENT = "tournament", "Tournament"


class Session(models.Model):
    """One club morning. `rules` is the snapshot of the house rules it is played under."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="sessions")
    date = models.DateField()
    starts_at = models.TimeField(default=dt.time(9, 30))
    state = models.CharField(max_length=10, choices=SessionState.choices, default=SessionState.OPEN)
    kind = models.CharField(max_length=10, choices=SessionKind.choices, default=SessionKind.CLUB)
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

    @property
    def is_tournament(self) -> bool:
        return self.kind == SessionKind.TOURNAMENT

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
    is owed (docs/spec.md "A Thursday, step by step", step 2) is the fee plus each jackpot's
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
    last_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The last round this player can be drawn in (leaves after it); empty: all.",
    )
    sits_out = models.JSONField(
        default=list,
        blank=True,
        help_text="The round numbers this player sits out (not drawn in them).",
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
                name="checkin_fee_within_money_limit",
            ),
            models.CheckConstraint(
                condition=models.Q(paid_at__isnull=True) | models.Q(paid_by__isnull=False),
                name="checkin_paid_has_taker",
            ),
            models.CheckConstraint(
                condition=models.Q(**{f"{f}__lte": MONEY_LIMIT_CENTS for f in JACKPOT_FIELDS}),
                name="checkin_jackpots_within_money_limit",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.session}"

    @property
    def is_paid(self) -> bool:
        return self.paid_at is not None

    def plays_in(self, number: int) -> bool:
        """Whether the draw of round `number` seats this player (late arrival, leaving early
        and sitting out aside, docs/spec.md "A Thursday, step by step", step 7)."""
        if number < self.from_round or number in self.sits_out:
            return False
        return self.last_round is None or number <= self.last_round

    @property
    def absence_text(self) -> str:
        """What the check-in row says of the rounds this player is not drawn in: "leaves after
        round 2", "sits out rounds 3 and 5"; empty when none."""
        parts = []
        sits = sorted(self.sits_out)
        if sits:
            numbers = ", ".join(str(n) for n in sits[:-1])
            numbers = f"{numbers} and {sits[-1]}" if numbers else str(sits[-1])
            parts.append(f"sits out round{'s' if len(sits) > 1 else ''} {numbers}")
        if self.last_round is not None:
            parts.append(f"leaves after round {self.last_round}")
        return "; ".join(parts)

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


class WrongPin(models.Model):
    """One wrong PIN typed for a player on a table's link, in a session. The player's recent
    ones make the next try wait (club.pin_waits, club.selectors.pin_tries); the session's are
    listed on its page for the organisers. Written only by `club.services.pin_verify`; kept,
    like the audit trail, when a new PIN makes them count no more."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="wrong_pins")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="wrong_pins")
    typed_at = models.DateTimeField()

    class Meta:
        ordering = ["typed_at", "pk"]
        indexes = [models.Index(fields=["player", "typed_at"])]

    def __str__(self) -> str:
        return f"a wrong PIN for {self.player} at {self.session}"


PLAYER_LINK_HOURS = 12  # a one-time player link dies with its session, and at the latest then


class PlayerLinkPurpose(models.TextChoices):
    JUDGE = "judge", "Judge one dispute"
    ACCEPT = "accept", "Accept a correction"


class PlayerLink(models.Model):
    """A one-time link handed to a player present at a session, for one act on their phone
    without a login: ruling on one dispute as its named judge, or accepting one proposed
    correction (club.services.player_links). Only the SHA-256 of its token is stored. `target` is
    the dispute's or the proposal's id (the app that owns the purpose reads it); `player` is the
    one player who may use it, empty when any player the purpose allows may (the other side of a
    proposal)."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="player_links")
    purpose = models.CharField(max_length=10, choices=PlayerLinkPurpose.choices)
    target = models.PositiveIntegerField()
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="player_links"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The login that made it; empty when a player made it at the table.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(
        null=True, blank=True, help_text="When a newer link for the same act replaced it."
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["purpose", "target"])]

    def __str__(self) -> str:
        return f"{self.get_purpose_display()} link ({self.session})"

    def is_live(self, now=None) -> bool:
        now = now or timezone.now()
        return self.used_at is None and self.revoked_at is None and now < self.expires_at
