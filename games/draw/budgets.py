"""How much searching a draw may do, and its one source of chance.

Terms:
- *step*: one unit of search work (a candidate table looked at, a swap tried). Every search is
  bounded by a count of steps, never by the clock, so a draw replays identically on any machine;
  the budgets below are the counts.
- *chance*: ``Chance``, every random choice of a draw, from ``random.Random(seed).random()``
  alone (the part of the random module Python promises to keep across versions). It is the
  package's one public name here (``games.draw.Chance``): a seed is a draw's record, and what a
  seed yields is part of the draw's contract.
"""

from __future__ import annotations

import random

#: Up to this many entrants the round is chosen by an exhaustive branch and bound (within
#: ``_SEARCH_STEPS``); above it by local search from a random repeat-free draw.
EXACT_LIMIT = 16

# Step budgets (counted, never timed, so that a draw replays identically on any machine).
_PLAN_STEPS = 100_000  # finding the horizon and a first repeat-free round
_EXACT_STEPS = 1_000_000  # the exact search for one repeat-free round, when the others failed
_CHECK_STEPS = 3_000  # one "can the rest of the session still be repeat-free?" check
_CHECKS_STEPS = 30_000  # all such checks of one draw together
_SEARCH_STEPS = 100_000  # the branch and bound, counted in candidate tables looked at
_POLISH_STEPS = 60_000  # the local search, counted in swaps looked at
_KICK_SWAPS = 3  # random swaps that shake the local search out of a local optimum
_FIRST_ATTEMPT = 500  # steps of the first of the restarted depth-first searches
_PARTNER_PLAN_STEPS = 20_000  # the same, free of partner repeats too (partners mode)
_TIER_STEPS = 5_000  # looking for a round free of partner and season repeats as well
_FEW_TIES = 6  # check every fair 3-table for an unmet one when at most this many players tie


class Chance:
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
