"""The session page's standings and results tables write their own rows (games/tables.py):
the cells the columns name, striped, names escaped, the empty text when there is no row, in
the order and page the request asks for."""

import re

from django.test import RequestFactory
from django_tables2 import RequestConfig

from games.selectors import Standing
from games.tables import SessionResultTable, StandingTable


def standing(rank, player, points, spread, tied=False):
    return Standing(
        rank=rank,
        tied=tied,
        player_id=rank,
        player=player,
        played=3,
        game_points=points,
        won=2,
        lost=1,
        spread=spread,
        skunks_given=1,
        skunks_taken=0,
    )


def rows(html: str) -> list[list[str]]:
    return [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr.*?</tr>", html)]


def test_standings_rows_in_the_order_asked_with_names_escaped():
    table = StandingTable(
        [standing(1, '<b>Ann & "Co"</b>', 6, 40), standing(2, "Bob", 4, -7, tied=True)]
    )
    RequestConfig(RequestFactory().get("/?sort=-spread"), paginate=False).configure(table)
    html = table.rows_html()
    assert rows(html) == [
        ["1", "&lt;b&gt;Ann &amp; &quot;Co&quot;&lt;/b&gt;", "6", "2", "1", "+40", "1", "0"],
        ["T-2", "Bob", "4", "2", "1", "-7", "1", "0"],
    ]
    assert re.findall(r'<tr class="(\w+)">', html) == ["even", "odd"]
    table = StandingTable([standing(1, "Ann", 6, 0), standing(2, "Bob", 4, -7)])
    RequestConfig(RequestFactory().get("/?sort=spread"), paginate=False).configure(table)
    assert [row[1] for row in rows(table.rows_html())] == ["Bob", "Ann"]
    assert rows(table.rows_html())[1][5] == "0"


def test_an_empty_table_says_so_across_its_columns():
    table = StandingTable([])
    assert table.rows_html() == '<tr><td colspan="8">Nobody is checked in yet.</td></tr>'
    results = SessionResultTable([])
    RequestConfig(RequestFactory().get("/"), paginate={"per_page": 2}).configure(results)
    assert results.rows_html() == '<tr><td colspan="7">No confirmed results yet.</td></tr>'


def line(round_, table, name, score, won, points, spread):
    return {
        "result__game__round__number": round_,
        "result__game__table": table,
        "player__display_name": name,
        "score_text": score,
        "won": won,
        "game_points": points,
        "spread": spread,
    }


def test_results_rows_are_the_page_asked_for():
    lines = [
        line(1, 1, "Ann", "121", True, 2, 24),
        line(1, 1, "Bob", "97", False, 0, -24),
        line(1, 2, "Cy & Di", "won by forfeit", True, 2, 0),
    ]
    table = SessionResultTable(lines, prefix="results-")
    RequestConfig(RequestFactory().get("/?results-page=2"), paginate={"per_page": 2}).configure(
        table
    )
    html = table.rows_html()
    assert rows(html) == [
        ["1", "2", "Cy &amp; Di", "won by forfeit", '<span class="true">✔</span>', "2", "0"]
    ]
    table = SessionResultTable(lines, prefix="results-")
    RequestConfig(RequestFactory().get("/"), paginate={"per_page": 2}).configure(table)
    assert [row[4] for row in rows(table.rows_html())] == [
        '<span class="true">✔</span>',
        '<span class="false">✘</span>',
    ]
    assert [row[6] for row in rows(table.rows_html())] == ["+24", "-24"]
