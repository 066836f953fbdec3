"""Tables of the games app (django-tables2): a session's standings and its results.

Each keeps django-tables2's header (its sort links), paging and CSV, and writes its rows itself
(`rows_html`), the markup the site's table template gives them: forty rows of eight values each,
as a template loop, cost the session page more in the template engine's lookups and escapes
than writing them does here.
"""

import django_tables2 as tables
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from core.templatetags.pegboard import signed


class SignedColumn(tables.Column):
    """A spread: +12, -7, 0."""

    def render(self, value):
        return signed(value)


def rows_html(table: tables.Table, cells) -> SafeString:
    """The table's rows, striped as django-tables2 stripes them (even first), each row's cells
    written by `cells` (escaped there); its empty text across a row when it has none."""
    rows = [
        f'<tr class="{"odd" if index % 2 else "even"}">{cells(record)}</tr>'
        for index, record in enumerate(table_records(table))
    ]
    if not rows:
        colspan = len(table.columns)
        rows.append(f'<tr><td colspan="{colspan}">{escape(table.empty_text)}</td></tr>')
    return mark_safe("".join(rows))  # every value escaped by `cells`


def table_records(table: tables.Table):
    """The rows the table shows, sorted as the request asked: the page of them when it is
    paginated, else all."""
    if getattr(table, "page", None) is not None:
        return (bound.record for bound in table.page.object_list)
    return iter(table.data)


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

    def rows_html(self) -> SafeString:
        return rows_html(self, _standing_cells)


def _standing_cells(row) -> str:  # a games.selectors.Standing
    return (
        f"<td>{row.rank_label}</td><td>{escape(row.player)}</td>"
        f'<td class="numeric">{row.game_points}</td><td class="numeric">{row.won}</td>'
        f'<td class="numeric">{row.lost}</td><td class="numeric">{signed(row.spread)}</td>'
        f'<td class="numeric">{row.skunks_given}</td><td class="numeric">{row.skunks_taken}</td>'
    )


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

    def rows_html(self) -> SafeString:
        return rows_html(self, _result_cells)


WON = ('<span class="false">✘</span>', '<span class="true">✔</span>')  # BooleanColumn's marks


def _result_cells(line: dict) -> str:  # a games.selectors.session_result_lines row
    return (
        f"<td>{line['result__game__round__number']}</td><td>{line['result__game__table']}</td>"
        f"<td>{escape(line['player__display_name'])}</td>"
        f'<td class="numeric">{escape(line["score_text"])}</td><td>{WON[bool(line["won"])]}</td>'
        f'<td class="numeric">{line["game_points"]}</td>'
        f'<td class="numeric">{signed(line["spread"])}</td>'
    )
