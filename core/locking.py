"""Row locks for the services that change shared rows, taken in one written order.

Terms:
- lock: `SELECT ... FOR NO KEY UPDATE OF <the model's own table>` inside the caller's
  transaction: `of=("self",)`, so a `select_related` join locks nothing extra; "no key" because
  no service changes a row's key, so a lock never blocks another transaction's insert of a row
  that merely refers to the locked one (PostgreSQL checks a foreign key with a key-share lock,
  which a plain FOR UPDATE would block: settling holds the club while a fee's audit entry, which
  refers to the club, waits, and the two deadlock). Locks still exclude each other. SQLite has no
  row locks: it lets one writer in at a time, so there the lock is a plain read.
- lock order: a service that locks rows of several kinds takes them in `LOCK_ORDER` (club, then
  session, round, game, claim), so two services never wait for each other in a circle; a row
  that hangs off one of them (a check-in, a dispute, a settlement) comes after its parent.
  Anything that changes a morning locks its session first, so it and settling take turns;
  anything that moves a club-wide balance (the side pots roll over from session to session)
  locks the club row first, as pretix's `lock_objects` does for its quotas. docs/architecture.md
  lists who locks what; the club's own rows are locked through `club.locking`.
"""

from __future__ import annotations

from typing import TypeVar

from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

LOCK_ORDER = ("club", "session", "round", "game", "claim")


def locked(queryset: QuerySet[M]) -> QuerySet[M]:
    """The rows of `queryset`, locked until the transaction ends (their own rows only)."""
    return queryset.select_for_update(of=("self",), no_key=True)
