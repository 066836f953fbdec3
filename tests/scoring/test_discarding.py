"""What a kept hand holds before the cut (engine.held_items) and the words of the advisor's
reasons (scoring.discarding)."""

import pytest

from scoring.discarding import advise, held_phrase
from scoring.engine import group_items, held_items, parse_cards


def held(cards: str):
    items = held_items(parse_cards(cards))
    return sum(item.points for item in items), held_phrase(group_items(items))


@pytest.mark.parametrize(
    ("cards", "points", "phrase"),
    [
        # club-thursday-rules.md "Flush": four cards of the same suit in hand peg 4.
        ("2H 4H 6H 8H", 4, "a flush of 4"),
        # hoyle.txt "His Nobs" needs the starter: a jack held alone scores nothing yet.
        ("JH 2C 4S 6D", 0, "nothing"),
        ("5H 5C 9S 9D", 4, "two pairs"),
        ("5H 5C 5S KD", 14, "fifteen\u20118 and a pair royal"),
        # es-lowe.txt: a double run of 3 is two runs and the pair in them, 8.
        ("3H 4C 4S 5D", 8, "a double run"),
        ("5S 10D JC QH", 9, "fifteen\u20116 and a run of 3"),
        ("6H 7C 8S 9D", 8, "fifteen\u20114 and a run of 4"),
    ],
)
def test_what_the_kept_cards_hold(cards, points, phrase):
    assert held(cards) == (points, phrase)


def test_the_reason_says_whose_crib_the_lay_away_goes_to():
    mine = advise("5H 5C JD 6S 4C KH", whose="mine", players=2).rows[0]
    theirs = advise("5H 5C JD 6S 4C KH", whose="theirs", players=2).rows[0]
    assert "in your own crib is worth" in mine.reason
    assert "gives an opponent's crib" in theirs.reason
    side = advise("5H 5C JD 6S 4C", whose="mine", players=4).rows[0]
    assert "in your side's crib is worth" in side.reason


def test_a_hand_that_holds_nothing_says_so():
    advice = advise("KH QC 8D 6S 2C AD", whose="theirs", players=2)
    nothing = [row for row in advice.rows if row.held_points == 0]
    assert nothing
    for row in nothing:
        assert row.reason.startswith("Keeps nothing, the cut adds ")


def test_the_chart_runs_from_the_worst_count_to_the_best():
    row = advise("5H 5C JD 6S 4C KH", whose="mine", players=2).rows[0]
    assert [bar.points for bar in row.bars] == list(
        range(row.value.hand_worst, row.value.hand_best + 1)
    )
    assert max(bar.height for bar in row.bars) == row.chart_height
    assert all(bar.y + bar.height == row.chart_height for bar in row.bars)
    assert all(bar.height > 0 for bar in row.bars if bar.starters)
    assert row.range_text == "Hand 12 to 24, most often 14 (35%)"


def test_advise_refuses_an_unknown_crib_owner():
    with pytest.raises(ValueError, match="whose crib"):
        advise("5H 5C JD 6S 4C KH", whose="dealer", players=2)
