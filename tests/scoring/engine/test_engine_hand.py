"""Hand and crib counts: the rule texts' worked examples, the spoken count, errors, properties.

Cards are written hand first, starter last. Where a text gives ranks only, the suits here are chosen
to make no flush and no nobs unless the example is about them. The rule texts: docs/rules.md.
"""

from collections import Counter
from itertools import combinations_with_replacement, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    DECK,
    IMPOSSIBLE_HAND_TOTALS,
    SUITS,
    Card,
    CardError,
    ScoringError,
    hand_total,
    heels,
    is_possible_hand_total,
    parse_card,
    parse_cards,
    score_hand,
)
from scoring.engine.hand import RANK_TABLE, rank_key

RANK_KINDS = ("fifteen", "pair", "run")


def rank_part(score) -> int:
    return sum(score.points(kind) for kind in RANK_KINDS)


# --- Worked examples with their totals and the count as the text says it --------------------------

WORKED_TOTALS = [
    # hoyle.txt "Showing": 'A hand (with starter) of 9-6-5-4-4 will usually be counted "Fifteen 2,
    # fifteen 4, fifteen 6 and double run makes 14"'. We add "a" before "double run".
    pytest.param(
        "9S 6H 5D 4C",
        "4H",
        14,
        "Fifteen 2, fifteen 4, fifteen 6 and a double run makes 14",
        id="hoyle Showing: 9-6-5-4-4 makes 14",
    ),
    # club-thursday-rules.md "Combinations": "8, 7, 7, 6, 2 scores 8 points for four combinations
    # that total 15 ... 2 for a pair, and 6 for two runs of three ... The total score is 16"; said
    # "Fifteen 2, fifteen 4, fifteen 6, fifteen 8, and 8 for double run is 16".
    pytest.param(
        "8S 7H 7D 6C",
        "2H",
        16,
        "Fifteen 2, fifteen 4, fifteen 6, fifteen 8 and a double run makes 16",
        id="club Combinations: 8-7-7-6-2 makes 16",
    ),
    # hoyle.txt "Showing": "The highest possible hand is J, 5, 5, 5 with the starter the 5 of the
    # same suit as the jack ... 16 for fifteens ... 12 ... his nobs adds 1 for a maximum score of
    # 29";
    # britannica-1911.txt (last sentence) and club-thursday-rules.md "A PERFECT 29" say the same.
    pytest.param(
        "5S 5H 5D JC",
        "5C",
        29,
        "Fifteen 2, fifteen 4, fifteen 6, fifteen 8, fifteen 10, fifteen 12, fifteen 14, "
        "fifteen 16, a double pair royal and one for his nobs makes 29",
        id="hoyle Showing: the 29",
    ),
    # britannica-1911.txt dialogue: A holds the knave of hearts, a four and a pair of twos; the two
    # of hearts is turned up. '"Six for a pair-royal" ... and "One for his nob—seven"'.
    pytest.param(
        "JH 4S 2S 2C",
        "2H",
        7,
        "A pair royal and one for his nobs makes 7",
        id="britannica dialogue: A's hand, seven",
    ),
    # britannica-1911.txt dialogue: B holds a pair of nines, a six and a four: '"Fifteen two,
    # fifteen four, fifteen six, fifteen eight, and a pair are ten."'
    pytest.param(
        "9S 9C 6D 4D",
        "2H",
        10,
        "Fifteen 2, fifteen 4, fifteen 6, fifteen 8 and a pair makes 10",
        id="britannica dialogue: B's hand, ten",
    ),
    # hoyle.txt "Showing": 'a hand with not a single counting combination ... "I have nineteen."'
    # We say "Nothing (0)": 19 is a count no hand can make, and the site flags it as a claim.
    pytest.param("2S 4D 6C 8S", "KH", 0, "Nothing (0)", id="hoyle Showing: nineteen, i.e. 0"),
    pytest.param("KS QH 5D 8C", "AH", 4, "Fifteen 2, fifteen 4", id="only fifteens"),
    pytest.param(
        "KS KH QD QC",
        "5H",
        12,
        "Fifteen 2, fifteen 4, fifteen 6, fifteen 8 and two pairs makes 12",
        id="two pairs",
    ),
    pytest.param("KS KH 2D 7C", "9H", 2, "A pair makes 2", id="a pair alone"),
    pytest.param(
        "3S 4H 5D KC",
        "KH",
        9,
        "Fifteen 2, fifteen 4, a run of 3 and a pair makes 9",
        id="a run and a pair outside it",
    ),
]


@pytest.mark.parametrize(("hand", "starter", "total", "spoken"), WORKED_TOTALS)
def test_worked_examples(hand: str, starter: str, total: int, spoken: str) -> None:
    score = score_hand(hand, starter)
    assert score.total == total
    assert sum(item.points for item in score.items) == total
    assert score.spoken() == spoken


def test_britannica_dialogue_crib() -> None:
    # britannica-1911.txt dialogue: B's crib "contains, say, king, eight, three, ace and the start
    # is also reckoned. B counts 'Fifteen two and a run of three—five.'"
    score = score_hand("KS 8D 3C AC", "2H", crib=True)
    assert score.total == 5
    assert score.spoken() == "Fifteen 2 and a run of 3 makes 5"
    assert [str(c) for c in score.items[0].cards] == ["2H", "3C", "KS"]


def test_the_29_items() -> None:
    # hoyle.txt "Showing": "four fifteens by combining the jack with a five, four more by
    # combinations of three fives (a total of 16 for fifteens); the double pair royal adds 12".
    score = score_hand("5S 5H 5D JC", "5C")
    fifteens = [item for item in score.items if item.kind == "fifteen"]
    assert sorted(len(item.cards) for item in fifteens) == [2, 2, 2, 2, 3, 3, 3, 3]
    assert (score.points("pair"), score.points("nobs"), score.points("run")) == (12, 1, 0)
    assert [item.cards for item in score.items if item.kind == "nobs"] == [
        (parse_card("JC"), parse_card("5C"))
    ]


# --- Pairs and runs alone ("exclusive of fifteens"), and the names players use --------------------

PAIRS_AND_RUNS = [
    # hoyle.txt "Showing": "A double run is a run with one card duplicated, as 4-3-3-2. Exclusive of
    # fifteens, a double run of three cards counts 8".
    pytest.param("4S 3H 3D 2C", "KC", 8, "double run", id="hoyle: double run 4-3-3-2 is 8"),
    # hoyle.txt: "A triple run is a run of three with one card triplicated, as K-K-K-Q-J ... 15".
    pytest.param("KS KH KD QC", "JS", 15, "triple run", id="hoyle: triple run K-K-K-Q-J is 15"),
    # hoyle.txt: "A quadruple run is a run of three with two different cards duplicated, as the
    # example 8-8-7-6-6 previously given ... 16". (Our copy gives no earlier example: a scan gap.)
    pytest.param("8S 8H 7D 6C", "6H", 16, "double double run", id="hoyle: quadruple run 8-8-7-6-6"),
    # club-thursday-rules.md "Combinations" A-F, for pairs and runs alone.
    pytest.param("7S 7H 7D KC", "AH", 6, "pair royal", id="club A: a triplet counts 6"),
    pytest.param("2S 2H 2D 2C", "KH", 12, "double pair royal", id="club B: four of a kind 12"),
    pytest.param("3S 4H 4D 5C", "KH", 8, "double run", id="club C: double run of three 8"),
    pytest.param("3S 4H 4D 5C", "6H", 10, "double run of 4", id="club D: double run of four 10"),
    pytest.param("3S 3H 3D 4C", "5H", 15, "triple run", id="club E: triple run 15"),
    pytest.param("3S 3H 4D 5C", "5H", 16, "double double run", id="club F: two duplicated 16"),
    # es-lowe.txt "SCORING OF HANDS" (11): "7899 ... a double run of three with a pair and counts
    # 8 points (3+3+2)".
    pytest.param("7S 8H 9D 9C", "KH", 8, "double run", id="es-lowe (11): 7899 is 8"),
    # es-lowe.txt (12): 'A "double run of four" such as 57476 ("start") ... counts 10 (4+4+2)'.
    pytest.param("5S 7H 4D 7C", "6H", 10, "double run of 4", id="es-lowe (12): 57476 is 10"),
    # es-lowe.txt (13): 'A "triple run of three" such as 42223 ("start") ... 15 (3+3+3+2+2+2)'.
    pytest.param("4S 2H 2D 2C", "3H", 15, "triple run", id="es-lowe (13): 42223 is 15"),
    # es-lowe.txt (14): 'A "quadruple run of three, such as 43322 ("start") ... 16 (3+3+3+3+2+2)'.
    pytest.param("4S 3H 3D 2C", "2H", 16, "double double run", id="es-lowe (14): 43322 is 16"),
]


@pytest.mark.parametrize(("hand", "starter", "points", "name"), PAIRS_AND_RUNS)
def test_pairs_and_runs_exclusive_of_fifteens(
    hand: str, starter: str, points: int, name: str
) -> None:
    score = score_hand(hand, starter)
    assert score.points("pair") + score.points("run") == points
    assert [g.name for g in score.groups if g.kind in ("pair", "run")] == [name]
    assert f"a {name} makes" in score.spoken().lower()


@pytest.mark.parametrize(
    ("hand", "starter", "runs"),
    [
        # britannica-1911.txt "Sequences": "3 4,5 and a 3 turned up reckon two sequences of three;
        # with another 3 there would be three sequences of three".
        pytest.param("3S 4H 5D KC", "3H", 2, id="britannica: 3-4-5 and a 3 turned up"),
        pytest.param("3S 4H 5D 3C", "3H", 3, id="britannica: with another 3, three runs"),
    ],
)
def test_britannica_sequences(hand: str, starter: str, runs: int) -> None:
    items = [item for item in score_hand(hand, starter).items if item.kind == "run"]
    assert [len(item.cards) for item in items] == [3] * runs


def test_britannica_fifteens() -> None:
    # britannica-1911.txt "Fifteens": a ten card and a five "fifteen two"; another five "fifteen
    # four"; with a two and a three, "fifteen six, fifteen eight": the three and two with the ten
    # card, and the two fives with the three and two.
    score = score_hand("KS 5H 5D 2C", "3H")
    fifteens = {frozenset(map(str, i.cards)) for i in score.items if i.kind == "fifteen"}
    assert fifteens == {
        frozenset({"KS", "5H"}),
        frozenset({"KS", "5D"}),
        frozenset({"KS", "3H", "2C"}),
        frozenset({"5H", "5D", "3H", "2C"}),
    }
    # "Similarly two ten cards and two fives reckon eight; a nine and three threes count six".
    assert score_hand("10S KH 5D 5C", "AC").points("fifteen") == 8
    assert score_hand("9S 3H 3D 3C", "KH").points("fifteen") == 6


def test_a_run_counts_at_its_longest_only() -> None:
    # club-thursday-rules.md "Pegging"/"Counting the Hands": a run of four pegs 4 (not 4 + 3 + 3).
    score = score_hand("AS 2H 3D 4C", "KH")
    assert [(i.kind, len(i.cards)) for i in score.items if i.kind == "run"] == [("run", 4)]
    assert score_hand("AS 2H 3D 4C", "5H").points("run") == 5


# --- Flush and nobs -------------------------------------------------------------------------------

FLUSHES = [
    # hoyle.txt "Flush": "Four cards of the same suit in hand score 4; four cards in hand or crib of
    # same suit as the starter score 5. (No count for four-flush in crib.)"
    pytest.param("2H 4H 6H 8H", "KS", False, 4, id="hoyle: four-flush in hand 4"),
    pytest.param("2H 4H 6H 8H", "KS", True, 0, id="hoyle: no four-flush in crib"),
    pytest.param("2H 4H 6H 8H", "KH", False, 5, id="hoyle: with the starter's suit 5"),
    pytest.param("2H 4H 6H 8H", "KH", True, 5, id="hoyle: crib with the starter's suit 5"),
    # club-thursday-rules.md "Flush": "Four cards of the same suit in hand" - the starter with three
    # of the hand is no flush.
    pytest.param("2H 4H 6H 8S", "KH", False, 0, id="club: three in hand and the starter, none"),
    # britannica-1911.txt "Flushes": five-card cribbage, 3-card hand: "one is reckoned for each
    # card. If the start is also of the same suit, one is reckoned for that also."
    pytest.param("2H 4H 6H", "KS", False, 3, id="britannica: 3-card hand flush 3"),
    pytest.param("2H 4H 6H", "KH", False, 4, id="britannica: 3-card hand and start 4"),
    pytest.param("2H 4H 6S", "KH", False, 0, id="britannica: 3-card hand, two and start, none"),
]


@pytest.mark.parametrize(("hand", "starter", "crib", "flush"), FLUSHES)
def test_flush(hand: str, starter: str, crib: bool, flush: int) -> None:
    score = score_hand(hand, starter, crib=crib)
    assert score.points("flush") == flush
    assert score.total == rank_part(score) + flush == hand_total(hand, starter, crib=crib)


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "nobs"),
    [
        # hoyle.txt "His Nobs": "Jack of same suit as the starter, in hand or crib, scores 1."
        pytest.param("JH 2S 4D 6C", "KH", False, 1, id="hoyle: his nobs in hand"),
        pytest.param("JH 2S 4D 6C", "KH", True, 1, id="hoyle: his nobs in crib"),
        pytest.param("JS 2S 4D 6C", "KH", False, 0, id="a jack of another suit"),
        pytest.param("2S 4D 6C 8S", "JH", False, 0, id="a jack turned up is heels, not nobs"),
        pytest.param("JH 2S 4D", "KH", False, 1, id="britannica His Nob: 3-card hand"),
    ],
)
def test_nobs(hand: str, starter: str, crib: bool, nobs: int) -> None:
    score = score_hand(hand, starter, crib=crib)
    assert score.points("nobs") == nobs
    assert ("one for his nobs" in score.spoken().lower()) == bool(nobs)


@pytest.mark.parametrize(("starter", "points"), [("JS", 2), ("jh", 2), ("QS", 0), ("AC", 0)])
def test_heels(starter: str, points: int) -> None:
    # hoyle.txt "The Starter": "If it is a jack, dealer immediately pegs 2, called 2 for his heels."
    assert heels(starter) == heels(parse_card(starter)) == points


def test_three_card_hands() -> None:
    # Five-card cribbage (britannica-1911.txt): a hand of 3 with the start.
    assert score_hand("5S 5H 5D", "5C").total == 20  # 4 fifteens of three fives, 6 pairs
    # The jack with each of three fives, and the three fives: 4 fifteens; a pair royal; his nobs.
    assert score_hand("5S 5H JC", "5C").spoken() == (
        "Fifteen 2, fifteen 4, fifteen 6, fifteen 8, a pair royal and one for his nobs makes 15"
    )


# --- western-publishing.txt: the table of hands "that beginner might find difficult to count" -----

# Every row whose five cards are legible in the scan, with the printed total (1 = ace, N = nobs).
WESTERN_ROWS = [
    ("1-1-2-2-3", 16),
    ("1-2-3-3-3", 15),
    ("1-4-4-4-10", 12),
    ("2-3-4-4-4", 17),
    ("4-5-5-6-6", 24),
    ("4-5-6-6-6", 21),
    ("5-5-10-J-Q", 17),
    ("6-7-8-9-9", 16),
    ("1-1-7-7-8", 12),
    ("3-3-3-6-6", 18),
    ("3-3-6-6-9", 14),
    ("5-5-5-N-J", 23),
    ("5-5-5-10-10", 22),
    ("1-4-4-N-4", 13),
    ("5-5-10-N-Q", 18),
    ("2-2-2-2-9", 20),
    ("1-7-7-7-7", 24),
    ("4-4-7-7-7", 14),
    ("3-3-4-5-5", 20),
    ("1-1-6-7-7", 12),
    ("2-6-6-7-7", 12),
    ("7-7-7-1-1", 20),
    ("3-4-4-4-4", 20),
    ("4-5-5-5-6", 23),
    ("1-1-6-7-8", 13),
]

# Rows with leading cards lost in the scan: the visible ranks and the printed total. Each must be
# reachable by some completion; docs/scoring-engine.md lists the completions.
WESTERN_PARTIAL_ROWS = [
    ("2-3-3-4", 16),
    ("3-3-3-4", 17),
    ("4-4-4-5", 17),
    ("6-6-6-6", 24),
    ("4-5-6-6", 24),
    ("N-5-5-5", 29),
    ("5-5-5-10", 28),
    ("6-9-9-9", 20),
    ("9-9-9", 20),
    ("6-7-7-8", 20),
    ("7-7-8", 21),
    ("7-8-9", 21),
    ("7-8-8", 20),
    ("8-8-9", 24),
    ("7-7-8", 16),
    ("6-6-6", 20),
    ("3-4-5", 21),
    ("3-3-9", 24),
    ("3-3-3-6", 20),
    ("4-4-4-7", 24),
    ("4-4-7-7", 20),
]

_WESTERN_RANKS = {"1": 1, "J": 11, "N": 11, "Q": 12, "K": 13} | {str(r): r for r in range(2, 11)}


def western_cards(row: str) -> tuple[list[Card], Card]:
    """Cards for a table row: the starter is the last card (the last that is not a jack, when the
    row has N); N is the jack of the starter's suit; every other card gets the first suit, in turn
    from its position, that its rank has not used and that is not the starter's suit for a jack."""
    tokens = row.split("-")
    jacks = ("N", "J") if "N" in tokens else ()
    starter_at = max(i for i, token in enumerate(tokens) if token not in jacks)
    used: dict[int, set[str]] = {}
    cards: list[Card | None] = [None] * len(tokens)
    start_suit = SUITS[starter_at % 4]
    cards[starter_at] = Card(_WESTERN_RANKS[tokens[starter_at]], start_suit)
    used.setdefault(cards[starter_at].rank, set()).add(start_suit)
    for i, token in enumerate(tokens):
        rank = _WESTERN_RANKS[token]
        if i == starter_at:
            continue
        if token == "N":
            suit = start_suit
        else:
            choices = [SUITS[(i + k) % 4] for k in range(4)]
            suit = next(
                s
                for s in choices
                if s not in used.get(rank, set()) and not (rank == 11 and s == start_suit)
            )
        used.setdefault(rank, set()).add(suit)
        cards[i] = Card(rank, suit)
    starter = cards.pop(starter_at)
    return cards, starter  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("row", "total"), [pytest.param(r, t, id=f"western table: {r} = {t}") for r, t in WESTERN_ROWS]
)
def test_western_publishing_table(row: str, total: int) -> None:
    hand, starter = western_cards(row)
    score = score_hand(hand, starter)
    assert score.points("flush") == 0  # the table is about combinations; no flush was meant
    assert score.points("nobs") == row.count("N")
    assert score.total == total


@pytest.mark.parametrize(
    ("visible", "total"),
    [
        pytest.param(r, t, id=f"western table, partly legible: {r} = {t}")
        for r, t in WESTERN_PARTIAL_ROWS
    ],
)
def test_western_partly_legible_rows_are_consistent(visible: str, total: int) -> None:
    known = [_WESTERN_RANKS[token] for token in visible.split("-")]
    nobs = visible.count("N")
    reachable = [
        extra
        for extra in combinations_with_replacement(range(1, 14), 5 - len(known))
        if max(Counter(known + list(extra)).values()) <= 4
        and RANK_TABLE[rank_key(known + list(extra))] + nobs == total
    ]
    assert reachable, f"no completion of {visible} counts {total}"


# --- Errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "message"),
    [
        ("5H 5H 6D 7C", "8S", False, "5H is twice in the hand"),
        ("5H 6D 7C 8C", "5H", False, "the starter 5H is also in the hand"),
        ("5H 6D 7C 8C", "5h", True, "the starter 5H is also in the crib"),
        ("5H 6D 7C 8C 9C", "KS", False, "a hand has 4 cards (3 in five-card cribbage), not 5"),
        ("5H 6D", "KS", False, "not 2: 5H 6D"),
        ("", "KS", False, "not 0: no cards"),
        ("5H 6D 7C", "KS", True, "a crib has 4 cards, not 3"),
        ("5H 6D 7C 8C", "KS KH", False, "'KS KH' is not a card"),
        ("5H 6D 7X 8C", "KS", False, "'7X' is not a card"),
    ],
)
def test_hand_errors_name_the_card(hand: str, starter: str, crib: bool, message: str) -> None:
    for count in (score_hand, hand_total):
        with pytest.raises(ScoringError) as raised:
            count(hand, starter, crib=crib)
        assert message in str(raised.value)


def test_bad_text_is_a_card_error() -> None:
    with pytest.raises(CardError):
        score_hand("5H 6D 7C 1C", "KS")


def test_duplicates_refused_on_the_fast_path_too() -> None:
    five, six = parse_card("5H"), parse_card("6D")
    with pytest.raises(ScoringError, match="5H is twice"):
        hand_total((five, six, Card(5, "H"), parse_card("7C")), parse_card("8S"))
    with pytest.raises(ScoringError, match="starter 6D is also"):
        hand_total((five, six, parse_card("9S"), parse_card("7C")), Card(6, "D"))


# --- Impossible totals ----------------------------------------------------------------------------


def test_impossible_totals() -> None:
    # hoyle.txt "Showing" and club-thursday-rules.md: "No hand can be constructed that counts 19,
    # 25, 26 or 27"; the distribution test shows it for hand and crib.
    assert frozenset({19, 25, 26, 27}) == IMPOSSIBLE_HAND_TOTALS
    assert [n for n in range(-2, 32) if is_possible_hand_total(n)] == [
        n for n in range(30) if n not in (19, 25, 26, 27)
    ]
    assert not is_possible_hand_total(24.0)  # type: ignore[arg-type]


# --- The fast table against the items, and properties ---------------------------------------------


@pytest.mark.parametrize("size", [4, 5])
def test_rank_table_equals_items_for_every_rank_multiset(size: int) -> None:
    # The table (counting formulas) and the items (enumerated combinations) are independent; they
    # must agree on all 6,175 five-rank and 1,820 four-rank multisets.
    checked = 0
    for ranks in combinations_with_replacement(range(1, 14), size):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        seen: Counter[int] = Counter()
        cards = []
        for rank in ranks:
            cards.append(Card(rank, SUITS[seen[rank]]))
            seen[rank] += 1
        score = score_hand(cards[:-1], cards[-1])
        assert rank_part(score) == RANK_TABLE[rank_key(ranks)], ranks
        checked += 1
    assert checked == {4: 1820, 5: 6175}[size]


five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
four_cards = st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True)


@settings(max_examples=300, deadline=None)
@given(five_cards, st.booleans())
def test_total_is_sum_of_items_and_fast_path_agrees(cards: list[Card], crib: bool) -> None:
    hand, starter = cards[:4], cards[4]
    score = score_hand(hand, starter, crib=crib)
    assert score.total == sum(item.points for item in score.items)
    assert score.total == hand_total(hand, starter, crib=crib)
    assert score.total == hand_total([str(c) for c in hand], str(starter), crib=crib)
    assert sum(g.points for g in score.groups) == score.total
    assert is_possible_hand_total(score.total)
    assert {item.kind for item in score.items} <= {"fifteen", "pair", "run", "flush", "nobs"}


@settings(max_examples=200, deadline=None)
@given(four_cards)
def test_three_card_total_is_sum_of_items(cards: list[Card]) -> None:
    score = score_hand(cards[:3], cards[3])
    assert (
        score.total == sum(item.points for item in score.items) == hand_total(cards[:3], cards[3])
    )


@settings(max_examples=100, deadline=None)
@given(five_cards)
def test_count_does_not_depend_on_hand_order(cards: list[Card]) -> None:
    hand, starter = cards[:4], cards[4]
    first = score_hand(hand, starter)
    for order in permutations(hand):
        again = score_hand(list(order), starter)
        assert again.total == first.total
        assert Counter((i.kind, frozenset(i.cards)) for i in again.items) == Counter(
            (i.kind, frozenset(i.cards)) for i in first.items
        )


@settings(max_examples=300, deadline=None)
@given(five_cards)
def test_crib_never_counts_more_than_hand(cards: list[Card]) -> None:
    hand, starter = cards[:4], cards[4]
    crib, as_hand = score_hand(hand, starter, crib=True), score_hand(hand, starter)
    assert crib.total <= as_hand.total
    assert as_hand.total - crib.total in (0, 4)  # only the four-flush differs


def test_parse_cards_and_cards_give_the_same_score() -> None:
    assert score_hand(parse_cards("5S 5H 5D JC"), parse_card("5C")) == score_hand(
        "5s,5h,5d,jc", "5♣"
    )
