"""Qualifying pairings (tournaments.pairing): every entrant plays every round of two-player games,
against a new opponent while one can be found, and an odd count gives one entrant the round's bye.

The ACC's tournament game is six-card cribbage between two opponents (three-handed cribbage is
not an ACC game; http://cribbage.org/rules/), so a qualifying has no three-player tables: with an
odd count one entrant sits out each round. The club gives that bye to an entrant with the fewest
byes so far, at random among them. (ACC rule 13.2, http://cribbage.org/rules/playoffbracket.asp,
gives the playoffs' byes to the top qualifiers; the qualifying's byes are the club's own rule.)

Terms: *history* is ``met`` (sorted pair -> earlier games together) and ``byes`` (entrant -> byes
had); *brute force* tries every bye among the fewest and every set of tables of the rest; the
*cost* of a round is (repeats, the sum of its pairs' earlier games), as in the module.
"""

import random
import time
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import EXACT_LIMIT, Pairing, PairingError, pair_round


def all_tables(pool):
    """Every way to seat ``pool`` (an even list) two to a table."""
    if not pool:
        yield []
        return
    first, rest = pool[0], pool[1:]
    for i, other in enumerate(rest):
        for tables in all_tables(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tables]


def cost(tables, met):
    counts = [met.get((min(a, b), max(a, b)), 0) for a, b in tables]
    return (sum(1 for c in counts if c), sum(counts))


def brute_cost(entrants, met, byes):
    """The cheapest cost of any round a bye rule allows."""
    players = sorted(entrants)
    if len(players) % 2 == 0:
        return min(cost(t, met) for t in all_tables(players))
    fewest = min(byes.get(p, 0) for p in players)
    return min(
        cost(t, met)
        for bye in players
        if byes.get(bye, 0) == fewest
        for t in all_tables([p for p in players if p != bye])
    )


def fewest_repeats(entrants, met, byes):
    """The fewest repeats of any round the bye rule allows, by a search over the sets of players
    still to seat (independent of the module: no matching, no chance)."""
    players = sorted(entrants)
    n = len(players)
    repeat = [[bool(met.get((a, b), 0) or met.get((b, a), 0)) for b in players] for a in players]
    fewest = min(byes.get(p, 0) for p in players)
    may_sit_out = [byes.get(p, 0) == fewest for p in players]

    @cache
    def least(mask):
        if not mask:
            return 0
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        options = [least(rest & ~(1 << j)) + repeat[i][j] for j in range(i + 1, n) if rest >> j & 1]
        if mask.bit_count() % 2 and may_sit_out[i]:
            options.append(least(rest))
        return min(options) if options else n

    return least((1 << n) - 1)


def check_round(pairing: Pairing, entrants, met, byes):
    """What every round holds: each entrant once, the bye only for an odd count and to one with
    the fewest byes, tables as sorted pairs, and repeats counted from the history."""
    seated = [p for table in pairing.tables for p in table]
    everyone = seated + ([pairing.bye] if pairing.bye is not None else [])
    assert sorted(everyone) == sorted(entrants)
    assert (pairing.bye is None) == (len(entrants) % 2 == 0)
    if pairing.bye is not None:
        assert byes.get(pairing.bye, 0) == min(byes.get(p, 0) for p in entrants)
    assert all(a < b for a, b in pairing.tables)
    assert pairing.repeats == cost(pairing.tables, met)[0]


def play(pairing: Pairing, met, byes):
    """The round's games and bye, added to the history."""
    for pair in pairing.tables:
        met[pair] = met.get(pair, 0) + 1
    if pairing.bye is not None:
        byes[pairing.bye] = byes.get(pairing.bye, 0) + 1


def random_history(entrants, rounds, rng):
    """``rounds`` earlier rounds of random tables, a random entrant sitting out when odd."""
    met, byes = {}, {}
    for _ in range(rounds):
        order = list(entrants)
        rng.shuffle(order)
        if len(order) % 2:
            bye = order.pop()
            byes[bye] = byes.get(bye, 0) + 1
        for a, b in zip(order[::2], order[1::2], strict=True):
            pair = (min(a, b), max(a, b))
            met[pair] = met.get(pair, 0) + 1
    return met, byes


histories = st.builds(
    lambda n, rounds, seed, start: (
        list(range(start, start + n)),
        *random_history(range(start, start + n), rounds, random.Random(seed)),
    ),
    n=st.integers(2, 60),
    rounds=st.integers(0, 21),
    seed=st.integers(0, 2**32),
    start=st.integers(-5, 1000),
)


@settings(max_examples=150, deadline=None)
@given(history=histories, seed=st.integers(0, 2**64))
def test_every_entrant_sits_once_and_the_bye_has_the_fewest(history, seed):
    """Two to a table: each entrant at one table or on the bye; a bye exactly when
    the count is odd, and to an entrant with the fewest byes."""
    entrants, met, byes = history
    pairing = pair_round(entrants=entrants, met=met, byes=byes, seed=seed)
    check_round(pairing, entrants, met, byes)
    assert pairing.seed == seed


@settings(max_examples=60, deadline=None)
@given(history=histories, seed=st.integers(0, 2**64), shuffle=st.randoms(use_true_random=False))
def test_the_same_seed_pairs_the_same_whatever_the_order_of_entrants(history, seed, shuffle):
    entrants, met, byes = history
    first = pair_round(entrants=entrants, met=met, byes=byes, seed=seed)
    listed = list(entrants)
    shuffle.shuffle(listed)
    assert pair_round(entrants=listed, met=dict(met), byes=dict(byes), seed=seed) == first


def test_the_seed_decides_the_tables_their_numbers_and_the_bye():
    """Different seeds give different rounds; table 1 is nobody's in particular (the tables are
    shuffled), and the bye falls on any of those with the fewest byes."""
    entrants = list(range(1, 22))
    byes = {p: 1 for p in range(1, 12)}  # 12..21 have had none
    rounds = [pair_round(entrants=entrants, met={}, byes=byes, seed=s) for s in range(60)]
    assert len({r.tables for r in rounds}) == 60
    assert len({r.tables[0] for r in rounds}) > 30
    assert {r.bye for r in rounds} == set(range(12, 22))


@pytest.mark.parametrize("seed", range(20))
def test_the_bye_goes_where_it_leaves_no_repeat(seed):
    """Of 1 and 2 (the fewest byes), 1 has met 3, 4 and 5: seating 1 would repeat, so 1 sits
    out; the same in a field of 31 where 1 has met all the others."""
    small = pair_round(
        entrants=[1, 2, 3, 4, 5],
        met={(1, 3): 1, (1, 4): 1, (1, 5): 1},
        byes={3: 1, 4: 1, 5: 1},
        seed=seed,
    )
    assert (small.bye, small.repeats) == (1, 0)
    field = range(1, 32)
    large = pair_round(
        entrants=field,
        met={(1, p): 1 for p in range(2, 32)},
        byes={p: 1 for p in range(3, 32)},
        seed=seed,
    )
    assert (large.bye, large.repeats) == (1, 0)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 10),
    density=st.sampled_from([0.0, 0.3, 0.6, 0.8, 0.95, 1.0]),
    history_seed=st.integers(0, 2**32),
    seed=st.integers(0, 2**32),
)
def test_small_rounds_have_the_fewest_repeats_there_are(n, density, history_seed, seed):
    """Up to EXACT_LIMIT players at tables the search is exact: no round the bye rule allows
    has fewer repeats, nor as few with fewer earlier games between its pairs (brute force)."""
    rng = random.Random(history_seed)
    entrants = list(range(1, n + 1))
    met = {pair: rng.randint(1, 3) for pair in combinations(entrants, 2) if rng.random() < density}
    byes = {p: rng.randint(0, 2) for p in entrants}
    pairing = pair_round(entrants=entrants, met=met, byes=byes, seed=seed)
    check_round(pairing, entrants, met, byes)
    assert cost(pairing.tables, met) == brute_cost(entrants, met, byes)


@pytest.mark.parametrize("history_seed", range(6))
@pytest.mark.parametrize("count", [EXACT_LIMIT + 1, EXACT_LIMIT + 2, EXACT_LIMIT + 4])
def test_rounds_over_the_exact_search_have_the_fewest_repeats_too(count, history_seed):
    """Above EXACT_LIMIT players at tables the matching over unmet pairs still leaves no more
    repeats than it must, however crowded the history (a search over every set of players)."""
    rng = random.Random(history_seed)
    entrants = list(range(count))
    density = (0.5, 0.7, 0.8, 0.85, 0.9, 0.95)[history_seed]
    met = {pair: 1 for pair in combinations(entrants, 2) if rng.random() < density}
    pairing = pair_round(entrants=entrants, met=met, byes={}, seed=history_seed)
    check_round(pairing, entrants, met, {})
    assert pairing.repeats == fewest_repeats(entrants, met, {})


@settings(max_examples=60, deadline=None)
@given(n=st.integers(16, 120), data=st.data())
def test_no_repeat_while_fewer_rounds_than_half_the_field(n, data):
    """With r earlier rounds each entrant has met at most r others; while r <= ceil(n/2) - 2
    every entrant has unmet partners among at least half of the others at tables, so a
    repeat-free round always exists, and the pairing finds one."""
    rounds = data.draw(st.integers(0, (n + 1) // 2 - 2), label="rounds")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="history"))
    entrants = list(range(n))
    met, byes = random_history(entrants, rounds, rng)
    pairing = pair_round(entrants=entrants, met=met, byes=byes, seed=rounds)
    check_round(pairing, entrants, met, byes)
    assert pairing.repeats == 0


@pytest.mark.parametrize(
    ("count", "rounds"), [(37, 7), (600, 22), (101, 21), (9, 7), (4, 7), (3, 7), (16, 22)]
)
def test_a_whole_qualifying(count, rounds):
    """A qualifying played out: every round seats everyone once; no repeat while a repeat-free
    round exists (checked by brute force for small fields, and always so from 16 entrants while
    the rounds are fewer than half the field); small fields repeat no more than they must; and
    over the qualifying of an odd count nobody has two byes more than another."""
    entrants = list(range(1000, 1000 + count))
    met, byes = {}, {}
    for number in range(rounds):
        pairing = pair_round(entrants=entrants, met=met, byes=byes, seed=7 * number + count)
        check_round(pairing, entrants, met, byes)
        if count <= 10:
            assert cost(pairing.tables, met) == brute_cost(entrants, met, byes)
        if count >= 16 and rounds < count / 2:
            assert pairing.repeats == 0
        play(pairing, met, byes)
    if count % 2:
        had = [byes.get(p, 0) for p in entrants]
        assert max(had) - min(had) <= 1
        assert sum(had) == rounds
    assert sum(met.values()) == rounds * (count // 2)


@pytest.mark.parametrize("count", [16, 17, 20, 23, 26])
@pytest.mark.parametrize("start", range(4))
def test_no_repeat_while_a_repeat_free_round_exists_to_the_last_round(count, start):
    """Qualifyings of as many rounds as entrants, on to where everyone has met nearly everyone:
    each round repeats no more than the fewest any round allows (a search over every set of
    players), so none while a repeat-free round exists."""
    entrants, met, byes = list(range(count)), {}, {}
    for number in range(count):
        pairing = pair_round(entrants=entrants, met=met, byes=byes, seed=100 * start + number)
        check_round(pairing, entrants, met, byes)
        if pairing.repeats:
            assert pairing.repeats == fewest_repeats(entrants, met, byes)
        play(pairing, met, byes)


@pytest.mark.parametrize(
    ("entrants", "message"),
    [([], "at least two"), ([7], "at least two"), ([3, 1, 3, 2, 1], r"twice: \[1, 3\]")],
)
def test_too_few_or_repeated_entrants_are_refused(entrants, message):
    with pytest.raises(PairingError, match=message):
        pair_round(entrants=entrants, met={}, byes={}, seed=0)


def test_600_entrants_after_21_rounds_pair_within_a_second():
    """A round of the largest qualifying is drawn while the director waits: 600 entrants with
    21 rounds behind them."""
    entrants = list(range(1, 601))
    met, byes = random_history(entrants, 21, random.Random(600))
    times = []
    for seed in range(5):
        start = time.process_time()  # the work done, whatever else the machine is doing
        pairing = pair_round(entrants=entrants, met=met, byes=byes, seed=seed)
        times.append(time.process_time() - start)
        check_round(pairing, entrants, met, byes)
        assert pairing.repeats == 0
    print(f"600 entrants, 21 rounds of history: {max(times) * 1000:.1f} ms (slowest of 5)")
    assert max(times) < 1.0
