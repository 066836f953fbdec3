"""Filters for the club app's listings (django-filter)."""

import django_filters

from club.models import AuditAction, AuditEntry, Player


class PlayerFilter(django_filters.FilterSet):
    display_name = django_filters.CharFilter(lookup_expr="icontains", label="Name contains")
    active = django_filters.BooleanFilter()

    class Meta:
        model = Player
        fields = ["display_name", "active"]


class AuditFilter(django_filters.FilterSet):
    action = django_filters.ChoiceFilter(choices=AuditAction.choices)

    class Meta:
        model = AuditEntry
        fields = ["action"]
