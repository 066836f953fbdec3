"""The payout calculation (club/payout.py): worked cases, ties and cuts, bad inputs, a property
that the money always adds up, and purity. No database, no Django.

Terms as in club/payout.py: the *pot* is the fees paid in cents, a *coin* is the payout coin,
the *odd cents* are `pot % coin`, *place amounts* are what places 1..k are worth before ties are
pooled, and a *cut* is the seeded card cut that settles what a tie cannot split evenly.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from money import payout as payout_module
from money.payout import (
    CARD_RANKS,
    Cut,
    CutCard,
    Payout,
    PayoutError,
    PayoutPlan,
    RankedPlayer,
    payout_weights,
    plan_payouts,
    split_pot,
)

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max")


# --- helpers ---------------------------------------------------------------------------------


def ranked(*ranks: int) -> list[RankedPlayer]:
    """Players 1, 2, ... with these ranks, named Ann, Bob, ... (player N beyond the names)."""
    return [
        RankedPlayer(player_id=index, rank=rank, name=NAMES[index - 1] if index <= 13 else "")
        for index, rank in enumerate(ranks, start=1)
    ]


def competition_ranks(tied_with_previous: Sequence[bool]) -> list[int]:
    ranks = [1]
    for index, tied in enumerate(tied_with_previous, start=1):
        ranks.append(ranks[-1] if tied else index + 1)
    return ranks


def plan(**overrides) -> PayoutPlan:
    arguments = {
        "pot_cents": 325,
        "players": ranked(*range(1, 14)),
        "paid_places": 4,
        "weights": "linear",
        "coin_cents": 25,
        "seed": 1,
    }
    arguments.update(overrides)
    return plan_payouts(**arguments)


def amounts(result: PayoutPlan) -> list[int]:
    return [payout.amount_cents for payout in result.payouts]


def card_value(card: str) -> int:
    return CARD_RANKS.index(card[:-1]) + 1


def assert_invariants(result: PayoutPlan, players: Sequence[RankedPlayer]) -> None:
    """Everything docs/spec.md promises about a payout, checked on any plan."""
    pot, coin = result.pot_cents, result.coin_cents
    paid = [payout.amount_cents for payout in result.payouts]
    # Every ranked player appears, best first, with the place their rank gives them.
    assert [(p.player_id, p.rank, p.place) for p in result.payouts] == [
        (player.player_id, player.rank, player.rank) for player in players
    ]
    assert sum(paid) == pot
    assert all(amount >= 0 for amount in paid)
    assert 1 <= result.paid_places <= len(players)
    assert len(result.weights) == len(result.place_amounts_cents) == result.paid_places
    assert sum(result.place_amounts_cents) == pot
    # Whole coins, except the odd cents on exactly one player: place 1's, or the cut winner's.
    odd = pot % coin
    off_coin = [payout for payout in result.payouts if payout.amount_cents % coin]
    if odd:
        assert len(off_coin) == 1 and off_coin[0].amount_cents % coin == odd
        assert off_coin[0].rank == 1
        first_group = [player for player in players if player.rank == 1]
        if len(first_group) > 1 and result.cuts and result.cuts[0].places[0] == 1:
            assert off_coin[0].player_id == result.cuts[0].order[0]
    else:
        assert off_coin == []
    # A better rank never gets less than a worse one.
    for better, worse in itertools.pairwise(result.payouts):
        if better.rank < worse.rank:
            assert better.amount_cents >= worse.amount_cents, (better, worse)
    # Tied players differ by at most one coin (leaving out the odd cents); a player alone in
    # a paid place gets that place's amount; beyond the paid places, nothing.
    for rank, group in itertools.groupby(result.payouts, key=lambda payout: payout.rank):
        group = list(group)
        coins = [(p.amount_cents - (odd if p in off_coin else 0)) // coin for p in group]
        assert max(coins) - min(coins) <= 1
        if len(group) == 1 and rank <= result.paid_places:
            assert group[0].amount_cents == result.place_amounts_cents[rank - 1]
        if rank > result.paid_places:
            assert all(p.amount_cents == 0 for p in group)
    # Every cut is consistent with its cards and records a tied group.
    for cut in result.cuts:
        assert sorted(cut.order) == sorted(
            player.player_id for player in players if player.rank == cut.places[0]
        )
        assert len(cut.places) == len(cut.order)
        assert {card.player_id for card in cut.cards} == set(cut.order)
        first_round = {
            card.player_id: card_value(card.card) for card in cut.cards[: len(cut.order)]
        }
        values = [first_round[pid] for pid in cut.order]
        assert values == sorted(values, reverse=True)


# --- worked cases, by hand -------------------------------------------------------------------


def test_thirteen_players_at_25_cents() -> None:
    # 13 players x 25¢ = 325¢ = 13 coins; ceil(13 / 4) = 4 paid places, linear 4:3:2:1 (sum 10).
    # Rounded down: 13*4/10 = 5.2 -> 5, 13*3/10 = 3.9 -> 3, 13*2/10 = 2.6 -> 2, 13/10 = 1.3 -> 1,
    # 11 coins; the 2 leftover coins go to places 1 and 2: 6, 4, 2, 1 coins = 150, 100, 50, 25¢.
    result = plan()
    assert result.weights == (4, 3, 2, 1)
    assert result.place_amounts_cents == (150, 100, 50, 25)
    assert amounts(result) == [150, 100, 50, 25] + [0] * 9
    assert result.cuts == ()
    assert result.steps == (
        "13 players: 4 paid places",
        "Pot 325¢ = 13 coins of 25¢",
        "Split 4:3:2:1 (linear), each rounded down to whole coins: "
        "place 1 125¢, place 2 75¢, place 3 50¢, place 4 25¢",
        "2 leftover coins (50¢) go one each to places 1 and 2",
        "Place amounts: place 1 150¢, place 2 100¢, place 3 50¢, place 4 25¢",
        "Paid: Ann 150¢, Bob 100¢, Cat 50¢, Dan 25¢; everyone else 0¢.",
    )
    assert_invariants(result, ranked(*range(1, 14)))


def test_eight_players_two_places() -> None:
    # 8 x 25¢ = 200¢ = 8 coins; ceil(8 / 4) = 2 places, 2:1 (sum 3): 8*2/3 = 5.33 -> 5,
    # 8/3 = 2.67 -> 2, 7 coins; 1 leftover coin to place 1: 6 and 2 coins = 150¢ and 50¢.
    players = ranked(*range(1, 9))
    result = plan(pot_cents=200, players=players, paid_places=2)
    assert result.place_amounts_cents == (150, 50)
    assert amounts(result) == [150, 50, 0, 0, 0, 0, 0, 0]
    assert "1 leftover coin (25¢) goes to place 1" in result.steps
    assert_invariants(result, players)


@pytest.mark.parametrize("paid_places", [1, 4])
def test_one_player_takes_everything(paid_places: int) -> None:
    result = plan(pot_cents=25, players=ranked(1), paid_places=paid_places)
    assert result.paid_places == 1
    assert amounts(result) == [25]
    assert result.amount_for(1) == 25


def test_a_pot_that_is_not_whole_coins() -> None:
    # 13 players paid 330¢ with 25¢ coins: 13 coins and 5 odd cents. The coins split as in the
    # 325¢ case (150, 100, 50, 25) and the 5 odd cents go to place 1: 155, 100, 50, 25.
    players = ranked(*range(1, 14))
    result = plan(pot_cents=330, players=players)
    assert result.place_amounts_cents == (155, 100, 50, 25)
    assert amounts(result) == [155, 100, 50, 25] + [0] * 9
    assert "Pot 330¢ = 13 coins of 25¢ and 5 odd cents" in result.steps
    assert "5 odd cents to place 1" in result.steps
    assert_invariants(result, players)


def test_two_tied_for_first_of_three_places_cut_for_the_odd_coin() -> None:
    # 10 x 25¢ = 250¢ = 10 coins; ceil(10 / 4) = 3 places, 3:2:1 (sum 6): 10*3/6 = 5,
    # 10*2/6 = 3.33 -> 3, 10/6 = 1.67 -> 1, 9 coins; 1 leftover coin to place 1: 6, 3, 1 coins
    # = 150, 75, 25¢. Ann and Bob tie for first and pool places 1 and 2: 225¢ = 9 coins, 4 each
    # (100¢) and 1 indivisible coin, which the cut gives to its winner: 125¢ and 100¢.
    players = ranked(1, 1, 3, 4, 5, 6, 7, 8, 9, 10)
    result = plan(pot_cents=250, players=players, paid_places=3, seed=1)
    assert result.place_amounts_cents == (150, 75, 25)
    (cut,) = result.cuts
    assert cut.places == (1, 2)
    assert cut.decides == "1 indivisible coin (25¢)"
    # Seed 1 deals Ann the king of hearts and Bob the three of hearts: Ann wins the coin.
    assert cut.cards == (CutCard(player_id=1, card="KH"), CutCard(player_id=2, card="3H"))
    assert cut.order == (1, 2)
    assert amounts(result) == [125, 100, 25] + [0] * 7
    assert "T-1: Ann and Bob pool places 1 and 2, 225¢: 100¢ each, and a cut settles the rest" in (
        result.steps
    )
    assert "Cut for 1 indivisible coin (25¢): Ann KH, Bob 3H: Ann takes it" in result.steps
    assert_invariants(result, players)
    # The same seed reproduces the same cut, and the whole plan.
    assert plan(pot_cents=250, players=players, paid_places=3, seed=1) == result


def test_tied_for_first_with_odd_cents_cut_for_them() -> None:
    # 330¢: place amounts 155, 100, 50, 25. Ann and Bob pool 255¢ = 10 coins and 5 odd cents:
    # 5 coins (125¢) each, and the cut winner takes the 5 odd cents: 130¢ and 125¢.
    players = ranked(1, 1, *range(3, 14))
    result = plan(pot_cents=330, players=players)
    (cut,) = result.cuts
    assert cut.decides == "5 odd cents"
    winner, loser = cut.order
    assert result.amount_for(winner) == 130
    assert result.amount_for(loser) == 125
    assert_invariants(result, players)


def test_tie_in_the_middle_splits_evenly_without_a_cut() -> None:
    # Place amounts 150, 100, 50, 25; Bob and Cat tie for 2nd and pool 150¢: 75¢ each.
    players = ranked(1, 2, 2, *range(4, 14))
    result = plan(players=players)
    assert amounts(result)[:4] == [150, 75, 75, 25]
    assert result.cuts == ()
    assert "T-2: Bob and Cat pool places 2 and 3, 150¢, and take 75¢ each" in result.steps
    assert_invariants(result, players)


def test_tie_across_the_last_paid_place_pools_only_paid_places() -> None:
    # Place amounts 150, 100, 50, 25; Dan, Eve and Fay tie at rank 4 and occupy places 4 to 6,
    # of which only place 4 (25¢) is paid: 1 indivisible coin among three, by a cut.
    players = ranked(1, 2, 3, 4, 4, 4, *range(7, 14))
    result = plan(players=players)
    (cut,) = result.cuts
    assert cut.places == (4, 5, 6)
    assert sorted(amounts(result)[3:6]) == [0, 0, 25]
    assert result.amount_for(cut.order[0]) == 25
    # Seed 1: Dan cuts the king of hearts, Eve the 3, Fay the 10: Dan takes the coin.
    assert cut.order == (4, 6, 5)
    assert result.steps[5:7] == (
        "T-4: Dan, Eve and Fay pool places 4 to 6 (only place 4 paid), 25¢: 0¢ each, "
        "and a cut settles the rest",
        "Cut for 1 indivisible coin (25¢): Dan KH, Eve 3H, Fay 10H: Dan takes it",
    )
    assert_invariants(result, players)


def test_everyone_tied() -> None:
    # 4 players, 3 of them paid (75¢ = 3 coins), 1 paid place. All tie at rank 1 and pool the
    # whole pot: 0 coins each and 3 indivisible coins, one each to the first three in cut order.
    players = ranked(1, 1, 1, 1)
    result = plan(pot_cents=75, players=players, paid_places=1, seed=3)
    (cut,) = result.cuts
    assert cut.places == (1, 2, 3, 4)
    assert cut.decides == "3 indivisible coins (75¢)"
    assert [result.amount_for(pid) for pid in cut.order] == [25, 25, 25, 0]
    # Seed 3: Bob 8, Dan 5, Ann 4 take a coin each; Cat cut an ace (low) and gets nothing.
    assert cut.order == (2, 4, 1, 3)
    assert result.steps[-2] == (
        "Cut for 3 indivisible coins (75¢): Ann 4H, Bob 8S, Cat AC, Dan 5C: "
        "Bob, Dan and Ann take a coin each"
    )
    assert_invariants(result, players)


def test_everyone_tied_splits_evenly_when_it_can() -> None:
    # 6 x 25¢ = 150¢, 2 places 2:1: 100¢ and 50¢; all six pool 150¢ = 25¢ each, no cut.
    players = ranked(*[1] * 6)
    result = plan(pot_cents=150, players=players, paid_places=2)
    assert result.place_amounts_cents == (100, 50)
    assert amounts(result) == [25] * 6
    assert result.cuts == ()
    assert_invariants(result, players)


def test_empty_pot_pays_nobody_and_cuts_nothing() -> None:
    players = ranked(1, 1, 3)
    result = plan(pot_cents=0, players=players, paid_places=2)
    assert amounts(result) == [0, 0, 0]
    assert result.cuts == ()
    assert result.steps[-1] == "Nobody is paid: the pot is empty."
    assert_invariants(result, players)


def test_pot_smaller_than_one_coin_goes_to_place_one() -> None:
    # Place 2 would get 0¢, so only place 1 is paid (docs/spec.md "The pot and payouts").
    players = ranked(1, 2, 3)
    result = plan(pot_cents=20, players=players, paid_places=2)
    assert result.paid_places == 1
    assert result.place_amounts_cents == (20,)
    assert amounts(result) == [20, 0, 0]
    assert "Pot 20¢ = 0 coins of 25¢ and 20 odd cents" in result.steps
    assert_invariants(result, players)


def test_zero_paid_places_pays_one_and_says_so() -> None:
    result = plan(pot_cents=75, players=ranked(1, 2, 3), paid_places=0)
    assert result.paid_places == 1
    assert amounts(result) == [75, 0, 0]
    assert result.steps[0] == (
        "3 players: 0 paid places, paying 1 all the same (all money collected is awarded)"
    )


def test_paid_places_are_capped_by_players_and_by_a_custom_list() -> None:
    capped = plan(pot_cents=100, players=ranked(1, 2), paid_places=4)
    assert capped.paid_places == 2
    assert capped.steps[0] == "2 players: 4 paid places, capped at 2 (one per player)"
    # 13 coins and 5 odd cents by 50:30:20 (sum 100): 6.5 -> 6, 3.9 -> 3, 2.6 -> 2, 11 coins;
    # 2 leftover coins to places 1 and 2: 7, 4, 2 coins; odd cents to place 1: 180, 100, 50.
    custom = plan(pot_cents=330, weights=[50, 30, 20])
    assert custom.paid_places == 3
    assert custom.weights == (50, 30, 20)
    assert custom.place_amounts_cents == (180, 100, 50)
    assert (
        custom.steps[0]
        == "13 players: 4 paid places, capped at 3 (the place weights name 3 places)"
    )


def test_equal_weights() -> None:
    # 325¢ = 13 coins over 4 equal places: 3 each, 1 leftover coin to place 1: 100, 75, 75, 75.
    result = plan(weights="equal")
    assert result.place_amounts_cents == (100, 75, 75, 75)


# --- cuts and seeds --------------------------------------------------------------------------


def test_same_seed_same_plan_and_different_seeds_different_winners() -> None:
    players = ranked(1, 1, 3, 4, 5, 6, 7, 8, 9, 10)
    plans = [plan(pot_cents=250, players=players, paid_places=3, seed=seed) for seed in range(40)]
    assert plans == [
        plan(pot_cents=250, players=players, paid_places=3, seed=seed) for seed in range(40)
    ]
    assert {result.cuts[0].order[0] for result in plans} == {1, 2}
    assert {tuple(amounts(result)[:2]) for result in plans} == {(125, 100), (100, 125)}


def test_a_cut_of_the_same_rank_is_cut_again_and_recorded() -> None:
    players = ranked(1, 1, 3, 4, 5, 6, 7, 8, 9, 10)
    recut = next(
        result
        for seed in range(2000)
        if len(
            (result := plan(pot_cents=250, players=players, paid_places=3, seed=seed)).cuts[0].cards
        )
        > 2
    )
    (cut,) = recut.cuts
    first, second = cut.cards[:2]
    assert card_value(first.card) == card_value(second.card)
    last_round = cut.cards[-2:]
    assert card_value(last_round[0].card) != card_value(last_round[1].card)
    winner = max(last_round, key=lambda card: card_value(card.card)).player_id
    assert cut.order[0] == winner
    assert recut.amount_for(winner) == 125
    assert any("; re-cut " in step for step in recut.steps)


def test_a_tie_that_decides_nothing_is_not_cut_again() -> None:
    # Three tie for place 4 (one coin): when the two losers cut the same rank, their order
    # decides nothing, so nobody cuts again.
    players = ranked(1, 2, 3, 4, 4, 4, *range(7, 14))
    found = None
    for seed in range(5000):
        (cut,) = plan(players=players, seed=seed).cuts
        values = sorted((card_value(card.card) for card in cut.cards[:3]), reverse=True)
        if values[0] > values[1] == values[2]:
            found = cut
            break
    assert found is not None
    assert len(found.cards) == 3


def test_cut_cards_are_real_cards() -> None:
    players = ranked(*[1] * 60)  # more tied players than a deck has cards
    result = plan(pot_cents=59 * 25, players=players, paid_places=1, seed=5)
    (cut,) = result.cuts
    ranks = set(CARD_RANKS)
    assert all(card.card[:-1] in ranks and card.card[-1] in "SHDC" for card in cut.cards)
    assert len({card.card for card in cut.cards[:52]}) == 52
    assert sorted(amounts(result)) == [0] + [25] * 59


# --- the building blocks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weights", "places", "expected"),
    [
        ("linear", 4, (4, 3, 2, 1)),
        ("Linear ", 1, (1,)),
        ("equal", 3, (1, 1, 1)),
        ([50, 30, 20], 2, (50, 30)),
        ([50, 30, 20], 5, (50, 30, 20)),
        ((3, 3, 1), 3, (3, 3, 1)),
    ],
)
def test_payout_weights(weights, places: int, expected: tuple[int, ...]) -> None:
    assert payout_weights(weights, places) == expected


@pytest.mark.parametrize(
    ("pot", "coin", "weights", "expected"),
    [
        (325, 25, (4, 3, 2, 1), (150, 100, 50, 25)),
        (330, 25, (4, 3, 2, 1), (155, 100, 50, 25)),
        (200, 25, (2, 1), (150, 50)),
        (0, 25, (2, 1), (0, 0)),
        (24, 25, (1, 1, 1), (24, 0, 0)),
        (100, 1, (1, 1, 1), (34, 33, 33)),
        (1000, 100, (1,), (1000,)),
    ],
)
def test_split_pot(pot: int, coin: int, weights, expected: tuple[int, ...]) -> None:
    assert split_pot(pot_cents=pot, coin_cents=coin, weights=weights) == expected


def test_amount_for_an_unknown_player() -> None:
    with pytest.raises(KeyError, match="Player 99 is not in this payout"):
        plan().amount_for(99)


# --- bad inputs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"pot_cents": -1}, "The pot must be a whole number of cents, 0 or more (got -1)."),
        ({"pot_cents": 3.25}, "The pot must be a whole number of cents, 0 or more (got 3.25)."),
        ({"coin_cents": 0}, "The payout coin must be a whole number of cents, 1 or more (got 0)."),
        (
            {"coin_cents": -25},
            "The payout coin must be a whole number of cents, 1 or more (got -25).",
        ),
        ({"players": []}, "There are no ranked players to pay."),
        (
            {"players": [RankedPlayer(1, 1), RankedPlayer(1, 2)]},
            "Player 1 is ranked twice.",
        ),
        (
            {"players": ranked(2, 3)},
            "Ranks must be competition ranks listed best first (1, 2, 2, 4, ...): "
            "Ann, listed 1st, has rank 2; expected 1.",
        ),
        (
            {"players": ranked(1, 2, 2, 3)},
            "Ranks must be competition ranks listed best first (1, 2, 2, 4, ...): "
            "Dan, listed 4th, has rank 3; expected 2 (tied) or 4.",
        ),
        (
            {"players": ranked(1, 3, 2)},
            "Ranks must be competition ranks listed best first (1, 2, 2, 4, ...): "
            "Bob, listed 2nd, has rank 3; expected 1 (tied) or 2.",
        ),
        ({"paid_places": -1}, "Paid places must be a whole number, 0 or more (got -1)."),
        (
            {"weights": "top three"},
            'Place weights must be "linear", "equal" or a list of whole numbers such as '
            "[50, 30, 20] (got 'top three').",
        ),
        ({"weights": []}, "Place weights must name at least one place."),
        ({"weights": [3, 0]}, "Every place weight must be a whole number above zero (got (3, 0))."),
        (
            {"weights": [1, 2]},
            "Place weights must not grow: a better place never gets less (got (1, 2)).",
        ),
        ({"seed": "7"}, "The seed must be a whole number (got '7')."),
    ],
)
def test_bad_inputs_raise_payout_error(overrides: dict, message: str) -> None:
    with pytest.raises(PayoutError, match=re.escape(message)):
        plan(**overrides)


def test_bad_inputs_to_the_building_blocks() -> None:
    with pytest.raises(PayoutError, match=re.escape("Pay at least 1 place (got 0).")):
        payout_weights("linear", 0)
    with pytest.raises(PayoutError, match="must name at least one place"):
        split_pot(pot_cents=100, coin_cents=25, weights=())
    with pytest.raises(PayoutError, match="not the text '50,30,20'"):
        split_pot(pot_cents=100, coin_cents=25, weights="50,30,20")
    with pytest.raises(PayoutError, match="payout coin"):
        split_pot(pot_cents=100, coin_cents=0, weights=(1,))
    assert issubclass(PayoutError, ValueError)


# --- the property ----------------------------------------------------------------------------


@st.composite
def payout_inputs(draw):
    count = draw(st.integers(min_value=1, max_value=200))
    ties = draw(st.lists(st.booleans(), min_size=count - 1, max_size=count - 1))
    players = [
        RankedPlayer(player_id=1000 + index, rank=rank)
        for index, rank in enumerate(competition_ranks(ties))
    ]
    weights = draw(
        st.one_of(
            st.sampled_from(["linear", "equal"]),
            st.lists(st.integers(min_value=1, max_value=100), min_size=1, max_size=30).map(
                lambda values: sorted(values, reverse=True)
            ),
        )
    )
    return {
        "pot_cents": draw(st.integers(min_value=0, max_value=100_000)),
        "players": players,
        "paid_places": draw(st.integers(min_value=1, max_value=count)),
        "weights": weights,
        "coin_cents": draw(st.integers(min_value=1, max_value=500)),
        "seed": draw(st.integers(min_value=0, max_value=2**32)),
    }


@settings(max_examples=300, deadline=None)
@given(payout_inputs())
def test_payouts_always_add_up(inputs: dict) -> None:
    result = plan_payouts(**inputs)
    assert_invariants(result, inputs["players"])
    assert plan_payouts(**inputs) == result


# --- purity ----------------------------------------------------------------------------------


def test_payout_module_imports_only_the_standard_library() -> None:
    source = Path(payout_module.__file__).read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            imported.add((node.module or "").split(".")[0])
    assert imported, "the module imports something"
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)
    assert "django" not in imported
    docstring = ast.get_docstring(tree)
    assert docstring and "odd cents" in docstring and "cut" in docstring


def test_importing_the_payout_module_loads_no_django() -> None:
    code = (
        "import sys, money.payout; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_results_are_frozen_dataclasses() -> None:
    for cls in (RankedPlayer, CutCard, Cut, Payout, PayoutPlan):
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
