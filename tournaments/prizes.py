"""The playoff's prize fund, paid to the qualifiers by how far they went (ACC rule 13,
http://cribbage.org/rules/rule13.asp: the losers of a round keep that round's prize).

Pure Python, standard library only: no Django import (a test enforces it).

Terms (the bracket's as in tournaments/bracket.py):
- fund: the money to pay out, in integer cents (the caller has taken the club's share off).
- coin: the smallest amount paid, in cents (25 for quarters, 500 for five-dollar bills). Every
  amount is a whole number of coins, except the champion's, which takes the odd cents.
- level: the qualifiers paid alike, top first: "Champion" (1), "Runner-up" (1), "Semi-finalists"
  (the semi-finals' 2 losers), "Quarter-finalists" (4), "Round of 16" (8), ... down to the first
  playoff round, whose level holds only the players who lost in round 1: qualifiers - size / 2 of
  them (size / 2 when the bracket is full). A seed with a bye who loses in round 2 is in round 2's
  level. A level's key is stable whatever the field: "champion", "runner_up", then
  "round_of_<n>" for the losers of the round n players start ("round_of_4": the semi-finalists).
- deeper: a level nearer the champion. Each player of a deeper level is paid at least as much as
  each player of a shallower one (the order); a director's percents that break it are refused.
- percent: a level's share of the fund, a whole number; the levels' percents add up to 100.
- default percents: each round deeper doubles what a player is paid: the champion gets twice the
  runner-up, the runner-up twice each semi-finalist, and so on, so every full level below the
  champion shares the same part of the fund, half the champion's (256 qualifiers: champion 20%,
  each of the eight other levels 10%; 64, before rounding: 25% and 12.5%). Each exact share is
  rounded down to a whole percent and the percents left over go one each to the champion, the
  runner-up, the semi-finalists, ... A first-round level of a few players whose share rounds
  down to 0% gets 1% when each of its players is still paid at most two thirds of what each
  player of the round above is paid; else it stays at 0%, for 33, 65 to 67 and 129 to 136
  qualifiers: 1% would pay each of its few players about as much as, or more than, each seed
  with a bye who lost in round 2 (for 129, no whole percents pay every level in order). So each
  deeper player's share is at least one and a half times the shallower one's.
  `_default_percents`.
- split: each level's share is divided evenly among its players, rounded down to whole coins;
  what that leaves (fewer coins than there are qualifiers, and the odd cents of a fund that is
  not a whole number of coins) goes to the champion. The sum is exactly the fund. `_split`.
- steps: the split explained for the prize sheet, one plain sentence each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from tournaments.bracket import bracket_size, rounds


class PrizeError(ValueError):
    """The prize fund cannot be split this way; the message says what to change."""


@dataclass(frozen=True)
class Level:
    key: str  # "champion", "runner_up", "round_of_4", "round_of_8", ...
    name: str  # "Champion", "Runner-up", "Semi-finalists", ..., "Round of 16", ...
    players: int
    percent: int  # whole percent of the fund for the whole level
    each_cents: int | None = None  # what each of its players is paid; None before the split


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shapes(qualifiers: int) -> list[Level]:
    """The levels of `qualifiers`, top first, with no percents yet."""
    size = bracket_size(qualifiers)
    levels = [Level("champion", "Champion", 1, 0), Level("runner_up", "Runner-up", 1, 0)]
    for number in range(rounds(size) - 1, 0, -1):
        field = size >> (number - 1)
        losers = field // 2 if number > 1 else qualifiers - size // 2
        name = {4: "Semi-finalists", 8: "Quarter-finalists"}.get(field, f"Round of {field}")
        levels.append(Level(f"round_of_{field}", name, losers, 0))
    return levels


def _default_percents(levels: Sequence[Level]) -> list[int]:
    # A level's weight: its players, halved for every round it lies below the champion.
    weights = [Fraction(level.players, 2**depth) for depth, level in enumerate(levels)]
    total = sum(weights)
    exact = [100 * weight / total for weight in weights]
    percents = [int(share) for share in exact]
    above, last = levels[-2], levels[-1]
    # Only a first-round level of a few players can round to 0%; 1% must leave it paid clearly
    # less each than the round above: 1 / last.players <= 2/3 * percents[-2] / above.players.
    if percents[-1] == 0 and 3 * above.players <= 2 * percents[-2] * last.players:
        percents[-1] = 1
    # Rounding down left fewer percents than there are levels, so the last never gets one.
    for index in range(100 - sum(percents)):
        percents[index] += 1
    return percents


def prize_levels(qualifiers: int, percents: Sequence[int] | None = None) -> tuple[Level, ...]:
    """The levels of a playoff of `qualifiers`, top first, with the default percents, or with
    the director's `percents` (one per level, top first) once they are checked.
    """
    levels = _shapes(qualifiers)
    if percents is not None:
        return _with_percents(levels, _check_percents(levels, percents))
    return _with_percents(levels, _default_percents(levels))


def _with_percents(levels: Sequence[Level], percents: Sequence[int]) -> tuple[Level, ...]:
    return tuple(
        replace(level, percent=percent) for level, percent in zip(levels, percents, strict=True)
    )


def _check_percents(levels: Sequence[Level], percents: Sequence[int]) -> list[int]:
    names = ", ".join(level.name for level in levels)
    if isinstance(percents, str | bytes) or not isinstance(percents, Sequence):
        raise PrizeError(f"Give the percents as a list, one per level ({names}).")
    if len(percents) != len(levels):
        raise PrizeError(
            f"Give one percent per level, top first: {len(levels)} levels ({names}), "
            f"got {len(percents)}."
        )
    for level, percent in zip(levels, percents, strict=True):
        if not _whole(percent) or percent < 0:
            raise PrizeError(
                f"{level.name}: a percent is a whole number, 0 or more (got {percent!r})."
            )
    if sum(percents) != 100:
        raise PrizeError(f"The percents add up to {sum(percents)}%; make them add up to 100%.")
    for index in range(1, len(levels)):
        deeper, shallower = levels[index - 1], levels[index]
        p_deep, p_shallow = percents[index - 1], percents[index]
        # Each player's part is percent / players, compared exactly by cross-multiplying.
        if p_deep * shallower.players < p_shallow * deeper.players:
            at_least = -(-p_shallow * deeper.players // shallower.players)
            at_most = p_deep * shallower.players // deeper.players
            raise PrizeError(
                f"The {shallower.name} ({_players(shallower.players)} at {p_shallow}%) would "
                f"each be paid more than the {deeper.name} ({_players(deeper.players)} at "
                f"{p_deep}%), who went further. Give the "
                f"{deeper.name} at least {at_least}% or the {shallower.name} at most "
                f"{at_most}%."
            )
    return list(percents)


def prize_split(
    *,
    fund_cents: int,
    coin_cents: int,
    qualifiers: int,
    percents: Sequence[int] | None = None,
    levels: Sequence[Level] | None = None,
) -> tuple[Level, ...]:
    """The levels with what each player is paid (`each_cents`), summing to exactly
    `fund_cents`: by the default percents, the director's `percents`, or the percents of
    `levels` (from `prize_levels(qualifiers, ...)`); not both.
    """
    if not _whole(fund_cents) or fund_cents < 0:
        raise PrizeError(f"The fund is a whole number of cents, 0 or more (got {fund_cents!r}).")
    if not _whole(coin_cents) or coin_cents < 1:
        raise PrizeError(f"The coin is a whole number of cents, 1 or more (got {coin_cents!r}).")
    if percents is not None and levels is not None:
        raise PrizeError("Give the percents or the levels, not both.")
    if levels is not None:
        shapes = _shapes(qualifiers)
        if [(level.key, level.players) for level in levels] != [
            (level.key, level.players) for level in shapes
        ]:
            raise PrizeError(
                f"These levels are not those of {qualifiers} qualifiers: take them from "
                f"prize_levels({qualifiers})."
            )
        percents = [level.percent for level in levels]
    checked = prize_levels(qualifiers, percents)
    amounts = _split(fund_cents=fund_cents, coin_cents=coin_cents, levels=checked)
    return tuple(
        replace(level, each_cents=each) for level, each in zip(checked, amounts, strict=True)
    )


def _rounded_down(*, fund_cents: int, coin_cents: int, level: Level) -> int:
    """Each player's part of the level's share, rounded down to whole coins, in cents."""
    return fund_cents * level.percent // (100 * level.players * coin_cents) * coin_cents


def _split(*, fund_cents: int, coin_cents: int, levels: Sequence[Level]) -> list[int]:
    """The leftover rule, the only copy of it: every level's players get their share rounded
    down to whole coins; the champion (the first level) also gets all that this leaves.
    Rounding down keeps the order of the percents, and the champion is the top of it.
    """
    each = [
        _rounded_down(fund_cents=fund_cents, coin_cents=coin_cents, level=level) for level in levels
    ]
    each[0] += fund_cents - sum(
        amount * level.players for amount, level in zip(each, levels, strict=True)
    )
    return each


def prize_steps(levels: Sequence[Level], *, fund_cents: int, coin_cents: int) -> tuple[str, ...]:
    """How `levels` (from `prize_split`) were paid, for the prize sheet."""
    if any(level.each_cents is None for level in levels):
        raise PrizeError("These levels are not split yet: take them from prize_split.")
    paid = sum(level.each_cents * level.players for level in levels)
    if paid != fund_cents:
        raise PrizeError(
            f"These levels pay {_money(paid)}, not the fund of {_money(fund_cents)}: "
            "take them from prize_split with the same fund."
        )
    steps = [
        f"Each level's share is split evenly among its players, rounded down to whole coins of "
        f"{_money(coin_cents)}."
    ]
    for level in levels:
        each = " each" if level.players > 1 else ""
        steps.append(
            f"{level.name}: {_players(level.players)}, {level.percent}% of the fund, "
            f"{_money(level.each_cents)}{each}."
        )
    left = levels[0].each_cents - _rounded_down(
        fund_cents=fund_cents, coin_cents=coin_cents, level=levels[0]
    )
    if left:
        steps.append(
            f"The {levels[0].name}'s amount includes the {_money(left)} the rounding leaves."
        )
    steps.append(
        f"Paid: {_money(fund_cents)} to {_players(sum(level.players for level in levels))}."
    )
    return tuple(steps)


def _players(count: int) -> str:
    return f"{count} player{'' if count == 1 else 's'}"


def _money(cents: int) -> str:
    # Written as core.cents.format_cents writes it (35¢, $1,234.50); that module needs Django.
    if cents < 100:
        return f"{cents}¢"
    dollars, rest = divmod(cents, 100)
    return f"${dollars:,}.{rest:02d}"
