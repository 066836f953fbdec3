"""Reads of rows whose SQL the ORM builds and compiles once per process, not once per request.

Terms:
- compiled read: a function of ids that returns a queryset, wrapped by `compiled_once`. Its
  first call builds the queryset with stand-in ids and compiles it; every call after runs the
  kept statement with its own ids as parameters and reads the rows through the queryset and
  compiler kept with it, so they come back exactly as the queryset would give them (model
  objects with their related ones, or values, converted by the database's own converters).
- stand-in: a negative number no row has, one per argument, that the first build is given in
  place of each id; where it shows in the compiled parameters, a call's id goes.

Why: the pages that list a whole morning (the session page) read a dozen such querysets a
request; building and compiling each took longer than the database took to answer it, and more
than the rows' own work. The statement is the ORM's, so it is written once, in one place, in
the ORM's terms.

What a compiled read may not do, and is refused at its first call: take anything but ids (whole
numbers), put an id anywhere but in a parameter (a slice's bounds are written into the SQL), or
return anything but a queryset. A prefetch of related rows, if it has one, is built each time.
Its SQL must not depend on anything else that can change while the process lives (the time
zone, the date, a setting): it is compiled once.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.models import QuerySet

# The first stand-in: below any id a row is given (ids count up from 1), and within the range of
# a 32-bit integer column, whose lookups Django answers without a query beyond it.
STAND_IN = -2_140_000_001


@dataclass(frozen=True)
class _Kept:
    queryset: QuerySet  # the first build, never run itself
    compiler: Any  # its compiler, set up: what it selects, with which converters
    sql: str
    params: tuple  # the compiled parameters, a stand-in where an argument goes
    arguments: dict[int, int]  # parameter position -> argument position
    count: int  # how many ids it reads by


class CompiledRead:
    """A read by ids whose statement is compiled once (see the module's terms)."""

    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build
        self.kept: _Kept | None = None
        functools.update_wrapper(self, build)  # its name and docstring

    def __call__(self, *ids: int) -> list:
        for value in ids:
            if type(value) is not int:
                raise TypeError(f"{self.__name__} reads by ids (whole numbers), not {value!r}.")
        kept = self.kept if self.kept is not None else self._compile(len(ids))
        if len(ids) != kept.count:
            raise TypeError(f"{self.__name__} reads by {kept.count} ids, not {len(ids)}.")
        params = list(kept.params)
        for position, argument in kept.arguments.items():
            params[position] = ids[argument]
        # The queryset reads its rows as it always does (models, related objects, values and
        # their converters), from a copy of the kept compiler that gives the kept statement
        # with this call's ids, on this thread's connection.
        compiler = copy.copy(kept.compiler)
        compiler.connection = connections[kept.queryset.db]
        compiler.as_sql = lambda *args, **kwargs: (kept.sql, params)
        queryset = kept.queryset._chain()
        queryset.query.get_compiler = lambda *args, **kwargs: compiler
        return list(queryset)

    def _compile(self, count: int) -> _Kept:
        stand_ins = [STAND_IN - n for n in range(count)]
        queryset = self.build(*stand_ins)
        if not isinstance(queryset, QuerySet):
            raise ImproperlyConfigured(f"{self.__name__} must return a queryset.")
        compiler = queryset.query.get_compiler(queryset.db)
        sql, params = compiler.as_sql()
        arguments = {
            position: stand_ins.index(value)
            for position, value in enumerate(params)
            if type(value) is int and value in stand_ins
        }
        for n, stand_in in enumerate(stand_ins):
            if str(abs(stand_in)) in sql or n not in arguments.values():
                raise ImproperlyConfigured(
                    f"{self.__name__}'s argument {n + 1} must be a parameter of its statement "
                    "(a filter's value), not written into the SQL or left out."
                )
        self.kept = _Kept(queryset, compiler, sql, tuple(params), arguments, count)
        return self.kept


def compiled_once(build: Callable[..., QuerySet]) -> CompiledRead:
    """Decorate a function of ids that returns a queryset: calling it returns the queryset's
    rows as a list (models, or values), its statement compiled at its first call only."""
    return CompiledRead(build)
