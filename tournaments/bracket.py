"""The playoff bracket of a tournament: who qualifies, the seeded draw, byes, rounds and their
names (ACC rule 13.2, http://cribbage.org/rules/rule13.asp, and the ACC's bracket chart,
http://cribbage.org/rules/playoffbracket.asp).

Pure Python, standard library only: no Django import (a test enforces it).

Terms:
- entrants: the players who played the qualifying games.
- qualifiers: the entrants who go on to the playoff: one in four, any fraction rounded up
  (13.2.b: 121 to 124 entrants qualify 31), never fewer than 2, since a final needs two.
- seed: a qualifier's place in the qualifying standings, 1 = best.
- bracket size: the next power of two at or above the qualifiers (13.2.b: the field is not
  rounded up to a full bracket; the empty places are byes).
- position: a place in the bracket, 1-based, top to bottom as the chart prints it.
- seed positions: the classical seeding of the ACC chart (13.2.c), built from the final down:
  start with [1, 2]; to double a list of n seeds, the seed s at index i becomes the pair
  (s, 2n + 1 - s) when i is even, (2n + 1 - s, s) when i is odd. For 8: 1, 8, 5, 4, 3, 6, 7, 2.
  Each first-round pair sums to size + 1, and the better seeds never meet early.
- bye: a seed above the qualifiers leaves its opponent without a match in round 1; the byes go to
  the best seeds (13.2.d: bracket size - qualifiers of them), and round 2 is a full bracket.
- slot: one first-round match of the bracket, in chart order: `top` and `bottom` as printed
  (None where the seed is a bye), `high` the better seed and `low` the other (None for a bye).
- round: 1 is the first playoff round; the last is the final. A bracket of size n has log2(n).
- match position: a match's place in its round, 1-based, top to bottom. The winner of match p
  plays match (p + 1) // 2 of the next round, on top when p is odd (`feeds`).
"""

from __future__ import annotations

from dataclasses import dataclass


class BracketError(ValueError):
    """The bracket cannot be drawn from these numbers; the message says what to change."""


@dataclass(frozen=True)
class Slot:
    position: int  # 1-based, top to bottom
    top: int | None  # the seed printed above, None for a bye
    bottom: int | None  # the seed printed below, None for a bye
    high: int  # the better seed of the two
    low: int | None  # the other seed; None: `high` has a bye into round 2

    @property
    def is_bye(self) -> bool:
        return self.low is None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_qualifiers(qualifiers: int) -> None:
    if not _whole(qualifiers) or qualifiers < 2:
        raise BracketError(
            f"A playoff needs at least 2 qualifiers (got {qualifiers!r}): a final needs two."
        )


def _check_size(size: int) -> None:
    if not _whole(size) or size < 2 or size & (size - 1):
        raise BracketError(f"A bracket's size is a power of two, 2 or more (got {size!r}).")


def qualifier_count(entrants: int) -> int:
    """One in four entrants qualify, any fraction rounded up, and never fewer than 2."""
    if not _whole(entrants) or entrants < 2:
        raise BracketError(
            f"A playoff needs at least 2 entrants (got {entrants!r}): a final needs two players."
        )
    return max(2, -(-entrants // 4))


def bracket_size(qualifiers: int) -> int:
    """The next power of two at or above `qualifiers` (the rest are byes)."""
    _check_qualifiers(qualifiers)
    return 1 << (qualifiers - 1).bit_length()


def bye_count(qualifiers: int) -> int:
    """How many of the best seeds go straight to round 2."""
    return bracket_size(qualifiers) - qualifiers


def seed_positions(size: int) -> tuple[int, ...]:
    """The seeds of a full bracket of `size`, top to bottom, as the ACC chart prints them."""
    _check_size(size)
    seeds = [1, 2]
    while len(seeds) < size:
        other = 2 * len(seeds) + 1
        doubled: list[int] = []
        for index, seed in enumerate(seeds):
            # The chart alternates which of the pair is printed on top.
            doubled += (seed, other - seed) if index % 2 == 0 else (other - seed, seed)
        seeds = doubled
    return tuple(seeds)


def first_round(qualifiers: int) -> tuple[Slot, ...]:
    """The first-round matches of the bracket for `qualifiers`, in chart order; a seed above
    `qualifiers` is a bye for its opponent.
    """
    size = bracket_size(qualifiers)
    seeds = seed_positions(size)
    slots = []
    for index in range(0, size, 2):
        top, bottom = (seed if seed <= qualifiers else None for seed in seeds[index : index + 2])
        high, low = sorted(seeds[index : index + 2])
        slots.append(
            Slot(
                position=index // 2 + 1,
                top=top,
                bottom=bottom,
                high=high,
                low=low if low <= qualifiers else None,
            )
        )
    return tuple(slots)


def rounds(size: int) -> int:
    """How many rounds a bracket of `size` plays: log2(size)."""
    _check_size(size)
    return size.bit_length() - 1


def round_name(round_number: int, size: int) -> str:
    """The name of round `round_number` (1 = first) of a bracket of `size`: "Final",
    "Semi-finals", "Quarter-finals", "Round of 16", "Round of 32", ...
    """
    last = rounds(size)
    if not _whole(round_number) or not 1 <= round_number <= last:
        raise BracketError(
            f"A bracket of {size} has rounds 1 to {last} (got round {round_number!r})."
        )
    players = size >> (round_number - 1)
    return {2: "Final", 4: "Semi-finals", 8: "Quarter-finals"}.get(players, f"Round of {players}")


def feeds(position: int) -> tuple[int, str]:
    """Where the winner of match `position` (1-based, in any round) plays next: the match's
    position in the next round, and "top" or "bottom" there.
    """
    if not _whole(position) or position < 1:
        raise BracketError(f"A match position is 1 or more (got {position!r}).")
    return (position + 1) // 2, "top" if position % 2 else "bottom"


def seeds_meet_in(a: int, b: int, size: int) -> int:
    """The round in which seeds `a` and `b` can first meet in a bracket of `size`."""
    seeds = seed_positions(size)
    for seed in (a, b):
        if not _whole(seed) or not 1 <= seed <= size:
            raise BracketError(f"A bracket of {size} has seeds 1 to {size} (got {seed!r}).")
    if a == b:
        raise BracketError(f"Seed {a} cannot meet itself: name two different seeds.")
    # Two positions share a match of round r when they agree on all but their last r bits.
    return (seeds.index(a) ^ seeds.index(b)).bit_length()
