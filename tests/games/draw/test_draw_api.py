"""Drawing a round (games/draw/api.py, the package's public functions): every entrant seated,
reproducible from the seed, no avoidable repeat opponent (with lookahead), the season second,
the 3-player table shared fairly, the organiser's hand swap, and speed. No database, no Django.

Terms: as in tests/games/draw/drawing.py (a *session*, the *key* of a draw, *brute force*).
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

import pytest

from games.draw import DrawError, DrawHistory, DrawTable, draw_round, swap_seats, table_sizes
from tests.games.draw.drawing import (
    MODES,
    ROUNDS,
    best_key,
    is_fair,
    play_session,
    random_history,
    round_key,
    seatings,
    unmet_graph_has_perfect_matching,
)

# --- seating ------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5, 13, 40])
@pytest.mark.parametrize("mode", MODES)
def test_every_entrant_is_seated_once(count: int, mode: str) -> None:
    entrants = list(range(101, 101 + count))
    draw = draw_round(entrants=entrants, mode=mode, seed=count)
    seated = [pid for table in draw.tables for pid in table.seats]
    assert sorted(seated) == entrants
    assert [len(table.seats) for table in draw.tables] == table_sizes(count, mode)
    assert [table.number for table in draw.tables] == list(range(1, len(draw.tables) + 1))
    assert (draw.mode, draw.seed, draw.session_repeats, draw.season_repeats) == (mode, count, 0, 0)
    for table in draw.tables:
        assert len(table.seats) >= 2
        assert draw.table_of(table.seats[-1]) is table
        if len(table.seats) == 4:
            s0, s1, s2, s3 = table.seats
            assert table.kind == "partners"
            assert table.sides() == [(s0, s2), (s1, s3)]
            assert set(table.opponents()) == {
                frozenset(pair) for pair in ((s0, s1), (s1, s2), (s2, s3), (s3, s0))
            }
        else:
            assert table.kind == {2: "two", 3: "three"}[len(table.seats)]
            assert table.sides() == [(pid,) for pid in table.seats]
            assert len(table.opponents()) == {2: 1, 3: 3}[len(table.seats)]


def test_partners_tables_of_four_seat_partners_opposite() -> None:
    draw = draw_round(entrants=range(1, 17), mode="partners", seed=4)
    assert [table.kind for table in draw.tables] == ["partners"] * 4
    for table in draw.tables:
        s0, s1, s2, s3 = table.seats
        assert table.partners() == [frozenset((s0, s2)), frozenset((s1, s3))]
        assert not set(table.partners()) & set(table.opponents())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "teams"}, "Unknown table mode 'teams': use 'singles' or 'partners'"),
        ({"entrants": [1, 2, 3, 2]}, "Player 2 is entered twice"),
        ({"entrants": [1, "2"]}, "Entrants are player ids"),
        ({"rounds_remaining": 0}, "rounds_remaining counts this round too"),
        ({"seed": "abc"}, "The seed must be a whole number"),
    ],
)
def test_bad_requests_are_refused(kwargs: dict, message: str) -> None:
    request = {"entrants": [1, 2, 3, 4], "mode": "singles", "seed": 1} | kwargs
    with pytest.raises(DrawError, match=message):
        draw_round(**request)


# --- reproducible from the seed ---------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_same_seed_entrants_and_history_give_the_same_draw(mode: str) -> None:
    players = list(range(1, 16))
    earlier = play_session(players, mode=mode, seed=3, rounds=2)
    history = DrawHistory.from_rounds(earlier, [[(1, 2), (3, 4, 5, 6)]])
    shuffled = players[::-1]
    random.Random(0).shuffle(shuffled)
    # the same history built with its dicts in another order
    reordered = DrawHistory(
        session_opponents=dict(reversed(list(history.session_opponents.items()))),
        season_opponents=dict(reversed(list(history.season_opponents.items()))),
        three_table_counts=dict(reversed(list(history.three_table_counts.items()))),
        session_partners=dict(reversed(list(history.session_partners.items()))),
    )
    first = draw_round(entrants=players, mode=mode, seed=99, history=history, rounds_remaining=4)
    again = draw_round(entrants=shuffled, mode=mode, seed=99, history=reordered, rounds_remaining=4)
    assert first == again
    assert seatings(first) == seatings(again)


@pytest.mark.parametrize("mode", MODES)
def test_different_seeds_usually_differ(mode: str) -> None:
    draws = {
        tuple(seatings(draw_round(entrants=range(1, 13), mode=mode, seed=s))) for s in range(20)
    }
    assert len(draws) >= 18


def test_a_replay_in_a_fresh_interpreter_is_identical() -> None:
    """No hidden state (hash order, global random) leaks into a draw."""
    code = (
        "from games.draw import draw_round;"
        "d = draw_round(entrants=range(1, 22), mode='partners', seed=2024, rounds_remaining=3);"
        "print([t.seats for t in d.tables])"
    )
    root = Path(__file__).resolve().parents[3]
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": str(hash_seed), "PATH": ""},
        ).stdout
        for hash_seed in (1, 2)
    }
    expected = draw_round(entrants=range(1, 22), mode="partners", seed=2024, rounds_remaining=3)
    assert outputs == {f"{seatings(expected)}\n"}


# --- no avoidable repeat opponent: the key test -----------------------------------------------


@pytest.mark.parametrize("count", [8, 13, 24])
def test_a_six_round_singles_session_never_repeats_an_opponent(count: int) -> None:
    """A repeat-free 6-round session exists for these sizes, so there must never be a repeat:
    the lookahead must not paint the draw into a corner (e.g. an odd cycle of unmet pairs)."""
    players = list(range(1, count + 1))
    failures = []
    for seed in range(300):
        draws = play_session(players, mode="singles", seed=seed)
        met = DrawHistory.from_rounds(draws).session_opponents
        if sum(draw.session_repeats for draw in draws) or max(met.values()) > 1:
            failures.append(seed)
    assert failures == []


@pytest.mark.parametrize("count", [8, 13])
def test_without_lookahead_the_same_sessions_do_repeat(count: int) -> None:
    """The key test can fail: drawing each round for itself runs into repeats."""
    players = list(range(1, count + 1))
    repeated = [
        seed
        for seed in range(40)
        if sum(
            d.session_repeats
            for d in play_session(players, mode="singles", seed=seed, lookahead=False)
        )
    ]
    assert repeated


def test_eight_players_avoid_the_odd_cycle_trap() -> None:
    """After 4 of 6 rounds the unmet pairs form a 3-regular graph. Here it is a triangle
    (1 2 3), a five-cycle (4 .. 8) and the matching M = 1-4, 2-6, 3-8, 5-7. Drawing M in round 5
    would leave the triangle and the five-cycle, which have no perfect matching: round 6 would
    need a repeat."""
    players = list(range(1, 9))
    unmet = {
        frozenset(pair)
        for pair in [(1, 2), (2, 3), (1, 3), (4, 5), (5, 6), (6, 7), (7, 8), (4, 8)]
        + [(1, 4), (2, 6), (3, 8), (5, 7)]
    }
    history = DrawHistory(
        session_opponents={
            frozenset(pair): 1 for pair in combinations(players, 2) if frozenset(pair) not in unmet
        }
    )
    trap = sorted(map(sorted, [(1, 4), (2, 6), (3, 8), (5, 7)]))
    drawn_with, drawn_without = set(), set()
    for seed in range(60):
        for rounds_remaining, drawn in ((2, drawn_with), (1, drawn_without)):
            draw = draw_round(
                entrants=players,
                mode="singles",
                seed=seed,
                history=history,
                rounds_remaining=rounds_remaining,
            )
            assert draw.session_repeats == 0
            tables = sorted(sorted(seats) for seats in seatings(draw))
            drawn.add(tuple(map(tuple, tables)))
            if rounds_remaining == 2:
                assert unmet_graph_has_perfect_matching(players, history.with_round(draw))
    trap_key = tuple(map(tuple, trap))
    assert trap_key not in drawn_with
    assert trap_key in drawn_without  # the trap is a real option that only the lookahead avoids


@pytest.mark.parametrize(("count", "rounds"), [(8, 3), (10, 4), (12, 4), (13, 3), (13, 4), (16, 4)])
def test_a_partners_session_repeats_no_opponent_and_no_partner(count: int, rounds: int) -> None:
    """For these sizes and rounds a session with neither a repeat opponent nor a repeat partner
    exists, and the draw must find one every time. (8 players can play at most 3 partners rounds
    without a repeat opponent: each round uses 8 of the 28 pairs.)"""
    players = list(range(1, count + 1))
    failures = []
    for seed in range(100):
        draws = play_session(players, mode="partners", seed=seed, rounds=rounds)
        if sum(draw.session_repeats + draw.partner_repeats for draw in draws):
            failures.append(seed)
        for draw in draws:
            assert [len(t.seats) for t in draw.tables] == table_sizes(count, "partners")
    assert failures == []


@pytest.mark.parametrize("count", [5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("mode", MODES)
def test_each_round_is_the_best_there_is(count: int, mode: str) -> None:
    """Against brute force over every fair draw of the round: with no lookahead the draw has
    the best key; with lookahead it still has no session repeat whenever one can be avoided."""
    players = list(range(1, count + 1))
    rng = random.Random(count * 10 + len(mode))
    for case in range(12):
        history = random_history(players, rng)
        best = best_key(players, mode, history)
        draw = draw_round(entrants=players, mode=mode, seed=case, history=history)
        assert round_key(seatings(draw), history) == best, (case, history)
        assert is_fair(seatings(draw), history)
        assert (draw.session_repeats, draw.partner_repeats, draw.season_repeats) == best[::2]
        ahead = draw_round(
            entrants=players, mode=mode, seed=case, history=history, rounds_remaining=4
        )
        assert is_fair(seatings(ahead), history)
        if best[0] == 0:
            assert ahead.session_repeats == 0


# --- season second ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_last_weeks_opponents_are_avoided(mode: str) -> None:
    last_week = [[(1, 2), (3, 4), (5, 6), (7, 8)]]
    history = DrawHistory.from_rounds([], last_week)
    assert history.season_opponents == {frozenset((a, a + 1)): 1 for a in (1, 3, 5, 7)}
    for seed in range(50):
        draw = draw_round(entrants=range(1, 9), mode=mode, seed=seed, history=history)
        assert (draw.session_repeats, draw.season_repeats) == (0, 0), seatings(draw)


def test_a_season_of_earlier_sessions_is_avoided_when_possible() -> None:
    players = list(range(1, 25))
    earlier = [play_session(players, mode="singles", seed=s, rounds=3) for s in range(2)]
    season = [draw for session in earlier for draw in session]
    history = DrawHistory.from_rounds([], season)
    for seed in range(20):
        draws = play_session(players, mode="singles", seed=100 + seed, history=history)
        assert [(d.session_repeats, d.season_repeats) for d in draws[:3]] == [(0, 0)] * 3


def test_the_session_comes_before_the_season() -> None:
    # 1-2 and 3-4 met this session; every other pairing met last season.
    history = DrawHistory(
        session_opponents={frozenset((1, 2)): 1, frozenset((3, 4)): 1},
        season_opponents={frozenset(p): 1 for p in [(1, 3), (2, 4), (1, 4), (2, 3)]},
    )
    for seed in range(10):
        draw = draw_round(entrants=[1, 2, 3, 4], mode="singles", seed=seed, history=history)
        assert (draw.session_repeats, draw.season_repeats) == (0, 2)


def test_fewer_season_meetings_win_when_all_pairs_met() -> None:
    history = DrawHistory(
        season_opponents={
            frozenset((1, 2)): 5,
            frozenset((3, 4)): 5,
            frozenset((1, 3)): 1,
            frozenset((2, 4)): 1,
            frozenset((1, 4)): 2,
            frozenset((2, 3)): 2,
        }
    )
    for seed in range(10):
        draw = draw_round(entrants=[1, 2, 3, 4], mode="singles", seed=seed, history=history)
        assert sorted(sorted(seats) for seats in seatings(draw)) == [[1, 3], [2, 4]]


@pytest.mark.parametrize("count", [20, 30])
def test_the_fewest_season_repeats_when_some_are_unavoidable(count: int) -> None:
    """Everyone met everyone last season except along the matching 1-2, 3-4, ...; the last two
    players met everybody. The best draw keeps the matching and seats those two together: one
    season repeat (found by the local search; a random draw has about ``count / 2``)."""
    players = list(range(1, count + 1))
    fresh = {frozenset((a, a + 1)) for a in range(1, count - 2, 2)}
    season = {frozenset(p): 1 for p in combinations(players, 2) if frozenset(p) not in fresh}
    season[frozenset((count - 1, count))] = 3  # one pair met more often: still the best
    history = DrawHistory(season_opponents=season)
    for seed in range(3):
        draw = draw_round(entrants=players, mode="singles", seed=seed, history=history)
        assert draw.season_repeats == 1
        assert sorted(draw.table_of(count).seats) == [count - 1, count]


# --- the 3-player table -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "mode"),
    [(7, "singles"), (9, "singles"), (13, "singles"), (9, "partners"), (13, "partners")],
)
def test_nobody_sits_at_the_three_table_twice_before_everyone_has(count: int, mode: str) -> None:
    players = list(range(1, count + 1))
    for seed in range(60 if mode == "singles" else 20):
        history = DrawHistory()
        for number in range(ROUNDS):
            draw = draw_round(
                entrants=players,
                mode=mode,
                seed=seed * 10 + number,
                history=history,
                rounds_remaining=ROUNDS - number,
            )
            assert is_fair(seatings(draw), history)
            history = history.with_round(draw)
            counts = [history.three_table_counts.get(pid, 0) for pid in players]
            assert max(counts) - min(counts) <= 1, (seed, number, counts)
        assert sum(history.three_table_counts.values()) == 3 * ROUNDS


def test_late_arrivals_go_to_the_three_table_first() -> None:
    """Players 1-8 have sat at the three once, 9 not yet; 10 and 11 arrive late."""
    history = DrawHistory(three_table_counts={pid: 1 for pid in range(1, 9)})
    for seed in range(20):
        draw = draw_round(entrants=range(1, 12), mode="singles", seed=seed, history=history)
        three = next(table for table in draw.tables if table.kind == "three")
        assert sorted(three.seats) == [9, 10, 11]


# --- the organiser's hand swap ----------------------------------------------------------------


def test_swap_seats_swaps_and_recounts() -> None:
    history = DrawHistory(session_opponents={(1, 3): 1}, season_opponents={(2, 4): 1})
    for seed in range(5):
        draw = draw_round(entrants=[1, 2, 3, 4], mode="singles", seed=seed, history=history)
        assert (draw.session_repeats, draw.season_repeats) == (0, 0)
        mate = next(pid for pid in draw.table_of(1).seats if pid != 1)
        swapped = swap_seats(draw, mate, 3)  # now 1 meets 3 again, and 2 meets 4
        assert swapped.table_of(3) == DrawTable(
            number=draw.table_of(1).number,
            seats=tuple(3 if pid == mate else pid for pid in draw.table_of(1).seats),
        )
        assert swapped.table_of(mate).number == draw.table_of(3).number
        assert (swapped.seed, swapped.mode) == (draw.seed, draw.mode)
        assert (swapped.session_repeats, swapped.season_repeats) == (1, 1)
        assert sorted(map(sorted, seatings(swapped))) == [[1, 3], [2, 4]]
        assert swap_seats(swapped, mate, 3) == draw


def test_swap_seats_in_partners_changes_partners() -> None:
    draw = draw_round(entrants=[1, 2, 3, 4], mode="partners", seed=1)
    s0, s1, s2, s3 = draw.tables[0].seats
    swapped = swap_seats(draw, s0, s1)
    assert swapped.tables[0].seats == (s1, s0, s2, s3)
    assert swapped.tables[0].sides() == [(s1, s2), (s0, s3)]


@pytest.mark.parametrize(
    ("a", "b", "message"), [(1, 9, "Player 9 is not seated"), (3, 3, "two different")]
)
def test_swap_seats_refuses_unknown_or_same_players(a: int, b: int, message: str) -> None:
    draw = draw_round(entrants=[1, 2, 3, 4], mode="singles", seed=1)
    with pytest.raises(DrawError, match=message):
        swap_seats(draw, a, b)
    with pytest.raises(DrawError, match="not seated"):
        draw.table_of(42)


# --- speed ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_forty_players_draw_fast(mode: str) -> None:
    players = list(range(1, 41))
    rng = random.Random(40)
    season = {
        frozenset(p): rng.randint(1, 5) for p in combinations(players, 2) if rng.random() < 0.8
    }
    history = DrawHistory(season_opponents=season)
    history = DrawHistory.from_rounds(
        play_session(players, mode=mode, seed=1, rounds=5, history=history)
    )
    history = dataclasses.replace(history, season_opponents=season)
    started = time.process_time()  # the work done, whatever else the machine is doing
    draw = draw_round(entrants=players, mode=mode, seed=7, history=history, rounds_remaining=1)
    elapsed = time.process_time() - started
    assert draw.session_repeats == 0
    assert elapsed < 2.0, elapsed  # far above a usual draw of 40, so only a runaway search fails
