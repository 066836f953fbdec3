"""Repeat-free rounds, how many can still follow (the horizon), and the look-ahead that keeps them
possible, through `draw_round` alone.

Terms: as in tests/games/draw/drawing.py (a *session*, *brute force*) and
tests/games/draw/repeat_free.py (*repeat-free*); a *dead end* is a repeat-free round after which
no repeat-free round of the same entrants can follow, and a *trap* a history where some
repeat-free rounds are dead ends and others are not, so only looking ahead avoids them.
"""

import random
from itertools import combinations

import pytest

from games.draw import DrawHistory, draw_round
from tests.games.draw.drawing import all_rounds, is_fair, play_session, round_key, seatings
from tests.games.draw.repeat_free import repeat_free_round_exists

FOUR = [1, 2, 3, 4]


def met(*pairs) -> DrawHistory:
    return DrawHistory(session_opponents={pair: 1 for pair in pairs})


def opponents(draw) -> set[frozenset]:
    return {pair for table in draw.tables for pair in table.opponents()}


@pytest.mark.parametrize("seed", range(10))
def test_four_players_have_three_repeat_free_rounds(seed):
    """Four players meet each other in three rounds of two tables (K4 has three matchings); a
    fourth round must repeat, and no round repeats a pair of the rounds before it until then."""
    draws = play_session(FOUR, mode="singles", seed=seed, rounds=4)
    assert [draw.session_repeats for draw in draws] == [0, 0, 0, 2]
    assert len(set.union(*(opponents(draw) for draw in draws[:3]))) == 6


@pytest.mark.parametrize("seed", range(10))
def test_a_met_pair_shortens_the_horizon(seed):
    """With 1-2 and 3-4 met, two repeat-free rounds are left, and the draw never seats those
    pairs again while it need not."""
    history = met((1, 2), (3, 4))
    draws = play_session(FOUR, mode="singles", seed=seed, rounds=3, history=history)
    assert [draw.session_repeats for draw in draws] == [0, 0, 2]
    assert not opponents(draws[0]) & {frozenset((1, 2)), frozenset((3, 4))}


@pytest.mark.parametrize("seed", range(20))
def test_repeat_free_rounds_use_only_unmet_pairs(seed):
    history = met((1, 2), (3, 4))
    draw = draw_round(entrants=range(1, 7), mode="singles", seed=seed, history=history)
    assert draw.session_repeats == 0
    assert not opponents(draw) & {frozenset((1, 2)), frozenset((3, 4))}


@pytest.mark.parametrize("seed", range(10))
def test_a_player_with_too_few_unmet_players_ends_the_run(seed):
    """Player 1 met 2 and 3: only 1-4 is left for him, so one repeat-free round, then a repeat."""
    history = met((1, 2), (1, 3))
    draws = play_session(FOUR, mode="singles", seed=seed, rounds=2, history=history)
    assert [draw.session_repeats for draw in draws] == [0, 1]
    assert frozenset((1, 4)) in opponents(draws[0])


def dead_end(players, mode, history, tables) -> bool:
    return not repeat_free_round_exists(players, mode, history.with_round(tables))


def repeat_free_rounds(players, mode, history):
    for tables in all_rounds(players, mode):
        if is_fair(tables, history) and round_key(tables, history)[0] == 0:
            yield tables


@pytest.mark.parametrize(("mode", "sizes"), [("singles", (6, 8, 10)), ("partners", (8,))])
def test_the_look_ahead_never_draws_a_dead_end_it_can_avoid(mode, sizes):
    """Against brute force over every repeat-free round: asked to keep two rounds repeat-free,
    the draw never draws a dead end while a repeat-free round that is none exists. Traps occur
    among these histories, and a draw asked to keep only this round repeat-free falls into some:
    the look-ahead is what avoids them."""
    rng = random.Random(len(mode))
    traps = fallen = 0
    for case in range(60):
        players = list(range(1, rng.choice(sizes) + 1))
        density = rng.choice((0.3, 0.4, 0.5))
        pairs = list(combinations(players, 2))
        history = DrawHistory(
            session_opponents={pair: 1 for pair in pairs if rng.random() < density},
            season_opponents={pair: rng.randint(1, 3) for pair in pairs if rng.random() < 0.5},
        )
        ends = [
            dead_end(players, mode, history, r) for r in repeat_free_rounds(players, mode, history)
        ]
        if False not in ends:
            continue  # nothing to keep: every repeat-free round (if any) is a dead end
        if True in ends:
            traps += 1
            fallen += any(
                dead_end(players, mode, history, seatings(short))
                for short in (
                    draw_round(entrants=players, mode=mode, seed=seed, history=history)
                    for seed in range(10)
                )
                if short.session_repeats == 0
            )
        draw = draw_round(
            entrants=players, mode=mode, seed=case, history=history, rounds_remaining=2
        )
        assert draw.session_repeats == 0, (case, history)
        assert not dead_end(players, mode, history, seatings(draw)), (case, history)
    assert traps and fallen
