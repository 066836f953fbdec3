"""Cards: parsing, canonical text, display helpers and the errors for bad card text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import DECK, Card, CardError, ScoringError, parse_card, parse_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit", "value", "canonical"),
    [
        ("5H", 5, "H", 5, "5H"),
        ("10D", 10, "D", 10, "10D"),
        ("TD", 10, "D", 10, "10D"),
        ("td", 10, "D", 10, "10D"),
        ("JS", 11, "S", 10, "JS"),  # hoyle.txt "Cards": K, Q, J, 10 each count 10
        ("qc", 12, "C", 10, "QC"),
        ("K♦", 13, "D", 10, "KD"),
        ("AC", 1, "C", 1, "AC"),  # hoyle.txt "Cards": ace, 1
        ("a♠", 1, "S", 1, "AS"),
        (" 7♥ ", 7, "H", 7, "7H"),
        ("9♣", 9, "C", 9, "9C"),
        ("2♡", 2, "H", 2, "2H"),
        ("8♥\ufe0f", 8, "H", 8, "8H"),  # the emoji variation selector phone keyboards add
    ],
)
def test_parse_card(text: str, rank: int, suit: str, value: int, canonical: str) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit, card.value, str(card)) == (rank, suit, value, canonical)
    assert card == Card(rank, suit)


@pytest.mark.parametrize(
    "text", ["", "5", "H", "1H", "11H", "0S", "5X", "JJ", "10", "5H5", "ZZ", "5 H"]
)
def test_bad_card_text_names_the_text(text: str) -> None:
    with pytest.raises(CardError) as raised:
        parse_card(text)
    assert repr(text) in str(raised.value)
    assert isinstance(raised.value, ScoringError)


@pytest.mark.parametrize(("rank", "suit"), [(0, "H"), (14, "S"), (5, "X"), (True, "H"), (5.0, "H")])
def test_card_refuses_bad_rank_or_suit(rank: object, suit: str) -> None:
    with pytest.raises(CardError, match="not a"):
        Card(rank, suit)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5H 10D JS AC", ["5H", "10D", "JS", "AC"]),
        ("5h,10d, js ,ac", ["5H", "10D", "JS", "AC"]),
        ("5♥ T♦\nJ♠;A♣", ["5H", "10D", "JS", "AC"]),
        ("", []),
        (["5H", "td"], ["5H", "10D"]),
    ],
)
def test_parse_cards(text: str | list[str], expected: list[str]) -> None:
    assert [str(card) for card in parse_cards(text)] == expected


def test_parse_cards_names_the_bad_one() -> None:
    with pytest.raises(CardError, match="'5Z'"):
        parse_cards("5H 5Z JS")


def test_the_pack_has_52_different_cards() -> None:
    assert len(DECK) == 52 == len(set(DECK)) == len({card.index for card in DECK})
    assert {str(card) for card in DECK} == {
        rank + suit
        for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        for suit in "SHDC"
    }


def test_symbol_and_colour() -> None:
    assert [(parse_card(t).symbol, parse_card(t).is_red) for t in ["10D", "JS", "AH", "2C"]] == [
        ("10♦", True),
        ("J♠", False),
        ("A♥", True),
        ("2♣", False),
    ]


def test_cards_sort_by_rank_then_suit() -> None:
    assert [str(card) for card in sorted(parse_cards("KS 2H AD 2C"))] == ["AD", "2C", "2H", "KS"]


@given(st.sampled_from(DECK))
def test_parse_str_parse_is_identity(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert str(parse_card(str(card))) == str(card)
    assert parse_card(card.symbol) == card
    assert parse_card(str(card).lower()) == card
