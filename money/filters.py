"""Filters for the money app's listings (django-filter): the club's ledger.

Terms: the session and player choices are the current club's own (`club` is required): an id of
another club's session or player is not a choice, so the form says "Select a valid choice" and
the page lists nothing rather than another club's rows.
"""

from __future__ import annotations

import django_filters
from django import forms

from club.models import Player, Session
from money.models import LedgerEntry, LedgerKind, Pot


class SessionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.date:%a %-d %b %Y}"


class SessionChoiceFilter(django_filters.ModelChoiceFilter):
    field_class = SessionChoiceField


class LedgerFilter(django_filters.FilterSet):
    session = SessionChoiceFilter(
        queryset=Session.objects.none(), label="Session", empty_label="All sessions"
    )
    kind = django_filters.ChoiceFilter(choices=LedgerKind.choices, label="What", empty_label="All")
    player = django_filters.ModelChoiceFilter(
        queryset=Player.objects.none(), label="Player", empty_label="Everyone"
    )
    pot = django_filters.ChoiceFilter(choices=Pot.choices, label="Pot", empty_label="All pots")

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
