"""games.game_result: what a game's final side scores mean (pure, no database).

Terms: a *row* below is one side's expected figures as
(score, won, skunked, double_skunked, skunks_given, game_points, spread).
Default rules are the club defaults of docs/spec.md: game to 121, skunk under 91, double skunk
under 61, game points 2 / 3 / 3.
"""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.rules import HouseRules
from games.game_result import GameResultError, game_result

pytestmark = pytest.mark.django_db  # the suite convention; these tests never query

DEFAULT = HouseRules(
    game_target=121,
    skunk_line=91,
    double_skunk_line=61,
    points_win=2,
    points_skunk_win=3,
    points_double_skunk_win=3,
)
SIXTY_ONE = dataclasses.replace(DEFAULT, game_target=61, skunk_line=31, double_skunk_line=16)


def rows(result):
    return [
        (s.score, s.won, s.skunked, s.double_skunked, s.skunks_given, s.game_points, s.spread)
        for s in result.sides
    ]


# --- Scores that cannot end a game ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "rules", "side"),
    [
        pytest.param([121, 121], DEFAULT, 1, id="both-at-121"),
        pytest.param([61, 61], SIXTY_ONE, 1, id="both-at-61"),
        pytest.param([120, 100], DEFAULT, None, id="nobody-at-121"),
        pytest.param([0, 0], DEFAULT, None, id="nobody-scored"),
        pytest.param([60, 59], SIXTY_ONE, None, id="nobody-at-61"),
        pytest.param([110, 100, 90], DEFAULT, None, id="three-nobody-at-121"),
        pytest.param([-1, 121], DEFAULT, 0, id="negative-loser"),
        pytest.param([121, -5], DEFAULT, 1, id="negative-second"),
        pytest.param([121, 100, -1], DEFAULT, 2, id="negative-third"),
        pytest.param([122, 100], DEFAULT, 0, id="past-121"),
        pytest.param([100, 131], DEFAULT, 1, id="past-121-second"),
        pytest.param([62, 30], SIXTY_ONE, 0, id="past-61"),
        pytest.param([121, 90], SIXTY_ONE, 0, id="121-in-a-game-of-61"),
        pytest.param([121, 121, 50], DEFAULT, 1, id="three-two-winners"),
        pytest.param([121, 50, 121], DEFAULT, 2, id="three-two-winners-first-and-last"),
        pytest.param([50, 121, 121], DEFAULT, 2, id="three-two-winners-last-two"),
        pytest.param([121, 121, 121], DEFAULT, 1, id="three-all-winners"),
        pytest.param([], DEFAULT, None, id="no-sides"),
        pytest.param([121], DEFAULT, None, id="one-side"),
        pytest.param([121, 100, 90, 80], DEFAULT, None, id="four-sides"),
        pytest.param([121.0, 100], DEFAULT, 0, id="float-score"),
        pytest.param([121, "100"], DEFAULT, 1, id="text-score"),
        pytest.param([121, True], DEFAULT, 1, id="bool-score"),
    ],
)
def test_scores_that_cannot_end_a_game_are_a_game_result_error(scores, rules, side):
    with pytest.raises(GameResultError) as caught:
        game_result(scores, rules=rules)
    assert caught.value.side == side
    assert str(caught.value)  # a message the player can act on


def test_game_result_error_is_a_value_error_with_a_useful_message():
    with pytest.raises(ValueError, match="121"):
        game_result([120, 100], rules=DEFAULT)


# --- Valid games, exact figures ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "rules", "expected"),
    [
        # Two players: winner +m, loser -m, m = target - loser's score.
        pytest.param(
            [121, 100],
            DEFAULT,
            [(121, True, False, False, 0, 2, 21), (100, False, False, False, 0, 0, -21)],
            id="two-plain",
        ),
        pytest.param(
            [120, 121],
            DEFAULT,
            [(120, False, False, False, 0, 0, -1), (121, True, False, False, 0, 2, 1)],
            id="two-by-one-point-second-side-wins",
        ),
        pytest.param(
            [121, 91],
            DEFAULT,
            [(121, True, False, False, 0, 2, 30), (91, False, False, False, 0, 0, -30)],
            id="two-at-skunk-line-is-no-skunk",
        ),
        pytest.param(
            [90, 121],
            DEFAULT,
            [(90, False, True, False, 0, 0, -31), (121, True, False, False, 1, 3, 31)],
            id="two-skunk-just-under-91",
        ),
        pytest.param(
            [121, 61],
            DEFAULT,
            [(121, True, False, False, 1, 3, 60), (61, False, True, False, 0, 0, -60)],
            id="two-at-double-line-is-a-plain-skunk",
        ),
        pytest.param(
            [121, 60],
            DEFAULT,
            [(121, True, False, False, 1, 3, 61), (60, False, True, True, 0, 0, -61)],
            id="two-double-skunk-just-under-61",
        ),
        pytest.param(
            [0, 121],
            DEFAULT,
            [(0, False, True, True, 0, 0, -121), (121, True, False, False, 1, 3, 121)],
            id="two-loser-never-pegged",
        ),
        pytest.param(
            [121, 60],
            dataclasses.replace(DEFAULT, points_double_skunk_win=4),
            [(121, True, False, False, 1, 4, 61), (60, False, True, True, 0, 0, -61)],
            id="two-double-skunk-worth-what-the-club-sets",
        ),
        pytest.param(
            [121, 61],
            dataclasses.replace(DEFAULT, points_double_skunk_win=4),
            [(121, True, False, False, 1, 3, 60), (61, False, True, False, 0, 0, -60)],
            id="two-skunk-under-club-double-value",
        ),
        # Three players (cut-throat): each loser -(target - own), the winner the sum.
        pytest.param(
            [121, 100, 95],
            DEFAULT,
            [
                (121, True, False, False, 0, 2, 47),
                (100, False, False, False, 0, 0, -21),
                (95, False, False, False, 0, 0, -26),
            ],
            id="three-plain",
        ),
        pytest.param(
            [80, 121, 100],
            DEFAULT,
            [
                (80, False, True, False, 0, 0, -41),
                (121, True, False, False, 1, 3, 62),
                (100, False, False, False, 0, 0, -21),
            ],
            id="three-one-skunked",
        ),
        pytest.param(
            [50, 85, 121],
            DEFAULT,
            [
                (50, False, True, True, 0, 0, -71),
                (85, False, True, False, 0, 0, -36),
                (121, True, False, False, 2, 3, 107),
            ],
            id="three-double-and-single-skunk",
        ),
        pytest.param(
            [121, 120, 120],
            DEFAULT,
            [
                (121, True, False, False, 0, 2, 2),
                (120, False, False, False, 0, 0, -1),
                (120, False, False, False, 0, 0, -1),
            ],
            id="three-tight",
        ),
        # A game of 61 with the club's lines at 31 and 16.
        pytest.param(
            [61, 31],
            SIXTY_ONE,
            [(61, True, False, False, 0, 2, 30), (31, False, False, False, 0, 0, -30)],
            id="sixty-one-at-skunk-line",
        ),
        pytest.param(
            [30, 61],
            SIXTY_ONE,
            [(30, False, True, False, 0, 0, -31), (61, True, False, False, 1, 3, 31)],
            id="sixty-one-skunk",
        ),
        pytest.param(
            [61, 16],
            SIXTY_ONE,
            [(61, True, False, False, 1, 3, 45), (16, False, True, False, 0, 0, -45)],
            id="sixty-one-at-double-line",
        ),
        pytest.param(
            [61, 15],
            SIXTY_ONE,
            [(61, True, False, False, 1, 3, 46), (15, False, True, True, 0, 0, -46)],
            id="sixty-one-double-skunk",
        ),
        pytest.param(
            [40, 61, 10],
            SIXTY_ONE,
            [
                (40, False, False, False, 0, 0, -21),
                (61, True, False, False, 1, 3, 72),
                (10, False, True, True, 0, 0, -51),
            ],
            id="sixty-one-three-players",
        ),
    ],
)
def test_valid_game_figures(scores, rules, expected):
    result = game_result(scores, rules=rules)
    assert rows(result) == expected
    assert sum(side.spread for side in result.sides) == 0


@pytest.mark.parametrize(
    ("scores", "winner", "margin"),
    [([121, 100], 0, 21), ([90, 121], 1, 31), ([121, 100, 95], 0, 21), ([50, 85, 121], 2, 36)],
)
def test_winner_and_margin_of_the_closest_loser(scores, winner, margin):
    result = game_result(scores, rules=DEFAULT)
    assert result.winner == winner
    assert result.margin == margin


def test_scores_may_be_any_sequence():
    assert rows(game_result((121, 100), rules=DEFAULT)) == rows(
        game_result([121, 100], rules=DEFAULT)
    )


# --- Property: every valid result --------------------------------------------------------------


@st.composite
def valid_games(draw):
    target = draw(st.sampled_from([61, 121]))
    skunk = draw(st.integers(1, target - 1))
    double = draw(st.integers(1, skunk))
    win = draw(st.integers(1, 4))
    skunk_win = draw(st.integers(win, win + 3))
    double_win = draw(st.integers(skunk_win, skunk_win + 3))
    rules = HouseRules(
        game_target=target,
        skunk_line=skunk,
        double_skunk_line=double,
        points_win=win,
        points_skunk_win=skunk_win,
        points_double_skunk_win=double_win,
    )
    sides = draw(st.sampled_from([2, 3]))
    winner = draw(st.integers(0, sides - 1))
    scores = [
        target if side == winner else draw(st.integers(0, target - 1)) for side in range(sides)
    ]
    return scores, rules, winner


@settings(max_examples=300, deadline=None)
@given(valid_games())
def test_every_valid_result_has_one_winner_and_spreads_summing_to_zero(game):
    scores, rules, winner = game
    result = game_result(scores, rules=rules)
    target = rules.game_target

    assert [side.score for side in result.sides] == scores
    assert sum(side.spread for side in result.sides) == 0
    assert [index for index, side in enumerate(result.sides) if side.won] == [winner]
    assert result.winner == winner

    losers = [side for index, side in enumerate(result.sides) if index != winner]
    for loser in losers:
        assert loser.game_points == 0
        assert loser.skunks_given == 0
        assert loser.spread == -(target - loser.score)
        assert loser.skunked == (loser.score < rules.skunk_line)
        assert loser.double_skunked == (loser.score < rules.double_skunk_line)

    won = result.sides[winner]
    assert not won.skunked and not won.double_skunked
    assert won.spread == sum(target - loser.score for loser in losers) > 0
    assert won.skunks_given == sum(loser.skunked for loser in losers)
    if any(loser.double_skunked for loser in losers):
        assert won.game_points == rules.points_double_skunk_win
    elif any(loser.skunked for loser in losers):
        assert won.game_points == rules.points_skunk_win
    else:
        assert won.game_points == rules.points_win
