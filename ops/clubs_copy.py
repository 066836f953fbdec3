"""Copying a club's history in bulk, inside the database, for a site of many clubs.

Terms:
- copy: one `INSERT INTO t (...) SELECT ... FROM t WHERE <the source's rows>` per table, in the
  order the foreign keys need, so the rows never pass through Python. Every id of a copied table
  moves by that table's offset (its highest id less the source's lowest, plus one), and so does
  every foreign key to a copied table: the copy's rows point at each other, never back at the
  source's. Foreign keys to tables that are not copied (the role groups, content types, and in a
  stacked copy the club, its players and their logins) keep their values.
- club copy (`club_copy`): a new club with the source club's logins, players, sessions, games,
  results, claims, disputes, settlements, ledger, totals, ratings and audit trail; its slug,
  name, logins' names and table links are its own. Claims' `parties` (player id -> side) move
  with the players. Ids inside other JSON (the audit entries' `data`, the settlements'
  `side_pots` winners) are a record of what was written and stay as the source wrote them.
  One-time secrets (login links, player links, table cards) are never copied.
- stacked copy (`sessions_stack`): the club's settled sessions and everything under them,
  copied into the same club `shift` days earlier (every date and time moved back), so a few
  years played through the services become ten. The ratings are then replayed from scratch by
  the service (`standings.services.ratings_rebuild`); they are not copied.
Both work on SQLite and PostgreSQL; the date arithmetic is each one's own. On PostgreSQL, when
the database role may (a superuser), a copy's transaction skips the foreign keys' deferred
checks (`session_replication_role = replica`, for that transaction only): checking each copied
row against its parent at COMMIT took as long as writing it, and every key of a copy is its
source's, moved by the offset the copy gave the parent table (the test suite checks every
constraint after copying, and `seed_history --check` compares what the pages read).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection, models, transaction

from club.models import CheckIn, Club, Player, Session, SessionState, WrongPin
from core.models import AuditEntry
from games.models import CorrectionProposal, Game, Result, ResultLine, Round, Seat, SessionTotal
from money.models import FeePayment, LedgerEntry, Payout, Settlement, SkunkCoin
from scoring.models import Claim, Dispute, Outcome, Ruling
from standings.models import GameRating

User = get_user_model()
UserGroups = User.groups.through

# What a session holds, in the order the foreign keys need, each with the column (and table)
# that ties its rows to the source's.
SESSION_ROWS: list[tuple[type[models.Model], str, type[models.Model]]] = [
    (CheckIn, "session_id", Session),
    (WrongPin, "session_id", Session),
    (Round, "session_id", Session),
    (Game, "round_id", Round),
    (Seat, "game_id", Game),
    (Result, "game_id", Game),
    (ResultLine, "result_id", Result),
    (SessionTotal, "session_id", Session),
    (CorrectionProposal, "game_id", Game),
    (Claim, "game_id", Game),
    (Outcome, "claim_id", Claim),
    (Dispute, "claim_id", Claim),
    (Ruling, "dispute_id", Dispute),
    (Settlement, "session_id", Session),
    (Payout, "settlement_id", Settlement),
    (SkunkCoin, "session_id", Session),
    (FeePayment, "checkin_id", CheckIn),
    (LedgerEntry, "session_id", Session),
]
CLUB_ROWS = [
    (User, "id", None),  # the club's logins: see `_scopes`
    (UserGroups, "user_id", User),
    (Club, "id", None),
    (Player, "club_id", Club),
    (Session, "club_id", Club),
    *SESSION_ROWS,
    (GameRating, "session_id", Session),
    (AuditEntry, "club_id", Club),
]


@dataclass
class _Copy:
    """One copy being written: each table's predicate for the source's rows and its offset."""

    scopes: dict  # model -> (sql, params): the source's rows of that table
    offsets: dict  # model -> int, for the tables copied
    shift_days: int = 0
    overrides: dict | None = None  # (model, column) -> (sql, params)


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _scopes(plan, roots: dict) -> dict:
    """model -> (WHERE sql, params) selecting the source's rows, each table's through its
    parent's (nested IN), from the roots' own predicates."""
    scopes = dict(roots)
    for model, column, parent in plan:
        if model in scopes:
            continue
        sql, params = scopes[parent]
        scopes[model] = (
            f"{connection.ops.quote_name(column)} IN (SELECT id FROM {_table(parent)} WHERE {sql})",
            params,
        )
    return scopes


def _offsets(plan, scopes: dict) -> dict:
    offsets = {}
    with connection.cursor() as cursor:
        for model, _, _ in plan:
            sql, params = scopes[model]
            table = _table(model)
            cursor.execute(
                f"SELECT MIN(id), (SELECT MAX(id) FROM {table}) FROM {table} WHERE {sql}", params
            )
            low, high = cursor.fetchone()
            if low is not None:
                offsets[model] = high - low + 1
    return offsets


def _shifted(field, column: str, days: int) -> str:
    if connection.vendor == "postgresql":
        if isinstance(field, models.DateTimeField):
            return f"{column} - make_interval(days => {days})"
        return f"{column} - {days}"
    if isinstance(field, models.DateTimeField):
        return f"strftime('%%Y-%%m-%%d %%H:%%M:%%f', {column}, '-{days} days')"
    return f"date({column}, '-{days} days')"


def _column(model, field, copy: _Copy) -> tuple[str, list]:
    column = connection.ops.quote_name(field.column)
    if copy.overrides and (model, field.column) in copy.overrides:
        return copy.overrides[(model, field.column)]
    if field.primary_key:
        return f"{column} + %s", [copy.offsets[model]]
    if field.is_relation and field.related_model in copy.offsets:
        return f"{column} + %s", [copy.offsets[field.related_model]]
    if copy.shift_days and isinstance(field, models.DateField):
        return _shifted(field, column, copy.shift_days), []
    return column, []


def _insert(model, copy: _Copy) -> int:
    if model not in copy.offsets:
        return 0  # the source has none
    fields = model._meta.concrete_fields
    names, exprs, params = [], [], []
    for field in fields:
        sql, more = _column(model, field, copy)
        names.append(connection.ops.quote_name(field.column))
        exprs.append(sql)
        params += more
    where, where_params = copy.scopes[model]
    table = _table(model)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(exprs)} FROM {table} "
            f"WHERE {where}",
            params + list(where_params),
        )
        return cursor.rowcount


def _token(offset: int) -> tuple[str, list]:
    """A new table link for each copied game: five random characters and the new id in hex,
    with 0 and 1 (not in the links' alphabet) written as x and y: unique by the id."""
    if connection.vendor == "postgresql":
        raw = "substr(md5(random()::text), 1, 5) || lpad(to_hex(id + %s), 7, '0')"
    else:
        raw = "substr(lower(hex(randomblob(3))), 1, 5) || printf('%%07x', id + %s)"
    return f"replace(replace({raw}, '0', 'x'), '1', 'y')", [offset]


def _parties(offset: int) -> tuple[str, list]:
    """A claim's `parties` with every player id moved by the players' offset."""
    if connection.vendor == "postgresql":
        sql = (
            "coalesce((SELECT jsonb_object_agg((key::bigint + %s)::text, value) "
            "FROM jsonb_each(parties)), '{}'::jsonb)"
        )
    else:
        sql = (
            "coalesce((SELECT json_group_object(CAST(CAST(key AS INTEGER) + %s AS TEXT), value) "
            "FROM json_each(parties)), '{}')"
        )
    return sql, [offset]


def _object_id(offsets: dict) -> tuple[str, list]:
    """An audit entry's object id moved with its object's table, when that table is copied."""
    whens, params = [], []
    for model, offset in offsets.items():
        if model is UserGroups:
            continue
        kind = ContentType.objects.get_for_model(model, for_concrete_model=False)
        whens.append(
            "WHEN content_type_id = %s AND object_id <> '' "
            "THEN CAST(CAST(object_id AS BIGINT) + %s AS VARCHAR(40))"
        )
        params += [kind.pk, offset]
    return f"CASE {' '.join(whens)} ELSE object_id END", params


def _trust_keys() -> None:
    """Inside a copy's transaction: skip the deferred foreign key checks if the role may."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        if cursor.fetchone()[0]:
            cursor.execute("SET LOCAL session_replication_role = replica")


def _sequences(plan) -> None:
    """PostgreSQL hands out ids from a sequence that explicit ids do not move: move it past
    them. (SQLite's next id is the highest one's successor already.)"""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model, _, _ in plan:
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence(%s, 'id'), "
                f"(SELECT COALESCE(MAX(id), 1) FROM {_table(model)}))",
                [table],
            )


def club_copy(*, source: Club, slug: str, name: str) -> tuple[Club, dict]:
    """A new club `slug` holding a copy of `source`'s whole history; rows written per table."""
    old_prefix = f"{source.slug}-"
    roots = {
        Club: ("id = %s", [source.pk]),
        User: (f"id IN (SELECT user_id FROM {_table(Player)} WHERE club_id = %s)", [source.pk]),
    }
    with transaction.atomic():
        _trust_keys()
        scopes = _scopes(CLUB_ROWS, roots)
        offsets = _offsets(CLUB_ROWS, scopes)
        copy = _Copy(scopes=scopes, offsets=offsets)
        copy.overrides = {
            (Club, "slug"): ("%s", [slug]),
            (Club, "name"): ("%s", [name]),
            (User, "username"): ("%s || substr(username, %s)", [f"{slug}-", len(old_prefix) + 1]),
            (Game, "table_token"): _token(offsets[Game]),
            (Claim, "parties"): _parties(offsets[Player]),
            (AuditEntry, "object_id"): _object_id(offsets),
        }
        written = {model._meta.label: _insert(model, copy) for model, _, _ in CLUB_ROWS}
        _sequences(CLUB_ROWS)
    return Club.objects.get(slug=slug), written


def sessions_stack(*, club: Club, shift_days: int, since: dt.date, up_to_id: int) -> dict:
    """Copy the club's settled sessions of ids up to `up_to_id` (the played ones, not earlier
    copies), and all they hold, `shift_days` earlier: those whose new date falls on or after
    `since`. Ratings are left to the caller's replay."""
    plan = SESSION_ROWS
    root = (
        "club_id = %s AND state = %s AND id <= %s AND date >= %s",
        [club.pk, SessionState.SETTLED, up_to_id, since + dt.timedelta(days=shift_days)],
    )
    with transaction.atomic():
        _trust_keys()
        scopes = _scopes([(Session, "", None), *plan], {Session: root})
        offsets = _offsets([(Session, "", None), *plan], scopes)
        copy = _Copy(scopes=scopes, offsets=offsets, shift_days=shift_days)
        if Game in offsets:
            copy.overrides = {(Game, "table_token"): _token(offsets[Game])}
        written = {Session._meta.label: _insert(Session, copy)}
        written |= {model._meta.label: _insert(model, copy) for model, _, _ in plan}
        _sequences([(Session, "", None), *plan])
    return written
