"""Small rounds are drawn at their cheapest: checked against brute force over every round of the
entrants (tests/games/draw/drawing.py), through `draw_round` alone.

Terms: as in tests/games/draw/drawing.py (the *key* of a draw, *brute force*).
"""

import random
from itertools import combinations

import pytest

from games.draw import DrawHistory, draw_round
from tests.games.draw.drawing import best_key, round_key, seatings

EIGHT = list(range(1, 9))


def eights_history(seed: int) -> DrawHistory:
    """12 of the 28 pairs met this session, 20 met in the season (1 to 4 times)."""
    rng = random.Random(seed)
    pairs = list(combinations(EIGHT, 2))
    return DrawHistory(
        session_opponents={pair: 1 for pair in rng.sample(pairs, 12)},
        season_opponents={pair: rng.randint(1, 4) for pair in rng.sample(pairs, 20)},
    )


@pytest.mark.parametrize("seed", range(8, 14))
def test_the_cheapest_round_of_eight_is_drawn(seed):
    history = eights_history(seed)
    draw = draw_round(entrants=EIGHT, mode="singles", seed=seed, history=history)
    assert sorted(pid for seats in seatings(draw) for pid in seats) == EIGHT
    assert round_key(seatings(draw), history) == best_key(EIGHT, "singles", history)


def test_the_cheapest_round_is_drawn_whatever_the_seed():
    """The seed breaks ties and nothing more: every seed draws a round of the best key."""
    history = eights_history(8)
    best = best_key(EIGHT, "singles", history)
    keys = {
        round_key(
            seatings(draw_round(entrants=EIGHT, mode="singles", seed=s, history=history)), history
        )
        for s in range(20)
    }
    assert keys == {best}
