"""Writes for the money app: settling a session (the pot paid out by rank, the side pots, the
ledger) and reopening it. The one bridge between the models and the pure payout plan
(`money.payout`).

Terms (docs/design.md, "The pot and payouts"):
- pot: the entry fees actually paid for the session, integer cents; all of it is paid out.
- settlement: one settling of a session (a version); Payout rows say who got what.
- ledger: signed rows per club and pot; + is money into the pot, - money out of it. Settling writes
  the fees (+) and payouts (-) of the session pot, and the side pots' coins and wins; reopening
  writes the reversal of each row of the replaced settlement. Every balance is a sum of rows.
- skunk bank (a club option): each skunk taken in a confirmed result puts one payout coin into
  the bank, paid by the skunked player at the table; a player who gives a double skunk in the
  session wins the whole bank (several share it in coins, a cut deciding an odd coin); when nobody
  does, the bank rolls over to the next session.
- jackpots (club options, one per hand: 29, 28, 24): each paying player adds the jackpot's
  contribution, collected with the fee; a hand or crib claim of the session whose count is that
  hand and whose current outcome accepts it wins the jackpot (several share it); otherwise it
  rolls over.

Locks (club.locking): both services lock the club row first, then the session. The side pots are
club-wide, so two sessions of one club settled at once take turns: the second sees the first's
wins, and no pot is paid out twice. Two presses on one session make one settlement.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from club.audit import audit_record
from club.locking import lock_club, locked
from club.models import CheckIn, Session, SessionState
from club.services import standings_changed
from games.models import ResultLine, ResultState
from games.selectors import session_standings
from money.audit import MoneyVerb
from money.models import (
    JACKPOT_POTS,
    LedgerEntry,
    LedgerKind,
    Payout,
    Pot,
    Settlement,
    SettlementState,
)
from money.payout import PayoutPlan, RankedPlayer, plan_payouts
from money.selectors import accepted_hands, pot_balance, settle_blockers


def _ledger(
    settlement: Settlement, pot: str, kind: str, amount: int, player_id=None
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


def _share(settlement, pot: str, kind: str, amount: int, winners: list[int], coin: int, seed: int):
    """Ledger rows paying `amount` out of `pot` to `winners` in equal coins (a cut for the odd
    coin), and the plan's explanation."""
    plan = plan_payouts(
        pot_cents=amount,
        players=[RankedPlayer(player_id=pid, rank=1) for pid in winners],
        paid_places=len(winners),
        weights="equal",
        coin_cents=coin,
        seed=seed,
    )
    rows = [
        _ledger(settlement, pot, kind, -payout.amount_cents, payout.player_id)
        for payout in plan.payouts
        if payout.amount_cents
    ]
    return rows, list(plan.steps)


def _jackpots(session: Session, settlement: Settlement, paid_players: list[int], seed: int):
    """Each enabled jackpot's contributions and, when a hand of its count was accepted, its win."""
    coin = session.house_rules.payout_coin_cents
    rows, summary = [], {}
    for hand, contribution in session.house_rules.jackpots.items():
        pot = JACKPOT_POTS[hand]
        these = [
            _ledger(settlement, pot, LedgerKind.JACKPOT_COIN, contribution, pid)
            for pid in paid_players
        ]
        winners = accepted_hands(session, hand)
        balance = pot_balance(session.club, pot) + contribution * len(paid_players)
        info = {"in_cents": contribution * len(paid_players), "balance_cents": balance}
        if winners and balance > 0:
            wins, info["steps"] = _share(
                settlement, pot, LedgerKind.JACKPOT_WIN, balance, winners, coin, seed
            )
            these += wins
            info["winners"] = winners
        rows += these
        summary[pot] = info
    return rows, summary


def _skunk_bank(session: Session, settlement: Settlement, seed: int) -> tuple[list, dict]:
    """The skunk bank's rows for this session, and a summary for the audit and the page."""
    coin = session.house_rules.payout_coin_cents
    confirmed = ResultLine.objects.filter(
        result__game__session=session, result__state=ResultState.CONFIRMED
    )
    rows = [
        _ledger(settlement, Pot.SKUNK_BANK, LedgerKind.SKUNK_COIN, coin, player_id)
        for player_id in confirmed.filter(skunked=True).values_list("player_id", flat=True)
    ]
    double_games = confirmed.filter(double_skunked=True).values("result_id")
    winners = sorted(
        set(
            confirmed.filter(won=True, result_id__in=double_games).values_list(
                "player_id", flat=True
            )
        )
    )
    bank = pot_balance(session.club, Pot.SKUNK_BANK) + sum(row.amount_cents for row in rows)
    summary = {"coins_in": len(rows), "bank_cents": bank, "winners": winners, "won_cents": 0}
    if winners and bank > 0:
        wins, summary["steps"] = _share(
            settlement, Pot.SKUNK_BANK, LedgerKind.SKUNK_BANK_WIN, bank, winners, coin, seed
        )
        rows += wins
        summary["won_cents"] = bank
    return rows, summary


def session_settle(
    *, session: Session, actor: AbstractBaseUser, seed: int | None = None
) -> Settlement:
    """Rank the session, pay the whole pot out by the house rules, write the ledger, lock it.

    Refused with every blocker listed. Safe to run twice: a settled session returns its
    settlement. The club row is locked first (the side pots are club-wide), then the session, so
    concurrent presses make one settlement and two sessions of a club settle one after the other.
    """
    with transaction.atomic():
        lock_club(session.club_id)
        session = locked(Session.objects.select_related("club")).get(pk=session.pk)
        if session.state == SessionState.SETTLED:
            return session.settlements.get(state=SettlementState.CURRENT)
        blockers = settle_blockers(session)
        if blockers:
            raise ValidationError(blockers)
        rules = session.house_rules
        standings = session_standings(session)
        players = [
            RankedPlayer(player_id=row.player_id, rank=row.rank, name=row.player)
            for row in standings
        ]
        paid = CheckIn.objects.filter(session=session, paid_at__isnull=False)
        pot = paid.aggregate(total=Coalesce(Sum("fee_cents"), 0))["total"]
        seed = seed if seed is not None else secrets.randbelow(2**53)
        plan: PayoutPlan = plan_payouts(
            pot_cents=pot,
            players=players,
            paid_places=rules.paid_places(len(players)),
            weights=rules.weights(),
            coin_cents=rules.payout_coin_cents,
            seed=seed,
        )
        total = sum(payout.amount_cents for payout in plan.payouts)
        if total != pot:  # a broken invariant: crash loudly, nothing is saved
            raise AssertionError(f"Payouts {total}¢ do not add up to the pot {pot}¢.")
        version = (session.settlements.count() or 0) + 1
        settlement = Settlement.objects.create(
            session=session,
            version=version,
            pot_cents=pot,
            coin_cents=rules.payout_coin_cents,
            paid_places=plan.paid_places,
            weights=list(plan.weights),
            seed=seed,
            steps=list(plan.steps),
            cuts=[
                {
                    "places": list(cut.places),
                    "cards": [[card.player_id, card.card] for card in cut.cards],
                    "order": list(cut.order),
                    "decides": cut.decides,
                }
                for cut in plan.cuts
            ],
            settled_by=actor,
        )
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
        rows = [
            _ledger(settlement, Pot.MAIN, LedgerKind.FEE, fee, player_id)
            for player_id, fee in paid.values_list("player_id", "fee_cents")
        ]
        rows += [
            _ledger(settlement, Pot.MAIN, LedgerKind.PAYOUT, -payout.amount_cents, payout.player_id)
            for payout in plan.payouts
            if payout.amount_cents
        ]
        skunk = None
        if rules.skunk_bank:
            skunk_rows, skunk = _skunk_bank(session, settlement, seed)
            rows += skunk_rows
        paid_players = list(paid.values_list("player_id", flat=True))
        jackpot_rows, jackpots = _jackpots(session, settlement, paid_players, seed)
        rows += jackpot_rows
        LedgerEntry.objects.bulk_create(rows)
        session.state = SessionState.SETTLED
        session.save(update_fields=["state"])
        standings_changed(session.club_id)
        audit_record(
            actor=actor,
            action=MoneyVerb.SESSION_SETTLED,
            obj=settlement,
            club=session.club,
            data={
                "session": session.pk,
                "version": version,
                "pot_cents": pot,
                "payouts": {str(p.player_id): p.amount_cents for p in plan.payouts},
                "seed": seed,
                "skunk_bank": skunk,
                "jackpots": jackpots,
            },
        )
    return settlement


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
            LedgerEntry(
                club_id=row.club_id,
                pot=row.pot,
                kind=LedgerKind.REVERSAL,
                amount_cents=-row.amount_cents,
                session=session,
                settlement=settlement,
                player_id=row.player_id,
            )
            for row in settlement.ledger.exclude(kind=LedgerKind.REVERSAL)
        ]
        LedgerEntry.objects.bulk_create(reversals)
        Settlement.objects.filter(pk=settlement.pk).update(
            state=SettlementState.REPLACED,
            reopened_by=actor,
            reopened_at=timezone.now(),
            reopen_reason=reason,
        )
        session.state = SessionState.OPEN
        session.save(update_fields=["state"])
        standings_changed(session.club_id)
        audit_record(
            actor=actor,
            action=MoneyVerb.SESSION_REOPENED,
            obj=session,
            club=session.club,
            data={"settlement": settlement.version, "reason": reason},
        )
    return session
