"""Tables of the tournaments app (django-tables2): the club's tournaments. (The qualifying
standings, 600 rows at an ACC event, are a plain template loop:
tournaments/includes/qualifying_table.html.)

Terms: entrants are the check-ins of a tournament's session (annotated as `entrants` by the
list's query); a member's link leads to the director's page, a visitor's to the standings.
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from tournaments.models import Tournament


class TournamentTable(tables.Table):
    name = tables.Column(verbose_name="Tournament")
    dates = tables.Column(verbose_name="Dates", accessor="starts_on", order_by=("starts_on",))
    stage = tables.Column(verbose_name="Stage")
    entrants = tables.Column(verbose_name="Entrants", attrs={"td": {"class": "numeric"}})
    champion = tables.Column(verbose_name="Champion", default="")

    class Meta:
        model = Tournament
        fields = ("name", "dates", "stage", "entrants", "champion")
        order_by = ("-dates",)
        empty_text = "No tournaments yet."

    def __init__(self, *args, members: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.members = members

    def render_name(self, value, record):
        page = "tournaments:detail" if self.members else "tournaments:standings"
        return format_html('<a href="{}">{}</a>', reverse(page, args=[record.pk]), value)

    def render_dates(self, record):
        if record.ends_on == record.starts_on:
            return f"{record.starts_on:%a %-d %b %Y}"
        return f"{record.starts_on:%-d %b} to {record.ends_on:%-d %b %Y}"

    def render_stage(self, record):
        return record.get_stage_display()

    def render_champion(self, value):
        return value.display_name
