"""Tables of the games app (django-tables2): session standings."""

import django_tables2 as tables


class SignedColumn(tables.Column):
    """A spread: +12, -7, 0."""

    def render(self, value):
        return f"{value:+d}" if value else "0"


class StandingTable(tables.Table):
    rank = tables.Column(accessor="rank_label", order_by=("rank",), verbose_name="Rank")
    player = tables.Column(verbose_name="Player")
    game_points = tables.Column(verbose_name="Points", attrs={"td": {"class": "numeric"}})
    won = tables.Column(verbose_name="Won", attrs={"td": {"class": "numeric"}})
    lost = tables.Column(verbose_name="Lost", attrs={"td": {"class": "numeric"}})
    spread = SignedColumn(verbose_name="Spread", attrs={"td": {"class": "numeric"}})
    skunks_given = tables.Column(verbose_name="Skunks given", attrs={"td": {"class": "numeric"}})
    skunks_taken = tables.Column(verbose_name="Skunks taken", attrs={"td": {"class": "numeric"}})

    class Meta:
        orderable = True
        empty_text = "Nobody is checked in yet."
        attrs = {"class": "standings", "data-testid": "standings"}
