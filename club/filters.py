"""Filters for the club app's listings (django-filter)."""

import django_filters

from club.models import Player, Session
from club.seasons import in_season, season_label, seasons_of
from core.models import AuditEntry
from core.verbs import verb_choices


class PlayerFilter(django_filters.FilterSet):
    display_name = django_filters.CharFilter(lookup_expr="icontains", label="Name contains")
    active = django_filters.BooleanFilter()

    class Meta:
        model = Player
        fields = ["display_name", "active"]


class AuditFilter(django_filters.FilterSet):
    # Every app's verbs, read when the page is built (the apps register them when ready).
    action = django_filters.ChoiceFilter(choices=verb_choices)

    class Meta:
        model = AuditEntry
        fields = ["action"]


class SessionFilter(django_filters.FilterSet):
    """Sessions by the club's season (club.seasons: named and bounded as the standings do)."""

    season = django_filters.ChoiceFilter(label="Season", method="filter_season", empty_label="All")

    class Meta:
        model = Session
        fields = ["season"]

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        seasons = seasons_of(club, self.queryset.dates("date", "day"))
        self.filters["season"].extra["choices"] = [
            (str(season), season_label(club, season)) for season in seasons
        ]

    def filter_season(self, queryset, name, value):
        return queryset.filter(in_season(self.club, int(value)))
