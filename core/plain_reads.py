"""Reads that every request makes, written as plain statements instead of built by the ORM.

Terms: a plain read is one SELECT, its names quoted by the database's own rules and its values
parameters, read into model objects by `Model.objects.raw`. The ORM builds and compiles a query
each time it runs; for the few small reads every request makes (the login's session, the user,
the club), that building cost several times what the database took to answer, and most of a
light page's time. Everything else reads through the ORM.
"""

from __future__ import annotations

from django.db import connections, router
from django.db.models import Model


def quoted(model: type[Model], field: str = "") -> str:
    """A model's table, or one of its fields' columns, as its database names it."""
    name = model._meta.get_field(field).column if field else model._meta.db_table
    return connections[router.db_for_read(model)].ops.quote_name(name)


def column(model: type[Model], field: str) -> str:
    """A field's column with its table, as its database names them ("table"."column")."""
    return f"{quoted(model)}.{quoted(model, field)}"


def first_read(model: type[Model], statement: str, params: list) -> Model | None:
    """The first object of `model` a plain statement reads (its columns named as the model's
    fields' columns; any other column becomes an attribute), or None."""
    return next(iter(model._default_manager.raw(statement, params)), None)
