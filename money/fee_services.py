"""Writes for the fee per game (docs/spec.md "The pot and payouts"): taking a payment from a
player (what they owe now, or an amount ahead, up to the whole morning), giving back the change
when what they paid ahead is more than their games came to, and undoing the last of these.

Terms: see `money.fee_selectors` (owed, paid, kept, change due, the morning). Each payment is a
`FeePayment` row with its amount, who took it and when; "paid" is their sum. Undoing deletes the
last row, audited with what it was (as handing back a skunk coin does). With the fee per session
the check-in's "Mark paid" and "Undo payment" (club.services) stay as they are.

Locks: the session row, then the check-in (club.locking, core.locking), as the check-in
services take them; settling takes the same session lock, so no payment slips in while it reads.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from club.locking import lock_session
from club.models import CheckIn
from club.services import session_require_open
from core.audit import audit_record
from core.cents import format_cents
from core.locking import locked
from money.audit import MoneyVerb
from money.fee_selectors import FeeLine, fees_owed
from money.models import FeePayment, FeePaymentKind


def _lock(checkin: CheckIn) -> tuple[CheckIn, FeeLine]:
    """The check-in locked after its session, in an open session whose fee is per game, and
    its fee line as it stands (call inside a transaction)."""
    session = lock_session(checkin.session_id)
    checkin = locked(CheckIn.objects.select_related("player")).get(pk=checkin.pk)
    checkin.session = session
    session_require_open(session)
    if not session.house_rules.fee_per_game:
        raise ValidationError(
            "This session's fee is per session: press Mark paid on the player's row."
        )
    return checkin, fees_owed(session)[checkin.pk]


def _data(checkin: CheckIn, payment: FeePayment, line: FeeLine) -> dict:
    return {
        "session": checkin.session_id,
        "player": checkin.player_id,
        "kind": payment.kind,
        "cents": payment.cents,
        "games": line.games,
        "owed_cents": line.owed_cents,
        "paid_before_cents": line.paid_cents,
        "change_before_cents": line.change_cents,
    }


def fee_take(
    *,
    checkin: CheckIn,
    actor: AbstractBaseUser,
    amount_cents: int | None = None,
    kept_cents: int | None = None,
) -> FeePayment | None:
    """Take a payment for `checkin`'s fees: `amount_cents`, or with None what it owes now (the
    "Take 50¢" button; nothing owed: nothing taken, so a second press changes nothing). An
    amount is whole cents above 0, at most what paying for the whole morning still comes to.
    `kept_cents`, when given, is what the page showed as already kept: a payment recorded
    meanwhile (a second press) refuses, so one handful of coins is recorded once."""
    with transaction.atomic():
        checkin, line = _lock(checkin)
        if kept_cents is not None and kept_cents != line.kept_cents:
            raise ValidationError(
                {
                    "amount": f"{checkin.player} has paid {format_cents(line.kept_cents)} by now "
                    "(recorded meanwhile): look at the row again before taking more."
                }
            )
        if amount_cents is None:
            amount_cents = line.to_pay_cents
            if not amount_cents:
                return None
        if amount_cents <= 0:
            raise ValidationError({"amount": "Write an amount above 0, in whole cents."})
        if amount_cents > line.room_cents:
            room = format_cents(line.room_cents)
            raise ValidationError(
                {
                    "amount": f"At most {room}: that pays for the whole morning "
                    f"({format_cents(line.morning_cents)}, every round). Take that or less."
                    if line.room_cents
                    else f"{checkin.player} has paid for the whole morning already."
                }
            )
        payment = FeePayment(
            checkin=checkin, kind=FeePaymentKind.PAYMENT, cents=amount_cents, taken_by=actor
        )
        payment.full_clean(exclude=["checkin", "taken_by"])
        payment.save()
        audit_record(
            actor=actor,
            action=MoneyVerb.FEE_TAKEN,
            obj=checkin,
            club=checkin.session.club,
            data=_data(checkin, payment, line),
        )
    return payment


def fee_change_give(*, checkin: CheckIn, actor: AbstractBaseUser) -> FeePayment | None:
    """Record that the change due to the player (what they paid beyond what their games and
    jackpots came to) was given back, by whom and when. Nothing due: nothing recorded, so a
    second press changes nothing."""
    with transaction.atomic():
        checkin, line = _lock(checkin)
        if not line.change_due_cents:
            return None
        payment = FeePayment(
            checkin=checkin,
            kind=FeePaymentKind.CHANGE,
            cents=line.change_due_cents,
            taken_by=actor,
        )
        payment.full_clean(exclude=["checkin", "taken_by"])
        payment.save()
        audit_record(
            actor=actor,
            action=MoneyVerb.FEE_CHANGE_GIVEN,
            obj=checkin,
            club=checkin.session.club,
            data=_data(checkin, payment, line),
        )
    return payment


def fee_payment_undo(*, checkin: CheckIn, actor: AbstractBaseUser) -> FeePayment | None:
    """Undo the check-in's last payment or change given (recorded by mistake, the money handed
    back or taken again): its row goes, the audit entry keeps what it was, who and when. Nothing
    recorded: nothing undone."""
    with transaction.atomic():
        checkin, line = _lock(checkin)
        payment = FeePayment.objects.filter(checkin=checkin).order_by("taken_at", "pk").last()
        if payment is None:
            return None
        audit_record(
            actor=actor,
            action=MoneyVerb.FEE_PAYMENT_UNDONE,
            obj=checkin,
            club=checkin.session.club,
            data={
                **_data(checkin, payment, line),
                "taken_at": payment.taken_at,
                "paid_by": payment.taken_by_id,
            },
        )
        payment.delete()
    return payment
