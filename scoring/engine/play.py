"""The play (pegging): checking and scoring one deal's cards in the order they were laid.

Terms:
- *seat*: 0 .. players - 1, clockwise. Seat 0 is the player to the dealer's left and leads first;
  the dealer is the last seat. With two players seat 0 is the non-dealer ("opponent").
- *count* (series): the cards laid from a lead until nobody can lay another without passing 31;
  the *running count* is the sum of their values. A count never goes past 31.
- *go*: a player whose turn it is and who holds cards, none of which fits under 31, says go. The
  player who laid the last card of a count pegs 1 for the go, or 2 for exactly 31 (never both).
- *last card*: the last card of the whole play pegs 1 as a go (2 only through 31, never 3).
- *reset*: the count starting again from zero; *lead*: the first card of a count.
- *lead rule*: who leads after a reset (``LeadRule``); the texts differ, see docs/scoring-engine.md.
- *side*: the seats that peg together (partners); each single player is a side of one.

The record is only ``(seat, card)`` pairs. Every card a seat held is one it lays later, so the
engine knows at each moment what each seat still holds, infers every go and reset, and refuses a
record in which a player said go while holding a card that fitted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, parse_card
from .errors import CardError, PlayError

PLAY_ITEM_KINDS: tuple[str, ...] = ("fifteen", "thirty-one", "pair", "run", "go", "last card")
_PAIR_POINTS: dict[int, tuple[int, str]] = {
    2: (2, "pair"),
    3: (6, "pair royal"),
    4: (12, "double pair royal"),
}


class LeadRule(StrEnum):
    """Who leads the next count after a go or 31."""

    #: club-thursday-rules.md "The Go": "The first player who called Go leads for the next series".
    FIRST_GO = "first-go"
    #: western-publishing.txt "THE PLAY": "Player to the left of player who played the last card
    #: starts"; hoyle.txt (two players): "the opponent of the player who played the last card".
    LEFT_OF_LAST = "left-of-last"


def default_lead_rule(players: int) -> LeadRule:
    """Hoyle for two players (both rules agree there), the club's for 3 and 4, western for 6."""
    return LeadRule.FIRST_GO if players in (3, 4) else LeadRule.LEFT_OF_LAST


def table_sides(players: int, sides: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The seats of each side. 2 and 3 players play alone; 4 play partners sitting opposite
    (0 & 2 against 1 & 3); 6 play two sides of three alternate players (western-publishing.txt:
    "1-3-5 and 2-4-6"), or, if ``sides=3``, three sides of two sitting opposite
    (0 & 3, 1 & 4, 2 & 5)."""
    if players in (2, 3) and sides in (None, players):
        return tuple((seat,) for seat in range(players))
    if players == 4 and sides in (None, 2):
        return ((0, 2), (1, 3))
    if players == 6 and sides in (None, 2):
        return ((0, 2, 4), (1, 3, 5))
    if players == 6 and sides == 3:
        return ((0, 3), (1, 4), (2, 5))
    if players not in (2, 3, 4, 6):
        raise PlayError(f"cribbage is played by 2, 3, 4 or 6 players, not {players}")
    raise PlayError(f"{players} players cannot play as {sides} sides")


@dataclass(frozen=True)
class PlayItem:
    """One score made by laying a card: ``kind`` is one of ``PLAY_ITEM_KINDS``."""

    kind: str
    points: int
    cards: tuple[Card, ...]  # the cards that make it (for a go or last card: the card laid)
    label: str  # "fifteen", "thirty-one", "pair royal", "run of 4", "go", "last card"

    def __str__(self) -> str:
        return f"{self.label} {self.points}"


def peg_items(count_cards: Sequence[Card]) -> tuple[PlayItem, ...]:
    """What the last of ``count_cards`` scores, given the cards of its count in the order laid.

    Fifteen 2 and thirty-one 2 on the running count; pair 2, pair royal 6, double pair royal 12 for
    the latest cards of one rank; a run for the longest tail of the latest cards that are all
    different ranks in sequence, in any order (hoyle.txt "Run"; britannica-1911.txt "Sequences").
    A go or last card is not included: it depends on what happens next.
    """
    card = count_cards[-1]
    count = sum(c.value for c in count_cards)
    if count > 31:
        raise PlayError(f"{card} takes the count to {count}, past 31")
    items: list[PlayItem] = []
    if count == 15:
        items.append(PlayItem("fifteen", 2, tuple(count_cards), "fifteen"))
    elif count == 31:
        items.append(PlayItem("thirty-one", 2, tuple(count_cards), "thirty-one"))
    same = 1
    while same < len(count_cards) and count_cards[-1 - same].rank == card.rank:
        same += 1
    if same >= 2:
        points, label = _PAIR_POINTS[same]
        items.append(PlayItem("pair", points, tuple(count_cards[-same:]), label))
        return tuple(items)
    for length in range(len(count_cards), 2, -1):
        tail = count_cards[-length:]
        ranks = {c.rank for c in tail}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            items.append(PlayItem("run", length, tuple(tail), f"run of {length}"))
            break
    return tuple(items)


@dataclass(frozen=True)
class PlayedCard:
    """One card of the play, with what it scored."""

    index: int  # 0-based position in the record
    seat: int
    card: Card
    count: int  # the running count after it
    series: int  # 0-based number of the count it belongs to
    items: tuple[PlayItem, ...]
    go_before: tuple[int, ...]  # seats that said go since the previous card, in turn order

    @property
    def points(self) -> int:
        return sum(item.points for item in self.items)

    def describe(self) -> str:
        """``"seat 1 lays 4S: 19, pair 2"``."""
        gos = "".join(f"seat {seat} says go; " for seat in self.go_before)
        scores = ", ".join(str(item) for item in self.items)
        return f"{gos}seat {self.seat} lays {self.card}: {self.count}" + (
            f", {scores}" if scores else ""
        )


@dataclass(frozen=True)
class PlayScore:
    """The scored play of one deal: every card with its items, and points per seat and side."""

    players: int
    sides: tuple[tuple[int, ...], ...]
    lead_rule: LeadRule
    cards: tuple[PlayedCard, ...]
    seat_points: tuple[int, ...]
    side_points: tuple[int, ...]

    @property
    def dealer(self) -> int:
        return self.players - 1

    @property
    def total(self) -> int:
        return sum(self.seat_points)

    def points_for(self, seat: int) -> int:
        return self.seat_points[seat]

    def side_of(self, seat: int) -> int:
        """The index into ``sides`` / ``side_points`` of the side ``seat`` plays for."""
        return next(i for i, side in enumerate(self.sides) if seat in side)

    def counts(self) -> tuple[tuple[PlayedCard, ...], ...]:
        """The cards grouped by count (series), in order."""
        groups: list[list[PlayedCard]] = []
        for played in self.cards:
            if played.series == len(groups):
                groups.append([])
            groups[-1].append(played)
        return tuple(tuple(group) for group in groups)


def _entries(plays: Iterable[tuple[int, Card | str]], players: int) -> list[tuple[int, Card]]:
    entries: list[tuple[int, Card]] = []
    for number, entry in enumerate(plays, start=1):
        try:
            if isinstance(entry, str):
                raise TypeError
            seat, text = entry
        except (TypeError, ValueError):
            raise PlayError(f"card #{number}: {entry!r} is not a (seat, card) pair") from None
        try:
            card = parse_card(text)
        except CardError as error:
            raise CardError(f"card #{number}: {error}") from None
        if type(seat) is not int or not 0 <= seat < players:
            raise PlayError(
                f"card #{number} ({card}): seat {seat!r} is not at a {players}-player table "
                f"(seats 0 to {players - 1})"
            )
        entries.append((seat, card))
    return entries


def score_play(
    plays: Iterable[tuple[int, Card | str]],
    *,
    players: int = 2,
    sides: int | None = None,
    lead_rule: LeadRule | str | None = None,
    cards_per_seat: int | Sequence[int] | None = None,
    complete: bool = True,
) -> PlayScore:
    """Check and score a play phase recorded as ``(seat, card)`` in the order the cards were laid.

    ``lead_rule`` defaults to ``default_lead_rule(players)``. ``cards_per_seat`` (optional) is how
    many cards each seat held for the play (4 in every six-card game); each seat must lay exactly
    that many. ``complete=False`` scores a record that stops part-way: no last card is scored, and
    a go can only be refused on the evidence of the cards recorded.
    """
    side_seats = table_sides(players, sides)
    rule = default_lead_rule(players) if lead_rule is None else LeadRule(lead_rule)
    entries = _entries(plays, players)

    first_at: dict[Card, int] = {}
    for i, (_seat, card) in enumerate(entries):
        if card in first_at:
            raise PlayError(f"{card} is laid twice (card #{first_at[card] + 1} and card #{i + 1})")
        first_at[card] = i
    if cards_per_seat is not None:
        held = [cards_per_seat] * players if isinstance(cards_per_seat, int) else cards_per_seat
        if len(held) != players:
            raise PlayError(f"cards_per_seat gives {len(held)} seats for {players} players")
        for seat in range(players):
            laid = sum(1 for s, _ in entries if s == seat)
            if laid != held[seat]:
                raise PlayError(f"seat {seat} laid {laid} cards but held {held[seat]}")

    # What each seat still holds: the cards it lays later, as (index, card).
    holding: list[list[tuple[int, Card]]] = [[] for _ in range(players)]
    for i, (seat, card) in enumerate(entries):
        holding[seat].append((i, card))

    def fitting(seat: int, count: int) -> tuple[int, Card] | None:
        return next((held for held in holding[seat] if held[1].value <= 31 - count), None)

    def next_holding(after: int) -> int:
        """The first seat clockwise after ``after`` (ending with ``after`` itself) holding cards."""
        return next(
            seat for step in range(1, players + 1) if holding[seat := (after + step) % players]
        )

    items: list[list[PlayItem]] = [[] for _ in entries]
    gos: list[tuple[int, ...]] = [() for _ in entries]
    series_of: list[int] = []
    counts: list[int] = []
    series: list[int] = []  # indices of the cards in the current count
    went: list[int] = []  # seats that have said go in the current count, in turn order
    count = 0
    last = players - 1  # as if the dealer had laid a card: the first lead falls to his left
    number = 0

    for i, (seat, card) in enumerate(entries):
        said_go: list[int] = []
        if series and count + card.value <= 31:
            # Every seat between the last player and this one passed: each had to be unable to play.
            passing = last
            while (passing := (passing + 1) % players) != seat:
                fit = fitting(passing, count)
                if fit is not None:
                    raise PlayError(
                        f"card #{i + 1} ({card}, seat {seat}): seat {passing} cannot have said "
                        f"go at {count}, because it held {fit[1]} (laid as card #{fit[0] + 1}), "
                        "which fits: a player who can lay a card must"
                    )
                if holding[passing] and passing not in went:
                    said_go.append(passing)
            went.extend(said_go)
        elif series:
            # The card does not fit, so the count must be over: nobody may hold a card that fits.
            for step in range(1, players + 1):
                other = (last + step) % players
                fit = fitting(other, count)
                if fit is not None:
                    raise PlayError(
                        f"card #{i + 1} ({card}, seat {seat}) would carry the count from "
                        f"{count} to {count + card.value}, past 31; and the count of {count} "
                        f"was not over, because seat {other} held {fit[1]} "
                        f"(laid as card #{fit[0] + 1}), which fits"
                    )
            if count < 31:  # everyone still holding cards says go; the last player pegs it
                items[series[-1]].append(PlayItem("go", 1, (entries[series[-1]][1],), "go"))
                said_go = [
                    other
                    for step in range(1, players + 1)
                    if holding[other := (last + step) % players] and other not in went
                ]
            went.extend(said_go)
            if rule is LeadRule.FIRST_GO and went:
                leader, why = went[0], f"the first to say go (seat {went[0]}) leads"
            else:
                leader, why = (
                    next_holding(last),
                    f"the next player after seat {last}, who laid last",
                )
            if seat != leader:
                raise PlayError(
                    f"card #{i + 1} ({card}) was laid out of turn by seat {seat}: seat {leader} "
                    f"leads the new count ({why})"
                )
            series, count, went = [], 0, []  # the gos are shown before the lead
            number += 1
        elif seat != (leader := next_holding(last)):
            raise PlayError(
                f"card #{i + 1} ({card}) was laid out of turn by seat {seat}: seat {leader} leads "
                "the first count (the player to the dealer's left)"
            )
        count += card.value
        series.append(i)
        holding[seat].pop(0)
        items[i].extend(peg_items([entries[j][1] for j in series]))
        gos[i] = tuple(said_go)
        series_of.append(number)
        counts.append(count)
        last = seat
    if complete and series and count < 31:
        items[series[-1]].append(PlayItem("last card", 1, (entries[series[-1]][1],), "last card"))

    played = tuple(
        PlayedCard(i, seat, card, counts[i], series_of[i], tuple(items[i]), gos[i])
        for i, (seat, card) in enumerate(entries)
    )
    seat_points = [0] * players
    for card_score in played:
        seat_points[card_score.seat] += card_score.points
    return PlayScore(
        players=players,
        sides=side_seats,
        lead_rule=rule,
        cards=played,
        seat_points=tuple(seat_points),
        side_points=tuple(sum(seat_points[s] for s in side) for side in side_seats),
    )
