"""Hostile values for the site's forms, query strings and URLs, as hypothesis strategies.

Terms:
- hostile value: empty, huge (10k+ characters), unicode (RTL, emoji, zero-width, NUL), numbers out
  of range or written as floats, SQL and HTML fragments, template syntax, bad or duplicate cards.
- marker: a fragment of an attack that must never appear raw in an HTML response (`MARKERS`).
- `MISSING`: drawn in place of a value, it leaves the field out of the post or query.
"""

from __future__ import annotations

import operator

from django import forms
from hypothesis import strategies as st

from scoring.engine import DECK

# --- Hostile values -------------------------------------------------------------------------------

ATTACKS = (
    "",
    " ",
    "\t\r\n",
    "\x00",
    "5H\x005C",
    "a\x00b",
    "'; DROP TABLE club_player; --",
    "1 OR 1=1",
    "' OR '1'='1",
    "1); DELETE FROM club_auditentry; --",
    '" UNION SELECT username, password FROM auth_user --',
    "<script>alert(1)</script>",
    '"><script>alert(1)</script>',
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    'x" onmouseover="alert(1)',
    "x' onfocus='alert(1)",
    "</textarea><script>alert(1)</script>",
    "javascript:alert(1)",
    "{{ 7|add:7 }}",
    "{% debug %}",
    "%s%s%s%n",
    "../../../etc/passwd",
    "\u202eevil.exe",  # right-to-left override
    "مرحبا بالعالم",
    "שלום",
    "😀🃏🂡",
    "\u200b",
    "\ufeff",
    "Ω≈ç√∫",
    "ＡＢＣ１２３",
    "١٢١",  # Arabic-Indic digits: int() reads them
    "null",
    "None",
    "undefined",
    "NaN",
    "-Infinity",
    "1e309",
    "-0",
    "0x1F",
    "1_000",
    "9" * 40,
    "-" + "9" * 40,
    '=HYPERLINK("http://evil")',
    "+cmd|' /C calc'!A0",
)
# What must never appear raw in an HTML response: each is in an attack above.
MARKERS = (
    "<script>alert",
    "<img src=x onerror",
    "<svg onload",
    'onmouseover="alert',
    "onfocus='alert",
)

TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)  # no lone surrogates
HUGE = st.builds(
    operator.mul, st.sampled_from(("x", "é", "😀", "<b>", "5H ", "9", "\u202e")), st.just(12_000)
)
NUMBERS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats().map(str),  # nan, inf, 1e+300, -0.0 ...
)
HOSTILE = st.one_of(st.sampled_from(ATTACKS), TEXT, NUMBERS, HUGE)

CARDS = tuple(str(card) for card in DECK)
BAD_CARDS = ("5X", "1H", "11C", "0S", "10", "H5", "♠", "JJ", "5H5C", "", "10♥♥", "Z")
CARD = st.one_of(
    st.sampled_from(CARDS),
    st.sampled_from(("10C", "TD", "jd", "5♥", "A♠", "5H", "JD")),  # 5H, JD: in the baseline hand
    st.sampled_from(BAD_CARDS),
    HOSTILE,
)
HAND = st.one_of(
    st.lists(st.sampled_from(CARDS + BAD_CARDS), max_size=6).map(" ".join),  # duplicates too
    st.sampled_from(
        ("5H 5H 5H 5H", "5H,5C,5S,JD", "5H 5C 5S", "5H 5C 5S JD 4C", "5h5c5sjd", "5H  5C\t5S\nJD")
    ),
    HOSTILE,
)
BOOL = st.one_of(st.sampled_from(("on", "off", "true", "false", "1", "0", "", "yes")), HOSTILE)
DATE = st.one_of(
    st.dates().map(str),
    st.sampled_from(("2026-02-30", "99999-01-01", "0000-00-00", "2026-13-01", "12/03/2026")),
    HOSTILE,
)
TIME = st.one_of(
    st.times().map(str), st.sampled_from(("09:30", "24:00", "25:61", "9:30pm", "-1:00")), HOSTILE
)
EXTRA_KEYS = st.one_of(
    st.sampled_from(
        ("club", "club_id", "state", "pk", "id", "is_superuser", "groups", "actor", "next", "paid")
    ),
    st.text("abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=12),
)
MISSING = object()


def field_strategy(form_field: forms.Field, ids: list[int]) -> st.SearchStrategy:
    """Hostile values for a form field, mixed with values of the right kind; `ids` are real
    primary keys (this club's players and another club's) for the choice fields."""
    if isinstance(form_field, forms.BooleanField):
        return BOOL
    if isinstance(form_field, forms.ChoiceField):
        values = [str(value) for value, _ in form_field.choices if value != ""]
        known = st.sampled_from(values) if values else st.nothing()
        return st.one_of(known, st.sampled_from([str(i) for i in ids]), HOSTILE)
    if isinstance(form_field, forms.IntegerField):
        low = form_field.min_value if form_field.min_value is not None else -5
        high = form_field.max_value if form_field.max_value is not None else 200
        near = st.integers(min_value=low - 3, max_value=high + 3).map(str)
        return st.one_of(near, NUMBERS, HOSTILE)
    if isinstance(form_field, forms.DateField):
        return DATE
    if isinstance(form_field, forms.TimeField):
        return TIME
    if isinstance(form_field, forms.CharField):
        return st.one_of(st.sampled_from(("Ann", "Bob Smith", "linear", "50,30,20")), HOSTILE)
    raise AssertionError(f"No hostile strategy for a {type(form_field).__name__}: add one.")
