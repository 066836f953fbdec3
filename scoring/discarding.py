"""The discard advisor as the page shows it: every lay-away of a dealt hand with its exact values
(the engine's ``DiscardValue``), what the kept cards already hold, a reason in words and the kept
hand's spread over the starters as bars for a small chart.

Terms:
- *whose crib*: ``mine`` (the player deals; at four players a partner's deal counts too) or
  ``theirs`` (an opponent deals). The engine's ``dealer`` is ``whose == "mine"``.
- *held*: what the kept cards score on their own, before the cut (``engine.held_items``); the cut
  adds the rest of the expected hand.
- *bar*: one count the kept hand can make, from its worst to its best, with how many of the
  unseen starters give it (none for a gap), its height scaled to the tallest bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from scoring.engine import (
    Card,
    Combination,
    DiscardValue,
    discard_values,
    group_items,
    held_items,
    parse_cards,
)

MINE, THEIRS = "mine", "theirs"
CHART_HEIGHT = 40  # the chart's drawing units (its SVG viewBox), bars at most this tall
BAR_STEP = 10  # a bar's width and the gap after it, in the same units
BAR_WIDTH = 8


def one_place(value: Fraction) -> str:
    return f"{float(value):.1f}"


def two_places(value: Fraction) -> str:
    return f"{float(value):.2f}"


def held_phrase(groups: Sequence[Combination]) -> str:
    """What the kept cards hold, as players say it: "fifteen-6 and a run of 3", "two pairs",
    "nothing" when they hold no points."""
    fifteens = sum(group.kind == "fifteen" for group in groups)
    parts = [f"fifteen\u2011{2 * fifteens}"] if fifteens else []  # a hyphen no line breaks at
    others = [group.phrase for group in groups if group.kind != "fifteen"]
    if others.count("a pair") == 2:  # two pairs of different ranks are said together
        others.remove("a pair")
        others[others.index("a pair")] = "two pairs"
    parts += others
    if not parts:
        return "nothing"
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


@dataclass(frozen=True)
class Bar:
    points: int
    starters: int
    x: int
    y: int
    height: int


def hand_bars(value: DiscardValue) -> tuple[Bar, ...]:
    counts = value.hand_distribution
    tallest = max(counts.values())
    bars = []
    for i, points in enumerate(range(value.hand_worst, value.hand_best + 1)):
        starters = counts.get(points, 0)
        height = round(CHART_HEIGHT * starters / tallest) if starters else 0
        if starters and not height:
            height = 1  # a count that can happen is always seen
        bars.append(Bar(points, starters, i * BAR_STEP, CHART_HEIGHT - height, height))
    return tuple(bars)


@dataclass(frozen=True)
class DiscardRow:
    """One lay-away as a row of the page: ``value`` holds the engine's exact figures."""

    value: DiscardValue
    held: tuple[Combination, ...]
    held_points: int
    reason: str
    bars: tuple[Bar, ...]

    chart_height: ClassVar[int] = CHART_HEIGHT
    bar_width: ClassVar[int] = BAR_WIDTH

    @property
    def hand_text(self) -> str:
        return two_places(self.value.hand)

    @property
    def crib_text(self) -> str:
        return two_places(self.value.crib)

    @property
    def net_text(self) -> str:
        """Signed: "+12.55", "−1.20" (a minus sign, not a hyphen)."""
        net = self.value.net
        return ("+" if net >= 0 else "\u2212") + two_places(abs(net))

    @property
    def range_text(self) -> str:
        points, percent = self.most_likely
        value = self.value
        if value.hand_worst == value.hand_best:
            return f"Hand {points} whatever the cut"
        return f"Hand {value.hand_worst} to {value.hand_best}, most often {points} ({percent}%)"

    @property
    def chart_width(self) -> int:
        return len(self.bars) * BAR_STEP - (BAR_STEP - BAR_WIDTH)

    @property
    def chart_label(self) -> str:
        """The chart in words (its text alternative): each count the kept hand can make and on how
        many starters."""
        value = self.value
        counts = ", ".join(
            f"{points} on {starters}" for points, starters in value.hand_distribution.items()
        )
        return f"The kept hand's count over the {value.starters} starters: {counts}."

    @property
    def most_likely(self) -> tuple[int, int]:
        """(count, percent of the starters) of the kept hand's most frequent count."""
        value = self.value
        points = max(value.hand_distribution, key=lambda p: (value.hand_distribution[p], -p))
        return points, round(100 * value.hand_distribution[points] / value.starters)


@dataclass(frozen=True)
class DiscardAdvice:
    dealt: tuple[Card, ...]
    players: int
    whose: str
    rows: tuple[DiscardRow, ...]

    @property
    def dealer(self) -> bool:
        return self.whose == MINE

    @property
    def crib_owner(self) -> str:
        """Whose crib it is, in the words of the reasons."""
        if not self.dealer:
            return "an opponent's crib"
        return "your side's crib" if self.players == 4 else "your own crib"


def crib_clause(value: DiscardValue, owner: str) -> str:
    laid = "-".join(card.rank_text for card in sorted(value.discard, key=lambda c: -c.rank))
    if value.dealer:
        return f"the {laid} in {owner} is worth {one_place(value.crib)} on average"
    return f"the {laid} gives {owner} {one_place(value.crib)} on average"


def advise(cards: str | Sequence[Card | str], *, whose: str, players: int) -> DiscardAdvice:
    """Every lay-away of ``cards`` at ``players``, best first, with reasons and charts.

    Raises the engine's ``ScoringError`` (its message says what to fix) for a bad deal.
    """
    if whose not in (MINE, THEIRS):
        raise ValueError(f"whose crib: {MINE!r} or {THEIRS!r}, not {whose!r}")
    dealt = tuple(parse_cards(cards))
    values = discard_values(dealt, dealer=whose == MINE, players=players)
    advice = DiscardAdvice(dealt, players, whose, ())
    rows = []
    for value in values:
        items = held_items(value.keep)
        held = group_items(items)
        held_points = sum(item.points for item in items)
        phrase = held_phrase(held)
        if held_points:
            phrase += f" ({held_points})"
        cut = one_place(value.hand - held_points)
        reason = (
            f"Keeps {phrase}, the cut adds {cut} on average; "
            f"{crib_clause(value, advice.crib_owner)}."
        )
        rows.append(DiscardRow(value, held, held_points, reason, hand_bars(value)))
    return DiscardAdvice(dealt, players, whose, tuple(rows))
