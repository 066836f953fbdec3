"""Rows read before and after a request to show it wrote nothing, with each query's SQL compiled
once per test process instead of at every read.

Terms: a *reading* is a named list of querysets whose SQL depends only on the name (the ids they
filter on are part of it). On the tests' small databases Django compiling a queryset costs more
than the database running it, and the permission tests read the same querysets thousands of
times, so the first read of a name keeps each queryset's SQL and parameters and later reads run
them as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from django.db import connection
from django.db.models import QuerySet

_COMPILED: dict[Hashable, list[tuple[str, tuple]]] = {}


def _statements(name: Hashable, querysets: Callable[[], list[QuerySet]]) -> list:
    key = (connection.vendor, connection.settings_dict["NAME"], name)
    if key not in _COMPILED:
        _COMPILED[key] = [queryset.query.sql_with_params() for queryset in querysets()]
    return _COMPILED[key]


def rows(name: Hashable, querysets: Callable[[], list[QuerySet]]) -> list[list[tuple]]:
    """Every row of each queryset, as tuples (order them in the queryset)."""
    found = []
    with connection.cursor() as cursor:
        for sql, params in _statements(name, querysets):
            cursor.execute(sql, params)
            found.append(cursor.fetchall())
    return found


def counts(name: Hashable, querysets: Callable[[], list[QuerySet]]) -> tuple[int, ...]:
    """How many rows each queryset has, read in one statement."""
    statements = _statements(name, querysets)
    sql = ", ".join(
        f"(SELECT COUNT(*) FROM ({statement}) AS counted_{n})"
        for n, (statement, _) in enumerate(statements)
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sql}", [param for _, params in statements for param in params])
        return tuple(cursor.fetchone())
