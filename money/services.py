"""Writes for the money app: settling a session (the pot paid out by rank, the side pots, the
ledger) and reopening it. The one bridge between the models and the pure plans of the pot
(`money.payout`) and the side pots (`money.side_pots`).

Terms (docs/spec.md, "The pot and payouts"):
- pot: the entry fees actually paid for the session, less the change given back (with the fee
  per game, money.fee_services), integer cents; all of it is paid out, but for what the club
  keeps of a tournament's (its share, money.hooks): payouts + kept = pot, exactly.
- pot plan: a Thursday's pot is paid by the house rules over the session's standings
  (`money.payout.plan_payouts`); an app above may plan its own sessions' pots instead
  (money.hooks: a tournament pays its prize fund to its qualifiers).
- settlement: one settling of a session (a version); Payout rows say who got what.
- ledger: signed rows per club and pot; + is money into the pot, - money out of it. Settling writes
  the fees (+), refunds (-, change given back), payouts (-) and the club's share (-, no player)
  of the session pot, and the side pots' coins and wins; reopening writes the reversal of each
  row of the replaced settlement. Every balance is a sum of rows.
- skunk bank (a club option): each skunk taken in a confirmed result owes one payout coin from
  the skunked player, taken at the table and marked paid by the organiser (`SkunkCoin`); an
  unpaid coin blocks settling, and settling books exactly the coins taken; a player who gives a
  double skunk in the session wins the whole bank (several share it in coins, a cut deciding an
  odd coin); when nobody does, the bank rolls over to the next session.
- jackpots (club options, one per hand: 29, 28, 24): each paying player adds the jackpot's
  contribution, recorded on the check-in and collected with the fee; a hand or crib claim of
  the session whose count is that hand and whose current outcome accepts it wins the jackpot
  (several share it); otherwise it rolls over.
- side-pot sheet: each side pot's carried over, money in, winners and amounts, rolled over,
  stored on the settlement (`Settlement.side_pots`) for the payout sheet.
- reversal: reopening writes, for each row of the settlement, the same row negated; the side pots
  then hold what they held before it, which a later session's win may forbid (refused).

Locks (club.locking): both services lock the club row first, then the session. The side pots are
club-wide, so two sessions of one club settled at once take turns: the second sees the first's
wins, and no pot is paid out twice. Two presses on one session make one settlement.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from club.locking import lock_club, lock_session
from club.models import Session, SessionState
from club.services import pages_changed, session_require_open
from core.audit import audit_record, audit_record_many
from core.locking import locked
from money.audit import MoneyVerb
from money.hooks import PotPlan, pot_plan
from money.models import (
    JACKPOT_POTS,
    LedgerEntry,
    LedgerKind,
    Payout,
    Pot,
    Settlement,
    SettlementState,
    SkunkCoin,
)
from money.payout import PayoutPlan, plan_payouts
from money.selectors import (
    SettleInputs,
    pot_balance,
    settle_blockers,
    settle_inputs,
    skunk_coin_lines,
)
from money.side_pots import SidePotPlan, plan_side_pots


class SettleChanged(ValidationError):
    """What the payout sheet showed is no longer what settling would do: a result, a fee or a
    side pot changed since it was shown. The organiser looks at the new sheet first."""


@dataclass(frozen=True)
class SettlePlan:
    """Everything settling `session` will write, worked out and not yet written: the payout
    plan of the session pot, what the club keeps of it, the side pots' plans and their sheet,
    from `seed`. The payout sheet shown before settling is this plan; settling with the same
    seed and inputs writes exactly it. `fingerprint` names what the plan says (pot, payouts,
    what is kept, cuts, side pots), so a press on a sheet that is no longer true is noticed."""

    seed: int
    inputs: SettleInputs
    pot: PayoutPlan
    side_pots: tuple[SidePotPlan, ...]
    sheet: tuple[dict, ...]
    kept_cents: int = 0  # the club's share of the pot, not paid out (money.hooks)
    made_steps: tuple[str, ...] = ()  # how the money paid out was made; empty: the pot's text

    @property
    def pot_cents(self) -> int:
        """The session pot: what is paid out and what the club keeps."""
        return self.pot.pot_cents + self.kept_cents

    @property
    def made(self) -> tuple[str, ...]:
        """How the money paid out was made, as the payout sheet says it first."""
        if self.made_steps:
            return self.made_steps
        return (self.inputs.pot_text,) if self.inputs.pot_text else ()

    @property
    def steps(self) -> tuple[str, ...]:
        """How the pot was made and split, as the payout sheet says it."""
        return (*self.made, *self.pot.steps)

    @property
    def fingerprint(self) -> str:
        said = {
            "seed": self.seed,
            "pot": self.pot.pot_cents,
            "fees": [list(fee) for fee in self.inputs.fees],
            "refunds": [list(refund) for refund in self.inputs.refunds],
            "payouts": [[p.player_id, p.place, p.amount_cents] for p in self.pot.payouts],
            "cuts": [[list(c.places), list(c.order)] for c in self.pot.cuts],
            "side_pots": list(self.sheet),
        }
        if self.kept_cents:  # a Thursday's fingerprint stays what it always was
            said["kept"] = self.kept_cents
        text = json.dumps(said, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def settle_plan(session: Session, seed: int) -> SettlePlan:
    """What settling `session` with `seed` would do now (reads only; the caller checked the
    blockers). `session_settle` makes this plan under its locks; the payout sheet shown before
    settling makes it without them."""
    inputs = settle_inputs(session)
    planned = _plan_pot(session, inputs, seed)
    side_pots = tuple(
        plan_side_pots(
            inputs.side_pots, coin_cents=session.house_rules.payout_coin_cents, seed=seed
        )
    )
    sheet = tuple(_side_pot_sheet(side_pot, inputs.names) for side_pot in side_pots)
    return SettlePlan(
        seed=seed,
        inputs=inputs,
        pot=planned.payouts,
        side_pots=side_pots,
        sheet=sheet,
        kept_cents=planned.kept_cents,
        made_steps=planned.steps,
    )


def new_settle_seed() -> int:
    """A fresh seed for the cut of the cards that breaks an indivisible coin."""
    return secrets.randbelow(2**53)


def session_settle(
    *,
    session: Session,
    actor: AbstractBaseUser,
    seed: int | None = None,
    fingerprint: str = "",
) -> Settlement:
    """Rank the session, pay the whole pot out by the house rules, settle the side pots, write
    the ledger, lock the session.

    Refused with every blocker listed. With the `fingerprint` of the payout sheet the organiser
    was shown (`SettlePlan.fingerprint`, same `seed`), refused with `SettleChanged` when the plan
    is no longer that sheet. Safe to run twice: a settled session returns its settlement. The
    club row is locked first (the side pots are club-wide), then the session, so concurrent
    presses make one settlement and two sessions of a club settle one after the other.
    The steps: lock, check the blockers, make the plan (`settle_plan`), check it is the one
    shown, write the rows it describes, audit.
    """
    with transaction.atomic():
        lock_club(session.club_id)
        session = lock_session(session.pk)
        if session.state == SessionState.SETTLED:
            return session.settlements.get(state=SettlementState.CURRENT)
        blockers = settle_blockers(session)
        if blockers:
            raise ValidationError(blockers)
        plan = settle_plan(session, seed if seed is not None else new_settle_seed())
        if fingerprint and fingerprint != plan.fingerprint:
            raise SettleChanged(
                "Something changed since the payout sheet was shown (a result, a fee or a side "
                "pot): here it is as it is now. Check it, then settle."
            )
        settlement = _settlement_write(session=session, plan=plan, actor=actor)
        _payouts_write(settlement, plan.pot)
        _ledger_write(
            settlement,
            fees=plan.inputs.fees,
            refunds=plan.inputs.refunds,
            plan=plan.pot,
            side_pots=plan.side_pots,
            kept_cents=plan.kept_cents,
        )
        session.state = SessionState.SETTLED
        session.save(update_fields=["state"])
        pages_changed(session.club_id)
        audit_record(
            actor=actor,
            action=MoneyVerb.SESSION_SETTLED,
            obj=settlement,
            club=session.club,
            data={
                "session": session.pk,
                "version": settlement.version,
                "pot_cents": plan.pot_cents,
                "payouts": {str(p.player_id): p.amount_cents for p in plan.pot.payouts},
                "seed": plan.seed,
                "side_pots": list(plan.sheet),
            }
            | ({"kept_cents": plan.kept_cents} if plan.kept_cents else {}),
        )
    return settlement


def _plan_pot(session: Session, inputs: SettleInputs, seed: int) -> PotPlan:
    """The session pot's plan: the first planner of money.hooks that answers for the session,
    else a Thursday's by the session's house rules (nothing kept). A plan whose payouts and
    kept part do not make the whole pot is a broken invariant: it crashes loudly and nothing is
    saved."""
    planned = pot_plan(session, inputs, seed)
    if planned is None:
        rules = session.house_rules
        planned = PotPlan(
            payouts=plan_payouts(
                pot_cents=inputs.pot_cents,
                players=inputs.players,
                paid_places=rules.paid_places(len(inputs.players)),
                weights=rules.weights(),
                coin_cents=rules.payout_coin_cents,
                seed=seed,
            )
        )
    total = sum(payout.amount_cents for payout in planned.payouts.payouts)
    kept = planned.kept_cents
    if kept < 0 or total + kept != inputs.pot_cents or total != planned.payouts.pot_cents:
        raise AssertionError(
            f"Payouts {total}¢ and the club's share {kept}¢ do not add up to the pot "
            f"{inputs.pot_cents}¢ (the plan pays out {planned.payouts.pot_cents}¢)."
        )
    return planned


def _side_pot_sheet(side_pot: SidePotPlan, names: dict[int, str]) -> dict:
    """A side pot's part of the payout sheet (`Settlement.side_pots`), as the plan says it."""
    return {
        "pot": side_pot.pot,
        "label": Pot(side_pot.pot).label,
        "carried_cents": side_pot.carried_cents,
        "in_cents": side_pot.in_cents,
        "in_count": side_pot.in_count,
        "won_cents": side_pot.won_cents,
        "winners": [
            {
                "player": share.player_id,
                "name": names.get(share.player_id, ""),
                "cents": share.cents,
            }
            for share in side_pot.shares
        ],
        "rolled_cents": side_pot.rolled_cents,
        "steps": list(side_pot.steps),
    }


def _settlement_write(*, session: Session, plan: SettlePlan, actor: AbstractBaseUser) -> Settlement:
    """The settlement row: the next version of the session's, with the whole pot (what the
    club keeps included), how it was made and split (its steps) and the side pots' sheet."""
    settlement = Settlement(
        session=session,
        version=session.settlements.count() + 1,
        pot_cents=plan.pot_cents,
        coin_cents=plan.pot.coin_cents,
        paid_places=plan.pot.paid_places,
        weights=list(plan.pot.weights),
        seed=plan.seed,
        steps=list(plan.steps),
        cuts=[
            {
                "places": list(cut.places),
                "cards": [[card.player_id, card.card] for card in cut.cards],
                "order": list(cut.order),
                "decides": cut.decides,
            }
            for cut in plan.pot.cuts
        ],
        side_pots=list(plan.sheet),
        settled_by=actor,
    )
    # The locks keep the constraints (one current settlement, versions in turn); the database
    # checks them too.
    settlement.full_clean(exclude=["session", "settled_by"], validate_constraints=False)
    settlement.save()
    return settlement


def _payouts_write(settlement: Settlement, plan: PayoutPlan) -> None:
    """One Payout row per ranked player, 0¢ included: the sheet lists every place."""
    Payout.objects.bulk_create(
        Payout(
            settlement=settlement,
            player_id=payout.player_id,
            rank=payout.rank,
            place=payout.place,
            amount_cents=payout.amount_cents,
        )
        for payout in plan.payouts
    )


# Each side pot's ledger kinds: its money in, its wins.
_SIDE_POT_KINDS = {Pot.SKUNK_BANK: (LedgerKind.SKUNK_COIN, LedgerKind.SKUNK_BANK_WIN)}
_SIDE_POT_KINDS |= {
    pot: (LedgerKind.JACKPOT_COIN, LedgerKind.JACKPOT_WIN) for pot in JACKPOT_POTS.values()
}


def _ledger_write(
    settlement: Settlement,
    *,
    fees: Sequence[tuple[int, int]],
    plan: PayoutPlan,
    side_pots: Sequence[SidePotPlan],
    refunds: Sequence[tuple[int, int]] = (),
    kept_cents: int = 0,
) -> None:
    """The settlement's ledger rows, in this order: the fees into the session pot, the change
    given back out of it (refunds), its payouts out of it (none of 0¢), the club's share out of
    it (none of 0¢), then each side pot's money in and its wins."""
    rows = [_ledger(settlement, Pot.MAIN, LedgerKind.FEE, cents, pid) for pid, cents in fees]
    rows += [
        _ledger(settlement, Pot.MAIN, LedgerKind.REFUND, -cents, pid) for pid, cents in refunds
    ]
    rows += [
        _ledger(settlement, Pot.MAIN, LedgerKind.PAYOUT, -payout.amount_cents, payout.player_id)
        for payout in plan.payouts
        if payout.amount_cents
    ]
    if kept_cents:
        rows.append(_ledger(settlement, Pot.MAIN, LedgerKind.CLUB_SHARE, -kept_cents, None))
    for side_pot in side_pots:
        money_in, win = _SIDE_POT_KINDS[side_pot.pot]
        rows += [
            _ledger(settlement, side_pot.pot, money_in, coin.cents, coin.player_id)
            for coin in side_pot.coins
        ]
        rows += [
            _ledger(settlement, side_pot.pot, win, -share.cents, share.player_id)
            for share in side_pot.shares
        ]
    LedgerEntry.objects.bulk_create(rows)


def _ledger(
    settlement: Settlement, pot: str, kind: str, amount: int, player_id: int | None
) -> LedgerEntry:
    return LedgerEntry(
        club_id=settlement.session.club_id,
        pot=pot,
        kind=kind,
        amount_cents=amount,
        session=settlement.session,
        settlement=settlement,
        player_id=player_id,
    )


def _refuse_negative_side_pots(session: Session, settlement: Settlement) -> None:
    """Reopening reverses what the settlement put into the side pots; when a later session has
    paid those coins out already (it won the bank), the pot would go below 0: refused, naming the
    later session to reopen first (a cash box cannot hand back coins it no longer holds)."""
    rows = settlement.ledger.exclude(kind=LedgerKind.REVERSAL).exclude(pot=Pot.MAIN)
    put_in = dict(
        rows.values("pot").annotate(total=Sum("amount_cents")).values_list("pot", "total")
    )
    for pot, cents in put_in.items():
        if pot_balance(session.club, pot) - cents >= 0:
            continue
        later = (
            LedgerEntry.objects.filter(
                club_id=session.club_id,
                pot=pot,
                kind__in=[LedgerKind.SKUNK_BANK_WIN, LedgerKind.JACKPOT_WIN],
                settlement__state=SettlementState.CURRENT,
                session__date__gt=session.date,
            )
            .select_related("session")
            .order_by("-session__date")
            .first()
        )
        when = f" ({later.session.date:%d %B %Y})" if later else ""
        raise ValidationError(
            f"The {Pot(pot).label.lower()} would go below 0: a later session{when} paid out "
            "what this one put in. Reopen that session first."
        )


def _coin_data(coin: SkunkCoin) -> dict:
    """What every skunk coin's audit entry says of it."""
    return {
        "session": coin.session_id,
        "game": coin.game_id,
        "player": coin.player_id,
        "cents": coin.cents,
    }


def _skunk_coin_line(session: Session, game_id: int, player_id: int):
    for line in skunk_coin_lines(session):
        if line.game_id == game_id and line.player_id == player_id:
            return line
    return None


def skunk_coin_mark_paid(
    *, session: Session, game_id: int, player_id: int, actor: AbstractBaseUser
) -> SkunkCoin:
    """Record that a skunked player paid the coin owed for a game (who took it, when). Only a
    coin owed (a skunked line of a confirmed result, the skunk bank on) can be paid; safe to run
    twice."""
    with transaction.atomic():
        session = lock_session(session.pk)
        session_require_open(session)
        line = _skunk_coin_line(session, game_id, player_id)
        if line is None or not line.owed:
            raise ValidationError("No skunk coin is owed for that game: nothing to take.")
        if line.coin is not None:
            return line.coin
        coin = SkunkCoin.objects.create(
            session=session,
            game_id=game_id,
            player_id=player_id,
            cents=line.cents,
            paid_by=actor,
        )
        audit_record(
            actor=actor,
            action=MoneyVerb.SKUNK_COIN_PAID,
            obj=coin,
            club=session.club,
            data=_coin_data(coin),
        )
    return coin


def skunk_coins_collect(*, session: Session, actor: AbstractBaseUser) -> list[SkunkCoin]:
    """Mark every skunk coin still owed in the session paid by `actor` at once (the organiser
    going round the tables; the history builder). Audited one entry per coin."""
    with transaction.atomic():
        session = lock_session(session.pk)
        session_require_open(session)
        coins = SkunkCoin.objects.bulk_create(
            SkunkCoin(
                session=session,
                game_id=line.game_id,
                player_id=line.player_id,
                cents=line.cents,
                paid_by=actor,
            )
            for line in skunk_coin_lines(session)
            if line.owed and not line.paid
        )
        audit_record_many(
            actor=actor,
            action=MoneyVerb.SKUNK_COIN_PAID,
            club=session.club,
            entries=[(coin, _coin_data(coin)) for coin in coins],
        )
    return coins


def skunk_coin_hand_back(*, coin: SkunkCoin, actor: AbstractBaseUser) -> None:
    """Undo a coin marked paid: by mistake, or because a correction took the skunk away. The
    coin goes back to the player; the audit entry keeps who had taken it and when."""
    with transaction.atomic():
        session = lock_session(coin.session_id)
        session_require_open(session)
        coin = SkunkCoin.objects.filter(pk=coin.pk, session=session).first()
        if coin is None:  # handed back already
            return
        audit_record(
            actor=actor,
            action=MoneyVerb.SKUNK_COIN_RETURNED,
            obj=coin,
            club=session.club,
            data={
                **_coin_data(coin),
                "paid_at": coin.paid_at,
                "paid_by": coin.paid_by_id,
            },
        )
        coin.delete()


def session_reopen(*, session: Session, actor: AbstractBaseUser, reason: str) -> Session:
    """Reopen a settled session: its settlement is replaced (kept) and its ledger rows reversed."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why the session is reopened."})
    with transaction.atomic():
        lock_club(session.club_id)
        session = locked(Session.objects.all()).get(pk=session.pk)
        if session.state != SessionState.SETTLED:
            raise ValidationError("This session is open: there is nothing to reopen.")
        settlement = locked(session.settlements.all()).get(state=SettlementState.CURRENT)
        reversals = [
            _ledger(settlement, row.pot, LedgerKind.REVERSAL, -row.amount_cents, row.player_id)
            for row in settlement.ledger.exclude(kind=LedgerKind.REVERSAL)
        ]
        _refuse_negative_side_pots(session, settlement)
        LedgerEntry.objects.bulk_create(reversals)
        Settlement.objects.filter(pk=settlement.pk).update(
            state=SettlementState.REPLACED,
            reopened_by=actor,
            reopened_at=timezone.now(),
            reopen_reason=reason,
        )
        session.state = SessionState.OPEN
        session.save(update_fields=["state"])
        pages_changed(session.club_id)
        audit_record(
            actor=actor,
            action=MoneyVerb.SESSION_REOPENED,
            obj=session,
            club=session.club,
            data={"settlement": settlement.version, "reason": reason},
        )
    return session
