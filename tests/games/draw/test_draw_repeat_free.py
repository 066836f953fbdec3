"""No avoidable repeat opponent (docs/spec.md "A Thursday, step by step", step 3: the draw "avoids
repeat opponents within the session first").

Definitions (``repeat_free.py``): a *legal seating* keeps the table shapes and a fair 3-player
table; a round has an *avoidable repeat* when it seats two players as opponents again although
some legal seating of that round, given the session's earlier rounds, has no repeat opponent
(partners are not opponents of each other; each is an opponent of both players of the other
side). The check is exact (``repeat_free.repeat_free_round_exists``) and is itself checked
against brute force over every seating of small rounds.

A session-level test adds foresight where it is cheap to prove: 13 partners players can play
six rounds with no repeat opponent (``THIRTEEN`` is such a session), and since every first
round of 13 players is a relabelling of every other, any 13-player session with a repeat had
an avoidable one. A look-ahead whose budget runs out before it finds the rest of a repeat-free
session repeats in 6 of these 30 sessions.
"""

import random
from itertools import combinations

import pytest

from games.draw import DrawHistory, DrawTable, draw_round, table_sizes
from tests.games.draw.drawing import best_key, is_fair, play_session, random_history, seatings
from tests.games.draw.repeat_free import avoidable_repeats, repeat_free_round_exists

SESSIONS = 100


def hostile_history(players, rng):
    """Many pairs already met this session (30-85%), random 3-table counts."""
    met = rng.choice((0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85))
    pairs = [frozenset(pair) for pair in combinations(players, 2)]
    return DrawHistory(
        session_opponents={pair: 1 for pair in pairs if rng.random() < met},
        three_table_counts={pid: rng.randint(0, 1) for pid in players},
    )


def test_the_exact_check_agrees_with_brute_force():
    """The tests' exact check against every seating of the round, 4 to 10 players."""
    rng = random.Random(14)
    for _ in range(80):
        players = rng.sample(range(1, 100), rng.randint(4, 10))
        mode = rng.choice(("singles", "partners"))
        history = random_history(players, rng)
        expected = best_key(players, mode, history)[0] == 0
        assert repeat_free_round_exists(players, mode, history) == expected


@pytest.mark.parametrize(("mode", "low", "high"), [("singles", 2, 60), ("partners", 2, 24)])
def test_a_round_has_no_repeat_exactly_when_one_is_possible(mode, low, high):
    """On hostile histories, whatever the budgeted searches find: the draw is repeat-free
    whenever the tests' exact check says a repeat-free round exists, and has a repeat only when
    none does; a repeat-free draw keeps the table sizes and a fair 3-player table."""
    rng = random.Random(high)
    found = 0
    for case in range(SESSIONS):
        players = sorted(rng.sample(range(1, 500), rng.randint(low, high)))
        history = hostile_history(players, rng)
        draw = draw_round(entrants=players, mode=mode, seed=case, history=history)
        possible = repeat_free_round_exists(players, mode, history)
        assert (draw.session_repeats == 0) == possible, (case, len(players))
        if not possible:
            continue
        found += 1
        tables = seatings(draw)
        assert sorted(pid for seats in tables for pid in seats) == players
        assert [len(seats) for seats in tables] == table_sizes(len(players), mode)
        assert not {pair for seats in tables for pair in pairs(seats)} & set(
            history.session_opponents
        )
        assert is_fair(tables, history)
    assert 20 < found < SESSIONS  # both answers occur


@pytest.mark.parametrize(("mode", "low", "high"), [("singles", 8, 60), ("partners", 8, 24)])
def test_seeded_sessions_have_no_avoidable_repeat(mode, low, high):
    """100 six-round sessions (player counts spread over low..high by seed), each round checked
    against the exact check."""
    for seed in range(1, SESSIONS + 1):
        players = list(range(1, low + seed % (high - low + 1) + 1))
        draws = play_session(players, mode=mode, seed=seed)
        assert avoidable_repeats(draws, players) == [], (len(players), seed)


THIRTEEN = [
    [(12, 13, 2, 9), (11, 8, 5, 1), (3, 4, 6), (7, 10)],
    [(4, 1, 9, 13), (11, 10, 12, 3), (8, 7, 2), (5, 6)],
    [(1, 12, 4, 8), (13, 3, 7, 6), (11, 5, 9), (10, 2)],
    [(12, 5, 3, 2), (4, 11, 7, 9), (13, 10, 1), (8, 6)],
    [(7, 1, 2, 4), (8, 9, 10, 3), (12, 11, 6), (5, 13)],
    [(7, 12, 8, 13), (6, 9, 3, 1), (5, 10, 4), (11, 2)],
]


def test_thirteen_partners_players_can_play_six_rounds_without_a_repeat_opponent():
    history = DrawHistory()
    for tables in THIRTEEN:
        assert sorted(pid for seats in tables for pid in seats) == list(range(1, 14))
        assert [len(seats) for seats in tables] == table_sizes(13, "partners")
        assert is_fair(tables, history)
        assert all(pair not in history.session_opponents for t in tables for pair in pairs(t))
        history = history.with_round(tables)


def pairs(seats):
    return DrawTable(number=1, seats=tuple(seats)).opponents()


def test_thirteen_partners_players_never_repeat_an_opponent_in_a_session():
    """30 seeded six-round sessions of 13 partners players, each drawn with no repeat opponent
    (a look-ahead too short of budget repeats one in round 6 of 6 of them)."""
    players = list(range(1, 14))
    for seed in range(1, 31):
        draws = play_session(players, mode="partners", seed=seed)
        assert [draw.session_repeats for draw in draws] == [0] * 6, seed
