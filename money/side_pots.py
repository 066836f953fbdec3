"""What a settling does with the club's side pots (docs/spec.md, "The pot and payouts"): what
each pot carried over and took in, who won it and what each winner is paid, what rolls over.

Pure Python: the standard library and the pure payout plan (`money.payout`), no Django (a test
enforces it). The services read the pots' balances, the coins and the winners, pass them in as
plain values, and write the ledger rows and the payout sheet the `SidePotPlan` describes.

Terms:
- side pot: a club-wide pot that lives from session to session: the skunk bank and the 29, 28
  and 24 jackpots, named by their key as `money.models.Pot` names them ("skunk_bank",
  "jackpot_29").
- carried over: what the pot held before this settling (the sum of its ledger rows), in cents.
- money in: the coins paid into the pot this session, each a `Coin` (who paid, how many cents):
  the skunk coins taken from skunked players, or the jackpot contributions recorded on the paid
  check-ins. Every coin is a whole number of cents above 0.
- winners: the players who won the pot this session, each once, in the order given (the services
  give them by player id): whoever gave a double skunk, for the skunk bank; whoever had a hand of
  the jackpot's count accepted, for a jackpot.
- shares: what the winners are paid: the whole pot (carried over + money in), split as a tie for
  first place is split (`money.payout.plan_payouts`, equal weights, in payout coins): equal whole
  coins, the indivisible coins and the odd cents (`pot % coin`, to one winner only) settled by a
  cut seeded by the settlement's seed. A winner whose share is 0 (more winners than coins) is
  not listed.
- rolled over: what the pot keeps for the next session: all of it when nobody won it (or it held
  nothing to pay), else nothing.
- steps: how the shares were worked out, the payout plan's explanation; none when nobody is paid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from money.payout import PayoutError, RankedPlayer, plan_payouts


@dataclass(frozen=True)
class Coin:
    """Money paid into a side pot this session."""

    player_id: int
    cents: int


@dataclass(frozen=True)
class SidePot:
    """What a settling knows of one side pot before it is planned."""

    pot: str
    carried_cents: int  # its balance before this settling
    coins: tuple[Coin, ...] = ()  # money in, in the order it is booked
    winners: tuple[int, ...] = ()  # player ids, each once


@dataclass(frozen=True)
class Share:
    """What one winner of a side pot is paid."""

    player_id: int
    cents: int


@dataclass(frozen=True)
class SidePotPlan:
    pot: str
    carried_cents: int
    coins: tuple[Coin, ...]
    in_cents: int  # the coins' sum
    shares: tuple[Share, ...]  # the winners paid more than 0, in the order they were given
    won_cents: int  # the shares' sum
    rolled_cents: int  # what the pot keeps for the next session
    steps: tuple[str, ...]

    @property
    def in_count(self) -> int:
        return len(self.coins)


def plan_side_pot(side_pot: SidePot, *, coin_cents: int, seed: int) -> SidePotPlan:
    """Settle one side pot: its winners share the whole of it (carried over and money in) in
    payout coins of `coin_cents`, a cut seeded by `seed` deciding what cannot be split evenly;
    with no winner, or nothing in it to pay, it all rolls over. Raises PayoutError for money in
    that is not whole cents above 0, a winner listed twice, or a bad payout coin or seed."""
    _check(side_pot, coin_cents=coin_cents, seed=seed)
    coins = tuple(side_pot.coins)
    in_cents = sum(coin.cents for coin in coins)
    balance = side_pot.carried_cents + in_cents
    shares: tuple[Share, ...] = ()
    steps: tuple[str, ...] = ()
    if side_pot.winners and balance > 0:
        plan = plan_payouts(
            pot_cents=balance,
            players=[RankedPlayer(player_id=pid, rank=1) for pid in side_pot.winners],
            paid_places=len(side_pot.winners),
            weights="equal",
            coin_cents=coin_cents,
            seed=seed,
        )
        shares = tuple(
            Share(player_id=payout.player_id, cents=payout.amount_cents)
            for payout in plan.payouts
            if payout.amount_cents
        )
        steps = plan.steps
    won_cents = sum(share.cents for share in shares)
    return SidePotPlan(
        pot=side_pot.pot,
        carried_cents=side_pot.carried_cents,
        coins=coins,
        in_cents=in_cents,
        shares=shares,
        won_cents=won_cents,
        rolled_cents=0 if shares else balance,
        steps=steps,
    )


def plan_side_pots(
    side_pots: Sequence[SidePot], *, coin_cents: int, seed: int
) -> tuple[SidePotPlan, ...]:
    """Settle each side pot (`plan_side_pot`), in the order given, each with the same seed."""
    pots = [side_pot.pot for side_pot in side_pots]
    if len(set(pots)) != len(pots):
        raise PayoutError(f"Each side pot is settled once (got {pots}).")
    return tuple(
        plan_side_pot(side_pot, coin_cents=coin_cents, seed=seed) for side_pot in side_pots
    )


def _check(side_pot: SidePot, *, coin_cents: int, seed: int) -> None:
    if not _is_whole(coin_cents) or coin_cents <= 0:
        raise PayoutError(
            f"The payout coin must be a whole number of cents, 1 or more (got {coin_cents!r})."
        )
    if not _is_whole(seed):
        raise PayoutError(f"The seed must be a whole number (got {seed!r}).")
    for coin in side_pot.coins:
        if not _is_whole(coin.cents) or coin.cents <= 0:
            raise PayoutError(
                f"Money into the {side_pot.pot} must be whole cents above 0 "
                f"(player {coin.player_id} paid {coin.cents!r})."
            )
    if len(set(side_pot.winners)) != len(side_pot.winners):
        raise PayoutError(
            f"Each winner of the {side_pot.pot} is listed once (got {list(side_pot.winners)})."
        )
    if not _is_whole(side_pot.carried_cents):
        raise PayoutError(
            f"What the {side_pot.pot} carried over must be whole cents "
            f"(got {side_pot.carried_cents!r})."
        )


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
