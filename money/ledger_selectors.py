"""Reads for the club's ledger page (money.views.LedgerView): its rows newest first, each row's
pot balance just after it, every pot's balance with the number of the club's rows (which the
page's paginator takes rather than counting them again; the balances kept in the cache for the
rows counted), and a filtered set's total and count.

Terms: see `money.models`. Balances are sums of ledger rows, counted in the database
(`money.selectors.pot_balances`).
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Count, Max, Subquery, Sum
from django.db.models.functions import Coalesce

from core.shared_cache import cache_get, cache_set
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


# How long the ledger page keeps a club's pot balances for the rows it counted (a day: a club
# settles once a week, and every row added makes a new key in any case).
POT_SUMS_SECONDS = 24 * 60 * 60


def _pot_sums(club) -> tuple[dict[str, int], int, int | None]:
    """Every pot's balance, how many ledger rows the club has and the newest one's id, in one
    pass over the club's rows by pot in the database (read from an index alone)."""
    sums = (
        LedgerEntry.objects.filter(club=club)
        .values("pot")
        .annotate(total=Sum("amount_cents"), rows=Count("pk"), newest=Max("pk"))
        .values_list("pot", "total", "rows", "newest")
    )
    totals = {}
    rows, newest = 0, None
    for pot, total, count, last in sums:
        totals[pot] = total
        rows += count
        newest = last if newest is None else max(newest, last)
    return {pot: totals.get(pot, 0) for pot in Pot.values}, rows, newest


def _ledger_rows_seen(club) -> tuple[int, int | None]:
    """How many ledger rows the club has and the newest one's id, in one pass over the club's
    rows in its index. (A `MAX(id)` of its own is read by PostgreSQL from the end of the whole
    table's id index, dropping every later club's rows on the way: 94 ms for a club half-way
    down a hundred.)"""
    table = connection.ops.quote_name(LedgerEntry._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*), MAX(id) FROM {table} WHERE club_id = %s", [club.pk])
        rows, newest = cursor.fetchone()
    return rows, newest


def _pot_sums_key(club_id: int, rows: int, newest: int | None) -> str:
    return f"pegboard:pot-sums:{club_id}:{rows}:{newest}"


def pot_balances_and_rows(club) -> tuple[dict[str, int], int]:
    """Every pot's balance (as `pot_balances`) and how many ledger rows the club has, for the
    ledger page. Ledger rows are only ever added, never changed or deleted (money.models), so
    the number of the club's rows and the newest one's id say which rows there are: the
    balances summed for them are kept in the shared cache under those two, and the page counts
    the rows (which its pages need anyway) and sums the whole history again only once a row
    has been added. Only what is committed is kept: inside a transaction, which may have added
    rows of its own and may yet roll back, the balances are summed."""
    if connection.in_atomic_block:
        balances, rows, _newest = _pot_sums(club)
        return balances, rows
    rows, newest = _ledger_rows_seen(club)
    balances = cache_get(_pot_sums_key(club.pk, rows, newest))
    if balances is None:
        # Summed with their own count and newest id: a row committed since is not misfiled.
        balances, rows, newest = _pot_sums(club)
        cache_set(_pot_sums_key(club.pk, rows, newest), balances, POT_SUMS_SECONDS)
    return balances, rows
