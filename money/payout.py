"""How a session's pot is paid out to its ranked players (docs/spec.md, "The pot and payouts").

Pure Python, standard library only: no Django import (a test enforces it). The bridge to the
models passes plain values in and stores the `PayoutPlan` that comes back.

Terms:
- pot: the fees actually paid for the session, in integer cents. No money is ever a float.
- coin: the payout coin, in cents (25 for a club that pays in quarters). Every amount is a whole
  number of coins, except the odd cents.
- odd cents: `pot % coin`, the part of the pot that is not a whole coin. They go to place 1, or,
  when place 1 is tied, to the first of the tied players in cut order: exactly one player.
- rank: a player's standing, 1 = best. Tied players share a rank and ranks are competition ranks
  (1, 2, 2, 4), listed best first, so a rank is also the first place its players occupy.
- place: a position 1, 2, 3, ... in the standings. A group of n players tied at rank r occupies
  places r to r + n - 1; a player's `Payout.place` is the first place of the group.
- paid places (k): how many places are paid, given by the caller (normally `Club.paid_places`).
  All money collected is awarded, so k is at least 1 (0 is read as 1, and the steps say so).
  k is never more than the number of players, nor than the length of a custom weight list.
  No paid place is paid nothing and each is paid more whole coins than the next (places the
  weights tie may be paid the same): while the split would break that, k shrinks by one, and
  the steps say why ("40 players: 8 places paid; the pot cannot pay 10 places distinct whole
  coins"). Only an empty pot cannot keep it; it pays 1 place, 0¢. That rule lives in `_fit`.
- weights: how the pot is split among places 1..k: "linear" (k, k-1, ..., 1), "equal" (1 each),
  or a custom list of non-increasing positive whole numbers (its first k).
- place amounts: what each paid place is worth before ties are pooled. The pot's whole coins are
  split by the weights, each share rounded down; the leftover coins go one each to place 1, 2, ...
  (wrapping round if ever needed); the odd cents go to place 1. That one rule lives in `_split`,
  and `split_pot` is its public face.
- pool: what a tied group shares: the amounts of the places it occupies (a place beyond k is worth
  0). It is split evenly in whole coins by the same rule, the players taken in cut order: the
  indivisible (remainder) coins go one each in cut order and the odd cents to the first.
- cut: how a tie settles what cannot be split evenly, as clubs do. Each tied player is dealt a card
  from a 52-card deck shuffled by `random.Random(seed)` (a fresh deck, or more than one for more
  than 52 players, for every round of cutting); the highest card wins (king high, ace low, suits
  do not count). Players who cut the same rank cut again, but only when their order decides
  something; otherwise they keep the order they cut in. A cut is made, and recorded in
  `PayoutPlan.cuts`, only when it decides something (indivisible coins or odd cents).
- steps: the explanation, one line per step, in whole cents.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

CARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(rank + suit for rank in CARD_RANKS for suit in SUITS)
WEIGHT_WORDS = ("linear", "equal")


class PayoutError(ValueError):
    """The inputs cannot be paid out; the message says what to change."""


@dataclass(frozen=True)
class RankedPlayer:
    player_id: int
    rank: int  # 1 = best; competition ranks (1, 2, 2, 4), tied players share one
    name: str = ""  # for the explanation


@dataclass(frozen=True)
class CutCard:
    player_id: int
    card: str  # rank then suit, e.g. "KH", "10D", "AS"


@dataclass(frozen=True)
class Cut:
    places: tuple[int, ...]  # the places the tied group occupies
    cards: tuple[CutCard, ...]  # every card cut, in the order cut (re-cuts included)
    order: tuple[int, ...]  # player ids, winner first
    decides: str  # e.g. "1 indivisible coin (25¢) and 5 odd cents"


@dataclass(frozen=True)
class Payout:
    player_id: int
    rank: int
    place: int  # the first place of the player's group (1-based)
    amount_cents: int


@dataclass(frozen=True)
class PayoutPlan:
    pot_cents: int
    coin_cents: int
    paid_places: int
    weights: tuple[int, ...]  # per paid place
    place_amounts_cents: tuple[int, ...]  # per paid place, before ties are pooled
    payouts: tuple[Payout, ...]  # every ranked player, best first
    cuts: tuple[Cut, ...]
    steps: tuple[str, ...]

    def amount_for(self, player_id: int) -> int:
        """What `player_id` is paid, in cents; KeyError for a player not in the plan."""
        for payout in self.payouts:
            if payout.player_id == player_id:
                return payout.amount_cents
        raise KeyError(f"Player {player_id} is not in this payout.")


@dataclass(frozen=True)
class _Split:
    """A total split by weights: `coins` whole coins and `odd_cents`, share by share."""

    coins: int
    odd_cents: int
    rounded_down: tuple[int, ...]  # coins per share, rounded down
    leftover: tuple[int, ...]  # leftover coins per share
    amounts_cents: tuple[int, ...]


def _split(*, total_cents: int, coin_cents: int, weights: Sequence[int]) -> _Split:
    """The leftover rule, the only copy of it: shares rounded down to whole coins, the leftover
    coins one each to the first share, the second, ... (wrapping round), the odd cents to the first.
    """
    coins, odd_cents = divmod(total_cents, coin_cents)
    total_weight = sum(weights)
    rounded_down = tuple(divmod(coins * weight, total_weight)[0] for weight in weights)
    # Rounding down loses less than one coin per share, so the wrap never happens in practice;
    # divmod keeps the rule whole anyway.
    laps, extra = divmod(coins - sum(rounded_down), len(weights))
    leftover = tuple(laps + (1 if index < extra else 0) for index in range(len(weights)))
    amounts = [
        (down + more) * coin_cents for down, more in zip(rounded_down, leftover, strict=True)
    ]
    amounts[0] += odd_cents
    return _Split(coins, odd_cents, rounded_down, leftover, tuple(amounts))


def split_pot(*, pot_cents: int, coin_cents: int, weights: Sequence[int]) -> tuple[int, ...]:
    """The place amounts: `pot_cents` split by `weights` (one per paid place) in whole coins of
    `coin_cents`, leftover coins to place 1, 2, ..., odd cents to place 1. Sums to the pot.
    """
    _check_money(pot_cents=pot_cents, coin_cents=coin_cents)
    return _split(
        total_cents=pot_cents, coin_cents=coin_cents, weights=_check_weight_list(weights)
    ).amounts_cents


def payout_weights(weights: str | Sequence[int], places: int) -> tuple[int, ...]:
    """The weights of places 1..`places`: "linear" (k, ..., 1), "equal" (1 each) or the first
    `places` of a custom list (fewer when the list is shorter). `places` must be 1 or more.
    """
    if not _is_whole(places) or places < 1:
        raise PayoutError(f"Pay at least 1 place (got {places!r}).")
    if isinstance(weights, str):
        word = weights.strip().lower()
        if word == "linear":
            return tuple(range(places, 0, -1))
        if word == "equal":
            return (1,) * places
        raise PayoutError(
            'Place weights must be "linear", "equal" or a list of whole numbers such as '
            f"[50, 30, 20] (got {weights!r})."
        )
    return _check_weight_list(weights)[:places]


def _broken(split: _Split, weights: Sequence[int]) -> str | None:
    """Why `split` breaks the rule that no paid place is paid nothing and each is paid more than
    the next, or None when it keeps it. Compared in whole coins (the odd cents are place 1's
    extra). Places of equal weight (the club's "equal", or a list such as 50,30,30,20) may be
    paid the same: the club's weights tie them, and the leftover coins never make a later place
    worth more than an earlier one.
    """
    if not sum(split.amounts_cents):
        return "the pot is empty"
    coins = [down + more for down, more in zip(split.rounded_down, split.leftover, strict=True)]
    if len(coins) > 1 and not coins[-1]:  # the last place is the least paid
        return f"place {len(coins)} would get 0¢"
    for place in range(2, len(coins) + 1):
        here, above = coins[place - 1], coins[place - 2]
        if weights[place - 2] > weights[place - 1] and not above > here:
            return f"places {place - 1} and {place} would get {_count(here, 'coin')} each"
    return None


def _fit(
    *, pot_cents: int, coin_cents: int, weights: str | Sequence[int], places: int
) -> tuple[int, tuple[int, ...], _Split, str]:
    """The paid places (docs/spec.md, "The pot and payouts"): start from `places`, and while the
    split would pay a place nothing, or not more than the next, pay one place fewer (down to 1,
    which an empty pot alone cannot keep). Returns the places, their weights, the split and the
    sentence for the sheet when places were dropped ("" when none were).
    """
    tried = places
    place_weights = payout_weights(weights, places)
    split = _split(total_cents=pot_cents, coin_cents=coin_cents, weights=place_weights)
    why = first_why = _broken(split, place_weights)
    while why is not None and places > 1:
        places -= 1
        place_weights = payout_weights(weights, places)
        split = _split(total_cents=pot_cents, coin_cents=coin_cents, weights=place_weights)
        why = _broken(split, place_weights)
    if places == tried:
        return places, place_weights, split, ""
    paid = f"{_count(places, 'place')} paid"
    if not pot_cents:
        return places, place_weights, split, f"{paid}; the pot is empty"
    tried_weights = payout_weights(weights, tried)
    if len(set(tried_weights)) == len(tried_weights):
        kind = "distinct whole coins"
    elif len(set(tried_weights)) == 1:
        kind = "a whole coin each"
    else:
        kind = "whole coins that fall with their weights"
    return (
        places,
        place_weights,
        split,
        f"{paid}; the pot cannot pay {tried} places {kind} (paying {tried}, {first_why})",
    )


def plan_payouts(
    *,
    pot_cents: int,
    players: Sequence[RankedPlayer],
    paid_places: int,
    weights: str | Sequence[int],
    coin_cents: int,
    seed: int,
) -> PayoutPlan:
    """Pay `pot_cents` out to `players` (competition ranks, best first) over `paid_places`
    places split by `weights` in coins of `coin_cents`; ties pool their places and a cut seeded
    by `seed` settles what cannot be split evenly. The payouts always sum to the pot.
    """
    _check_money(pot_cents=pot_cents, coin_cents=coin_cents)
    ranked = _check_players(players)
    if not _is_whole(paid_places) or paid_places < 0:
        raise PayoutError(f"Paid places must be a whole number, 0 or more (got {paid_places!r}).")
    if not _is_whole(seed):
        raise PayoutError(f"The seed must be a whole number (got {seed!r}).")
    custom = None if isinstance(weights, str) else _check_weight_list(weights)
    count = len(ranked)

    steps = []
    places = paid_places
    line = f"{_count(count, 'player')}: {_count(paid_places, 'paid place')}"
    if places == 0:
        places = 1
        line += ", paying 1 all the same (all money collected is awarded)"
    if places > count:
        places = count
        line += f", capped at {count} (one per player)"
    if custom is not None and places > len(custom):
        places = len(custom)
        line += f", capped at {places} (the place weights name {_count(places, 'place')})"
    steps.append(line)
    places, place_weights, split, shrunk = _fit(
        pot_cents=pot_cents,
        coin_cents=coin_cents,
        weights=weights if custom is None else custom,
        places=places,
    )
    if shrunk:
        steps.append(f"{_count(count, 'player')}: {shrunk}")
    word = weights.strip().lower() if isinstance(weights, str) else ""
    steps.extend(_split_steps(split, coin_cents=coin_cents, weights=place_weights, word=word))
    place_amounts = split.amounts_cents

    rng = random.Random(seed)
    amounts: dict[int, int] = {}
    cuts: list[Cut] = []
    for group in _tied_groups(ranked):
        first = group[0].rank
        last = first + len(group) - 1
        pool = sum(place_amounts[first - 1 : min(last, places)])
        if len(group) == 1 or pool == 0:
            amounts.update((player.player_id, pool) for player in group)
            continue
        share = _split(total_cents=pool, coin_cents=coin_cents, weights=(1,) * len(group))
        coins_left = sum(share.leftover)
        order = tuple(player.player_id for player in group)
        cut_steps: list[str] = []
        if coins_left or share.odd_cents:
            decides = _decides(coins=coins_left, odd_cents=share.odd_cents, coin_cents=coin_cents)
            # Who is among the first `coins_left` matters, and who is first when odd cents go.
            boundaries = {size for size in (coins_left, 1 if share.odd_cents else 0) if size}
            order, rounds = _cut(order, boundaries=boundaries, rng=rng)
            cuts.append(
                Cut(
                    places=tuple(range(first, last + 1)),
                    cards=tuple(card for dealt in rounds for card in dealt),
                    order=order,
                    decides=decides,
                )
            )
            names = {player.player_id: _name(player) for player in group}
            cut_steps.append(
                f"Cut for {decides}: "
                + "; re-cut ".join(
                    ", ".join(f"{names[card.player_id]} {card.card}" for card in dealt)
                    for dealt in rounds
                )
                + f": {_cut_result(order, names, coins=coins_left, odd_cents=share.odd_cents)}"
            )
        amounts.update(zip(order, share.amounts_cents, strict=True))
        steps.append(_pool_step(group, pool=pool, share=share, places=places, coin=coin_cents))
        steps.extend(cut_steps)

    payouts = tuple(
        Payout(
            player_id=player.player_id,
            rank=player.rank,
            place=player.rank,
            amount_cents=amounts[player.player_id],
        )
        for player in ranked
    )
    paid = [f"{_name(player)} {amounts[player.player_id]}¢" for player in ranked]
    winners = [text for text, payout in zip(paid, payouts, strict=True) if payout.amount_cents]
    if not winners:
        steps.append("Nobody is paid: the pot is empty.")
    elif len(winners) < count:
        steps.append(f"Paid: {', '.join(winners)}; everyone else 0¢.")
    else:
        steps.append(f"Paid: {', '.join(winners)}.")

    if sum(amounts.values()) != pot_cents:  # a broken invariant: crash loudly
        raise AssertionError(f"Payouts sum to {sum(amounts.values())}¢, not the pot {pot_cents}¢.")
    return PayoutPlan(
        pot_cents=pot_cents,
        coin_cents=coin_cents,
        paid_places=places,
        weights=place_weights,
        place_amounts_cents=place_amounts,
        payouts=payouts,
        cuts=tuple(cuts),
        steps=tuple(steps),
    )


# --- the cut --------------------------------------------------------------------------------


def _card_value(card: str) -> int:
    """King high, ace low; suits do not count."""
    return CARD_RANKS.index(card[:-1]) + 1


def _deal(rng: random.Random, count: int) -> list[str]:
    """`count` cards from a freshly shuffled deck (another deck for every 52 cards)."""
    cards: list[str] = []
    while len(cards) < count:
        deck = list(DECK)
        rng.shuffle(deck)
        cards.extend(deck[: count - len(cards)])
    return cards


def _cut(
    player_ids: Sequence[int], *, boundaries: set[int], rng: random.Random
) -> tuple[tuple[int, ...], list[tuple[CutCard, ...]]]:
    """Order `player_ids` by a cut, highest card first, and return the order and every round
    of cards. A boundary b means "who is in the first b" decides something, so players who cut
    the same rank re-cut only when they straddle a boundary.
    """
    rounds: list[tuple[CutCard, ...]] = []

    def cut_round(ids: list[int], splits: set[int]) -> list[int]:
        dealt = tuple(
            CutCard(player_id=pid, card=card)
            for pid, card in zip(ids, _deal(rng, len(ids)), strict=True)
        )
        rounds.append(dealt)
        # sorted() is stable, so players who cut the same rank keep the order they cut in.
        by_card = sorted(dealt, key=lambda cut: -_card_value(cut.card))
        order: list[int] = []
        start = 0
        for _, same in itertools.groupby(by_card, key=lambda cut: _card_value(cut.card)):
            ids_here = [cut.player_id for cut in same]
            end = start + len(ids_here)
            inner = {split - start for split in splits if start < split < end}
            order.extend(cut_round(ids_here, inner) if inner else ids_here)
            start = end
        return order

    return tuple(cut_round(list(player_ids), boundaries)), rounds


def cut_cards(
    player_ids: Sequence[int], *, boundaries: Iterable[int], seed: int
) -> tuple[tuple[int, ...], list[tuple[CutCard, ...]]]:
    """Put tied players in order by a cut of the cards from `seed`, highest card first (see
    `_cut` for `boundaries` and the re-cuts), as a tie over a coin is broken: the order and
    every round of cards cut, for the record."""
    return _cut(list(player_ids), boundaries=set(boundaries), rng=random.Random(seed))


# --- validation -----------------------------------------------------------------------------


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_money(*, pot_cents: int, coin_cents: int) -> None:
    if not _is_whole(pot_cents) or pot_cents < 0:
        raise PayoutError(
            f"The pot must be a whole number of cents, 0 or more (got {pot_cents!r})."
        )
    if not _is_whole(coin_cents) or coin_cents <= 0:
        raise PayoutError(
            f"The payout coin must be a whole number of cents, 1 or more (got {coin_cents!r})."
        )


def _check_weight_list(weights: Sequence[int]) -> tuple[int, ...]:
    if isinstance(weights, str):
        raise PayoutError(
            f"Place weights here must be a list of whole numbers, not the text {weights!r}; "
            'read "linear", "equal" or "50,30,20" with club.models.parse_place_weights first.'
        )
    values = tuple(weights)
    if not values:
        raise PayoutError("Place weights must name at least one place.")
    if not all(_is_whole(value) and value > 0 for value in values):
        raise PayoutError(f"Every place weight must be a whole number above zero (got {values}).")
    if any(better < worse for better, worse in itertools.pairwise(values)):
        raise PayoutError(
            f"Place weights must not grow: a better place never gets less (got {values})."
        )
    return values


def _check_players(players: Sequence[RankedPlayer]) -> tuple[RankedPlayer, ...]:
    ranked = tuple(players)
    if not ranked:
        raise PayoutError("There are no ranked players to pay.")
    seen: set[int] = set()
    for index, player in enumerate(ranked):
        if player.player_id in seen:
            raise PayoutError(f"Player {player.player_id} is ranked twice.")
        seen.add(player.player_id)
        before = ranked[index - 1].rank if index else None
        if not _is_whole(player.rank) or player.rank not in (before, index + 1):
            expected = "1" if before is None else f"{before} (tied) or {index + 1}"
            raise PayoutError(
                "Ranks must be competition ranks listed best first (1, 2, 2, 4, ...): "
                f"{_name(player)}, listed {_ordinal(index + 1)}, has rank {player.rank!r}; "
                f"expected {expected}."
            )
    return ranked


# --- the explanation ------------------------------------------------------------------------


def _tied_groups(ranked: Sequence[RankedPlayer]) -> list[list[RankedPlayer]]:
    return [list(group) for _, group in itertools.groupby(ranked, key=lambda p: p.rank)]


def _name(player: RankedPlayer) -> str:
    return player.name or f"player {player.player_id}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _join(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _places(first: int, last: int) -> str:
    if first == last:
        return f"place {first}"
    if last == first + 1:
        return f"places {first} and {last}"
    return f"places {first} to {last}"


def _split_steps(split: _Split, *, coin_cents: int, weights: Sequence[int], word: str) -> list[str]:
    count = len(split.amounts_cents)
    pot_cents = sum(split.amounts_cents)
    odd = f" and {_count(split.odd_cents, 'odd cent')}" if split.odd_cents else ""
    steps = [f"Pot {pot_cents}¢ = {_count(split.coins, 'coin')} of {coin_cents}¢{odd}"]
    if pot_cents == 0:
        return steps
    if count == 1:
        steps.append(f"One paid place: place 1 gets the whole pot, {split.amounts_cents[0]}¢")
        return steps
    ratio = ":".join(str(weight) for weight in weights)
    label = f"{ratio} ({word})" if word else ratio
    each = ", ".join(
        f"place {index} {coins * coin_cents}¢"
        for index, coins in enumerate(split.rounded_down, start=1)
    )
    steps.append(f"Split {label}, each rounded down to whole coins: {each}")
    left = sum(split.leftover)
    if left:
        to = [
            str(index) + (f" ({more} coins)" if more > 1 else "")
            for index, more in enumerate(split.leftover, start=1)
            if more
        ]
        steps.append(
            f"{_count(left, 'leftover coin')} ({left * coin_cents}¢) "
            f"{'goes' if left == 1 else 'go one each'} to place{'s' if len(to) > 1 else ''} "
            f"{_join(to)}"
        )
    if split.odd_cents:
        steps.append(f"{_count(split.odd_cents, 'odd cent')} to place 1")
    steps.append(
        "Place amounts: "
        + ", ".join(
            f"place {index} {amount}¢" for index, amount in enumerate(split.amounts_cents, start=1)
        )
    )
    return steps


def _decides(*, coins: int, odd_cents: int, coin_cents: int) -> str:
    parts = []
    if coins:
        parts.append(f"{_count(coins, 'indivisible coin')} ({coins * coin_cents}¢)")
    if odd_cents:
        parts.append(_count(odd_cents, "odd cent"))
    return " and ".join(parts)


def _cut_result(order: Sequence[int], names: dict[int, str], *, coins: int, odd_cents: int) -> str:
    winners = [names[pid] for pid in order[:coins]]
    if not odd_cents:
        return f"{winners[0]} takes it" if coins == 1 else f"{_join(winners)} take a coin each"
    text = f"{names[order[0]]} takes the {_count(odd_cents, 'odd cent')}"
    if coins:
        text += " and a coin"
    if coins > 1:
        text += f"; {_join(winners[1:])} {'takes' if coins == 2 else 'take'} a coin"
        text += "" if coins == 2 else " each"
    return text


def _pool_step(
    group: Sequence[RankedPlayer], *, pool: int, share: _Split, places: int, coin: int
) -> str:
    first = group[0].rank
    last = first + len(group) - 1
    names = _join([_name(player) for player in group])
    text = f"T-{first}: {names} pool {_places(first, last)}"
    if last > places:
        text += f" (only {_places(first, places)} paid)"
    text += f", {pool}¢"
    each = share.rounded_down[0] * coin
    if not sum(share.leftover) and not share.odd_cents:
        return f"{text}, and take {each}¢ each"
    return f"{text}: {each}¢ each, and a cut settles the rest"
