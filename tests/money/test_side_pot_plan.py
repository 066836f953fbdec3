"""The side-pot plan (money/side_pots.py): worked cases, bad inputs, properties that every pot's
money adds up. No database, no Django (tests/test_architecture.py checks the module is pure).

Terms as in money/side_pots.py: a side pot *carried over* its balance, takes *money in* (coins),
its *winners* share the whole of it in payout *coins* (the *odd cents* to one winner, a seeded
cut deciding what cannot be split evenly), and what nobody wins *rolls over*.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from money.payout import PayoutError
from money.side_pots import Coin, Share, SidePot, SidePotPlan, plan_side_pot, plan_side_pots


def coins(*cents: int) -> tuple[Coin, ...]:
    """Coins paid by players 101, 102, ... of these amounts."""
    return tuple(Coin(player_id=100 + index, cents=c) for index, c in enumerate(cents, start=1))


def assert_adds_up(plan: SidePotPlan, side_pot: SidePot, coin_cents: int) -> None:
    """Everything docs/spec.md promises about a side pot, checked on any plan."""
    assert plan.pot == side_pot.pot
    assert plan.carried_cents == side_pot.carried_cents
    assert plan.coins == tuple(side_pot.coins) and plan.in_count == len(side_pot.coins)
    assert plan.in_cents == sum(coin.cents for coin in side_pot.coins)
    # Money in + carried over = paid out + rolled over, to the cent.
    assert plan.carried_cents + plan.in_cents == plan.won_cents + plan.rolled_cents
    assert plan.won_cents == sum(share.cents for share in plan.shares)
    # Nobody is paid twice, only winners are paid, in the order given, and never 0.
    paid = [share.player_id for share in plan.shares]
    assert len(paid) == len(set(paid))
    assert paid == [pid for pid in side_pot.winners if pid in paid]
    assert all(share.cents > 0 for share in plan.shares)
    balance = plan.carried_cents + plan.in_cents
    if not side_pot.winners or balance <= 0:
        # Nobody wins it (or it holds nothing to pay): all of it rolls over.
        assert (plan.shares, plan.won_cents, plan.rolled_cents, plan.steps) == ((), 0, balance, ())
        return
    assert (plan.won_cents, plan.rolled_cents) == (balance, 0)
    assert plan.steps
    # Whole coins, but for the odd cents, which go to exactly one winner.
    whole, odd = divmod(balance, coin_cents)
    off_coin = [share for share in plan.shares if share.cents % coin_cents]
    if odd:
        assert len(off_coin) == 1 and off_coin[0].cents % coin_cents == odd
    else:
        assert off_coin == []
    # An equal split: every winner gets the same coins, give or take the one a cut decides;
    # a winner goes unpaid only when there are fewer coins than winners.
    each = whole // len(side_pot.winners)
    for share in plan.shares:
        assert (share.cents - (odd if share in off_coin else 0)) // coin_cents in (each, each + 1)
    if len(plan.shares) < len(side_pot.winners):
        assert each == 0


# --- worked cases, by hand -------------------------------------------------------------------


def test_nobody_wins_and_it_all_rolls_over() -> None:
    side_pot = SidePot(pot="skunk_bank", carried_cents=75, coins=coins(25, 25))
    plan = plan_side_pot(side_pot, coin_cents=25, seed=1)
    assert plan == SidePotPlan(
        pot="skunk_bank",
        carried_cents=75,
        coins=coins(25, 25),
        in_cents=50,
        shares=(),
        won_cents=0,
        rolled_cents=125,
        steps=(),
    )
    assert plan.in_count == 2


def test_one_winner_takes_what_was_carried_over_and_what_came_in() -> None:
    side_pot = SidePot(pot="jackpot_29", carried_cents=40, coins=coins(10, 10), winners=(7,))
    plan = plan_side_pot(side_pot, coin_cents=25, seed=1)
    assert plan.shares == (Share(player_id=7, cents=60),)
    assert (plan.in_cents, plan.won_cents, plan.rolled_cents) == (20, 60, 0)
    assert plan.steps[-1] == "Paid: player 7 60¢."
    assert_adds_up(plan, side_pot, 25)


def test_two_winners_share_the_bank_and_a_cut_gives_the_odd_coin() -> None:
    # 100¢ carried and five 25¢ skunk coins: 225¢ = 9 coins, 4 each and 1 indivisible coin.
    # Seed 1 deals player 1 the king of hearts and player 2 the three: player 1 takes it.
    side_pot = SidePot(pot="skunk_bank", carried_cents=100, coins=coins(*[25] * 5), winners=(1, 2))
    plan = plan_side_pot(side_pot, coin_cents=25, seed=1)
    assert plan.shares == (Share(player_id=1, cents=125), Share(player_id=2, cents=100))
    assert (plan.won_cents, plan.rolled_cents) == (225, 0)
    assert "Cut for 1 indivisible coin (25¢): player 1 KH, player 2 3H: player 1 takes it" in (
        plan.steps
    )
    assert_adds_up(plan, side_pot, 25)


def test_odd_cents_of_the_contributions_go_to_one_winner() -> None:
    # Three 10¢ contributions with 25¢ coins: 30¢ = 1 coin and 5 odd cents. Two winners: one
    # coin cannot be split, so the cut's winner takes it and the odd cents; the other is not paid.
    side_pot = SidePot(pot="jackpot_24", carried_cents=0, coins=coins(10, 10, 10), winners=(3, 4))
    plan = plan_side_pot(side_pot, coin_cents=25, seed=1)
    (share,) = plan.shares
    assert share.cents == 30 and share.player_id in (3, 4)
    assert plan.rolled_cents == 0
    assert_adds_up(plan, side_pot, 25)


def test_more_winners_than_coins_pays_a_coin_each_to_the_cuts_winners() -> None:
    side_pot = SidePot(pot="skunk_bank", carried_cents=25, coins=coins(25), winners=(1, 2, 3))
    plan = plan_side_pot(side_pot, coin_cents=25, seed=3)
    assert [share.cents for share in plan.shares] == [25, 25]
    assert {share.player_id for share in plan.shares} < {1, 2, 3}
    assert_adds_up(plan, side_pot, 25)


@pytest.mark.parametrize("carried", [0, -25], ids=["empty", "below zero"])
def test_a_winner_of_a_pot_with_nothing_in_it_is_paid_nothing(carried: int) -> None:
    side_pot = SidePot(pot="jackpot_28", carried_cents=carried, winners=(9,))
    plan = plan_side_pot(side_pot, coin_cents=25, seed=1)
    assert (plan.shares, plan.won_cents, plan.rolled_cents, plan.steps) == ((), 0, carried, ())


def test_each_pot_is_planned_on_its_own_with_the_same_seed() -> None:
    bank = SidePot(pot="skunk_bank", carried_cents=50, coins=coins(25), winners=(1, 2))
    jackpot = SidePot(pot="jackpot_29", carried_cents=0, coins=coins(10, 10))
    plans = plan_side_pots([bank, jackpot], coin_cents=25, seed=8)
    assert plans == (
        plan_side_pot(bank, coin_cents=25, seed=8),
        plan_side_pot(jackpot, coin_cents=25, seed=8),
    )
    assert plan_side_pots([], coin_cents=25, seed=8) == ()


# --- bad inputs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("side_pot", "coin_cents", "seed", "message"),
    [
        (
            SidePot(pot="skunk_bank", carried_cents=0, coins=coins(25, 0)),
            25,
            1,
            "Money into the skunk_bank must be whole cents above 0 (player 102 paid 0).",
        ),
        (
            SidePot(pot="jackpot_29", carried_cents=0, coins=coins(2.5)),
            25,
            1,
            "Money into the jackpot_29 must be whole cents above 0 (player 101 paid 2.5).",
        ),
        (
            SidePot(pot="jackpot_29", carried_cents=0, winners=(4, 5, 4)),
            25,
            1,
            "Each winner of the jackpot_29 is listed once (got [4, 5, 4]).",
        ),
        (
            SidePot(pot="skunk_bank", carried_cents="50"),
            25,
            1,
            "What the skunk_bank carried over must be whole cents (got '50').",
        ),
        (
            SidePot(pot="skunk_bank", carried_cents=0),
            0,
            1,
            "The payout coin must be a whole number of cents, 1 or more (got 0).",
        ),
        (SidePot(pot="skunk_bank", carried_cents=0), 25, None, "The seed must be a whole number"),
    ],
)
def test_bad_inputs_raise_payout_error(side_pot, coin_cents, seed, message) -> None:
    with pytest.raises(PayoutError, match=re.escape(message)):
        plan_side_pot(side_pot, coin_cents=coin_cents, seed=seed)


def test_a_pot_is_settled_once() -> None:
    bank = SidePot(pot="skunk_bank", carried_cents=0)
    with pytest.raises(PayoutError, match=re.escape("Each side pot is settled once")):
        plan_side_pots([bank, bank], coin_cents=25, seed=1)


# --- the properties --------------------------------------------------------------------------


@st.composite
def side_pots(draw, pot: str = "skunk_bank"):
    players = st.integers(min_value=1, max_value=60)
    return SidePot(
        pot=pot,
        # Below 0 never happens (reopening refuses it), but the plan must still add up.
        carried_cents=draw(st.integers(min_value=-500, max_value=100_000)),
        coins=tuple(
            draw(
                st.lists(
                    st.builds(Coin, player_id=players, cents=st.integers(1, 10_000)), max_size=80
                )
            )
        ),
        winners=tuple(draw(st.lists(players, unique=True, max_size=12))),
    )


@settings(max_examples=400, deadline=None)
@given(
    side_pots(),
    st.integers(min_value=1, max_value=500),
    st.integers(min_value=0, max_value=2**53),
)
def test_every_side_pot_adds_up(side_pot: SidePot, coin_cents: int, seed: int) -> None:
    plan = plan_side_pot(side_pot, coin_cents=coin_cents, seed=seed)
    assert_adds_up(plan, side_pot, coin_cents)
    # The same input gives the same plan.
    assert plan_side_pot(side_pot, coin_cents=coin_cents, seed=seed) == plan


@settings(max_examples=100, deadline=None)
@given(
    side_pots("skunk_bank"),
    side_pots("jackpot_29"),
    side_pots("jackpot_24"),
    st.sampled_from([1, 5, 25, 100]),
    st.integers(min_value=0, max_value=2**32),
)
def test_the_side_pots_of_a_settling_add_up_together(bank, j29, j24, coin_cents, seed) -> None:
    plans = plan_side_pots([bank, j29, j24], coin_cents=coin_cents, seed=seed)
    assert [plan.pot for plan in plans] == ["skunk_bank", "jackpot_29", "jackpot_24"]
    for plan, side_pot in zip(plans, (bank, j29, j24), strict=True):
        assert_adds_up(plan, side_pot, coin_cents)
    assert sum(p.carried_cents + p.in_cents for p in plans) == sum(
        p.won_cents + p.rolled_cents for p in plans
    )
    assert plan_side_pots([bank, j29, j24], coin_cents=coin_cents, seed=seed) == plans


# --- the records ----------------------------------------------------------------------------------


def test_results_are_frozen_dataclasses() -> None:
    for cls in (Coin, SidePot, Share, SidePotPlan):
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
