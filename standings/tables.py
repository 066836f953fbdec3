"""Tables of the standings app (django-tables2): the season and all-time tables."""

import django_tables2 as tables
from django.urls import reverse

from club.tables import CentsColumn
from games.tables import SignedColumn


class WinRateColumn(tables.Column):
    def render(self, value):
        return f"{value:.0%}"


class SeasonStandingTable(tables.Table):
    """The season (or all-time) table; the CSV export has the same columns in the same order."""

    rank = tables.Column(accessor="rank_label", order_by=("rank",), verbose_name="Rank")
    player = tables.Column(
        verbose_name="Player",
        linkify=lambda record: reverse("standings:player", args=[record.player_id]),
    )
    sessions = tables.Column(verbose_name="Sessions", attrs={"td": {"class": "numeric"}})
    game_points = tables.Column(verbose_name="Points", attrs={"td": {"class": "numeric"}})
    won = tables.Column(verbose_name="Won", attrs={"td": {"class": "numeric"}})
    lost = tables.Column(verbose_name="Lost", attrs={"td": {"class": "numeric"}})
    win_rate = WinRateColumn(verbose_name="Win rate", attrs={"td": {"class": "numeric"}})
    spread = SignedColumn(verbose_name="Spread", attrs={"td": {"class": "numeric"}})
    skunks_given = tables.Column(verbose_name="Skunks given", attrs={"td": {"class": "numeric"}})
    skunks_taken = tables.Column(verbose_name="Skunks taken", attrs={"td": {"class": "numeric"}})
    money_cents = CentsColumn(verbose_name="Money won", attrs={"td": {"class": "numeric"}})

    class Meta:
        orderable = True
        empty_text = "No confirmed results in this season yet."
        attrs = {"class": "standings", "data-testid": "season-standings"}
