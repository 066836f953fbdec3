"""Seeded determinism across the split: the stored draws of `fixtures/draw_seeds.json`, made by the
single-module draw before it became the `games/draw/` package, come out the same today (7 partners
cases were redrawn deliberately: a larger look-ahead budget, the local search counting a partners
swap as four steps so that 100 players draw in under 0.3 s, and the searches stopping once the
look-ahead can accept nothing more).

Terms: a *case* is one call's inputs (entrants in the order given, mode, seed, rounds remaining
and the history as plain pairs and counts) and the draw it gave then: the tables in number order
with their seats in order, and the repeats counted. Cases cover 2 to 40 entrants in both modes,
whole six-round sessions drawn round after round against a season of earlier sessions (the exact
search up to 16 entrants, the local search above), and hand swaps.
"""

import json
from pathlib import Path

import pytest

from games.draw import DrawHistory, draw_round, swap_seats

SEEDS = Path(__file__).resolve().parents[3] / "fixtures" / "draw_seeds.json"
CASES = json.loads(SEEDS.read_text(encoding="utf-8"))["cases"]


def history_of(stored: dict) -> DrawHistory:
    return DrawHistory(
        session_opponents={tuple(pair): times for pair, times in stored["session_opponents"]},
        season_opponents={tuple(pair): times for pair, times in stored["season_opponents"]},
        three_table_counts=dict(map(tuple, stored["three_table_counts"])),
        session_partners={tuple(pair): times for pair, times in stored["session_partners"]},
    )


def as_stored(draw) -> dict:
    return {
        "tables": [list(table.seats) for table in draw.tables],
        "session_repeats": draw.session_repeats,
        "season_repeats": draw.season_repeats,
        "partner_repeats": draw.partner_repeats,
    }


def test_the_stored_cases_cover_both_modes_sizes_and_swaps():
    sizes = {(case["mode"], len(case["entrants"])) for case in CASES}
    assert {mode for mode, _ in sizes} == {"singles", "partners"}
    assert {2, 3, 5, 16, 17, 40} <= {count for _, count in sizes}
    assert any(case["kind"] == "swap" for case in CASES)
    assert any(case["history"]["session_opponents"] for case in CASES)
    assert any(case["history"]["session_partners"] for case in CASES)


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[f"{c['kind']}-{c['mode']}-{len(c['entrants'])}-{c['seed']}" for c in CASES],
)
def test_same_seed_same_draw(case):
    draw = draw_round(
        entrants=case["entrants"],
        mode=case["mode"],
        seed=case["seed"],
        history=history_of(case["history"]),
        rounds_remaining=case["rounds_remaining"],
    )
    if case["kind"] == "swap":
        draw = swap_seats(draw, *case["swap"])
    assert as_stored(draw) == case["expected"]
