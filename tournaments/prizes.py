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
  each player of a shallower one (the order); a director's shares that break it are refused.
- share: a level's part of the fund in basis points (hundredths of a percent: 1250 is 12.5%), a
  whole number, 1 or more: every level is paid, as the ACC pays every round's losers (rule 13.1:
  a qualifier who does not appear still receives the prize of the round's losers). The levels'
  shares add up to 10000, the whole fund. Whole percents could not pay every level in order:
  the few losers of a first round (33, 65 to 67, 129 to 136 qualifiers) would have had 0%.
- default shares: each round deeper doubles what a player is paid: the champion gets twice the
  runner-up, the runner-up twice each semi-finalist, and so on, so every full level below the
  champion shares the same part of the fund, half the champion's (256 qualifiers: champion 20%,
  each of the eight other levels 10%; 64: 25% and 12.5%). Each exact share is rounded down to a
  whole basis point and the basis points left over (fewer than there are levels) go one each
  to the champion, the runner-up, the semi-finalists, ... The smallest level's exact share is
  more than 8 basis points (one first-round loser of 129), so every level is paid, and each
  deeper player's share stays at least one and a half times the shallower one's.
  `_default_shares`.
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
    share: int  # basis points of the fund for the whole level (10000: all of it)
    each_cents: int | None = None  # what each of its players is paid; None before the split


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shapes(qualifiers: int) -> list[Level]:
    """The levels of `qualifiers`, top first, with no shares yet."""
    size = bracket_size(qualifiers)
    levels = [Level("champion", "Champion", 1, 0), Level("runner_up", "Runner-up", 1, 0)]
    for number in range(rounds(size) - 1, 0, -1):
        field = size >> (number - 1)
        losers = field // 2 if number > 1 else qualifiers - size // 2
        name = {4: "Semi-finalists", 8: "Quarter-finalists"}.get(field, f"Round of {field}")
        levels.append(Level(f"round_of_{field}", name, losers, 0))
    return levels


WHOLE = 10000  # basis points in the whole fund


def _default_shares(levels: Sequence[Level]) -> list[int]:
    # A level's weight: its players, halved for every round it lies below the champion.
    weights = [Fraction(level.players, 2**depth) for depth, level in enumerate(levels)]
    total = sum(weights)
    shares = [int(WHOLE * weight / total) for weight in weights]
    # Rounding down left fewer basis points than there are levels: one each from the top.
    for index in range(WHOLE - sum(shares)):
        shares[index] += 1
    return shares


def prize_levels(qualifiers: int, shares: Sequence[int] | None = None) -> tuple[Level, ...]:
    """The levels of a playoff of `qualifiers`, top first, with the default shares, or with
    the director's `shares` (basis points, one per level, top first) once they are checked.
    """
    levels = _shapes(qualifiers)
    if shares is not None:
        return _with_shares(levels, _check_shares(levels, shares))
    return _with_shares(levels, _default_shares(levels))


def _with_shares(levels: Sequence[Level], shares: Sequence[int]) -> tuple[Level, ...]:
    return tuple(replace(level, share=share) for level, share in zip(levels, shares, strict=True))


def _check_shares(levels: Sequence[Level], shares: Sequence[int]) -> list[int]:
    names = ", ".join(level.name for level in levels)
    if isinstance(shares, str | bytes) or not isinstance(shares, Sequence):
        raise PrizeError(f"Give the shares as a list, one per level ({names}).")
    if len(shares) != len(levels):
        raise PrizeError(
            f"Give one share per level, top first: {len(levels)} levels ({names}), "
            f"got {len(shares)}."
        )
    for level, share in zip(levels, shares, strict=True):
        if not _whole(share) or share < 1:
            raise PrizeError(
                f"{level.name}: a share is a whole number of basis points (hundredths of a "
                f"percent), 1 or more: every round's losers are paid (got {share!r})."
            )
    if sum(shares) != WHOLE:
        raise PrizeError(
            f"The shares add up to {percent_text(sum(shares))}; make them add up to 100% "
            f"({WHOLE} basis points)."
        )
    for index in range(1, len(levels)):
        deeper, shallower = levels[index - 1], levels[index]
        s_deep, s_shallow = shares[index - 1], shares[index]
        # Each player's part is share / players, compared exactly by cross-multiplying.
        if s_deep * shallower.players < s_shallow * deeper.players:
            at_least = -(-s_shallow * deeper.players // shallower.players)
            at_most = s_deep * shallower.players // deeper.players
            raise PrizeError(
                f"The {shallower.name} ({_players(shallower.players)} at "
                f"{percent_text(s_shallow)}) would each be paid more than the {deeper.name} "
                f"({_players(deeper.players)} at {percent_text(s_deep)}), who went further. "
                f"Give the {deeper.name} at least {percent_text(at_least)} or the "
                f"{shallower.name} at most {percent_text(at_most)}."
            )
    return list(shares)


def percent_text(share: int) -> str:
    """Basis points as a percent for people: 3000 -> "30%", 1250 -> "12.5%", 7 -> "0.07%"."""
    whole, rest = divmod(share, 100)
    return f"{whole}%" if not rest else f"{whole}.{rest:02d}".rstrip("0") + "%"


def prize_split(
    *,
    fund_cents: int,
    coin_cents: int,
    qualifiers: int,
    shares: Sequence[int] | None = None,
    levels: Sequence[Level] | None = None,
) -> tuple[Level, ...]:
    """The levels with what each player is paid (`each_cents`), summing to exactly
    `fund_cents`: by the default shares, the director's `shares`, or the shares of `levels`
    (from `prize_levels(qualifiers, ...)`); not both.
    """
    if not _whole(fund_cents) or fund_cents < 0:
        raise PrizeError(f"The fund is a whole number of cents, 0 or more (got {fund_cents!r}).")
    if not _whole(coin_cents) or coin_cents < 1:
        raise PrizeError(f"The coin is a whole number of cents, 1 or more (got {coin_cents!r}).")
    if shares is not None and levels is not None:
        raise PrizeError("Give the shares or the levels, not both.")
    if levels is not None:
        shapes = _shapes(qualifiers)
        if [(level.key, level.players) for level in levels] != [
            (level.key, level.players) for level in shapes
        ]:
            raise PrizeError(
                f"These levels are not those of {qualifiers} qualifiers: take them from "
                f"prize_levels({qualifiers})."
            )
        shares = [level.share for level in levels]
    checked = prize_levels(qualifiers, shares)
    amounts = _split(fund_cents=fund_cents, coin_cents=coin_cents, levels=checked)
    return tuple(
        replace(level, each_cents=each) for level, each in zip(checked, amounts, strict=True)
    )


def _rounded_down(*, fund_cents: int, coin_cents: int, level: Level) -> int:
    """Each player's part of the level's share, rounded down to whole coins, in cents."""
    return fund_cents * level.share // (WHOLE * level.players * coin_cents) * coin_cents


def _split(*, fund_cents: int, coin_cents: int, levels: Sequence[Level]) -> list[int]:
    """The leftover rule, the only copy of it: every level's players get their share rounded
    down to whole coins; the champion (the first level) also gets all that this leaves.
    Rounding down keeps the order of the shares, and the champion is the top of it.
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
            f"{level.name}: {_players(level.players)}, {percent_text(level.share)} of the fund, "
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
