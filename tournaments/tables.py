"""Tables of the tournaments app (django-tables2): the club's tournaments and the qualifying
standings.

Terms: entrants are the check-ins of a tournament's session (annotated as `entrants` by the
list's query); a member's link leads to the director's page, a visitor's to the standings. A
qualifying row is a `QualifyingRow` (tournaments.selectors); the cut line is drawn after the
last qualifier (the table's `last_qualifier`, a player id) by the table's own template, which
adds a row there that says so in words, so the line is never a border alone.
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from games.tables import SignedColumn
from tournaments.models import Tournament

NUMERIC = {"td": {"class": "numeric"}, "th": {"class": "numeric"}}


class QualifyingTable(tables.Table):
    """The qualifying standings in rank order; not sortable, since the cut line follows rank."""

    rank = tables.Column(accessor="rank_label", verbose_name="Rank")
    player = tables.Column(verbose_name="Player")
    played = tables.Column(verbose_name="Played", attrs=NUMERIC)
    won = tables.Column(verbose_name="Won", attrs=NUMERIC)
    lost = tables.Column(verbose_name="Lost", attrs=NUMERIC)
    game_points = tables.Column(verbose_name="Points", attrs=NUMERIC)
    spread = SignedColumn(verbose_name="Spread", attrs=NUMERIC)
    byes = tables.Column(verbose_name="Byes", attrs=NUMERIC)
    seed = tables.Column(verbose_name="Seed", empty_values=(), attrs={"td": {"class": "numeric"}})

    class Meta:
        orderable = False
        template_name = "tournaments/standings_table.html"
        empty_text = "Nobody is checked in yet."
        attrs = {"class": "standings qualifying", "data-testid": "qualifying-standings"}
        row_attrs = {"class": lambda record: "qualifier" if record.in_cut else "out"}

    def __init__(self, data, *, seeds: dict[int, int], last_qualifier: int | None, cut: int):
        self.seeds = seeds
        self.last_qualifier = last_qualifier
        self.cut = cut
        super().__init__(data)
        if not seeds:
            self.columns.hide("seed")

    def render_seed(self, record):
        return self.seeds.get(record.player_id, "")


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
