"""Drawing a round: who sits at which table, from a stored seed.

Terms:
- *entrant*: a checked-in, active player (an int id) who is seated in the round being drawn.
- *mode*: ``"singles"`` (2-player tables, one 3-player table when the count is odd) or
  ``"partners"`` (4-player tables, the rest as one 2- or 3-player table, or one of each).
- *table kinds*: ``"two"`` (two players alone), ``"three"`` (cut-throat, three alone) and
  ``"partners"`` (four players, seats 0 & 2 against seats 1 & 3).
- *opponents*: two players at one table on different sides: both pairs of a two, all three pairs
  of a three, the four cross pairs of a partners table. *Partners*: seats 0 & 2 or 1 & 3.
- *session repeat*: an opponent pair of this draw that were opponents earlier in this session;
  *season repeat*: one that met in an earlier session of the season; *partner repeat*: a partner
  pair that were partners earlier in this session.
- *3-table count*: how many times a player sat at a 3-player table this session. The draw is
  *fair* when nobody at the 3-player table has a higher count than an entrant who is not there.
- *repeat-free round*: a draw of the round with no session repeat. *Horizon*: how many
  repeat-free rounds in a row can still be drawn from now on (this round included, at most
  ``rounds_remaining``), assuming the same entrants.
- *cost*: the score a draw minimises; see ``draw_round`` for its order.

The module is pure Python (no Django) and deterministic: ``random.Random(seed)`` is the only
source of chance and every search is bounded by a count of steps, never by the clock, so the
same seed, entrants (in any order) and history always give the same draw. docs/draw.md explains
the method and the decisions.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

__all__ = [
    "MODES",
    "Draw",
    "DrawError",
    "DrawHistory",
    "DrawTable",
    "draw_round",
    "swap_seats",
    "table_sizes",
]

MODES: tuple[str, ...] = ("singles", "partners")
TABLE_KINDS: dict[int, str] = {2: "two", 3: "three", 4: "partners"}

#: Up to this many entrants the round is chosen by an exhaustive branch and bound (within
#: ``_SEARCH_STEPS``); above it by local search from a random repeat-free draw.
EXACT_LIMIT = 16

# Step budgets (counted, never timed, so that a draw replays identically on any machine).
_PLAN_STEPS = 30_000  # finding the horizon and a first repeat-free round
_CHECK_STEPS = 3_000  # one "can the rest of the session still be repeat-free?" check
_CHECKS_STEPS = 30_000  # all such checks of one draw together
_SEARCH_STEPS = 100_000  # the branch and bound, counted in candidate tables looked at
_POLISH_STEPS = 60_000  # the local search, counted in swaps looked at
_KICK_SWAPS = 3  # random swaps that shake the local search out of a local optimum
_FIRST_ATTEMPT = 500  # steps of the first of the restarted depth-first searches
_PARTNER_PLAN_STEPS = 20_000  # the same, free of partner repeats too (partners mode)
_TIER_STEPS = 5_000  # looking for a round free of partner and season repeats as well
_FEW_TIES = 6  # check every fair 3-table for an unmet one when at most this many players tie

# One cost level per criterion; a level outweighs every possible total of the levels below it
# for any club (fewer than 2**20 / (pairs in a draw) meetings of one pair per season).
_LEVEL = 1 << 20
_SEASON_TIMES = 1
_SEASON_PAIR = _LEVEL
_PARTNER_TIMES = _LEVEL**2
_PARTNER_PAIR = _LEVEL**3
_SESSION_TIMES = _LEVEL**4
_SESSION_PAIR = _LEVEL**5


class DrawError(ValueError):
    """A draw that cannot be made as asked; the message says what to do instead."""


def _pair_key(pair: object) -> frozenset[int]:
    try:
        key = frozenset(pair)  # type: ignore[arg-type]
    except TypeError:
        key = frozenset()
    if len(key) != 2 or not all(isinstance(pid, int) for pid in key):
        raise DrawError(f"A history pair must be two different player ids, not {pair!r}.")
    return key


def _counts(mapping: Mapping[object, int], *, pairs: bool) -> dict:
    result: dict = {}
    for key, times in mapping.items():
        if not isinstance(times, int) or times < 0:
            raise DrawError(f"A history count must be a whole number >= 0, not {times!r}.")
        if pairs:
            key = _pair_key(key)
        elif not isinstance(key, int):
            raise DrawError(f"A 3-table count must be keyed by a player id, not {key!r}.")
        if times:
            result[key] = result.get(key, 0) + times
    return result


@dataclass(frozen=True)
class DrawTable:
    """One table of a draw: its 1-based number and the player ids in seat order."""

    number: int
    seats: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        if len(self.seats) not in TABLE_KINDS or len(set(self.seats)) != len(self.seats):
            raise DrawError(f"A table seats 2, 3 or 4 different players, not {self.seats!r}.")

    @property
    def kind(self) -> str:
        """``"two"``, ``"three"`` or ``"partners"``."""
        return TABLE_KINDS[len(self.seats)]

    def opponents(self) -> list[frozenset[int]]:
        """The opponent pairs: 1 at a two, 3 at a three, the 4 cross pairs at a partners table."""
        seats = self.seats
        if len(seats) == 4:
            return [frozenset((seats[i], seats[(i + 1) % 4])) for i in range(4)]
        return [frozenset(pair) for pair in combinations(seats, 2)]

    def partners(self) -> list[frozenset[int]]:
        """The partner pairs (seats 0 & 2 and 1 & 3); none at a two or a three."""
        seats = self.seats
        if len(seats) == 4:
            return [frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))]
        return []

    def sides(self) -> list[tuple[int, ...]]:
        """Who scores together: one side per player, or ``[(s0, s2), (s1, s3)]`` at partners."""
        seats = self.seats
        if len(seats) == 4:
            return [(seats[0], seats[2]), (seats[1], seats[3])]
        return [(pid,) for pid in seats]


RoundTables = Iterable["DrawTable | Sequence[int]"]


def _as_tables(round_: Draw | RoundTables) -> list[DrawTable]:
    items = round_.tables if isinstance(round_, Draw) else round_
    return [
        item if isinstance(item, DrawTable) else DrawTable(number=number, seats=tuple(item))
        for number, item in enumerate(items, start=1)
    ]


@dataclass(frozen=True)
class DrawHistory:
    """What the draw avoids: earlier meetings this session and this season.

    Pair keys are normalised to ``frozenset`` of two ids (any two-element iterable is accepted);
    zero counts are dropped. Ids of players who are not entrants of the round are ignored.
    """

    session_opponents: Mapping[frozenset[int], int] = field(default_factory=dict)
    season_opponents: Mapping[frozenset[int], int] = field(default_factory=dict)
    three_table_counts: Mapping[int, int] = field(default_factory=dict)
    session_partners: Mapping[frozenset[int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("session_opponents", "season_opponents", "session_partners"):
            object.__setattr__(self, name, _counts(getattr(self, name), pairs=True))
        object.__setattr__(
            self, "three_table_counts", _counts(self.three_table_counts, pairs=False)
        )

    @classmethod
    def from_rounds(
        cls,
        session_rounds: Iterable[Draw | RoundTables] = (),
        season_rounds: Iterable[Draw | RoundTables] = (),
    ) -> DrawHistory:
        """Build the history from earlier rounds of this session and of earlier sessions.

        A round is a ``Draw`` or a list of tables, each a ``DrawTable`` or a tuple of ids in
        seat order (4 ids: seats 0 & 2 are partners against 1 & 3).
        """
        season: dict[frozenset[int], int] = {}
        for round_ in season_rounds:
            for table in _as_tables(round_):
                for pair in table.opponents():
                    season[pair] = season.get(pair, 0) + 1
        history = cls(season_opponents=season)
        for round_ in session_rounds:
            history = history.with_round(round_)
        return history

    def with_round(self, round_: Draw | RoundTables) -> DrawHistory:
        """This history plus one more round of the same session."""
        opponents = dict(self.session_opponents)
        partners = dict(self.session_partners)
        threes = dict(self.three_table_counts)
        for table in _as_tables(round_):
            for pair in table.opponents():
                opponents[pair] = opponents.get(pair, 0) + 1
            for pair in table.partners():
                partners[pair] = partners.get(pair, 0) + 1
            if len(table.seats) == 3:
                for pid in table.seats:
                    threes[pid] = threes.get(pid, 0) + 1
        return DrawHistory(
            session_opponents=opponents,
            season_opponents=self.season_opponents,
            three_table_counts=threes,
            session_partners=partners,
        )


@dataclass(frozen=True)
class Draw:
    """A drawn round. ``history`` is what it was drawn against (so a hand swap can recount)."""

    seed: int
    mode: str
    tables: tuple[DrawTable, ...]
    session_repeats: int
    season_repeats: int
    partner_repeats: int = 0
    history: DrawHistory = field(default_factory=DrawHistory, repr=False, compare=False)

    def table_of(self, player_id: int) -> DrawTable:
        """The table where ``player_id`` sits."""
        for table in self.tables:
            if player_id in table.seats:
                return table
        raise DrawError(f"Player {player_id} is not seated in this draw.")

    @property
    def players(self) -> list[int]:
        """Every seated player id, table by table in seat order."""
        return [pid for table in self.tables for pid in table.seats]


def _check_mode(mode: object) -> str:
    if mode not in MODES:
        raise DrawError(f"Unknown table mode {mode!r}: use 'singles' or 'partners'.")
    return mode  # type: ignore[return-value]


def _check_count(count: int) -> None:
    if count <= 0:
        raise DrawError(
            "No players are checked in: there is nothing to draw. Check in at least two players."
        )
    if count == 1:
        raise DrawError(
            "Only 1 player is checked in: there is nothing to draw. "
            "Check in at least one more player."
        )


def table_sizes(count: int, mode: str) -> list[int]:
    """The table sizes for ``count`` entrants, in table-number order.

    Singles: twos, then the three (if the count is odd). Partners: partners tables, then the
    three, then the two; ``count % 4`` of 1 gives one three and one two (5 -> [3, 2],
    9 -> [4, 3, 2]), 2 gives one two, 3 gives one three.
    """
    _check_mode(mode)
    _check_count(count)
    if mode == "singles":
        return [2] * (count // 2 - count % 2) + [3] * (count % 2)
    fours, rest = divmod(count, 4)
    tail = {0: [], 1: [3, 2], 2: [2], 3: [3]}[rest]
    if rest == 1:
        fours -= 1
    return [4] * fours + tail


# ---------------------------------------------------------------------------------------------
# The search. Players are indices 0..n-1 into the sorted entrants; a set of players is an int
# bit mask. A *group* is one table's players in seat order; a *round* is a tuple of groups.
# ---------------------------------------------------------------------------------------------


class _Chance:
    """Every random choice of a draw, made from ``random.Random(seed).random()`` alone: the
    seeding and ``random()`` are the parts of the random module whose results Python promises
    to keep across versions (its shuffle and randrange may change), so a stored seed replays
    the same draw after an upgrade."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed).random

    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1."""
        return min(int(self.random() * n), n - 1)

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class _OutOfSteps(Exception):
    """A search used up its step budget."""


class _Enough(Exception):
    """A branch and bound found a draw that no draw can beat."""


class _Steps:
    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise _OutOfSteps


def _members(mask: int) -> list[int]:
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result


def _group_pairs(group: tuple[int, ...]) -> list[tuple[int, int]]:
    if len(group) == 4:
        return [(group[i], group[(i + 1) % 4]) for i in range(4)]
    return list(combinations(group, 2))


@dataclass(frozen=True)
class _Shape:
    fours: int
    threes: int
    twos: int

    @property
    def edges(self) -> int:
        """Opponent pairs used by one round."""
        return 4 * self.fours + 3 * self.threes + self.twos

    @property
    def least_edges_per_player(self) -> int:
        return 1 if self.twos else 2


@dataclass
class _Problem:
    n: int
    shape: _Shape
    unmet: list[int]  # unmet[i]: players i has not yet met as an opponent this session
    fresh: list[int]  # fresh[i]: ... nor earlier in the season
    unpartnered: list[int]  # unpartnered[i]: players i has not partnered this session
    threes: list[int]  # 3-table counts
    opp: list[list[int]]  # cost of an opponent pair
    part: list[list[int]]  # cost of a partner pair

    def group_cost(self, group: tuple[int, ...]) -> int:
        opp = self.opp
        cost = sum(opp[a][b] for a, b in _group_pairs(group))
        if len(group) == 4:
            cost += self.part[group[0]][group[2]] + self.part[group[1]][group[3]]
        return cost

    def round_cost(self, groups: Sequence[tuple[int, ...]]) -> int:
        return sum(self.group_cost(group) for group in groups)


def _build_problem(ids: list[int], mode: str, history: DrawHistory) -> _Problem:
    n = len(ids)
    index = {pid: i for i, pid in enumerate(ids)}
    everyone = (1 << n) - 1
    unmet = [everyone & ~(1 << i) for i in range(n)]
    opp = [[0] * n for _ in range(n)]
    part = [[0] * n for _ in range(n)]

    def add(matrix: list[list[int]], pairs: Mapping, pair_w: int, times_w: int) -> list:
        seen = []
        for pair, times in pairs.items():
            a, b = (index.get(pid) for pid in pair)
            if a is None or b is None:
                continue
            matrix[a][b] += pair_w + times_w * times
            matrix[b][a] = matrix[a][b]
            seen.append((a, b))
        return seen

    for a, b in add(opp, history.session_opponents, _SESSION_PAIR, _SESSION_TIMES):
        unmet[a] &= ~(1 << b)
        unmet[b] &= ~(1 << a)
    fresh = list(unmet)
    for a, b in add(opp, history.season_opponents, _SEASON_PAIR, _SEASON_TIMES):
        fresh[a] &= ~(1 << b)
        fresh[b] &= ~(1 << a)
    unpartnered = [everyone & ~(1 << i) for i in range(n)]
    for a, b in add(part, history.session_partners, _PARTNER_PAIR, _PARTNER_TIMES):
        unpartnered[a] &= ~(1 << b)
        unpartnered[b] &= ~(1 << a)
    sizes = table_sizes(n, mode)
    shape = _Shape(fours=sizes.count(4), threes=sizes.count(3), twos=sizes.count(2))
    threes = [history.three_table_counts.get(pid, 0) for pid in ids]
    return _Problem(
        n=n,
        shape=shape,
        unmet=unmet,
        fresh=fresh,
        unpartnered=unpartnered,
        threes=threes,
        opp=opp,
        part=part,
    )


def _fair_triples(threes: list[int], rng: _Chance) -> Iterator[tuple[int, int, int]]:
    """Every fair 3-table (players with the fewest 3-table seats), in a random order."""
    level = sorted(threes)[2]
    forced = tuple(i for i, times in enumerate(threes) if times < level)
    ties = [i for i, times in enumerate(threes) if times == level]
    rng.shuffle(ties)
    for chosen in combinations(ties, 3 - len(forced)):
        yield forced + chosen  # type: ignore[misc]


def _triangle_ok(adj: list[int], triple: tuple[int, ...]) -> bool:
    a, b, c = triple
    return bool(adj[a] >> b & 1 and adj[a] >> c & 1 and adj[b] >> c & 1)


def _fill(
    adj: list[int],
    free: int,
    fours: int,
    twos: int,
    rng: _Chance,
    steps: _Steps,
    groups: list[tuple[int, ...]],
    padj: list[int] | None = None,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to seat the ``free`` players at twos and partners tables whose opponent pairs
    are all in ``adj`` (and partner pairs in ``padj``, if given): lazily, in a random order,
    seating the most constrained player first."""
    if not free:
        yield tuple(groups)
        return
    steps.spend()
    player, degree = -1, 1 << 30
    mask = free
    while mask:
        low = mask & -mask
        mask ^= low
        candidate = low.bit_length() - 1
        d = (adj[candidate] & free).bit_count()
        if d < degree:
            player, degree = candidate, d
            if d == 0:
                return
    rest = free & ~(1 << player)
    neighbours = _members(adj[player] & rest)
    rng.shuffle(neighbours)
    fours_first = bool(fours) and (not twos or rng.random() < 2 * fours / (2 * fours + twos))
    for kind in (4, 2) if fours_first else (2, 4):
        if kind == 2 and twos:
            for other in neighbours:
                groups.append((player, other))
                left = rest & ~(1 << other)
                yield from _fill(adj, left, fours, twos - 1, rng, steps, groups, padj)
                groups.pop()
        elif kind == 4 and fours and degree >= 2:
            mates = rest if padj is None else rest & padj[player]
            for i, a in enumerate(neighbours):
                for b in neighbours[i + 1 :]:
                    steps.spend()
                    if padj is not None and not padj[a] >> b & 1:
                        continue
                    common = adj[a] & adj[b] & mates & ~((1 << a) | (1 << b))
                    if not common:
                        continue
                    partners = _members(common)
                    rng.shuffle(partners)
                    for x in partners:
                        groups.append((player, a, x, b))
                        left = rest & ~((1 << a) | (1 << b) | (1 << x))
                        yield from _fill(adj, left, fours - 1, twos, rng, steps, groups, padj)
                        groups.pop()


def _repeat_free_rounds(
    adj: list[int],
    threes: list[int],
    shape: _Shape,
    rng: _Chance,
    steps: _Steps,
    padj: list[int] | None = None,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every fair round whose opponent pairs are all in ``adj`` (and partner pairs in
    ``padj``): lazily, in a random order."""
    everyone = (1 << len(adj)) - 1
    if not shape.threes:
        yield from _fill(adj, everyone, shape.fours, shape.twos, rng, steps, [], padj)
        return
    for triple in _fair_triples(threes, rng):
        steps.spend()
        if _triangle_ok(adj, triple):
            free = everyone & ~((1 << triple[0]) | (1 << triple[1]) | (1 << triple[2]))
            yield from _fill(adj, free, shape.fours, shape.twos, rng, steps, [triple], padj)


def _after(
    adj: list[int],
    threes: list[int],
    groups: Sequence[tuple[int, ...]],
    padj: list[int] | None = None,
) -> tuple[list[int], list[int], list[int] | None]:
    """The unmet pairs, 3-table counts and (if given) unpartnered pairs after ``groups``."""
    adj = list(adj)
    threes = list(threes)
    padj = None if padj is None else list(padj)
    for group in groups:
        for a, b in _group_pairs(group):
            adj[a] &= ~(1 << b)
            adj[b] &= ~(1 << a)
        if len(group) == 3:
            for i in group:
                threes[i] += 1
        if len(group) == 4 and padj is not None:
            for a, b in ((group[0], group[2]), (group[1], group[3])):
                padj[a] &= ~(1 << b)
                padj[b] &= ~(1 << a)
    return adj, threes, padj


def _may_last(adj: list[int], threes: list[int], shape: _Shape, rounds: int) -> bool:
    """A quick necessary condition for ``rounds`` more repeat-free rounds: enough unmet pairs
    overall and for every player, and a fair 3-table whose players have not met (checked when
    there are few fair 3-tables, which is when it bites: the last players yet to sit there)."""
    if rounds <= 0:
        return True
    need = rounds * shape.least_edges_per_player
    total = 0
    for mask in adj:
        degree = mask.bit_count()
        if degree < need:
            return False
        total += degree
    if total // 2 < rounds * shape.edges:
        return False
    if shape.threes:
        level = sorted(threes)[2]
        forced = [i for i, times in enumerate(threes) if times < level]
        ties = [i for i, times in enumerate(threes) if times == level]
        if len(ties) <= _FEW_TIES:
            return any(
                _triangle_ok(adj, tuple(forced) + chosen)
                for chosen in combinations(ties, 3 - len(forced))
            )
    return True


def _samples(
    adj: list[int],
    threes: list[int],
    shape: _Shape,
    rng: _Chance,
    steps: _Steps,
    width: int,
    padj: list[int] | None,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Up to ``width`` different repeat-free rounds, each from a fresh random search (so they
    differ everywhere, not just at the last tables as the depth-first order would)."""
    seen = set()
    for _ in range(width):
        groups = next(_repeat_free_rounds(adj, threes, shape, rng, steps, padj), None)
        if groups is None:
            return
        if groups not in seen:
            seen.add(groups)
            yield groups


def _extend(
    adj: list[int],
    threes: list[int],
    shape: _Shape,
    rounds: int,
    rng: _Chance,
    steps: _Steps,
    stack: list,
    deepest: list,
    width: int | None = None,
    padj: list[int] | None = None,
) -> bool:
    """Depth-first search for ``rounds`` more repeat-free rounds (with ``padj``: free of
    partner repeats too); on success ``stack`` holds them. ``deepest`` keeps the longest run
    seen. With ``width`` each round tries at most that many sampled rounds; without, every
    round (then False means there are none, unless ``_OutOfSteps`` was raised)."""
    if rounds == 0:
        return True
    if not _may_last(adj, threes, shape, rounds):
        return False
    if width is None:
        candidates = _repeat_free_rounds(adj, threes, shape, rng, steps, padj)
    else:
        candidates = _samples(adj, threes, shape, rng, steps, width, padj)
    for groups in candidates:
        steps.spend(len(groups))  # the bookkeeping below costs about as much as seating
        stack.append(groups)
        if len(stack) > len(deepest):
            deepest[:] = stack
        next_adj, next_threes, next_padj = _after(adj, threes, groups, padj)
        if _extend(
            next_adj, next_threes, shape, rounds - 1, rng, steps, stack, deepest, width, next_padj
        ):
            return True
        stack.pop()
    return False


def _search(
    adj: list[int],
    threes: list[int],
    shape: _Shape,
    rounds: int,
    rng: _Chance,
    steps: _Steps,
    deepest: list,
    padj: list[int] | None = None,
) -> bool | None:
    """``_extend`` with restarts, since a depth-first search gets stuck below a bad early
    choice. Attempts alternate between a sampled search (a few fresh random rounds at each
    level: finds a run quickly when there are many) and an exhaustive one (the only kind that
    can prove there is none); each pair gets twice the steps of the one before, until the
    budget is spent. True: found (in ``deepest``); False: proven impossible; None: unsure."""
    attempt, width = _FIRST_ATTEMPT, 2
    while steps.left > 0:
        for sampled in (True, False):
            allowed = min(attempt, steps.left)
            budget = _Steps(allowed)
            try:
                done: bool | None = _extend(
                    adj,
                    threes,
                    shape,
                    rounds,
                    rng,
                    budget,
                    [],
                    deepest,
                    width if sampled else None,
                    padj,
                )
            except _OutOfSteps:
                done = None
            steps.left -= allowed - max(budget.left, 0)
            if done or (done is False and not sampled):
                return done
            if steps.left <= 0:
                return None
        attempt, width = 2 * attempt, width + 1
    return None


def _horizon(
    problem: _Problem, rounds: int, rng: _Chance
) -> tuple[int, tuple[tuple[int, ...], ...] | None]:
    """How many repeat-free rounds in a row can be drawn from now (at most ``rounds``), with a
    first round that starts such a run."""
    adj, threes, shape = problem.unmet, problem.threes, problem.shape
    while rounds > 0 and not _may_last(adj, threes, shape, rounds):
        rounds -= 1
    steps = _Steps(_PLAN_STEPS)
    found: list = []
    while rounds > len(found):
        deepest: list = []
        done = _search(adj, threes, shape, rounds, rng, steps, deepest)
        if len(deepest) > len(found):
            found = list(deepest)
        if done or steps.left <= 0:
            break
        rounds -= 1
    return len(found), (found[0] if found else None)


class _Lookahead:
    """Accepts a round when ``rounds`` repeat-free rounds (with ``partners``: free of partner
    repeats too) can still follow it. Each check has ``_CHECK_STEPS``, all checks together
    ``_CHECKS_STEPS``; ``unsure`` records whether a check ever ran out of steps (and so may
    have refused a round that was in fact fine)."""

    def __init__(
        self, problem: _Problem, rounds: int, rng: _Chance, *, partners: bool = False
    ) -> None:
        self.problem, self.rounds, self.rng = problem, rounds, rng
        self.padj = problem.unpartnered if partners else None
        self.pool = _Steps(_CHECKS_STEPS)
        self.unsure = False

    def __call__(self, groups: Sequence[tuple[int, ...]]) -> bool:
        if self.rounds <= 0:
            return True
        if self.pool.left <= 0:
            self.unsure = True
            return False
        problem = self.problem
        adj, threes, padj = _after(problem.unmet, problem.threes, groups, self.padj)
        steps = _Steps(min(_CHECK_STEPS, self.pool.left))
        before = steps.left
        found = _search(adj, threes, problem.shape, self.rounds, self.rng, steps, [], padj)
        self.pool.left -= before - max(steps.left, 0)
        if found is None:
            self.unsure = True
        return bool(found)


def _lower_bound(problem: _Problem, allowed: list[int]) -> tuple[int, list[int]]:
    """Half the sum over players of their cheapest allowed opponent: no round costs less
    (every player has at least one opponent, and an opponent pair is shared by two)."""
    cheapest = [
        min((problem.opp[i][j] for j in _members(allowed[i])), default=0) for i in range(problem.n)
    ]
    return (sum(cheapest) + 1) // 2, cheapest


def _branch_and_bound(
    problem: _Problem,
    allowed: list[int],
    rng: _Chance,
    incumbent: tuple[tuple[int, ...], ...],
    accept: Callable[[tuple[tuple[int, ...], ...]], bool],
) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """The cheapest accepted fair round using only ``allowed`` pairs (exhaustive unless the
    step budget runs out; the bool says whether it was exhaustive)."""
    n, shape, opp, part = problem.n, problem.shape, problem.opp, problem.part
    bound, cheapest = _lower_bound(problem, allowed)
    best: list = [problem.round_cost(incumbent), incumbent]
    steps = _Steps(_SEARCH_STEPS)
    tie_break = list(range(n))
    rng.shuffle(tie_break)

    def leaf(groups: list[tuple[int, ...]], cost: int) -> None:
        if cost >= best[0]:
            return
        found = tuple(groups)
        if accept(found):
            best[0], best[1] = cost, found
            if cost <= bound:
                raise _Enough

    def fill(free: int, fours: int, twos: int, cost: int, rest_bound: int, groups: list) -> None:
        if not free:
            leaf(groups, cost)
            return
        if 2 * cost + rest_bound >= 2 * best[0]:
            return
        player, key = -1, (1 << 30, 0)
        for i in _members(free):
            k = ((allowed[i] & free).bit_count(), tie_break[i])
            if k < key:
                player, key = i, k
        rest = free & ~(1 << player)
        neighbours = _members(allowed[player] & rest)
        options: list = []
        if twos:
            for other in neighbours:
                options.append((opp[player][other], rng.random(), (player, other)))
        if fours:
            for i, a in enumerate(neighbours):
                for b in neighbours[i + 1 :]:
                    common = allowed[a] & allowed[b] & rest & ~((1 << a) | (1 << b))
                    for x in _members(common):
                        cost4 = (opp[player][a] + opp[player][b] + opp[x][a] + opp[x][b]) + (
                            part[player][x] + part[a][b]
                        )
                        options.append((cost4, rng.random(), (player, a, x, b)))
        steps.spend(1 + len(options))
        options.sort()
        for option_cost, _, group in options:
            new_cost = cost + option_cost
            new_bound = rest_bound - sum(cheapest[i] for i in group)
            if 2 * new_cost + new_bound >= 2 * best[0]:
                continue
            groups.append(group)
            left = rest
            for i in group:
                left &= ~(1 << i)
            if len(group) == 2:
                fill(left, fours, twos - 1, new_cost, new_bound, groups)
            else:
                fill(left, fours - 1, twos, new_cost, new_bound, groups)
            groups.pop()

    everyone = (1 << n) - 1
    total_bound = sum(cheapest)
    complete = True
    try:
        if shape.threes:
            triples = []
            for triple in _fair_triples(problem.threes, rng):
                if _triangle_ok(allowed, triple):
                    triples.append((problem.group_cost(triple), rng.random(), triple))
            steps.spend(len(triples))
            triples.sort()
            for cost, _, triple in triples:
                free = everyone & ~((1 << triple[0]) | (1 << triple[1]) | (1 << triple[2]))
                rest_bound = total_bound - sum(cheapest[i] for i in triple)
                fill(free, shape.fours, shape.twos, cost, rest_bound, [triple])
        else:
            fill(everyone, shape.fours, shape.twos, 0, total_bound, [])
    except _Enough:
        pass
    except _OutOfSteps:
        complete = False
    return best[1], complete


def _best_arrangement(problem: _Problem, group: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """A table's cost, and for four players the cheapest of the three ways to pair them."""
    opp = problem.opp
    if len(group) == 2:
        return opp[group[0]][group[1]], group
    if len(group) == 3:
        a, b, c = group
        return opp[a][b] + opp[a][c] + opp[b][c], group
    a, b, c, d = group
    part = problem.part
    ab, ac, ad, bc, bd, cd = opp[a][b], opp[a][c], opp[a][d], opp[b][c], opp[b][d], opp[c][d]
    options = (
        (ab + bc + cd + ad + part[a][c] + part[b][d], (a, b, c, d)),  # a & c partners
        (ac + bc + bd + ad + part[a][b] + part[c][d], (a, c, b, d)),  # a & b partners
        (ab + bd + cd + ac + part[a][d] + part[b][c], (a, b, d, c)),  # a & d partners
    )
    return min(options, key=lambda option: option[0])


class _Seating:
    """A round being improved by local search: tables, their costs, who sits where."""

    def __init__(self, problem: _Problem, groups: Sequence[tuple[int, ...]]) -> None:
        self.problem = problem
        self.tables: list[tuple[int, ...]] = []
        self.costs: list[int] = []
        self.where = [0] * problem.n
        for number, group in enumerate(groups):
            cost, seats = _best_arrangement(problem, tuple(group))
            self.tables.append(seats)
            self.costs.append(cost)
            for i in seats:
                self.where[i] = number
        self.total = sum(self.costs)

    def may_swap(self, i: int, j: int) -> bool:
        """Different tables, and the 3-table stays fair (a swap across its edge needs equal
        3-table counts)."""
        ti, tj = self.where[i], self.where[j]
        if ti == tj:
            return False
        threes = self.problem.threes
        return (len(self.tables[ti]) == 3) == (len(self.tables[tj]) == 3) or (
            threes[i] == threes[j]
        )

    def swap_gain(self, i: int, j: int) -> tuple[int, tuple, tuple]:
        ti, tj = self.where[i], self.where[j]
        table_i, table_j = self.tables[ti], self.tables[tj]
        if len(table_i) == 2 and len(table_j) == 2:
            # Two 2-tables (most of a singles round): i takes j's seat opposite j's opponent.
            opp = self.problem.opp
            a, b = table_i
            c, d = table_j
            new_i = (opp[j][b], (j, b)) if a == i else (opp[a][j], (a, j))
            new_j = (opp[i][d], (i, d)) if c == j else (opp[c][i], (c, i))
        else:
            new_i = _best_arrangement(self.problem, tuple(j if p == i else p for p in table_i))
            new_j = _best_arrangement(self.problem, tuple(i if p == j else p for p in table_j))
        return self.costs[ti] + self.costs[tj] - new_i[0] - new_j[0], new_i, new_j

    def swap(self, i: int, j: int, new_i: tuple, new_j: tuple) -> None:
        ti, tj = self.where[i], self.where[j]
        self.total += new_i[0] + new_j[0] - self.costs[ti] - self.costs[tj]
        (self.costs[ti], self.tables[ti]), (self.costs[tj], self.tables[tj]) = new_i, new_j
        self.where[i], self.where[j] = tj, ti

    def descend(self, todo: list[int], rng: _Chance, steps: _Steps) -> None:
        """Swap while a swap lowers the cost, looking again at every player whose table
        changed (first improvement, random order)."""
        others = list(range(self.problem.n))
        rng.shuffle(others)
        queued = set(todo)
        while todo:
            i = todo.pop()
            queued.discard(i)
            steps.spend(len(others))
            for j in others:
                if not self.may_swap(i, j):
                    continue
                gain, new_i, new_j = self.swap_gain(i, j)
                if gain > 0:
                    moved = self.tables[self.where[i]] + self.tables[self.where[j]]
                    self.swap(i, j, new_i, new_j)
                    for k in moved:
                        if k not in queued:
                            queued.add(k)
                            todo.append(k)
                    break


def _polish(
    problem: _Problem, groups: tuple[tuple[int, ...], ...], bound: int, rng: _Chance
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Iterated local search: descend by swapping two players at different tables (each
    partners table re-paired at its best), then repeatedly kick the best round with a few
    random swaps and descend again, keeping the best, until the cost reaches ``bound`` or
    ``_POLISH_STEPS`` are spent."""
    seating = _Seating(problem, groups)
    steps = _Steps(_POLISH_STEPS)
    players = list(range(problem.n))
    with contextlib.suppress(_OutOfSteps):
        seating.descend(list(players), rng, steps)
    best, best_cost = tuple(seating.tables), seating.total
    while best_cost > bound and steps.left > 0:
        steps.left -= problem.n  # a kick costs something even when no swap was allowed
        kicked: list[int] = []
        for _ in range(_KICK_SWAPS):
            i, j = players[rng.below(problem.n)], players[rng.below(problem.n)]
            if seating.may_swap(i, j):
                _, new_i, new_j = seating.swap_gain(i, j)
                seating.swap(i, j, new_i, new_j)
                kicked += [i, j]
        with contextlib.suppress(_OutOfSteps):
            seating.descend(kicked, rng, steps)
        if seating.total <= best_cost:
            best, best_cost = tuple(seating.tables), seating.total
        else:
            seating = _Seating(problem, best)
    return best, best_cost


def _random_round(problem: _Problem, rng: _Chance) -> tuple[tuple[int, ...], ...]:
    """A random fair round, repeats or not."""
    players = list(range(problem.n))
    groups: list[tuple[int, ...]] = []
    if problem.shape.threes:
        triple = next(_fair_triples(problem.threes, rng))
        groups.append(triple)
        players = [i for i in players if i not in triple]
    rng.shuffle(players)
    for _ in range(problem.shape.fours):
        groups.append(tuple(players[:4]))
        players = players[4:]
    while players:
        groups.append(tuple(players[:2]))
        players = players[2:]
    return tuple(groups)


def _first_round(
    problem: _Problem, adj: list[int], padj: list[int] | None, rng: _Chance
) -> tuple[tuple[int, ...], ...] | None:
    """A random fair round with opponents in ``adj`` and partners in ``padj``, if one is found
    within ``_TIER_STEPS``."""
    rounds = _repeat_free_rounds(adj, problem.threes, problem.shape, rng, _Steps(_TIER_STEPS), padj)
    try:
        return next(rounds, None)
    except _OutOfSteps:
        return None


def _choose_round(
    problem: _Problem, rounds_remaining: int, rng: _Chance
) -> tuple[tuple[int, ...], ...]:
    """The round to draw; see ``draw_round`` for the order of preference."""
    horizon, witness = _horizon(problem, rounds_remaining, rng)
    accept = _Lookahead(problem, horizon - 1, rng)
    if witness is not None and problem.shape.fours:
        # Partners second: keep the same horizon free of partner repeats too, if possible.
        plan: list = []
        steps = _Steps(_PARTNER_PLAN_STEPS)
        unmet, threes, unpartnered = problem.unmet, problem.threes, problem.unpartnered
        if _search(unmet, threes, problem.shape, horizon, rng, steps, plan, unpartnered):
            witness = plan[0]
            accept = _Lookahead(problem, horizon - 1, rng, partners=True)
    if witness is not None:
        allowed = problem.unmet
        best = witness
    else:
        everyone = (1 << problem.n) - 1
        allowed = [everyone & ~(1 << i) for i in range(problem.n)]
        best = _random_round(problem, rng)
    cost = problem.round_cost(best)
    bound = _lower_bound(problem, allowed)[0]
    if witness is not None and cost > bound:
        # Try for a round free of partner and season repeats too, then of each alone.
        partnered = problem.unpartnered if problem.shape.fours else None
        for adj, padj in ((problem.fresh, partnered), (problem.unmet, partnered)):
            found = _first_round(problem, adj, padj, rng)
            if found is not None:
                found_cost = problem.round_cost(found)
                if found_cost < cost and accept(found):
                    best, cost = found, found_cost
                    if cost <= bound:
                        break
    complete = False
    if cost > bound and problem.n <= EXACT_LIMIT:
        best, complete = _branch_and_bound(problem, allowed, rng, best, accept)
        complete = complete and not accept.unsure
        cost = problem.round_cost(best)
    if cost > bound and not complete:
        polished, polished_cost = _polish(problem, best, bound, rng)
        if polished_cost < cost and accept(polished):
            best = polished
    return best


def _seat(
    groups: Sequence[tuple[int, ...]], ids: list[int], mode: str, rng: _Chance
) -> list[tuple[int, ...]]:
    """Table numbers in ``table_sizes`` order, random among tables of one size; random seats
    within each table (a partners table keeps its partners opposite)."""
    by_size: dict[int, list[tuple[int, ...]]] = {4: [], 3: [], 2: []}
    for group in groups:
        by_size[len(group)].append(group)
    tables = []
    for size in dict.fromkeys(table_sizes(len(ids), mode)):
        rng.shuffle(by_size[size])
        for group in by_size[size]:
            seats = list(group)
            if size == 4:
                turn = rng.below(4)
                seats = seats[turn:] + seats[:turn]
                if rng.random() < 0.5:
                    seats = [seats[0], seats[3], seats[2], seats[1]]
            else:
                rng.shuffle(seats)
            tables.append(tuple(ids[i] for i in seats))
    return tables


def _make_draw(
    *, seed: int, mode: str, seatings: Sequence[tuple[int, ...]], history: DrawHistory
) -> Draw:
    tables = tuple(
        DrawTable(number=number, seats=seats) for number, seats in enumerate(seatings, start=1)
    )
    session = season = partners = 0
    for table in tables:
        for pair in table.opponents():
            session += pair in history.session_opponents
            season += pair in history.season_opponents
        for pair in table.partners():
            partners += pair in history.session_partners
    return Draw(
        seed=seed,
        mode=mode,
        tables=tables,
        session_repeats=session,
        season_repeats=season,
        partner_repeats=partners,
        history=history,
    )


def _check_entrants(entrants: Sequence[int]) -> list[int]:
    seen: set[int] = set()
    for pid in entrants:
        if not isinstance(pid, int) or isinstance(pid, bool):
            raise DrawError(f"Entrants are player ids (whole numbers), not {pid!r}.")
        if pid in seen:
            raise DrawError(f"Player {pid} is entered twice: check each player in only once.")
        seen.add(pid)
    _check_count(len(seen))
    return sorted(seen)


def draw_round(
    *,
    entrants: Sequence[int],
    mode: str,
    seed: int,
    history: DrawHistory | None = None,
    rounds_remaining: int = 1,
) -> Draw:
    """Seat every entrant for one round.

    The shapes come from ``table_sizes`` and the 3-table is always fair (hard rule). Among the
    fair draws it returns the cheapest it finds, comparing in this order:

    1. this round has no session repeat if any fair draw has none; and then it also keeps
       the next ``horizon - 1`` rounds repeat-free (``rounds_remaining`` includes this round);
       otherwise fewest session repeats, then fewest earlier meetings of those pairs;
    2. fewest partner repeats (partners mode), then fewest earlier partnerships of those pairs;
    3. fewest season repeats, then fewest season meetings of those pairs;
    4. ties broken by ``random.Random(seed)``.
    """
    mode = _check_mode(mode)
    ids = _check_entrants(entrants)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise DrawError(f"The seed must be a whole number, not {seed!r}.")
    if not isinstance(rounds_remaining, int) or rounds_remaining < 1:
        raise DrawError("rounds_remaining counts this round too, so it must be at least 1.")
    history = history if history is not None else DrawHistory()
    rng = _Chance(seed)
    problem = _build_problem(ids, mode, history)
    groups = _choose_round(problem, rounds_remaining, rng)
    return _make_draw(seed=seed, mode=mode, seatings=_seat(groups, ids, mode, rng), history=history)


def swap_seats(draw: Draw, a: int, b: int) -> Draw:
    """The organiser's hand swap: ``a`` takes ``b``'s seat and ``b`` takes ``a``'s; the repeats
    are recounted against the history the draw was made with."""
    if a == b:
        raise DrawError("Choose two different players to swap.")
    seated = set(draw.players)
    for pid in (a, b):
        if pid not in seated:
            raise DrawError(f"Player {pid} is not seated in this draw: choose a seated player.")
    swap = {a: b, b: a}
    seatings = [tuple(swap.get(pid, pid) for pid in table.seats) for table in draw.tables]
    return _make_draw(seed=draw.seed, mode=draw.mode, seatings=seatings, history=draw.history)
