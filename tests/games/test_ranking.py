"""games.ranking: the one ranking order (docs/spec.md, "Standings": game points, then games
won, then spread, the ACC's order), shared ranks shown "T-3". Pure: no database."""

import pytest

from games.ranking import PRECEDENCE, measures, rank, ranks_of


def row(name, points, won, spread):
    return {"name": name, "game_points": points, "won": won, "spread": spread}


def test_the_precedence_is_points_then_wins_then_spread():
    assert PRECEDENCE == ("game_points", "won", "spread")


def test_each_measure_breaks_ties_of_the_one_before():
    rows = [
        row("spread", 6, 2, 40),
        row("wins", 6, 3, -10),
        row("points", 8, 1, -50),
        row("last", 6, 2, 39),
    ]
    ranked = rank(rows, name=lambda r: r["name"])
    assert [(r.row["name"], r.rank, r.tied) for r in ranked] == [
        ("points", 1, False),
        ("wins", 2, False),
        ("spread", 3, False),
        ("last", 4, False),
    ]


def test_level_rows_share_a_rank_and_the_next_skips_listed_by_name():
    rows = [row("bea", 4, 2, 5), row("Al", 4, 2, 5), row("cy", 6, 3, 9), row("Di", 0, 0, -9)]
    ranked = rank(rows, name=lambda r: r["name"])
    assert [(r.row["name"], r.label) for r in ranked] == [
        ("cy", "1"),
        ("Al", "T-2"),
        ("bea", "T-2"),
        ("Di", "4"),
    ]


def test_objects_rank_by_their_attributes():
    class Line:
        def __init__(self, points, won, spread):
            self.game_points, self.won, self.spread = points, won, spread

    lines = [Line(2, 1, 10), Line(3, 1, -10)]
    assert measures(lines[0]) == (2, 1, 10)
    assert [r.row for r in rank(lines)] == [lines[1], lines[0]]


@pytest.mark.parametrize("count", [0, 1, 7])
def test_every_row_comes_back_once(count):
    rows = [row(str(i), i % 3, i % 2, -i) for i in range(count)]
    ranked = rank(rows)
    assert sorted(r.row["name"] for r in ranked) == sorted(r["name"] for r in rows)
    assert all(r.rank >= 1 for r in ranked)


@pytest.mark.parametrize("count", [1, 2, 9, 30])
def test_each_rows_rank_is_the_rank_the_table_gives_it(count):
    """Ties included: six kinds of row, so from seven rows on some are level."""
    rows = [row(str(i), i % 3, (i // 3) % 2, 0) for i in range(count)]
    given = dict(zip((r["name"] for r in rows), ranks_of(rows), strict=True))
    for ranked in rank(rows):
        assert given[ranked.row["name"]] == ranked.rank
    assert (len({r.rank for r in rank(rows)}) < count) == (count > 6)  # shared ranks
