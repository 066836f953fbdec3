"""Tables of the games app (django-tables2): a session's standings and its results."""

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


class SessionResultTable(tables.Table):
    """Every confirmed game of a session, one row per player (the results as a table)."""

    round = tables.Column(accessor="result__game__round__number", verbose_name="Round")
    table = tables.Column(accessor="result__game__table", verbose_name="Table")
    player = tables.Column(accessor="player__display_name", verbose_name="Player")
    # A forfeit's lines carry no score: "won by forfeit" / "lost by forfeit" (page and CSV).
    score = tables.Column(
        accessor="score_text", verbose_name="Score", attrs={"td": {"class": "numeric"}}
    )
    won = tables.BooleanColumn(verbose_name="Won")
    game_points = tables.Column(verbose_name="Points", attrs={"td": {"class": "numeric"}})
    spread = SignedColumn(verbose_name="Spread", attrs={"td": {"class": "numeric"}})

    class Meta:
        orderable = False
        empty_text = "No confirmed results yet."
        attrs = {"data-testid": "session-results"}
