"""Random deals played out legally, for benchmarks and property tests.

Terms:
- *deal*: the cards dealt to each seat, the lay-away to the crib, the starter, and the play.
- *legal play*: at each turn the player lays a random card that fits under 31 or, holding none,
  says go; after a go or 31 the lead passes by the lead rule (see ``play.LeadRule``).

This is a second, independent implementation of the turn order: it knows every hand and simply
plays, where ``score_play`` must infer the hands from the record. The tests check that
``score_play`` accepts every record this produces.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import DECK, Card
from .play import LeadRule, default_lead_rule

# Cards dealt per seat (seat 0 first, the dealer last): hoyle.txt (two players, six each),
# club-thursday-rules.md "The Deal" (three: five each and one to the crib; four: five each),
# western-publishing.txt "SIX-HANDED" (five to the first four, four to the dealer and his right).
DEALT: dict[int, tuple[int, ...]] = {
    2: (6, 6),
    3: (5, 5, 5),
    4: (5, 5, 5, 5),
    6: (5, 5, 5, 5, 4, 4),
}


@dataclass(frozen=True)
class Deal:
    """One simulated deal: the hands kept (4 cards a seat), the crib, the starter and the play."""

    hands: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]
    starter: Card
    plays: tuple[tuple[int, Card], ...]


def random_deal(
    rng: random.Random, players: int = 2, *, lead_rule: LeadRule | str | None = None
) -> Deal:
    """Deal, lay away at random, turn the starter and play out legally at random."""
    deck = list(DECK)
    rng.shuffle(deck)
    crib: list[Card] = [deck.pop()] if players == 3 else []
    hands: list[tuple[Card, ...]] = []
    for size in DEALT[players]:
        dealt, deck = deck[:size], deck[size:]
        rng.shuffle(dealt)
        hands.append(tuple(dealt[:4]))
        crib.extend(dealt[4:])
    starter = deck.pop()
    plays = random_play(rng, hands, lead_rule=lead_rule)
    return Deal(tuple(hands), tuple(crib), starter, tuple(plays))


def random_play(
    rng: random.Random, hands: list[tuple[Card, ...]], *, lead_rule: LeadRule | str | None = None
) -> list[tuple[int, Card]]:
    """Play the hands out: a random fitting card at each turn, go when none fits."""
    players = len(hands)
    rule = default_lead_rule(players) if lead_rule is None else LeadRule(lead_rule)
    held = [list(hand) for hand in hands]
    plays: list[tuple[int, Card]] = []
    count, turn, last, first_go = 0, 0, -1, None
    while any(held):
        player = None
        for step in range(players):
            seat = (turn + step) % players
            fits = [card for card in held[seat] if count + card.value <= 31]
            if fits:
                player = seat
                break
            if held[seat] and first_go is None:
                first_go = seat  # holds cards, none fits: says go
        if player is None:  # nobody can lay a card: the count is over
            if rule is LeadRule.FIRST_GO and first_go is not None:
                turn = first_go
            else:
                turn = next(
                    seat for step in range(1, players + 1) if held[seat := (last + step) % players]
                )
            count, first_go = 0, None
            continue
        card = rng.choice(fits)
        held[player].remove(card)
        plays.append((player, card))
        count += card.value
        last, turn = player, (player + 1) % players
    return plays
