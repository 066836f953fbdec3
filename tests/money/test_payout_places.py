"""How many places are paid (docs/spec.md "The pot and payouts"): no paid place is paid nothing,
and each is paid strictly more than the next (ties aside); while the split would break that, k
shrinks by one, and the payout sheet says why.

Terms as in money/payout.py: the *house k* is the house rule's paid places (one in four players,
rounded up), capped by the players and a custom weight list; *k* is what the plan pays; *place
amounts* are what places 1..k are worth before tied players pool them; *coins* leave out the odd
cents, which go to place 1.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.rules import HouseRules
from money.payout import RankedPlayer, payout_weights, plan_payouts, split_pot
from money.services import session_settle
from tests.builders import run_session
from tests.factories import UserFactory

DEFAULT = HouseRules()


def default_plan(count: int, *, ranks: Sequence[int] | None = None, seed: int = 1):
    """`count` players under the default rules, all of them paid: fee 25¢, coin 25¢, one place in
    four rounded up, linear weights."""
    return plan_payouts(
        pot_cents=count * DEFAULT.entry_fee_cents,
        players=[
            RankedPlayer(player_id=index, rank=rank)
            for index, rank in enumerate(ranks or range(1, count + 1), start=1)
        ],
        paid_places=DEFAULT.paid_places(count),
        weights=DEFAULT.weights(),
        coin_cents=DEFAULT.payout_coin_cents,
        seed=seed,
    )


def pays_each_place(amounts: Sequence[int], weights: Sequence[int], *, pot: int, coin: int) -> bool:
    """The rule, written again from docs/spec.md: every paid place gets a whole coin or more
    (place 1 may have only odd cents, when the pot is less than a coin), and a place gets more whole
    coins than the next unless the club's weights tie them."""
    if not pot:
        return False
    coins = [
        (amount - (pot % coin if index == 0 else 0)) // coin for index, amount in enumerate(amounts)
    ]
    if any(count <= 0 for count in coins[1:]):
        return False
    return all(
        above > here if heavier > lighter else above >= here
        for (above, here), (heavier, lighter) in zip(
            itertools.pairwise(coins), itertools.pairwise(weights), strict=True
        )
    )


# --- forty players and other counts where the house rule's split fails ---------------------------


def test_forty_players_pay_eight_places_and_the_sheet_says_why() -> None:
    """docs/spec.md "The pot and payouts": 40 players pay $10.00; 10 places split 10:9:...:1 would
    pay 200, 175, 150, 150, 125, 75, 50, 50, 25 and 0¢. 9 places still pay place 9 nothing; 8 places
    pay 225, 200, 175, 150, 100, 75, 50, 25¢, each more than the next."""
    assert split_pot(pot_cents=1000, coin_cents=25, weights=payout_weights("linear", 10)) == (
        200, 175, 150, 150, 125, 75, 50, 50, 25, 0,
    )  # fmt: skip
    result = default_plan(40)
    assert result.paid_places == 8
    assert result.weights == (8, 7, 6, 5, 4, 3, 2, 1)
    assert result.place_amounts_cents == (225, 200, 175, 150, 100, 75, 50, 25)
    assert [payout.amount_cents for payout in result.payouts] == [
        225, 200, 175, 150, 100, 75, 50, 25, *[0] * 32,
    ]  # fmt: skip
    assert result.steps[:2] == (
        "40 players: 10 paid places",
        "40 players: 8 places paid; the pot cannot pay 10 places distinct whole coins "
        "(paying 10, place 10 would get 0¢)",
    )


@pytest.mark.parametrize("count", [31, 34, 37, 38, 41, 60])
def test_places_one_and_two_are_never_paid_the_same(count: int) -> None:
    """docs/spec.md "The pot and payouts": each place is paid strictly more than the next. At
    these counts the house rule's split alone would pay places 1 and 2 the same."""
    house = DEFAULT.paid_places(count)
    old = split_pot(pot_cents=count * 25, coin_cents=25, weights=payout_weights("linear", house))
    assert old[0] == old[1]
    result = default_plan(count)
    amounts = result.place_amounts_cents
    assert result.paid_places < house
    assert all(above > here > 0 for above, here in itertools.pairwise(amounts))
    says = f"{count} players: {result.paid_places} places paid; the pot cannot pay {house} places"
    assert result.steps[1].startswith(says)


@pytest.mark.parametrize("count", range(25, 61))
def test_from_25_players_up_the_last_paid_place_is_paid(count: int) -> None:
    """docs/spec.md "The pot and payouts": no paid place is paid nothing (from 25 players up, the
    house rule's split alone would pay the last paid place 0¢)."""
    result = default_plan(count)
    assert sum(result.place_amounts_cents) == count * 25
    assert min(result.place_amounts_cents) >= 25
    assert all(above > here for above, here in itertools.pairwise(result.place_amounts_cents))


def test_nothing_changes_while_the_house_rule_already_pays_each_place() -> None:
    # 24 players, 6 places 6:5:...:1 over 24 coins: 6, 5, 4, 3, 2, 1 coins rounded down, 3
    # leftover coins to places 1 to 3: 7, 6, 5, 3, 2, 1 coins.
    result = default_plan(24)
    assert result.paid_places == 6
    assert result.place_amounts_cents == (175, 150, 125, 75, 50, 25)
    assert result.steps[:2] == ("24 players: 6 paid places", "Pot 600¢ = 24 coins of 25¢")


def test_tied_players_still_pool_the_places_they_occupy() -> None:
    """docs/spec.md "The pot and payouts", ties aside: players tied across paid places pool them
    and may be paid the same; the strictness is about the places. 40 players, places 2 and 3 tied:
    200 + 175 = 375¢, one indivisible coin by a cut (187.5 is not whole coins)."""
    ranks = [1, 2, 2, *range(4, 41)]
    result = default_plan(40, ranks=ranks)
    assert result.place_amounts_cents == (225, 200, 175, 150, 100, 75, 50, 25)
    assert sorted(payout.amount_cents for payout in result.payouts[1:3]) == [175, 200]
    # Tied at places 8 and 9: only place 8 (25¢) is paid now that 8 places are.
    ranks = [*range(1, 8), 8, 8, *range(10, 41)]
    result = default_plan(40, ranks=ranks)
    assert sorted(payout.amount_cents for payout in result.payouts[7:9]) == [0, 25]


@pytest.mark.parametrize(("pot", "winners"), [(50, 3), (75, 2), (1000, 7), (10, 4), (60, 2)])
def test_side_pot_winners_share_equally(pot: int, winners: int) -> None:
    """A side pot's winners (money.side_pots.plan_side_pot: all rank 1, weights "equal") share
    the pot evenly in coins whatever k becomes: ties aside, they pool every paid place."""
    result = plan_payouts(
        pot_cents=pot,
        players=[RankedPlayer(player_id=index, rank=1) for index in range(1, winners + 1)],
        paid_places=winners,
        weights="equal",
        coin_cents=25,
        seed=3,
    )
    shares = sorted((payout.amount_cents for payout in result.payouts), reverse=True)
    assert shares == list(split_pot(pot_cents=pot, coin_cents=25, weights=(1,) * winners))


def test_equal_weights_are_not_shrunk_to_one_place() -> None:
    """A club that pays its places equally keeps them while each gets a coin: the weights tie
    the places (ties aside). 13 players, 4 equal places: 100, 75, 75, 75¢; 5 places at 100¢ =
    4 coins would pay place 5 nothing, so 4 are paid and the sheet says why."""
    players = [RankedPlayer(player_id=index, rank=index) for index in range(1, 14)]
    arguments = {"players": players, "weights": "equal", "coin_cents": 25, "seed": 1}
    assert plan_payouts(pot_cents=325, paid_places=4, **arguments).place_amounts_cents == (
        100, 75, 75, 75,
    )  # fmt: skip
    result = plan_payouts(pot_cents=100, paid_places=5, **arguments)
    assert result.place_amounts_cents == (25, 25, 25, 25)
    assert result.steps[1] == (
        "13 players: 4 places paid; the pot cannot pay 5 places a whole coin each "
        "(paying 5, place 5 would get 0¢)"
    )


def test_an_empty_pot_pays_one_place_and_says_so() -> None:
    players = [RankedPlayer(player_id=index, rank=index) for index in range(1, 9)]
    result = plan_payouts(
        pot_cents=0, players=players, paid_places=2, weights="linear", coin_cents=25, seed=1
    )
    assert result.paid_places == 1
    assert result.steps[1] == "8 players: 1 place paid; the pot is empty"


# --- the property ------------------------------------------------------------------------------


@st.composite
def sessions(draw):
    count = draw(st.integers(min_value=1, max_value=200))
    paying = draw(st.integers(min_value=0, max_value=count))
    rules = HouseRules(players_per_paid_place=draw(st.integers(min_value=1, max_value=10)))
    weights = draw(
        st.one_of(
            st.sampled_from(["linear", "equal"]),
            st.lists(st.integers(min_value=1, max_value=100), min_size=1, max_size=60).map(
                lambda values: sorted(values, reverse=True)
            ),
        )
    )
    ties = draw(st.lists(st.booleans(), min_size=count - 1, max_size=count - 1))
    ranks = [1]
    for index, tied in enumerate(ties, start=1):
        ranks.append(ranks[-1] if tied else index + 1)
    return {
        "pot_cents": paying * draw(st.integers(min_value=0, max_value=2000)),  # fee x paid
        "players": [RankedPlayer(player_id=index, rank=rank) for index, rank in enumerate(ranks)],
        "paid_places": rules.paid_places(count),
        "weights": weights,
        "coin_cents": draw(st.integers(min_value=1, max_value=500)),
        "seed": draw(st.integers(min_value=0, max_value=2**32)),
    }


@settings(max_examples=200, deadline=None)
@given(sessions())
def test_each_paid_place_is_paid_more_than_the_next(inputs: dict) -> None:
    """docs/spec.md "The pot and payouts", over 1..200 players, any coin, fee and weights: the
    amounts add up to the pot, every paid place is paid, each more than the next (where the
    weights differ), k never passes the house rule, and k is the largest such."""
    pot, coin, weights = inputs["pot_cents"], inputs["coin_cents"], inputs["weights"]
    count = len(inputs["players"])
    result = plan_payouts(**inputs)
    house = min(inputs["paid_places"], count)
    if not isinstance(weights, str):
        house = min(house, len(weights))  # a custom list names the places it pays
    k = result.paid_places
    assert 1 <= k <= house
    assert result.weights == payout_weights(weights, k)
    assert result.place_amounts_cents == split_pot(
        pot_cents=pot, coin_cents=coin, weights=result.weights
    )
    assert sum(result.place_amounts_cents) == pot
    assert sum(payout.amount_cents for payout in result.payouts) == pot
    if pot:
        assert pays_each_place(result.place_amounts_cents, result.weights, pot=pot, coin=coin)
        assert all(amount > 0 for amount in result.place_amounts_cents)
        if weights == "linear":
            assert all(a > b for a, b in itertools.pairwise(result.place_amounts_cents))
    else:
        assert k == 1
    for more in range(k + 1, house + 1):
        tried = payout_weights(weights, more)
        split = split_pot(pot_cents=pot, coin_cents=coin, weights=tried)
        assert not pays_each_place(split, tried, pot=pot, coin=coin), more
    says = f"{count} player{'s' * (count != 1)}: {k} place{'s' * (k != 1)} paid; the pot "
    assert any(step.startswith(says) for step in result.steps) == (k < house)


# --- the sheet ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_payout_sheet_says_why_fewer_places_are_paid(client, member, club) -> None:
    """docs/spec.md "The pot and payouts": the payout sheet says so when k shrinks. 40 players
    settle with 8 paid places, and the sheet (screen and print: one page) shows the sentence."""
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    session = run_session(club, organiser, confirmer, players=40, rounds=1)
    settlement = session_settle(session=session, actor=organiser, seed=5)
    assert settlement.paid_places == 8
    sentence = "40 players: 8 places paid; the pot cannot pay 10 places distinct whole coins"
    assert any(step.startswith(sentence) for step in settlement.steps)
    client.force_login(organiser)
    page = client.get(f"/club/sessions/{session.pk}/settlement/")
    assert page.status_code == 200
    assert sentence in page.content.decode()


def test_the_payout_table_in_the_docs_is_the_rule():
    """docs/payouts.md tells a club what the pot pays for 4..60 players under the default rules
    (docs/spec.md "The pot and payouts"): every row is what settling pays."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "payouts.md").read_text("utf-8")
    rows = [line.split(" | ") for line in text.splitlines() if line.count(" | ") == 3]
    rows = rows[1:]  # the header
    assert [int(row[0]) for row in rows] == list(range(4, 61))
    for players, pot, places, amounts in rows:
        count = int(players)
        plan = default_plan(count)
        house = DEFAULT.paid_places(count)
        shown = f"{plan.paid_places}" + (f" ({house})" if plan.paid_places != house else "")
        assert pot == f"${count * DEFAULT.entry_fee_cents / 100:.2f}"
        assert places == shown, players
        paid = sorted((p.amount_cents for p in plan.payouts if p.amount_cents), reverse=True)
        assert amounts == ", ".join(str(cents) for cents in paid), players
