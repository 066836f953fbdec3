"""The ledger filter's selects are written in one pass over their options with exactly the
markup of Django's select widget templates: the same HTML for a choice picked or not, an empty
label, an error's attributes and names that need escaping."""

import pytest
from django import forms

from money.filters import OnePassSelect

CHOICES = [
    ("", "All sessions"),
    (3, "Thu 26 Nov 2026"),
    (2, 'Tom & "Jerry" <b>'),
    (1, "Thu 12 Nov 2026"),
]


@pytest.mark.parametrize("value", [None, "", "2", 2, "99"])
@pytest.mark.parametrize(
    "attrs",
    [
        {"id": "id_session"},
        {"id": "id_session", "aria-invalid": "true", "aria-describedby": "id_session_error"},
        {"id": "id_x", "required": True, "disabled": False, "data-x": "a<b"},
    ],
)
def test_the_same_html_as_djangos_select(value, attrs):
    expected = forms.Select(choices=CHOICES).render("session", value, attrs=attrs)
    assert OnePassSelect(choices=CHOICES).render("session", value, attrs=attrs) == expected


def test_option_groups_as_django_writes_them():
    choices = [("", "All"), ("Pots", [("main", "Session pot"), ("bank", "Skunk <bank>")])]
    expected = forms.Select(choices=choices).render("pot", "bank", attrs={"id": "id_pot"})
    assert OnePassSelect(choices=choices).render("pot", "bank", attrs={"id": "id_pot"}) == expected
