"""The draw's public functions: ``draw_round`` (seat every entrant for one round, from a seed)
and ``swap_seats`` (an organiser's hand swap), and how a round is chosen.

Terms: the *order of preference* is ``draw_round``'s docstring; a *tier* is a round free of
partner and season repeats as well, tried before the searches.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.draw.budgets import (
    _PARTNER_PLAN_STEPS,
    _TIER_STEPS,
    EXACT_LIMIT,
    Chance,
    _OutOfSteps,
    _Steps,
)
from games.draw.exact import _branch_and_bound
from games.draw.feasible import _exact_round
from games.draw.local import _polish, _random_round
from games.draw.planner import _horizon, _Lookahead, _repeat_free_rounds, _search
from games.draw.problem import _build_problem, _lower_bound, _Problem
from games.draw.seating import _make_draw, _seat
from games.draw.types import Draw, DrawError, DrawHistory, _check_count, _check_mode


def _first_round(
    problem: _Problem, adj: list[int], padj: list[int] | None, rng: Chance
) -> tuple[tuple[int, ...], ...] | None:
    """A random fair round with opponents in ``adj`` and partners in ``padj``, if one is found
    within ``_TIER_STEPS``."""
    rounds = _repeat_free_rounds(adj, problem.threes, problem.shape, rng, _Steps(_TIER_STEPS), padj)
    try:
        return next(rounds, None)
    except _OutOfSteps:
        return None


def _choose_round(
    problem: _Problem, rounds_remaining: int, rng: Chance, seed: int
) -> tuple[tuple[int, ...], ...]:
    """The round to draw; see ``draw_round`` for the order of preference."""
    horizon, witness = _horizon(problem, rounds_remaining, rng)
    if witness is None:
        # The budgeted planner found no repeat-free round: make sure there is none. Its own
        # stream of chance, so that every draw the planner settles is the same as before.
        witness = _exact_round(problem, Chance(2 * seed + 1))
        horizon = 1 if witness is not None else 0
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
    if cost > bound and not complete and not accept.spent:
        polished, polished_cost = _polish(problem, best, bound, rng)
        if polished_cost < cost and accept(polished):
            best = polished
    return best


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

    1. this round has no session repeat if any fair draw has none (an exact search,
       ``games.draw.feasible``, makes sure when the budgeted planner found none); and then it
       also keeps the next ``horizon - 1`` rounds repeat-free (``rounds_remaining`` includes
       this round);
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
    rng = Chance(seed)
    problem = _build_problem(ids, mode, history)
    groups = _choose_round(problem, rounds_remaining, rng, seed)
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
