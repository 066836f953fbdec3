"""Where the money app asks the apps above it: who plans a session's pot when it is not a
Thursday's, and what of theirs stops a session being settled.

Terms:
- pot plan: how a session's pot is paid, as settling writes it (`PotPlan`): the `PayoutPlan` of
  its players, what the club keeps of the pot (`kept_cents`, booked as the club's share: a
  ledger row out of the session pot with no player), and the sentences that say how the money
  paid out was made (`steps`, shown before the payout plan's own; empty: the pot's sentence
  of `SettleInputs.pot_text`). The payouts and what is kept add up to the pot exactly.
- planner: a function `(session, inputs, seed) -> PotPlan | None` an app above registers with
  `register_pot_plan` (in its AppConfig's `ready()`); it answers for the sessions that are its
  own (a tournament's) and None for the others. `money.services.settle_plan` takes the first
  planner that answers, in registration order, else plans a Thursday: the house rules' paid
  places and weights over the session's standings, nothing kept.
- settle blocker: a function `(session) -> list[str]` an app above registers with
  `register_settle_blockers`; each sentence says what of that app stops the session being
  settled now and what to do ("The playoffs are not finished: ..."). `money.selectors.
  settle_blockers` lists them after its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from club.models import Session
from money.payout import PayoutPlan

if TYPE_CHECKING:  # money.selectors asks this module for the blockers
    from money.selectors import SettleInputs


@dataclass(frozen=True)
class PotPlan:
    """A session pot paid as an app above plans it: `payouts` to the players, `kept_cents` to
    the club, `steps` saying how the money paid out was made (see the module's terms)."""

    payouts: PayoutPlan
    kept_cents: int = 0
    steps: tuple[str, ...] = ()


Planner = Callable[[Session, "SettleInputs", int], PotPlan | None]

_PLANNERS: dict[str, Planner] = {}


def register_pot_plan(*, name: str, planner: Planner) -> None:
    """Add a planner of a session's pot (registering a name again replaces it)."""
    _PLANNERS[name] = planner


def pot_plan(session: Session, inputs: SettleInputs, seed: int) -> PotPlan | None:
    """The first registered planner's plan of `session`'s pot, or None: a Thursday's."""
    for planner in _PLANNERS.values():
        plan = planner(session, inputs, seed)
        if plan is not None:
            return plan
    return None


SettleBlockers = Callable[[Session], list[str]]

_BLOCKERS: dict[str, SettleBlockers] = {}


def register_settle_blockers(*, name: str, blockers: SettleBlockers) -> None:
    """Add what of an app stops a session being settled (registering a name again replaces
    it)."""
    _BLOCKERS[name] = blockers


def registered_blockers(session: Session) -> list[str]:
    """What the apps above say stops `session` being settled, one sentence each."""
    return [text for blockers in _BLOCKERS.values() for text in blockers(session)]
