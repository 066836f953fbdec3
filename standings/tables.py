"""Tables of the standings app (django-tables2): the season and all-time tables, and the
ratings table.

Ratings show to three places, as `manage.py ratings` prints them; a provisional rating (fewer
than PROVISIONAL_GAMES rated games) is marked "(provisional)" on the pages and `yes` in CSV.
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from core.tables import CentsColumn
from games.tables import SignedColumn
from standings.models import PROVISIONAL_GAMES


class WinRateColumn(tables.Column):
    def render(self, value):
        return f"{value:.0%}"


def rating_text(value: float) -> str:
    return f"{value:.3f}"


class RatingColumn(tables.Column):
    """A rating (the ordinal) to three places, marked while provisional; blank when unrated."""

    def __init__(self, *args, provisional_accessor="provisional", **kwargs):
        self.provisional_accessor = provisional_accessor
        kwargs.setdefault("attrs", {"td": {"class": "numeric"}, "th": {"class": "numeric"}})
        super().__init__(*args, **kwargs)

    def render(self, value, record):
        if getattr(record, self.provisional_accessor):
            return format_html(
                '{} <span class="provisional" title="fewer than {} rated games">'
                "(provisional)</span>",
                rating_text(value),
                PROVISIONAL_GAMES,
            )
        return rating_text(value)

    def value(self, value, record):
        return rating_text(value)


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
    rating = RatingColumn(verbose_name="Rating", order_by=("rating_key",), default="")

    class Meta:
        orderable = True
        empty_text = "No confirmed results in this season yet."
        attrs = {"class": "standings", "data-testid": "season-standings"}


class RatingTable(tables.Table):
    """The club's ratings, best first (standings.rating_selectors.current_ratings)."""

    position = tables.Column(empty_values=(), verbose_name="#", orderable=False)
    player = tables.Column(
        verbose_name="Player",
        linkify=lambda record: reverse("standings:player", args=[record.player_id]),
    )
    games = tables.Column(verbose_name="Games", attrs={"td": {"class": "numeric"}})
    ordinal = RatingColumn(verbose_name="Rating")
    mu = tables.Column(verbose_name="Mu", attrs={"td": {"class": "numeric"}})
    sigma = tables.Column(verbose_name="Sigma", attrs={"td": {"class": "numeric"}})
    provisional = tables.BooleanColumn(
        verbose_name="Provisional", yesno="yes,", attrs={"td": {"class": "numeric"}}
    )

    def render_position(self, record):
        return self.position_of[record.player_id]

    def render_mu(self, value):
        return rating_text(value)

    def render_sigma(self, value):
        return rating_text(value)

    def value_provisional(self, value):
        return "yes" if value else "no"

    def value_mu(self, value):
        return rating_text(value)

    def value_sigma(self, value):
        return rating_text(value)

    def __init__(self, data, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.position_of = {row.player_id: n for n, row in enumerate(data, start=1)}

    def lines(self) -> list[dict]:
        """The rows' cells in the table's order (as sorted), worked out once for the page's
        template: what the columns render."""
        rating = self.columns["ordinal"].column.render
        return [
            {
                "position": self.position_of[row.player_id],
                "player_url": reverse("standings:player", args=[row.player_id]),
                "player": row.player,
                "games": row.games,
                "rating": rating(row.ordinal, row),
                "mu": rating_text(row.mu),
                "sigma": rating_text(row.sigma),
                "provisional": row.provisional,
            }
            for row in self.data
        ]

    class Meta:
        orderable = True
        empty_text = "No rated games yet: ratings start with the first confirmed result."
        attrs = {"class": "standings", "data-testid": "ratings"}
        template_name = "standings/includes/ratings_table.html"
