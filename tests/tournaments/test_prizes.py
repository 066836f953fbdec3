"""The prize fund of the playoff (tournaments/prizes.py): levels by how far a qualifier went,
the default percents, the exact split in whole coins, a director's percents, and the steps.
ACC rule 13 (http://cribbage.org/rules/rule13.asp): every qualifier is paid, and the losers of a
round keep that round's prize. No database, no Django.

Terms as in tournaments/prizes.py: a *level* is the qualifiers paid alike, *deeper* is nearer
the champion, the *fund* and the *coin* are in cents.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.bracket import bracket_size, first_round, rounds
from tournaments.prizes import Level, PrizeError, prize_levels, prize_split, prize_steps

QUALIFIERS = range(2, 257)
COINS = (1, 5, 25, 100, 500)
# Whole percents cannot pay these first-round levels clearly less each than the round above.
UNPAID_FIRST_ROUND = {33, 65, 66, 67, *range(129, 137)}


def losers_by_round(qualifiers: int) -> list[int]:
    """How many qualifiers each level holds, top first, counted from the bracket itself: the
    champion, then the losers of the final, the semi-finals, ..., round 1 (its played matches).
    """
    size = bracket_size(qualifiers)
    played = sum(slot.low is not None for slot in first_round(qualifiers))
    deeper = [size >> number for number in range(rounds(size), 1, -1)]
    return [1, *deeper, played]


@pytest.mark.parametrize("qualifiers", QUALIFIERS)
def test_every_qualifier_is_in_one_level(qualifiers):
    """Every qualifier is paid by how far they went; a seed with a bye who loses in round 2 is in
    round 2's level, so round 1's level holds only the losers of its played matches.
    """
    levels = prize_levels(qualifiers)
    assert [level.players for level in levels] == losers_by_round(qualifiers)
    assert sum(level.players for level in levels) == qualifiers
    assert len({level.key for level in levels}) == len(levels)
    assert [level.key for level in levels[:2]] == ["champion", "runner_up"]


@pytest.mark.parametrize("qualifiers", QUALIFIERS)
def test_default_percents_pay_each_round_deeper_clearly_more(qualifiers):
    """The default: whole percents adding up to 100, each deeper player's share at least one and
    a half times a shallower one's, every level paid but a first-round level that cannot be.
    """
    levels = prize_levels(qualifiers)
    assert sum(level.percent for level in levels) == 100
    assert all(isinstance(level.percent, int) for level in levels)
    shares = [Fraction(level.percent, level.players) for level in levels]
    for deeper, shallower in zip(shares, shares[1:], strict=False):
        assert deeper >= Fraction(3, 2) * shallower
    unpaid = [level.name for level in levels if level.percent == 0]
    assert unpaid == ([levels[-1].name] if qualifiers in UNPAID_FIRST_ROUND else [])
    assert 20 <= levels[0].percent <= 67


@pytest.mark.parametrize(
    ("qualifiers", "percents"),
    [
        (2, [67, 33]),
        (3, [58, 28, 14]),
        (8, [40, 20, 20, 20]),
        (27, [30, 15, 15, 15, 15, 10]),
        (33, [29, 15, 14, 14, 14, 14, 0]),
        (34, [29, 14, 14, 14, 14, 14, 1]),
        (64, [26, 13, 13, 12, 12, 12, 12]),
        (256, [20, 10, 10, 10, 10, 10, 10, 10, 10]),
    ],
)
def test_default_percents_examples(qualifiers, percents):
    """Each round deeper doubles a player's share, rounded down to whole percents, the percents
    left over one each from the champion down.
    """
    assert [level.percent for level in prize_levels(qualifiers)] == percents


def test_129_qualifiers_cannot_pay_every_level_in_whole_percents():
    """Why a first-round level may be unpaid: for 129 qualifiers the lone first-round loser at
    1% needs the 64 losers of round 2 at 64% or more, and so on up.
    """
    levels = prize_levels(129)
    least = [1]
    for shallower, deeper in zip(levels[::-1], levels[-2::-1], strict=False):
        least.append(-(-least[-1] * deeper.players // shallower.players))
    assert sum(least) > 100


def test_27_qualifiers_worked_example():
    """108 entrants, 27 qualifiers: levels 1, 1, 2, 4, 8 and the 11 losers of round 1."""
    levels = prize_split(fund_cents=66600, coin_cents=25, qualifiers=27)
    assert [(level.name, level.players, level.percent, level.each_cents) for level in levels] == [
        ("Champion", 1, 30, 20375),
        ("Runner-up", 1, 15, 9975),
        ("Semi-finalists", 2, 15, 4975),
        ("Quarter-finalists", 4, 15, 2475),
        ("Round of 16", 8, 15, 1225),
        ("Round of 32", 11, 10, 600),
    ]
    assert prize_steps(levels, fund_cents=66600, coin_cents=25) == (
        "Each level's share is split evenly among its players, rounded down to whole coins of 25¢.",
        "Champion: 1 player, 30% of the fund, $203.75.",
        "Runner-up: 1 player, 15% of the fund, $99.75.",
        "Semi-finalists: 2 players, 15% of the fund, $49.75 each.",
        "Quarter-finalists: 4 players, 15% of the fund, $24.75 each.",
        "Round of 16: 8 players, 15% of the fund, $12.25 each.",
        "Round of 32: 11 players, 10% of the fund, $6.00 each.",
        "The Champion's amount includes the $4.00 the rounding leaves.",
        "Paid: $666.00 to 27 players.",
    )


def test_odd_cents_go_to_the_champion():
    levels = prize_split(fund_cents=1003, coin_cents=100, qualifiers=2)
    assert [level.each_cents for level in levels] == [703, 300]
    steps = prize_steps(levels, fund_cents=1003, coin_cents=100)
    assert "The Champion's amount includes the $1.03 the rounding leaves." in steps


def check_split(levels: tuple[Level, ...], *, fund_cents: int, coin_cents: int, qualifiers: int):
    amounts = [level.each_cents for level in levels]
    assert sum(level.each_cents * level.players for level in levels) == fund_cents
    assert sum(level.players for level in levels) == qualifiers
    assert all(amount % coin_cents == 0 for amount in amounts[1:])
    assert all(amount >= 0 for amount in amounts)
    assert amounts == sorted(amounts, reverse=True), "a deeper player is paid less"
    for level in levels:
        # Nobody gets less than the share rounded down; only the champion gets more.
        share = Fraction(fund_cents * level.percent, 100 * level.players)
        assert share - coin_cents < level.each_cents
        assert level.each_cents <= share or level.key == "champion"


@settings(max_examples=400, deadline=None)
@given(
    qualifiers=st.integers(2, 256),
    fund_cents=st.integers(0, 30_000_000),
    coin_cents=st.sampled_from(COINS),
)
def test_the_default_split_is_exact_in_whole_coins_and_in_order(qualifiers, fund_cents, coin_cents):
    """The sum is exactly the fund; every amount but the champion's is whole coins; each player
    of a deeper level gets at least as much as each player of a shallower one.
    """
    levels = prize_split(fund_cents=fund_cents, coin_cents=coin_cents, qualifiers=qualifiers)
    check_split(levels, fund_cents=fund_cents, coin_cents=coin_cents, qualifiers=qualifiers)
    steps = prize_steps(levels, fund_cents=fund_cents, coin_cents=coin_cents)
    assert len(steps) in (len(levels) + 2, len(levels) + 3)


@st.composite
def director_percents(draw):
    """Any whole percents adding up to 100, or percents drawn from per-player shares in order
    (rounding may still break the order now and then).
    """
    qualifiers = draw(st.integers(2, 256))
    levels = prize_levels(qualifiers)
    count = len(levels)
    if draw(st.booleans()):
        cuts = sorted(draw(st.lists(st.integers(0, 100), min_size=count - 1, max_size=count - 1)))
        return qualifiers, [b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
    each = sorted(draw(st.lists(st.integers(0, 1000), min_size=count, max_size=count)))[::-1]
    weights = [share * level.players for share, level in zip(each, levels, strict=True)]
    total = sum(weights) or 1
    percents = [100 * weight // total for weight in weights]
    percents[0] += 100 - sum(percents)
    return qualifiers, percents


@settings(max_examples=400, deadline=None)
@given(chosen=director_percents(), fund_cents=st.integers(0, 30_000_000))
def test_a_directors_percents_are_split_in_order_or_refused(chosen, fund_cents):
    """Percents that pay a shallower player more than a deeper one are refused, whatever the
    fund; any others are split exactly and in order.
    """
    qualifiers, percents = chosen
    levels = prize_levels(qualifiers)
    shares = [Fraction(p, level.players) for p, level in zip(percents, levels, strict=True)]
    in_order = all(a >= b for a, b in zip(shares, shares[1:], strict=False))
    if not in_order:
        with pytest.raises(PrizeError, match="who went further"):
            prize_split(
                fund_cents=fund_cents, coin_cents=25, qualifiers=qualifiers, percents=percents
            )
        return
    split = prize_split(
        fund_cents=fund_cents, coin_cents=25, qualifiers=qualifiers, percents=percents
    )
    assert [level.percent for level in split] == percents
    check_split(split, fund_cents=fund_cents, coin_cents=25, qualifiers=qualifiers)


def test_percents_that_pay_a_shallower_round_more_are_refused_with_what_to_change():
    """The 11 losers of round 1 at 30% would each get more than the 8 of the round of 16 at 20%."""
    with pytest.raises(PrizeError) as refused:
        prize_split(fund_cents=0, coin_cents=25, qualifiers=27, percents=[20, 10, 10, 10, 20, 30])
    assert str(refused.value) == (
        "The Round of 32 (11 players at 30%) would each be paid more than the Round of 16 "
        "(8 players at 20%), who went further. Give the Round of 16 at least 22% or the "
        "Round of 32 at most 27%."
    )
    with pytest.raises(PrizeError, match="Runner-up .* more than the Champion"):
        prize_levels(2, [40, 60])


def test_a_directors_percents_and_levels_are_used():
    percents = [25, 15, 16, 16, 16, 12]
    levels = prize_levels(27, percents)
    by_percents = prize_split(fund_cents=66600, coin_cents=5, qualifiers=27, percents=percents)
    by_levels = prize_split(fund_cents=66600, coin_cents=5, qualifiers=27, levels=levels)
    assert by_percents == by_levels
    assert [level.percent for level in by_levels] == percents
    assert by_levels[-1].each_cents == 66600 * 12 // 100 // 11 // 5 * 5


@pytest.mark.parametrize(
    ("percents", "words"),
    [
        ([30, 15, 15, 15, 25], "one percent per level, top first: 6 levels"),
        ([30, 15, 15, 15, 15, 10, 0], "6 levels"),
        ([30, 15, 15, 15, 15, 9.5], "Round of 32: a percent is a whole number"),
        ([30, 15, 15, 15, 30, -5], "0 or more"),
        ([30, 15, 15, 15, 15, 9], "add up to 99%; make them add up to 100%"),
        ("30 15 15 15 15 10", "as a list"),
    ],
)
def test_bad_percents_are_refused_with_what_to_change(percents, words):
    with pytest.raises(PrizeError, match=words):
        prize_split(fund_cents=66600, coin_cents=25, qualifiers=27, percents=percents)


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"fund_cents": -1}, "fund is a whole number of cents"),
        ({"fund_cents": 10.0}, "fund is a whole number of cents"),
        ({"coin_cents": 0}, "coin is a whole number of cents, 1 or more"),
        ({"percents": [100, 0], "levels": prize_levels(2)}, "not both"),
        ({"levels": prize_levels(26)}, "not those of 27 qualifiers"),
    ],
)
def test_bad_split_inputs_are_refused(arguments, words):
    given = {"fund_cents": 66600, "coin_cents": 25, "qualifiers": 27} | arguments
    with pytest.raises(PrizeError, match=words):
        prize_split(**given)


def test_steps_of_levels_of_another_fund_are_refused():
    levels = prize_split(fund_cents=66600, coin_cents=25, qualifiers=27)
    with pytest.raises(PrizeError, match="not the fund of"):
        prize_steps(levels, fund_cents=66500, coin_cents=25)
    with pytest.raises(PrizeError, match="not split yet"):
        prize_steps(prize_levels(27), fund_cents=66600, coin_cents=25)
