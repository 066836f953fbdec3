"""The draw's public values (games/draw/types.py): table shapes, refused requests, frozen
results, and the history a draw avoids. No database, no Django."""

from __future__ import annotations

import dataclasses

import pytest

from games.draw import Draw, DrawError, DrawHistory, DrawTable, draw_round, table_sizes
from tests.games.draw.drawing import MODES, play_session

# --- shapes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "mode", "sizes"),
    [
        (2, "singles", [2]),
        (3, "singles", [3]),
        (4, "singles", [2, 2]),
        (5, "singles", [2, 3]),
        (13, "singles", [2, 2, 2, 2, 2, 3]),
        (40, "singles", [2] * 20),
        (2, "partners", [2]),
        (3, "partners", [3]),
        (4, "partners", [4]),
        (5, "partners", [3, 2]),
        (6, "partners", [4, 2]),
        (7, "partners", [4, 3]),
        (8, "partners", [4, 4]),
        (9, "partners", [4, 3, 2]),
        (13, "partners", [4, 4, 3, 2]),
        (40, "partners", [4] * 10),
    ],
)
def test_table_sizes(count: int, mode: str, sizes: list[int]) -> None:
    assert table_sizes(count, mode) == sizes
    assert sum(sizes) == count


@pytest.mark.parametrize("count", range(2, 42))
@pytest.mark.parametrize("mode", MODES)
def test_table_sizes_rules(count: int, mode: str) -> None:
    sizes = table_sizes(count, mode)
    assert sum(sizes) == count and 1 not in sizes
    if mode == "singles":
        assert sizes.count(3) == count % 2 and set(sizes) <= {2, 3}
    else:
        assert sizes.count(4) == count // 4 - (count % 4 == 1 and count > 4)
        assert sizes.count(2) + sizes.count(3) <= 2


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("entrants", "message"),
    [
        ([], "No players are checked in: there is nothing to draw. Check in at least two"),
        ([7], "Only 1 player is checked in: there is nothing to draw. Check in at least one more"),
    ],
)
def test_nothing_to_draw(entrants: list[int], message: str, mode: str) -> None:
    with pytest.raises(DrawError, match=message):
        draw_round(entrants=entrants, mode=mode, seed=1)
    with pytest.raises(DrawError, match=message):
        table_sizes(len(entrants), mode)


def test_bad_mode_in_table_sizes() -> None:
    with pytest.raises(DrawError, match="use 'singles' or 'partners'"):
        table_sizes(8, "doubles")


def test_results_are_frozen_dataclasses() -> None:
    for cls in (Draw, DrawHistory, DrawTable):
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
    assert issubclass(DrawError, ValueError)


# --- history ----------------------------------------------------------------------------------


def test_history_from_rounds_counts_tables_and_seat_tuples() -> None:
    round_one = [DrawTable(number=1, seats=(1, 2, 3, 4)), DrawTable(number=2, seats=(5, 6, 7))]
    round_two = [(1, 3), (2, 5, 4, 6), (7, 8, 9)]
    history = DrawHistory.from_rounds([round_one, round_two], [[(1, 2)], [(2, 1)]])
    assert history.session_opponents == {
        frozenset(p): 1
        for p in [(1, 2), (2, 3), (3, 4), (1, 4), (5, 6), (5, 7), (6, 7), (1, 3)]
        + [(2, 5), (5, 4), (4, 6), (2, 6), (7, 8), (7, 9), (8, 9)]
    }
    assert history.session_partners == {
        frozenset((1, 3)): 1,
        frozenset((2, 4)): 2,
        frozenset((5, 6)): 1,
    }
    assert history.three_table_counts == {5: 1, 6: 1, 7: 2, 8: 1, 9: 1}
    assert history.season_opponents == {frozenset((1, 2)): 2}


def test_history_accepts_tuple_keys_and_refuses_nonsense() -> None:
    assert DrawHistory(session_opponents={(1, 2): 1, (3, 4): 0}).session_opponents == {
        frozenset((1, 2)): 1
    }
    with pytest.raises(DrawError, match="two different player ids"):
        DrawHistory(session_opponents={(1, 1): 1})
    with pytest.raises(DrawError, match="whole number >= 0"):
        DrawHistory(season_opponents={(1, 2): -1})


def test_history_of_other_players_is_ignored() -> None:
    history = DrawHistory(session_opponents={(1, 99): 3, (98, 99): 1}, three_table_counts={99: 4})
    draw = draw_round(entrants=[1, 2, 3], mode="singles", seed=5, history=history)
    assert draw.session_repeats == 0 and sorted(draw.tables[0].seats) == [1, 2, 3]


def test_repeats_are_forced_when_everyone_has_met() -> None:
    players = [1, 2, 3, 4]
    draws = play_session(players, mode="singles", seed=1, rounds=4)
    assert [d.session_repeats for d in draws] == [0, 0, 0, 2]
