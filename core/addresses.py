"""Addresses of many rows at the cost of one `reverse()`.

A page that links every row of a long table to its own object (every game of a morning, every
check-in's buttons) reverses each URL name once, with a mark in place of each id that changes
from row to row, then writes each row's ids in their places: the same string `reverse()` and
{% url %} give, without resolving the name again for every row.
"""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

ROW = object()  # an argument of `addresses` that changes from row to row
_FIRST_MARK = 987654321  # ids no row reaches: the marks reversed in their places


def addresses(name: str, *args) -> Callable[..., str]:
    """A function of the ids `args` marks ROW (in their order) that gives
    `reverse(name, args=...)` with them in their places. Ids are whole numbers (primary keys);
    URL patterns take their arguments in order, so the marks come in that order."""
    marks = []
    filled = []
    for arg in args:
        if arg is ROW:
            marks.append(str(_FIRST_MARK + len(marks)))
            filled.append(marks[-1])
        else:
            filled.append(arg)
    template = reverse(name, args=filled).replace("{", "{{").replace("}", "}}")
    for mark in marks:
        template = template.replace(mark, "{}", 1)
    return template.format
