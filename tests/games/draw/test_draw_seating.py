"""games/draw/seating.py: table numbers by size, random seats within a table with partners kept
opposite, and the repeats of a drawn round counted against its history."""

from games.draw.budgets import _Chance
from games.draw.seating import _make_draw, _seat
from games.draw.types import DrawHistory


def test_tables_are_numbered_by_size_and_partners_stay_opposite():
    groups = [(0, 1), (2, 3, 4, 5), (6, 7, 8), (9, 10, 11, 12)]
    ids = [100 + i for i in range(13)]
    for seed in range(10):
        tables = _seat(groups, ids, "partners", _Chance(seed))
        assert [len(t) for t in tables] == [4, 4, 3, 2]
        for seats in tables[:2]:
            pairs = {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))}
            assert pairs in (
                {frozenset((102, 104)), frozenset((103, 105))},
                {frozenset((109, 111)), frozenset((110, 112))},
            )
        assert sorted(tables[2]) == [106, 107, 108] and sorted(tables[3]) == [100, 101]


def test_seats_within_a_table_are_drawn():
    orders = {_seat([(0, 1, 2)], [1, 2, 3], "singles", _Chance(seed))[0] for seed in range(30)}
    assert len(orders) > 3


def test_a_drawn_round_counts_its_repeats():
    history = DrawHistory(
        session_opponents={(1, 2): 1},
        season_opponents={(3, 4): 2, (1, 2): 1},
        session_partners={(5, 7): 1},
    )
    draw = _make_draw(
        seed=5, mode="partners", seatings=[(1, 2), (3, 4), (5, 6, 7, 8)], history=history
    )
    assert (draw.session_repeats, draw.season_repeats, draw.partner_repeats) == (1, 2, 1)
    assert [t.number for t in draw.tables] == [1, 2, 3] and draw.history is history
