"""The sessions' money: settlements, payouts and the ledger of the club's pots.

Terms (docs/spec.md, "The pot and payouts"):
- pot: where money is held between check-in and payout: the session pot (the fees, paid out
  when the session is settled) and the club-wide side pots (skunk bank, 29/28/24 jackpots),
  which roll over from session to session.
- settlement: one settling of a session (a version); Payout rows say who got what. Reopening
  marks it replaced and reverses its ledger rows; settling again makes a new version.
- side-pot sheet: what each side pot did at a settling (carried over, money in, winners and
  amounts, rolled over), stored on the settlement (`Settlement.side_pots`) so an old payout sheet
  never changes.
- skunk coin: one payout coin a skunked player owes the skunk bank for one game (a skunked line of
  a confirmed result, when the session's rules run the bank); a `SkunkCoin` row records that the
  organiser took it, who and when. Settling books exactly the coins taken.
- fee payment: with the fee per game, one amount a player handed over (`FeePayment`, kind
  payment) or the change an organiser gave back (kind change), who took or gave it and when.
  What a player has paid is the sum of their payments; what the session keeps of it, less the
  change given back. Undoing the last one deletes its row (audited), as handing back a skunk coin
  does. With the fee per session the check-in's "Mark paid" records the payment, as before.
- refund: the ledger row (-, in the session pot) of change given back, so the session pot's
  rows sum to what was paid out.
- club's share: the part of a session pot the club keeps and does not pay out (a tournament's
  `club_share_percent` of its entry fees, money.hooks): one ledger row (-, in the session pot,
  no player) written with the settlement, so the session pot's rows still net to zero.
- ledger entry: one signed movement of integer cents into (+) or out of (-) a pot. Every balance
  is a sum of these rows; they are never edited or deleted (corrections are new rows).

The tables are named for the app (`money_settlement`, `money_payout`, `money_ledgerentry`,
`money_skunkcoin`). The first three kept the club app's names when the models moved here and were
renamed afterwards (money 0003), their rows, ids and keys unchanged.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from club.models import CheckIn, Club, Player, Session
from core.cents import MONEY_LIMIT_CENTS, money_validators
from core.models import AppendOnlyModel
from games.models import Game


class Pot(models.TextChoices):
    MAIN = "main", "Session pot"
    SKUNK_BANK = "skunk_bank", "Skunk bank"
    JACKPOT_29 = "jackpot_29", "29 jackpot"
    JACKPOT_28 = "jackpot_28", "28 jackpot"
    JACKPOT_24 = "jackpot_24", "24 jackpot"


# The pot of each hand's jackpot (club.rules.HouseRules.jackpots says which a session runs).
JACKPOT_POTS = {29: Pot.JACKPOT_29, 28: Pot.JACKPOT_28, 24: Pot.JACKPOT_24}


class LedgerKind(models.TextChoices):
    FEE = "fee", "Entry fee"
    PAYOUT = "payout", "Payout"
    SKUNK_COIN = "skunk_coin", "Skunk coin"
    SKUNK_BANK_WIN = "skunk_bank_win", "Skunk bank won"
    JACKPOT_COIN = "jackpot_coin", "Jackpot contribution"
    JACKPOT_WIN = "jackpot_win", "Jackpot won"
    REFUND = "refund", "Change given back"
    CLUB_SHARE = "club_share", "Club's share"
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
    side_pots = models.JSONField(
        default=list,
        blank=True,
        help_text="Each side pot at this settling: carried over, money in, winners, rolled over.",
    )
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
        permissions = [("settle_session", "Can settle and reopen a session")]

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


class SkunkCoin(models.Model):
    """A skunk coin taken from a skunked player for one game (docs/spec.md "The pot and payouts":
    each skunked player pays a coin). Deleting the row (audited) hands the coin back."""

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="skunk_coins")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="skunk_coins")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="skunk_coins")
    cents = models.PositiveIntegerField(validators=money_validators())
    paid_at = models.DateTimeField(default=timezone.now)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["session", "game", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player"], name="skunkcoin_one_per_game_player"
            ),
            models.CheckConstraint(
                condition=models.Q(cents__gt=0, cents__lte=MONEY_LIMIT_CENTS),
                name="skunkcoin_cents_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: skunk coin {self.cents}¢"


class FeePaymentKind(models.TextChoices):
    PAYMENT = "payment", "Paid"
    CHANGE = "change", "Change given back"


class FeePayment(models.Model):
    """Money handed over for a check-in's fees with the fee per game (docs/spec.md "The pot
    and payouts"): a payment the organiser took, or change given back to the player."""

    checkin = models.ForeignKey(CheckIn, on_delete=models.PROTECT, related_name="fee_payments")
    kind = models.CharField(max_length=8, choices=FeePaymentKind.choices)
    cents = models.PositiveIntegerField()
    taken_at = models.DateTimeField(default=timezone.now)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["checkin", "taken_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(cents__gt=0), name="feepayment_cents_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.cents}¢ ({self.checkin})"


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
            # Each pot's balance on the ledger page: the sums read from the index alone, not
            # from every row of the club's history.
            models.Index(fields=["club", "pot", "amount_cents"], name="ledger_club_pot_amount"),
            # Money won on the standings pages: a club's payouts and side-pot wins.
            models.Index(fields=["club", "kind"]),
            # Money won in a season or by a player: a season's sessions looked up under each
            # kind of win, every column those sums read in the index, so a season costs its
            # own rows rather than every win the club ever paid.
            models.Index(
                fields=["club", "kind", "session", "player", "amount_cents", "settlement"],
                name="ledger_club_winnings",
            ),
            # The ledger page, newest first a page at a time: read from the index's end
            # instead of sorting every row the club ever wrote.
            models.Index(fields=["club", "created_at", "id"], name="ledger_club_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.get_pot_display()} {self.amount_cents:+d}¢ {self.get_kind_display()}"
