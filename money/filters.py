"""Filters for the money app's listings (django-filter): the club's ledger.

Terms: the session and player choices are the current club's own (`club` is required): an id of
another club's session or player is not a choice, so the form says "Select a valid choice" and
the page lists nothing rather than another club's rows.
"""

from __future__ import annotations

import html

import django_filters
from django import forms
from django.forms.models import ModelChoiceIterator
from django.utils.functional import Promise
from django.utils.safestring import mark_safe

from club.models import Player, Session
from money.models import LedgerEntry, LedgerKind, Pot


def _escape(text) -> str:
    """Django's conditional_escape as plain text: what is marked safe as it is, anything else
    escaped, without a safe string made for each of the thousand a select writes."""
    if isinstance(text, Promise):
        text = str(text)
    if hasattr(text, "__html__"):
        return text.__html__()
    return html.escape(str(text))


def _attrs_html(attrs: dict) -> str:
    """A tag's attributes as Django's widget template writes them, in their order: a False one
    left out, a True one bare."""
    return "".join(
        ""
        if value is False
        else f" {_escape(name)}"
        if value is True
        else f' {_escape(name)}="{_escape(str(value))}"'
        for name, value in attrs.items()
    )


class OnePassSelect(forms.Select):
    """A <select> written in one pass over its options, with the markup of Django's select
    widget templates. The ledger's session filter lists every session the club has played
    (fifty a year); through the templates each option cost an include, which made the options
    most of the page at ten years."""

    def render(self, name, value, attrs=None, renderer=None):
        # What Django's get_context and optgroups work out, without an option dict (and its
        # attributes) built per option: an option's attributes are `selected` or none (a
        # select's options do not inherit its attributes), and only the first option of the
        # value is selected unless the select takes several.
        values = self.format_value(value)
        select_attrs = self.build_attrs(self.attrs, attrs)
        if self.allow_multiple_selected:
            select_attrs["multiple"] = True
        parts = [f'<select name="{_escape(name)}"', _attrs_html(select_attrs), ">"]
        has_selected = False
        for option_value, option_label in self.choices:
            if option_value is None:
                option_value = ""
            grouped = isinstance(option_label, (list, tuple))
            if grouped and option_value:
                parts.append(f'\n  <optgroup label="{_escape(option_value)}">')
            for subvalue, sublabel in option_label if grouped else ((option_value, option_label),):
                selected = str(subvalue) in values and (
                    self.allow_multiple_selected or not has_selected
                )
                has_selected |= selected
                parts.append(
                    f'\n  <option value="{_escape(str(subvalue))}"'
                    f"{' selected' if selected else ''}>{_escape(sublabel)}</option>\n"
                )
            if grouped and option_value:
                parts.append("\n  </optgroup>")
        parts.append("\n</select>")
        return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped


class ValuesChoiceIterator(ModelChoiceIterator):
    """A model select's options read as values, the id and the columns its label shows
    (`label_fields`, written by the field's `label_from_values`), rather than a model instance
    built per option only to be formatted: a club's ten years are five hundred sessions."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        label = self.field.label_from_values
        key = self.field.to_field_name or "pk"
        for value, *shown in self.queryset.values_list(key, *self.field.label_fields):
            yield (value, label(*shown))


class ValuesChoiceField(forms.ModelChoiceField):
    """A model choice whose options are values (`ValuesChoiceIterator`); a value sent is
    still looked up through the queryset, so only its rows are valid choices."""

    iterator = ValuesChoiceIterator
    widget = OnePassSelect
    label_fields: tuple[str, ...] = ()

    def label_from_values(self, *values) -> str:
        return " ".join(str(value) for value in values)

    def label_from_instance(self, obj):
        return self.label_from_values(*(getattr(obj, field) for field in self.label_fields))


class SessionChoiceField(ValuesChoiceField):
    label_fields = ("date",)

    def label_from_values(self, date):
        return f"{date:%a %-d %b %Y}"


class PlayerChoiceField(ValuesChoiceField):
    label_fields = ("display_name",)  # what a player's str() shows


class SessionChoiceFilter(django_filters.ModelChoiceFilter):
    field_class = SessionChoiceField


class PlayerChoiceFilter(django_filters.ModelChoiceFilter):
    field_class = PlayerChoiceField


class LedgerFilter(django_filters.FilterSet):
    session = SessionChoiceFilter(
        queryset=Session.objects.none(), label="Session", empty_label="All sessions"
    )
    kind = django_filters.ChoiceFilter(
        choices=LedgerKind.choices, label="What", empty_label="All", widget=OnePassSelect
    )
    player = PlayerChoiceFilter(
        queryset=Player.objects.none(), label="Player", empty_label="Everyone"
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
