"""Reads for the money app: what stops a session being settled, the pots' balances, the hands
that win a jackpot, a session's current settlement, the ledger and a player's money.

Terms: see `money.models`. Balances are sums of ledger rows, counted in the database.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from club.models import CheckIn, Session
from games.models import Game, ResultState
from money.models import LedgerEntry, Pot, Settlement, SettlementState
from scoring.models import Claim, ClaimKind, OutcomeKind
from scoring.selectors import session_open_disputes


def settle_blockers(session: Session) -> list[str]:
    """Everything that stops the session being settled, each as a sentence saying what to do."""
    blockers = []
    if not CheckIn.objects.filter(session=session).exists():
        blockers.append("Nobody is checked in: there is nothing to settle.")
    unpaid = list(
        CheckIn.objects.filter(session=session, paid_at__isnull=True)
        .order_by("player__display_name")
        .values_list("player__display_name", flat=True)
    )
    if unpaid:
        blockers.append(
            f"Fees not paid: {', '.join(unpaid)}. Mark them paid (or undo the check-in)."
        )
    unconfirmed = (
        Game.objects.filter(session=session)
        .annotate(confirmed=Count("results", filter=Q(results__state=ResultState.CONFIRMED)))
        .filter(confirmed=0)
        .select_related("round")
        .order_by("round__number", "table")
    )
    if unconfirmed:
        tables = ", ".join(f"round {g.round.number} table {g.table}" for g in unconfirmed)
        blockers.append(f"Results not confirmed: {tables}.")
    disputes = session_open_disputes(session).count()
    if disputes:
        blockers.append(
            f"{disputes} dispute{'s' if disputes != 1 else ''} waiting for a judge: "
            "a judge rules first."
        )
    return blockers


def pot_balance(club, pot: str) -> int:
    return LedgerEntry.objects.filter(club=club, pot=pot).aggregate(
        total=Coalesce(Sum("amount_cents"), 0)
    )["total"]


def accepted_hands(session: Session, total: int) -> list[int]:
    """Players with an accepted hand or crib claim counting `total` this session (the jackpot
    winners; DESIGN.md "Claims, muggins and disputes").

    The engine's count is `total`, the cards were confirmed by a player of another side or a judge
    (`Claim.cards_confirmed_by`), and either a judge's last ruling gave the claimant's side `total`
    or more, or, undisputed, the claimant announced it as counted: claimed = true, whether or not
    a false muggins call followed (its outcome is then "false_muggins": the call never costs the
    claimant the jackpot). A count found only by a muggins call or a correction does not win.
    """
    # Announced as counted: accepted, or accepted and then a false muggins call (ACC rule 10.4a).
    announced_as_counted = (OutcomeKind.EXACT, OutcomeKind.FALSE_MUGGINS)
    winners = set()
    claims = Claim.objects.filter(
        game__session=session,
        kind__in=[ClaimKind.HAND, ClaimKind.CRIB],
        true_points=total,
        cards_confirmed_by__isnull=False,
    ).prefetch_related("outcomes", "dispute__rulings")
    for claim in claims:
        dispute = getattr(claim, "dispute", None)
        rulings = list(dispute.rulings.all()) if dispute else []
        if rulings:
            last = max(rulings, key=lambda ruling: ruling.level)
            if last.points.get(str(claim.claimant_side), 0) >= total:
                winners.add(claim.claimant_id)
        elif dispute is None:
            outcome = max(claim.outcomes.all(), key=lambda o: o.version)
            if outcome.kind in announced_as_counted and claim.claimed_points == total:
                winners.add(claim.claimant_id)
    return sorted(winners)


def current_settlement(session):
    """The session's current settlement with its payouts (best place first), or None."""
    return (
        Settlement.objects.filter(session=session, state=SettlementState.CURRENT)
        .select_related("settled_by")
        .prefetch_related("payouts__player")
        .first()
    )


def club_ledger_entries(club):
    """The club's ledger rows, newest first, with their session's date and player's name (not
    the session's rules snapshot, which would ride along through the sort)."""
    return (
        LedgerEntry.objects.filter(club=club)
        .select_related("session", "player")
        .defer("session__rules")
        .order_by("-created_at", "-pk")
    )


def ledger_balances(club, entry_ids=None) -> dict[int, int]:
    """Each ledger row's pot balance just after it (id -> cents): the sum of that pot's rows of
    the whole club up to and including it, oldest first by time then id, as a window sum in the
    database. `entry_ids` limits the answer to those rows (a page); the sums still run over every
    row of the club, so a filtered page shows the pot's real balance."""
    table = connection.ops.quote_name(LedgerEntry._meta.db_table)
    sql = (
        "SELECT id, balance FROM ("
        "SELECT id, SUM(amount_cents) OVER (PARTITION BY pot ORDER BY created_at, id) AS balance"
        f" FROM {table} WHERE club_id = %s) running"
    )
    params = [club.pk]
    if entry_ids is not None:
        entry_ids = [int(pk) for pk in entry_ids]
        if not entry_ids:
            return {}
        sql += f" WHERE id IN ({', '.join(['%s'] * len(entry_ids))})"
        params += entry_ids
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return dict(cursor.fetchall())


def ledger_total(entries) -> int:
    """The sum of some ledger rows (a filtered set), in the database."""
    return entries.aggregate(total=Coalesce(Sum("amount_cents"), 0))["total"]


def pot_balances(club) -> dict[str, int]:
    """Every pot's balance: the sum of its ledger rows, in the database."""
    totals = dict(
        LedgerEntry.objects.filter(club=club)
        .values("pot")
        .annotate(total=Sum("amount_cents"))
        .values_list("pot", "total")
    )
    return {pot: totals.get(pot, 0) for pot in Pot.values}


def player_money(player):
    """A player's money history: fees, payouts, side-pot coins and wins, newest first."""
    return (
        LedgerEntry.objects.filter(player=player)
        .select_related("session")
        .order_by("-created_at", "-pk")
    )
