"""The playoff bracket (tournaments/bracket.py) against ACC rule 13.2
(http://cribbage.org/rules/rule13.asp) and the ACC bracket chart
(http://cribbage.org/rules/playoffbracket.asp). No database, no Django.

Terms as in tournaments/bracket.py. The chart order is checked against a construction written
here by halving, not by the module's doubling: the top half of a bracket of 2n is the bracket of
n with each seed v relabelled 2v - 1 (v odd) or 2v (v even), and the bottom half is the top half
read upwards with each seed swapped for its neighbour (1 <-> 2, 3 <-> 4, ...).
"""

from __future__ import annotations

import itertools

import pytest

from tournaments.bracket import (
    BracketError,
    Slot,
    bracket_size,
    bye_count,
    feeds,
    first_round,
    qualifier_count,
    round_name,
    rounds,
    seed_positions,
    seeds_meet_in,
)

QUALIFIERS = range(2, 257)


def halved(size: int) -> list[int]:
    """The chart order of a bracket of `size`, built from its halves."""
    if size == 1:
        return [1]
    top = [2 * v - 1 if v % 2 else 2 * v for v in halved(size // 2)]
    return top + [s + 1 if s % 2 else s - 1 for s in reversed(top)]


def played_out(qualifiers: int) -> list[list[tuple[int, int]]]:
    """Every round's matches, top to bottom, when the better seed always wins: each match as
    (top, bottom), a bye's missing seed as 0. Walks the winners forward with `feeds`.
    """
    matches = [(slot.top or 0, slot.bottom or 0) for slot in first_round(qualifiers)]
    played = [matches]
    while len(matches) > 1:
        nxt: dict[int, dict[str, int]] = {}
        for position, (top, bottom) in enumerate(matches, start=1):
            winner = min(seed for seed in (top, bottom) if seed)
            into, side = feeds(position)
            nxt.setdefault(into, {})[side] = winner
        matches = [(nxt[p]["top"], nxt[p]["bottom"]) for p in sorted(nxt)]
        played.append(matches)
    return played


@pytest.mark.parametrize("qualifiers", QUALIFIERS)
def test_first_round_is_the_chart_order_with_byes_to_the_best_seeds(qualifiers):
    """13.2.c: the classical seeding of the ACC chart; 13.2.d: the byes go to the best seeds."""
    size = bracket_size(qualifiers)
    chart = halved(size)
    slots = first_round(qualifiers)
    assert len(slots) == size // 2
    for index, slot in enumerate(slots):
        top, bottom = chart[2 * index : 2 * index + 2]
        assert slot.position == index + 1
        assert slot.top == (top if top <= qualifiers else None)
        assert slot.bottom == (bottom if bottom <= qualifiers else None)
        assert slot.high == min(top, bottom)
        assert slot.low == (max(top, bottom) if max(top, bottom) <= qualifiers else None)
    byes = sorted(slot.high for slot in slots if slot.low is None)
    assert byes == list(range(1, size - qualifiers + 1))
    assert bye_count(qualifiers) == len(byes)
    seeds = [seed for slot in slots for seed in (slot.top, slot.bottom) if seed is not None]
    assert sorted(seeds) == list(range(1, qualifiers + 1))


@pytest.mark.parametrize("qualifiers", QUALIFIERS)
def test_every_round_pairs_the_seeds_that_sum_to_its_field_plus_one(qualifiers):
    """13.2.c: when the better seed always wins, each round of m players pairs s with m + 1 - s,
    the better one on top in the 1st, 3rd, 5th ... match and below in the 2nd, 4th, ...
    """
    size = bracket_size(qualifiers)
    played = played_out(qualifiers)
    assert len(played) == rounds(size)
    for number, matches in enumerate(played, start=1):
        players = size >> (number - 1)
        for index, (top, bottom) in enumerate(matches):
            # A bye's missing seed is the one the round's sum asks for, and is no qualifier.
            top, bottom = top or players + 1 - bottom, bottom or players + 1 - top
            assert max(top, bottom) <= qualifiers or number == 1
            high, low = sorted((top, bottom))
            assert high + low == players + 1, (number, top, bottom)
            assert high <= qualifiers
            better_on_top = top == high
            assert better_on_top == (index % 2 == 0), (number, index, top, bottom)
    assert played[-1] == [(1, 2)]


@pytest.mark.parametrize("qualifiers", QUALIFIERS)
def test_the_best_seeds_meet_as_late_as_they_can(qualifiers):
    """13.2.c: seeds 1 and 2 meet only in the final, 1 to 4 only from the semi-finals, 1 to 8
    from the quarter-finals.
    """
    size = bracket_size(qualifiers)
    last = rounds(size)
    for best, earliest in ((2, last), (4, last - 1), (8, last - 2)):
        for a, b in itertools.combinations(range(1, min(best, qualifiers) + 1), 2):
            assert seeds_meet_in(a, b, size) >= earliest, (a, b)
    assert seeds_meet_in(1, 2, size) == last


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128, 256])
def test_seeds_meet_where_their_paths_join(size):
    """The round two seeds can first meet: walk both positions forward with `feeds` until they
    reach the same match.
    """
    chart = seed_positions(size)
    for a, b in itertools.combinations(range(1, size + 1, max(1, size // 16)), 2):
        pa, pb = (chart.index(seed) // 2 + 1 for seed in (a, b))
        number = 1
        while pa != pb:
            pa, pb = feeds(pa)[0], feeds(pb)[0]
            number += 1
        assert seeds_meet_in(a, b, size) == number == seeds_meet_in(b, a, size)


def test_the_chart_of_eight():
    """The ACC chart for 8 places: 1-8, 5-4, 3-6, 7-2."""
    assert seed_positions(8) == (1, 8, 5, 4, 3, 6, 7, 2)
    assert seed_positions(2) == (1, 2)
    assert seed_positions(4) == (1, 4, 3, 2)


def test_the_chart_of_sixty_four():
    """The ACC chart for 64 places: the 5-60 pairing is below the 8-57 pairing, 3-62 below 4-61,
    7-58 below 6-59, and 57 is printed above 8.
    """
    pairs = [(slot.top, slot.bottom) for slot in first_round(64)]
    assert pairs[0] == (1, 64)
    assert pairs[-1] == (63, 2)
    for above, below in (((57, 8), (5, 60)), ((61, 4), (3, 62)), ((59, 6), (7, 58))):
        assert pairs.index(below) == pairs.index(above) + 1
    assert first_round(64)[7] == Slot(position=8, top=57, bottom=8, high=8, low=57)


@pytest.mark.parametrize(
    ("entrants", "qualifiers"),
    [(121, 31), (122, 31), (123, 31), (124, 31), (108, 27), (132, 33), (60, 15), (5, 2)]
    + [(2, 2), (3, 2), (4, 2), (8, 2), (9, 3), (1024, 256), (1025, 257)],
)
def test_one_in_four_qualify_rounded_up(entrants, qualifiers):
    """13.2.b: one in four entrants qualify, any fraction rounded up; a final needs two."""
    assert qualifier_count(entrants) == qualifiers


@pytest.mark.parametrize(
    ("qualifiers", "size", "byes", "playing"),
    [(27, 32, 5, 22), (33, 64, 31, 2), (15, 16, 1, 14), (31, 32, 1, 30), (32, 32, 0, 32)]
    + [(2, 2, 0, 2), (3, 4, 1, 2), (5, 8, 3, 2), (256, 256, 0, 256)],
)
def test_byes_fill_the_bracket_to_the_next_power_of_two(qualifiers, size, byes, playing):
    """13.2.d: the ACC's own examples (108 entrants: 27 qualifiers, 5 byes, 22 play round 1; 132:
    33 and 31 byes; 60: 15 and 1 bye). The bracket is not rounded up to a full one.
    """
    assert bracket_size(qualifiers) == size
    assert bye_count(qualifiers) == byes
    slots = first_round(qualifiers)
    assert sum(slot.low is None for slot in slots) == byes
    assert 2 * sum(slot.low is not None for slot in slots) == playing


@pytest.mark.parametrize(
    ("size", "names"),
    [
        (2, ["Final"]),
        (4, ["Semi-finals", "Final"]),
        (8, ["Quarter-finals", "Semi-finals", "Final"]),
        (32, ["Round of 32", "Round of 16", "Quarter-finals", "Semi-finals", "Final"]),
        (256, ["Round of 256", "Round of 128", "Round of 64", "Round of 32", "Round of 16"]),
    ],
)
def test_round_names(size, names):
    assert [round_name(number, size) for number in range(1, len(names) + 1)] == names


def test_a_winner_plays_the_next_match_of_the_pair():
    """Match i of a round feeds match (i + 1) // 2 of the next, on top when i is odd."""
    assert [feeds(position) for position in range(1, 6)] == [
        (1, "top"),
        (1, "bottom"),
        (2, "top"),
        (2, "bottom"),
        (3, "top"),
    ]


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: qualifier_count(1), "at least 2 entrants"),
        (lambda: qualifier_count(0), "at least 2 entrants"),
        (lambda: qualifier_count(True), "at least 2 entrants"),
        (lambda: bracket_size(1), "at least 2 qualifiers"),
        (lambda: first_round(0), "at least 2 qualifiers"),
        (lambda: seed_positions(6), "power of two"),
        (lambda: rounds(1), "power of two"),
        (lambda: round_name(4, 8), "rounds 1 to 3"),
        (lambda: round_name(0, 8), "rounds 1 to 3"),
        (lambda: feeds(0), "1 or more"),
        (lambda: seeds_meet_in(3, 3, 8), "two different seeds"),
        (lambda: seeds_meet_in(1, 9, 8), "seeds 1 to 8"),
    ],
)
def test_bad_numbers_are_refused_with_what_to_change(call, words):
    with pytest.raises(BracketError, match=words):
        call()
