"""Filters for the money app's listings (django-filter): the club's ledger.

Terms: the session and player choices are the current club's own (`club` is required): an id of
another club's session or player is not a choice, so the form says "Select a valid choice" and
the page lists nothing rather than another club's rows.
"""

from __future__ import annotations

import django_filters
from django import forms
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from club.models import Player, Session
from money.models import LedgerEntry, LedgerKind, Pot


def _attrs_html(attrs: dict) -> str:
    """A tag's attributes as Django's widget template writes them, in their order: a False one
    left out, a True one bare."""
    return "".join(
        ""
        if value is False
        else f" {conditional_escape(name)}"
        if value is True
        else f' {conditional_escape(name)}="{conditional_escape(str(value))}"'
        for name, value in attrs.items()
    )


class OnePassSelect(forms.Select):
    """A <select> written in one pass over its options, with the markup of Django's select
    widget templates. The ledger's session filter lists every session the club has played
    (fifty a year); through the templates each option cost an include, which made the options
    most of the page at ten years."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        parts = [f'<select name="{conditional_escape(widget["name"])}"']
        parts.append(_attrs_html(widget["attrs"]) + ">")
        for group_name, options, _index in widget["optgroups"]:
            if group_name:
                parts.append(f'\n  <optgroup label="{conditional_escape(group_name)}">')
            parts.extend(
                f'\n  <option value="{conditional_escape(str(option["value"]))}"'
                f"{_attrs_html(option['attrs'])}>{conditional_escape(option['label'])}</option>\n"
                for option in options
            )
            if group_name:
                parts.append("\n  </optgroup>")
        parts.append("\n</select>")
        return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped


class SessionChoiceField(forms.ModelChoiceField):
    widget = OnePassSelect

    def label_from_instance(self, obj):
        return f"{obj.date:%a %-d %b %Y}"


class SessionChoiceFilter(django_filters.ModelChoiceFilter):
    field_class = SessionChoiceField


class LedgerFilter(django_filters.FilterSet):
    session = SessionChoiceFilter(
        queryset=Session.objects.none(), label="Session", empty_label="All sessions"
    )
    kind = django_filters.ChoiceFilter(
        choices=LedgerKind.choices, label="What", empty_label="All", widget=OnePassSelect
    )
    player = django_filters.ModelChoiceFilter(
        queryset=Player.objects.none(),
        label="Player",
        empty_label="Everyone",
        widget=OnePassSelect,
    )
    pot = django_filters.ChoiceFilter(
        choices=Pot.choices, label="Pot", empty_label="All pots", widget=OnePassSelect
    )

    class Meta:
        model = LedgerEntry
        fields = ["session", "kind", "player", "pot"]

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        # Only what the options show: a session row also holds its rules snapshot (JSON).
        self.filters["session"].queryset = (
            Session.objects.filter(club=club).only("pk", "date").order_by("-date")
        )
        self.filters["player"].queryset = (
            Player.objects.filter(club=club).only("pk", "display_name").order_by("display_name")
        )
