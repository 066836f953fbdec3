"""`manage.py count` and `manage.py distribution`: the breakdown, the spoken count, JSON, and bad
input as a message on stderr with exit code 2 (run as a real subprocess, as a user would)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"} | {"DEBUG": "1"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_count_the_29():
    # club-thursday-rules.md "A PERFECT 29!": three fives and the jack of the starter's suit.
    result = manage("count", "5H", "5C", "5S", "JD", "5D")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Hand: 5♥ 5♣ 5♠ J♦   Starter: 5♦"
    assert sum(line.startswith("  fifteen") for line in lines) == 8
    assert any("double pair royal" in line and line.endswith("12") for line in lines)
    assert any("his nobs" in line and line.endswith("1") for line in lines)
    assert any(line.split()[-2:] == ["total", "29"] for line in lines)
    assert "makes 29" in result.stdout
    assert "1 in 3,248,700 hands" in result.stdout


def test_count_json_and_crib():
    # A four-card flush in the crib does not count (club-thursday-rules.md "Flush").
    hand = manage("count", "2H", "4H", "6H", "8H", "KS", "--json")
    crib = manage("count", "2H", "4H", "6H", "8H", "KS", "--crib", "--json")
    hand_data, crib_data = json.loads(hand.stdout), json.loads(crib.stdout)
    assert hand_data["crib"] is False and crib_data["crib"] is True
    assert hand_data["total"] - crib_data["total"] == 4
    assert [item["kind"] for item in hand_data["items"]].count("flush") == 1
    assert sum(item["points"] for item in hand_data["items"]) == hand_data["total"]
    assert hand_data["hand"] == ["2H", "4H", "6H", "8H"] and hand_data["starter"] == "KS"
    assert hand_data["engine_version"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["5H", "5C", "5S", "JD", "5X"], "'5X' is not a card"),
        (["5H", "5C", "5S"], "3 cards given"),
        (["5H", "5C", "5S", "5H", "5D"], "5H"),
        (["5H", "5C", "5S", "JD", "5H"], "5H"),
        (["1H", "5C", "5S", "JD", "5D"], "'1H' is not a card"),
    ],
)
def test_count_bad_input_is_a_message_and_exit_2(args, message):
    result = manage("count", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_distribution_table_and_json():
    table = manage("distribution")
    assert table.returncode == 0, table.stderr
    rows = {int(line.split()[0]): line for line in table.stdout.splitlines()[2:]}
    assert "1 in 3,248,700" in rows[29]
    assert rows[19].split()[1] == "0"
    data = json.loads(manage("distribution", "--crib", "--json").stdout)
    assert data["crib"] is True
    assert sum(data["counts"].values()) == data["total"] == 12_994_800
    assert {"19", "25", "26", "27"}.isdisjoint(k for k, v in data["counts"].items() if v)
