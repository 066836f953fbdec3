"""Tables of the tournaments app (django-tables2): the qualifying standings.

Terms (tournaments.selectors): a row is a `QualifyingRow`; the cut line is drawn after the last
qualifier (the table's `last_qualifier`, a player id) by the table's own template, which adds a
row there that says so in words, so the line is never a border alone.
"""

import django_tables2 as tables

from games.tables import SignedColumn

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
