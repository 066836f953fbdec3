"""Writes for the money app: settling a session (the pot paid out by rank, the side pots, the
ledger) and reopening it. The one bridge between the models and the pure payout plan
(`money.payout`).

Terms (docs/design.md, "The pot and payouts"):
- pot: the entry fees actually paid for the session, integer cents; all of it is paid out.
- settlement: one settling of a session (a version); Payout rows say who got what.
- ledger: signed rows per club and pot; + is money into the pot, - money out of it. Settling writes
  the fees (+) and payouts (-) of the session pot, and the side pots' coins and wins; reopening
  writes the reversal of each row of the replaced settlement. Every balance is a sum of rows.
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

from club.locking import lock_club, lock_session
from club.models import CheckIn, Player, Session, SessionState
from club.money import CHECKIN_JACKPOT_FIELDS
from club.services import pages_changed as standings_changed
from club.services import session_require_open
from core.audit import audit_record, audit_record_many
from core.locking import locked
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
    SkunkCoin,
)
from money.payout import PayoutPlan, RankedPlayer, plan_payouts
from money.selectors import accepted_hands, pot_balance, settle_blockers, skunk_coin_lines


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


def _side_pot(pot: str, carried: int, money_in: int, count: int) -> dict:
    """A side pot's part of the payout sheet, before its winners (`_win` adds them)."""
    return {
        "pot": pot,
        "label": Pot(pot).label,
        "carried_cents": carried,
        "in_cents": money_in,
        "in_count": count,
        "won_cents": 0,
        "winners": [],
        "rolled_cents": carried + money_in,
        "steps": [],
    }


def _win(settlement, sheet: dict, kind: str, winners: list[int], names: dict, seed: int):
    """Pay the whole of a side pot to its winners (equal coins, a cut for an odd coin): the
    ledger rows, with the sheet's winners, amounts and what rolls over filled in."""
    balance = sheet["carried_cents"] + sheet["in_cents"]
    if not winners or balance <= 0:
        return []
    coin = settlement.session.house_rules.payout_coin_cents
    rows, sheet["steps"] = _share(settlement, sheet["pot"], kind, balance, winners, coin, seed)
    sheet["winners"] = [
        {"player": row.player_id, "name": names.get(row.player_id, ""), "cents": -row.amount_cents}
        for row in rows
    ]
    sheet["won_cents"] = -sum(row.amount_cents for row in rows)
    sheet["rolled_cents"] = balance - sheet["won_cents"]
    return rows


def _jackpots(session: Session, settlement: Settlement, paid, names: dict, seed: int):
    """Each jackpot's contributions, as recorded on the paid check-ins (not the rules of today),
    and, when a hand of its count was accepted, its win. Rows and the sheet's sections."""
    rows, sheets = [], []
    for hand, field in CHECKIN_JACKPOT_FIELDS.items():
        these = list(paid.filter(**{f"{field}__gt": 0}).values_list("player_id", field))
        if not these and hand not in session.house_rules.jackpots:
            continue
        pot = JACKPOT_POTS[hand]
        coins = [_ledger(settlement, pot, LedgerKind.JACKPOT_COIN, c, pid) for pid, c in these]
        sheet = _side_pot(
            pot,
            pot_balance(session.club, pot),
            sum(row.amount_cents for row in coins),
            len(coins),
        )
        winners = accepted_hands(session, hand)
        rows += coins + _win(settlement, sheet, LedgerKind.JACKPOT_WIN, winners, names, seed)
        sheets.append(sheet)
    return rows, sheets


def _skunk_bank(session: Session, settlement: Settlement, names: dict, seed: int):
    """The skunk bank's rows for this session: exactly the coins taken (SkunkCoin rows; the
    blockers made sure they are the coins owed), and the win of a double skunk. Rows and the
    sheet's section."""
    coins = [
        _ledger(settlement, Pot.SKUNK_BANK, LedgerKind.SKUNK_COIN, cents, player_id)
        for player_id, cents in SkunkCoin.objects.filter(session=session)
        .order_by("game_id", "player_id")
        .values_list("player_id", "cents")
    ]
    sheet = _side_pot(
        Pot.SKUNK_BANK,
        pot_balance(session.club, Pot.SKUNK_BANK),
        sum(row.amount_cents for row in coins),
        len(coins),
    )
    confirmed = ResultLine.objects.filter(
        result__game__session=session, result__state=ResultState.CONFIRMED
    )
    double_games = confirmed.filter(double_skunked=True).values("result_id")
    winners = sorted(
        set(
            confirmed.filter(won=True, result_id__in=double_games).values_list(
                "player_id", flat=True
            )
        )
    )
    rows = coins + _win(settlement, sheet, LedgerKind.SKUNK_BANK_WIN, winners, names, seed)
    return rows, sheet


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
        names = dict(Player.objects.filter(club=session.club_id).values_list("pk", "display_name"))
        side_pots = []
        if rules.skunk_bank or SkunkCoin.objects.filter(session=session).exists():
            skunk_rows, skunk = _skunk_bank(session, settlement, names, seed)
            rows += skunk_rows
            side_pots.append(skunk)
        jackpot_rows, jackpots = _jackpots(session, settlement, paid, names, seed)
        rows += jackpot_rows
        side_pots += jackpots
        settlement.side_pots = side_pots
        settlement.save(update_fields=["side_pots"])
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
                "side_pots": side_pots,
            },
        )
    return settlement


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
        standings_changed(session.club_id)
        audit_record(
            actor=actor,
            action=MoneyVerb.SESSION_REOPENED,
            obj=session,
            club=session.club,
            data={"settlement": settlement.version, "reason": reason},
        )
    return session
