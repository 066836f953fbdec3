"""club.rules.HouseRules: the typed house rules (pure, no database), read back from a session's
snapshot, with the values the rest of the code derives from them.

Terms: a *snapshot* is the dict a session keeps (docs/spec.md, "The club's house rules": a
session copies the rules it was played under); an *old* snapshot is one written before a rule
existed (the side pots came later), which must keep meaning what it meant.
"""

import dataclasses

import pytest

from club.models import Club, Session
from club.rules import HouseRules, parse_place_weights


def test_the_dataclass_defaults_are_the_models_defaults():
    """One set of defaults: a new club's rules are HouseRules() exactly."""
    assert Club(name="New", slug="new").house_rules == HouseRules()
    assert HouseRules.names() == Club.HOUSE_RULE_FIELDS
    model_defaults = {name: Club._meta.get_field(name).default for name in HouseRules.names()}
    assert model_defaults == HouseRules().snapshot()


def test_a_snapshot_reads_back_as_the_same_rules():
    rules = HouseRules(game_target=61, skunk_line=31, double_skunk_line=16, muggins=False)
    assert HouseRules.from_snapshot(rules.snapshot()) == rules


def test_an_old_snapshot_takes_the_defaults_of_rules_added_since():
    old = {name: value for name, value in HouseRules().snapshot().items()}
    later_rules = (
        "skunk_bank",
        "jackpot_29_cents",
        "jackpot_28_cents",
        "jackpot_24_cents",
        "forfeit_points",
        "fee_per",
    )
    for later in later_rules:
        del old[later]
    old["entry_fee_cents"] = 50
    rules = HouseRules.from_snapshot({**old, "a_rule_nobody_knows": 1})
    assert rules.entry_fee_cents == 50
    assert (rules.skunk_bank, rules.jackpots) == (False, {})
    assert rules.forfeit_points == 2  # docs/spec.md "The club's house rules": a forfeit's 2
    # docs/spec.md "The club's house rules": entry fee per [session]: what old mornings were.
    assert (rules.fee_per, rules.fee_per_game, rules.morning_fee_cents()) == ("session", False, 50)


def test_the_fee_per_game_makes_the_morning_the_fee_for_every_round():
    """docs/spec.md "The club's house rules": entry fee [25¢] per [session] or per game."""
    rules = HouseRules(entry_fee_cents=25, fee_per="game", rounds_per_session=6)
    assert rules.fee_per_game
    assert rules.morning_fee_cents() == 150
    assert HouseRules.from_snapshot(rules.snapshot()).fee_per_game


def test_a_session_reads_its_snapshot_not_the_clubs_current_rules():
    club = Club(name="C", slug="c", entry_fee_cents=50)
    session = Session(club=club, rules=HouseRules(entry_fee_cents=25).snapshot())
    club.entry_fee_cents = 75
    assert session.house_rules.entry_fee_cents == session.fee_cents == 25
    assert club.house_rules.entry_fee_cents == 75


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        HouseRules().muggins = False  # type: ignore[misc]


@pytest.mark.parametrize(
    ("players", "per_place", "places"),
    [(0, 4, 0), (1, 4, 1), (4, 4, 1), (5, 4, 2), (13, 4, 4), (16, 4, 4), (40, 4, 10), (7, 3, 3)],
)
def test_paid_places_are_one_in_n_rounded_up(players, per_place, places):
    assert HouseRules(players_per_paid_place=per_place).paid_places(players) == places


@pytest.mark.parametrize(
    ("score", "skunked", "double"),
    # western-publishing.txt: skunked under 91, double skunked under 61, in a game of 121.
    [(90, True, False), (91, False, False), (60, True, True), (61, True, False), (0, True, True)],
)
def test_skunk_lines(score, skunked, double):
    rules = HouseRules()
    assert (rules.is_skunked(score), rules.is_double_skunked(score)) == (skunked, double)


def test_win_points_by_the_worst_beaten_loser():
    rules = HouseRules(points_win=2, points_skunk_win=3, points_double_skunk_win=4)
    assert rules.win_points(skunk=False, double_skunk=False) == 2
    assert rules.win_points(skunk=True, double_skunk=False) == 3
    assert rules.win_points(skunk=True, double_skunk=True) == 4


def test_jackpots_are_the_hands_with_a_contribution():
    rules = HouseRules(jackpot_29_cents=100, jackpot_24_cents=25)
    assert rules.jackpots == {29: 100, 24: 25}
    assert rules.jackpot_cents(28) == 0
    with pytest.raises(ValueError, match="no jackpot for a 27"):
        rules.jackpot_cents(27)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("linear", "linear"), (" EQUAL", "equal"), ("50, 30,20", [50, 30, 20]), ("3,3", [3, 3])],
)
def test_place_weights(text, expected):
    assert parse_place_weights(text) == expected
    assert HouseRules(place_weights=text).weights() == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [("top heavy", "whole numbers"), ("3,0", "above zero"), ("1,2", "must not grow")],
)
def test_bad_place_weights_say_what_to_write(text, message):
    with pytest.raises(ValueError, match=message):
        parse_place_weights(text)
