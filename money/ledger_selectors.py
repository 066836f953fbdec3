"""Reads for the club's ledger page (money.views.LedgerView): its rows newest first, each row's
pot balance just after it, every pot's balance with the number of the club's rows (which the
page's paginator takes rather than counting them again), and a filtered set's total and count.

Terms: see `money.models`. Balances are sums of ledger rows, counted in the database
(`money.selectors.pot_balances`).
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Count, Subquery, Sum
from django.db.models.functions import Coalesce

from money.models import LedgerEntry, Pot
from money.selectors import pot_balances


def club_ledger_entries(club):
    """The club's ledger rows, newest first, with their session's date and player's name (not
    the session's rules snapshot, which would ride along through the sort)."""
    return (
        LedgerEntry.objects.filter(club=club)
        .select_related("session", "player")
        .defer("session__rules")
        .order_by("-created_at", "-pk")
    )


def ledger_balances(club, entry_ids=None, *, pot_totals=None) -> dict[int, int]:
    """Each ledger row's pot balance just after it (id -> cents): the sum of that pot's rows of
    the whole club up to and including it, oldest first by time then id. Every row: as a window
    sum in the database. `entry_ids` (a page): each pot's balance now (`pot_totals`, as
    `pot_balances` gives them, read if not given) less the rows of that pot written after the
    row, read newest first down to the page's oldest row (one query), so the newest page costs
    the same at any age of the club. The sums run over every row of the club, so a filtered page
    shows the pot's real balance."""
    if entry_ids is None:
        table = connection.ops.quote_name(LedgerEntry._meta.db_table)
        sql = (
            "SELECT id, balance FROM ("
            "SELECT id, SUM(amount_cents) OVER (PARTITION BY pot ORDER BY created_at, id)"
            f" AS balance FROM {table} WHERE club_id = %s) running"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [club.pk])
            return dict(cursor.fetchall())
    wanted = {int(pk) for pk in entry_ids}
    if not wanted:
        return {}
    running = dict(pot_balances(club) if pot_totals is None else pot_totals)
    oldest = LedgerEntry.objects.filter(pk__in=wanted).order_by("created_at", "pk")
    later = (
        LedgerEntry.objects.filter(
            club=club, created_at__gte=Subquery(oldest.values("created_at")[:1])
        )
        .order_by("-created_at", "-pk")
        .values_list("pk", "pot", "amount_cents")
    )
    balances = {}
    for pk, pot, amount in later.iterator():
        if pk in wanted:
            balances[pk] = running[pot]
            if len(balances) == len(wanted):
                break
        running[pot] -= amount
    return balances


def ledger_total_and_rows(entries) -> tuple[int, int]:
    """The sum of some ledger rows (a filtered set) and how many they are, in one query."""
    sums = entries.aggregate(total=Coalesce(Sum("amount_cents"), 0), rows=Count("pk"))
    return sums["total"], sums["rows"]


def pot_balances_and_rows(club) -> tuple[dict[str, int], int]:
    """Every pot's balance (as `pot_balances`) and how many ledger rows the club has, in one
    pass over the club's rows by pot in the database (read from an index alone)."""
    sums = (
        LedgerEntry.objects.filter(club=club)
        .values("pot")
        .annotate(total=Sum("amount_cents"), rows=Count("pk"))
        .values_list("pot", "total", "rows")
    )
    totals = {}
    rows = 0
    for pot, total, count in sums:
        totals[pot] = total
        rows += count
    return {pot: totals.get(pot, 0) for pot in Pot.values}, rows
