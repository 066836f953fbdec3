"""The prize fund of the playoff (tournaments/prizes.py): levels by how far a qualifier went,
the default shares, the exact split in whole coins, a director's shares, and the steps.
ACC rule 13 (http://cribbage.org/rules/rule13.asp): every qualifier is paid, and the losers of a
round keep that round's prize (13.1: a qualifier who does not appear "is still entitled to
receive any prize money ... awarded to the losers in that round"). No database, no Django.

Terms as in tournaments/prizes.py: a *level* is the qualifiers paid alike, *deeper* is nearer
the champion, the *fund* and the *coin* are in cents, a *share* is in basis points (hundredths
of a percent, 10000 in all).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.bracket import bracket_size, first_round, rounds
from tournaments.prizes import (
    Level,
    PrizeError,
    percent_text,
    prize_levels,
    prize_split,
    prize_steps,
)

QUALIFIERS = range(2, 257)
COINS = (1, 5, 25, 100, 500)
# The sizes whose few first-round losers whole percents left at 0%.
FEW_FIRST_ROUND_LOSERS = (33, 65, 66, 67, *range(129, 137))


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
def test_default_shares_pay_every_level_and_each_round_deeper_clearly_more(qualifiers):
    """ACC rule 13.1: every round's losers are paid. The default: whole basis points adding up
    to 10000, every level more than 0, each deeper player's share at least one and a half times
    a shallower one's.
    """
    levels = prize_levels(qualifiers)
    assert sum(level.share for level in levels) == 10000
    assert all(isinstance(level.share, int) for level in levels)
    assert all(level.share > 0 for level in levels), "every level is paid"
    shares = [Fraction(level.share, level.players) for level in levels]
    for deeper, shallower in zip(shares, shares[1:], strict=False):
        assert deeper >= Fraction(3, 2) * shallower
    assert 2000 <= levels[0].share <= 6667


@pytest.mark.parametrize(
    ("qualifiers", "shares"),
    [
        (2, [6667, 3333]),
        (3, [5715, 2857, 1428]),
        (8, [4000, 2000, 2000, 2000]),
        (10, [3810, 1905, 1905, 1904, 476]),
        (27, [2991, 1496, 1495, 1495, 1495, 1028]),
        (33, [2845, 1423, 1422, 1422, 1422, 1422, 44]),
        (34, [2832, 1416, 1416, 1416, 1416, 1416, 88]),
        (64, [2500, 1250, 1250, 1250, 1250, 1250, 1250]),
        (129, [2221, 1111, 1110, 1110, 1110, 1110, 1110, 1110, 8]),
        (256, [2000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]),
    ],
)
def test_default_shares_examples(qualifiers, shares):
    """Each round deeper doubles a player's share, rounded down to whole basis points, the basis
    points left over one each from the champion down.
    """
    assert [level.share for level in prize_levels(qualifiers)] == shares


@pytest.mark.parametrize("qualifiers", FEW_FIRST_ROUND_LOSERS)
def test_few_first_round_losers_are_paid_in_coins_too(qualifiers):
    """ACC rule 13.1: the few losers of a first round (33, 65 to 67, 129 to 136 qualifiers, whom
    whole percents left at 0%) are paid something from a fund of $20 entries, and less each than
    the seeds who lost in round 2.
    """
    fund = qualifiers * 4 * 2000
    levels = prize_split(fund_cents=fund, coin_cents=25, qualifiers=qualifiers)
    assert levels[-1].each_cents > 0
    assert levels[-1].each_cents < levels[-2].each_cents


def test_129_qualifiers_cannot_pay_every_level_in_whole_percents():
    """Why the shares are basis points: for 129 qualifiers the lone first-round loser at 1%
    needs the 64 losers of round 2 at 64% or more, and so on up, past 100%.
    """
    levels = prize_levels(129)
    least = [1]
    for shallower, deeper in zip(levels[::-1], levels[-2::-1], strict=False):
        least.append(-(-least[-1] * deeper.players // shallower.players))
    assert sum(least) > 100


@pytest.mark.parametrize(
    ("share", "text"),
    [(10000, "100%"), (3000, "30%"), (1250, "12.5%"), (2991, "29.91%"), (8, "0.08%"), (10, "0.1%")],
)
def test_a_share_reads_as_a_percent(share, text):
    assert percent_text(share) == text


def test_27_qualifiers_worked_example():
    """108 entrants, 27 qualifiers: levels 1, 1, 2, 4, 8 and the 11 losers of round 1."""
    levels = prize_split(fund_cents=66600, coin_cents=25, qualifiers=27)
    assert [(level.name, level.players, level.share, level.each_cents) for level in levels] == [
        ("Champion", 1, 2991, 20400),
        ("Runner-up", 1, 1496, 9950),
        ("Semi-finalists", 2, 1495, 4975),
        ("Quarter-finalists", 4, 1495, 2475),
        ("Round of 16", 8, 1495, 1225),
        ("Round of 32", 11, 1028, 600),
    ]
    assert prize_steps(levels, fund_cents=66600, coin_cents=25) == (
        "Each level's share is split evenly among its players, rounded down to whole coins of 25¢.",
        "Champion: 1 player, 29.91% of the fund, $204.00.",
        "Runner-up: 1 player, 14.96% of the fund, $99.50.",
        "Semi-finalists: 2 players, 14.95% of the fund, $49.75 each.",
        "Quarter-finalists: 4 players, 14.95% of the fund, $24.75 each.",
        "Round of 16: 8 players, 14.95% of the fund, $12.25 each.",
        "Round of 32: 11 players, 10.28% of the fund, $6.00 each.",
        "The Champion's amount includes the $5.00 the rounding leaves.",
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
        share = Fraction(fund_cents * level.share, 10000 * level.players)
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
def director_shares(draw):
    """Any whole basis points adding up to 10000, each 1 or more, or shares drawn from
    per-player parts in order (rounding may still break the order now and then).
    """
    qualifiers = draw(st.integers(2, 256))
    levels = prize_levels(qualifiers)
    count = len(levels)
    if draw(st.booleans()):
        cuts = draw(st.sets(st.integers(1, 9999), min_size=count - 1, max_size=count - 1))
        cuts = sorted(cuts)
        return qualifiers, [b - a for a, b in zip([0, *cuts], [*cuts, 10000], strict=True)]
    each = sorted(draw(st.lists(st.integers(1, 1000), min_size=count, max_size=count)))[::-1]
    weights = [part * level.players for part, level in zip(each, levels, strict=True)]
    total = sum(weights)
    # At least 1 each (every level is paid), the rest by the weights.
    shares = [1 + (10000 - count) * weight // total for weight in weights]
    shares[0] += 10000 - sum(shares)
    return qualifiers, shares


@settings(max_examples=400, deadline=None)
@given(chosen=director_shares(), fund_cents=st.integers(0, 30_000_000))
def test_a_directors_shares_are_split_in_order_or_refused(chosen, fund_cents):
    """Shares that pay a shallower player more than a deeper one are refused, whatever the
    fund; any others are split exactly and in order.
    """
    qualifiers, shares = chosen
    levels = prize_levels(qualifiers)
    parts = [Fraction(s, level.players) for s, level in zip(shares, levels, strict=True)]
    in_order = all(a >= b for a, b in zip(parts, parts[1:], strict=False))
    if not in_order:
        with pytest.raises(PrizeError, match="who went further"):
            prize_split(fund_cents=fund_cents, coin_cents=25, qualifiers=qualifiers, shares=shares)
        return
    split = prize_split(fund_cents=fund_cents, coin_cents=25, qualifiers=qualifiers, shares=shares)
    assert [level.share for level in split] == shares
    check_split(split, fund_cents=fund_cents, coin_cents=25, qualifiers=qualifiers)


def test_shares_that_pay_a_shallower_round_more_are_refused_with_what_to_change():
    """The 11 losers of round 1 at 30% would each get more than the 8 of the round of 16 at 20%."""
    with pytest.raises(PrizeError) as refused:
        prize_split(
            fund_cents=0,
            coin_cents=25,
            qualifiers=27,
            shares=[2000, 1000, 1000, 1000, 2000, 3000],
        )
    assert str(refused.value) == (
        "The Round of 32 (11 players at 30%) would each be paid more than the Round of 16 "
        "(8 players at 20%), who went further. Give the Round of 16 at least 21.82% or the "
        "Round of 32 at most 27.5%."
    )
    with pytest.raises(PrizeError, match="Runner-up .* more than the Champion"):
        prize_levels(2, [4000, 6000])


def test_a_directors_shares_and_levels_are_used():
    shares = [2500, 1500, 1600, 1600, 1600, 1200]
    levels = prize_levels(27, shares)
    by_shares = prize_split(fund_cents=66600, coin_cents=5, qualifiers=27, shares=shares)
    by_levels = prize_split(fund_cents=66600, coin_cents=5, qualifiers=27, levels=levels)
    assert by_shares == by_levels
    assert [level.share for level in by_levels] == shares
    assert by_levels[-1].each_cents == 66600 * 1200 // 10000 // 11 // 5 * 5


@pytest.mark.parametrize(
    ("shares", "words"),
    [
        ([3000, 1500, 1500, 1500, 2500], "one share per level, top first: 6 levels"),
        ([3000, 1500, 1500, 1500, 1500, 999, 1], "6 levels"),
        ([3000, 1500, 1500, 1500, 1500, 999.5], "Round of 32: a share is a whole number"),
        ([3000, 1500, 1500, 1500, 2500, 0], "1 or more: every round's losers are paid"),
        ([3000, 1500, 1500, 1500, 3000, -500], "1 or more"),
        ([3000, 1500, 1500, 1500, 1500, 900], r"add up to 99%; make them add up to 100%"),
        ("3000 1500 1500 1500 1500 1000", "as a list"),
    ],
)
def test_bad_shares_are_refused_with_what_to_change(shares, words):
    """ACC rule 13.1: a level at 0 would leave a round's losers unpaid."""
    with pytest.raises(PrizeError, match=words):
        prize_split(fund_cents=66600, coin_cents=25, qualifiers=27, shares=shares)


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"fund_cents": -1}, "fund is a whole number of cents"),
        ({"fund_cents": 10.0}, "fund is a whole number of cents"),
        ({"coin_cents": 0}, "coin is a whole number of cents, 1 or more"),
        ({"shares": [9999, 1], "levels": prize_levels(2)}, "not both"),
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
