"""`manage.py discard`: every lay-away of a dealt hand, best first, as a table or as JSON with exact
fractions; bad cards or a bad player count: a message and exit code 2 (run as a real subprocess, as
a user would)."""

import json
from fractions import Fraction

import pytest

from scoring.engine import discard_values
from tests.scoring.test_commands import manage

DEALT = ["5H", "5C", "JD", "6S", "4C", "KH"]


def test_the_table_best_first():
    result = manage("discard", *DEALT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "5♥ 5♣ J♦ 6♠ 4♣ K♥   2 players, your own crib"
    assert len(lines) == 2 + 15  # a heading, the columns, 15 ways to lay two away
    # Keep the double run with its fifteens; lay the jack and king away (hoyle.txt: lay away
    # what does least for the hand when the crib is one's own).
    assert lines[2].split()[:6] == ["5♥", "5♣", "6♠", "4♣", "J♦", "K♥"]
    assert lines[2].endswith("12 to 24")


def test_json_is_exact_and_the_pones_net_subtracts_the_crib():
    mine = json.loads(manage("discard", *DEALT, "--json").stdout)
    theirs = json.loads(manage("discard", *DEALT, "--pone", "--json").stdout)
    engine = discard_values(DEALT, dealer=True)
    assert mine["crib"] == "yours" and theirs["crib"] == "opponent's"
    assert [Fraction(row["net"]["exact"]) for row in mine["discards"]] == [r.net for r in engine]
    for row in theirs["discards"]:
        hand, crib = Fraction(row["hand"]["exact"]), Fraction(row["crib"]["exact"])
        assert Fraction(row["net"]["exact"]) == hand - crib
        assert sum(row["hand_distribution"].values()) == row["starters"] == 46
    nets = [Fraction(row["net"]["exact"]) for row in theirs["discards"]]
    assert nets == sorted(nets, reverse=True)


def test_five_cards_at_three_players():
    result = manage("discard", "5H", "5C", "JD", "6S", "4C", "--players", "3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["players"] == 3 and len(data["discards"]) == 5
    assert all(len(row["discard"]) == 1 and row["starters"] == 47 for row in data["discards"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["5H", "5C", "JD", "6S", "4C"], "at 2 players each is dealt 6 cards, not 5"),
        (["5H", "5C", "JD", "6S", "4C", "5H"], "5H is twice"),
        (["5H", "5C", "JD", "6S", "4C", "ZZ"], "'ZZ' is not a card"),
        ([*DEALT, "--players", "3"], "at 3 players each is dealt 5 cards, not 6"),
        ([*DEALT, "--players", "5"], "invalid choice: 5"),
    ],
)
def test_bad_input_is_a_message_and_exit_code_2(args, message):
    result = manage("discard", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
