"""Reads of what each check-in owes and has paid for its fees (docs/spec.md "The pot and
payouts"; "A Thursday, step by step", step 7: with the fee per game a player owes only the games
they were seated in).

Terms:
- charged seat: a seat of one of the session's games that the fee per game is owed for
  (`charged_seats`, the one place that says which games count).
- owed: per game, the fee for each charged seat plus the jackpot contributions once a morning;
  per session, the fee and the contributions copied at check-in (`CheckIn.owed_cents`).
- paid: the sum of the payments taken (`money.models.FeePayment`); per session, the whole amount
  once "Mark paid" is pressed. kept: paid less the change given back.
- to pay / change due: what is still owed, or what the cash box holds beyond what is owed.
- the morning: the fee for every round of the session plus the contributions: the most a player
  can pay ahead.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, IntegerField, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce

from club.models import CheckIn, Session
from club.money import JACKPOT_FIELDS
from club.selectors import FeeTotals
from games.models import GameStatus, Seat
from money.models import FeePayment, FeePaymentKind


def charged_seats(session: Session):
    """The seats the fee per game is owed for: every seat of the session's games, except a game
    marked not played (nobody pays for it). A forfeit was sat down to: it is charged. The one
    place that says which games count."""
    # Through the session's rounds: the (round, player) index then finds a player's seats of
    # this morning, where a filter on the game's session walks every seat they ever had.
    return Seat.objects.filter(round__in=session.rounds.values("pk")).exclude(
        game__status=GameStatus.NOT_PLAYED
    )


@dataclass(frozen=True)
class FeeLine:
    """One check-in's money: owed (per game: the fee for each game seated in, plus the jackpot
    contributions once a morning; per session: the fee and contributions), paid (the payments
    taken), the change given back, and what is left to pay or to give back."""

    checkin_id: int
    player_id: int
    name: str
    per_game: bool
    games: int
    fee_cents: int  # the fee of one game (per game) or of the morning (per session)
    jackpots_cents: int
    paid_cents: int
    change_cents: int  # change given back already
    morning_cents: int  # what paying for the whole morning comes to

    @property
    def owed_cents(self) -> int:
        fees = self.fee_cents * self.games if self.per_game else self.fee_cents
        return fees + self.jackpots_cents

    @property
    def kept_cents(self) -> int:  # what the cash box holds of this player's money
        return self.paid_cents - self.change_cents

    @property
    def to_pay_cents(self) -> int:
        return max(0, self.owed_cents - self.kept_cents)

    @property
    def change_due_cents(self) -> int:
        return max(0, self.kept_cents - self.owed_cents)

    @property
    def room_cents(self) -> int:  # the most one more payment may be: up to the whole morning
        return max(0, max(self.morning_cents, self.owed_cents) - self.kept_cents)

    @property
    def contributions_paid_cents(self) -> int:  # the jackpots are taken first
        return min(self.kept_cents, self.jackpots_cents)

    @property
    def fees_paid_cents(self) -> int:  # what this player paid toward the session pot
        return self.paid_cents - self.contributions_paid_cents


def _payments_sum(kind: str):
    rows = (
        FeePayment.objects.filter(checkin=OuterRef("pk"), kind=kind)
        .order_by()
        .values("checkin")
        .annotate(total=Sum("cents"))
        .values("total")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


def fees_owed(session: Session) -> dict[int, FeeLine]:
    """Each check-in's `FeeLine`, by check-in id, counted in the database (one query): the
    games it is charged for (`charged_seats`), its payments and the change given back. With the
    fee per session, "Mark paid" is the payment of the whole amount owed, as before."""
    rules = session.house_rules
    per_game = rules.fee_per_game
    games = (
        charged_seats(session)
        .filter(player=OuterRef("player_id"))
        .order_by()
        .values("player")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        CheckIn.objects.filter(session=session)
        .annotate(
            games=Coalesce(Subquery(games, output_field=IntegerField()), 0),
            paid=_payments_sum(FeePaymentKind.PAYMENT),
            change=_payments_sum(FeePaymentKind.CHANGE),
        )
        .values(
            "pk",
            "player_id",
            "player__display_name",
            "fee_cents",
            "paid_at",
            "games",
            "paid",
            "change",
            *JACKPOT_FIELDS,
        )
    )
    lines = {}
    for row in rows:
        jackpots = sum(row[field] for field in JACKPOT_FIELDS)
        paid = row["paid"]
        if not per_game and row["paid_at"] is not None:
            paid = row["fee_cents"] + jackpots
        lines[row["pk"]] = FeeLine(
            checkin_id=row["pk"],
            player_id=row["player_id"],
            name=row["player__display_name"],
            per_game=per_game,
            games=row["games"],
            fee_cents=row["fee_cents"],
            jackpots_cents=jackpots,
            paid_cents=paid,
            change_cents=row["change"],
            morning_cents=(
                row["fee_cents"] * rules.rounds_per_session if per_game else row["fee_cents"]
            )
            + jackpots,
        )
    return lines


@dataclass(frozen=True)
class FeesTaken:
    """The money a session's check-ins paid into the cash box, and the change given back."""

    fees_cents: int  # toward the session pot
    contributions_cents: int  # to the jackpots (taken first)
    refunds_cents: int = 0  # change given back, with the fee per game


def fees_taken(session: Session, checkins=None) -> FeesTaken:
    """What a session's check-ins paid: the check-ins marked paid, or with the fee per game their
    payments (`fees_owed`), the jackpots counted first, and the change given back. `checkins`:
    with the fee per session, the session's, when the caller has read them already (the
    session page's rows); else the paid ones are read."""
    if session.house_rules.fee_per_game:
        lines = fees_owed(session).values()
        contributions = sum(line.contributions_paid_cents for line in lines)
        return FeesTaken(
            fees_cents=sum(line.paid_cents for line in lines) - contributions,
            contributions_cents=contributions,
            refunds_cents=sum(line.change_cents for line in lines),
        )
    if checkins is None:
        checkins = CheckIn.objects.filter(session=session, paid_at__isnull=False)
    paid = [checkin for checkin in checkins if checkin.is_paid]
    fees = sum(checkin.fee_cents for checkin in paid)
    return FeesTaken(
        fees_cents=fees, contributions_cents=sum(checkin.owed_cents for checkin in paid) - fees
    )


def checkins_with_fees(session: Session, checkins) -> tuple[list[CheckIn], FeeTotals]:
    """The session page's check-in rows, each with its `FeeLine` as `.fee`, and the card's
    totals with the fee per game: collected (kept), still to pay, players, players square."""
    lines = fees_owed(session)
    rows = list(checkins)
    for checkin in rows:
        checkin.fee = lines[checkin.pk]
    totals = FeeTotals(
        collected_cents=sum(line.kept_cents for line in lines.values()),
        owed_cents=sum(line.to_pay_cents for line in lines.values()),
        players=len(lines),
        paid=sum(1 for line in lines.values() if not line.to_pay_cents),
    )
    return rows, totals
