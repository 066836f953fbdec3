"""Moving the money models from club to money loses nothing: a database made before the move,
with the demo club loaded, migrates to today's models with every row as it was.

Terms:
- the old database: the migrations as they stood before the move (club 0012, games 0002,
  scoring 0003), filled from `fixtures/demo_at_0012.json.gz`, a `dumpdata --natural-foreign`
  of the demo club (`manage.py load_demo`) made with the code of that time (4,600 rows: the
  season's sessions, games, claims, settlements, payouts, ledger and audit trail).
- moved: Settlement, Payout and LedgerEntry, whose label changes from club.* to money.*; their
  ids and values do not change, and neither do the audit trail's references to them (their
  content types move with them). Their tables, kept by the move, are renamed for the money app
  later (money 0003, tests/money/test_table_names.py).
"""

import gzip
import json
from pathlib import Path

import pytest
from django.core import serializers
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum
from django.utils.dateparse import parse_datetime

from club.models import CheckIn
from money.models import LedgerEntry, Payout, Settlement, SkunkCoin

pytestmark = pytest.mark.django_db(transaction=True)

DUMP = Path(__file__).resolve().parents[2] / "fixtures" / "demo_at_0012.json.gz"
BEFORE = [
    ("club", "0012_history_indexes"),
    ("games", "0002_session_totals"),
    ("scoring", "0003_history_indexes"),
]
# Parents first, as the rows refer to each other.
ORDER = (
    "auth.user",
    "club.club",
    "club.player",
    "club.session",
    "club.checkin",
    "games.round",
    "games.game",
    "games.seat",
    "games.result",
    "games.resultline",
    "games.sessiontotal",
    "scoring.claim",
    "scoring.outcome",
    "scoring.dispute",
    "scoring.ruling",
    "club.settlement",
    "club.payout",
    "club.ledgerentry",
    "club.auditentry",
)
MOVED = {"club.settlement": "money.settlement", "club.payout": "money.payout"}
MOVED["club.ledgerentry"] = "money.ledgerentry"
MOVED["club.auditentry"] = "core.auditentry"  # moved since, to the core app


def dump() -> list[dict]:
    with gzip.open(DUMP, "rt", encoding="utf-8") as file:
        return json.load(file)


def load_old(rows: list[dict], apps) -> None:
    """Insert the dump's rows with the models as they were before the move."""
    by_model: dict[str, list[dict]] = {}
    for row in rows:
        by_model.setdefault(row["model"], []).append(row)
    assert set(by_model) == set(ORDER)
    users = apps.get_model("auth", "User")
    groups = apps.get_model("auth", "Group")
    types = apps.get_model("contenttypes", "ContentType")
    for label in ORDER:
        model = apps.get_model(label)
        objects, memberships = [], []
        for row in by_model[label]:
            values = {"pk": row["pk"]}
            for name, value in row["fields"].items():
                field = model._meta.get_field(name)
                if field.many_to_many:
                    assert name in ("groups", "user_permissions") and (
                        name == "groups" or not value
                    )
                    if name == "groups":
                        memberships.append((row["pk"], value))
                elif field.is_relation and isinstance(value, list):  # a natural key
                    related = field.related_model._meta.label_lower
                    if related == "auth.user":
                        values[field.attname] = users.objects.get(username=value[0]).pk
                    else:
                        assert related == "contenttypes.contenttype"
                        ct = types.objects.get(app_label=value[0], model=value[1])
                        values[field.attname] = ct.pk
                elif field.is_relation:
                    values[field.attname] = value
                else:
                    values[name] = value
            objects.append(model(**values))
        model.objects.bulk_create(objects)
        for pk, keys in memberships:
            user = users.objects.get(pk=pk)
            user.groups.set([groups.objects.get(name=key[0]) for key in keys])


def same_instant(fields: dict) -> dict:
    """Timestamps as instants: the dump keeps milliseconds, so "…14.000Z" is "…14Z" read back."""
    return {
        name: (parse_datetime(value) or value) if isinstance(value, str) and "T" in value else value
        for name, value in fields.items()
    }


def rows_now(label: str) -> dict[int, dict]:
    """Today's rows of a model as the dump wrote them (JSON, natural foreign keys)."""
    from django.apps import apps

    model = apps.get_model(label)
    text = serializers.serialize(
        "json", model._base_manager.order_by("pk"), use_natural_foreign_keys=True
    )
    return {row["pk"]: same_instant(row["fields"]) for row in json.loads(text)}


def expected_fields(row: dict) -> dict:
    fields = dict(row["fields"])
    if row["model"] == "club.club":  # renamed since, for what it keys, and drawn anew
        del fields["standings_version"]
    ct = fields.get("content_type")
    if isinstance(ct, list) and ".".join(ct) in MOVED:
        fields["content_type"] = MOVED[".".join(ct)].split(".")
    return same_instant(fields)


def test_a_database_made_before_the_move_keeps_every_row():
    rows = dump()
    call_command("migrate", "club", BEFORE[0][1], verbosity=0)
    call_command("migrate", "scoring", BEFORE[2][1], verbosity=0)  # its later ones need no club
    old_apps = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    with pytest.raises(LookupError):
        old_apps.get_model("money", "Settlement")  # the old state: money is not there yet
    load_old(rows, old_apps)

    call_command("migrate", verbosity=0)

    by_label: dict[str, dict[int, dict]] = {}
    for row in rows:
        label = MOVED.get(row["model"], row["model"])
        by_label.setdefault(label, {})[row["pk"]] = expected_fields(row)
    for label, expected in by_label.items():
        now = rows_now(label)
        assert now.keys() == expected.keys(), label
        if label == "auth.user":
            for pk, fields in expected.items():
                assert {k: v for k, v in now[pk].items() if k != "last_login"} == {
                    k: v for k, v in fields.items() if k != "last_login"
                }, (label, pk)
        elif label == "scoring.claim":
            # Fields added since (parties, the cards' confirmation): the old rows' are as they
            # were, the parties filled from the seats by scoring 0005.
            for pk, fields in expected.items():
                assert {k: now[pk][k] for k in fields} == fields, (label, pk)
                assert now[pk]["parties"] and now[pk]["cards_confirmed_by"] is None, (label, pk)
        else:
            # Fields added since (a check-in's jackpot parts, a settlement's side pots)
            # are checked below; every field the dump has keeps its value.
            kept = {pk: {k: v for k, v in now[pk].items() if k in expected[pk]} for pk in now}
            assert kept == expected, label
    assert Settlement.objects.count() == 16
    # The demo club of that time ran the skunk bank and no jackpot: its check-ins owe
    # the fee alone; each skunk coin booked becomes a coin taken; every payout sheet gets its
    # skunk bank section from the ledger, each session carrying over what the last rolled over.
    assert not CheckIn.objects.exclude(jackpot_29_cents=0, jackpot_28_cents=0, jackpot_24_cents=0)
    assert SkunkCoin.objects.count() == 73
    assert SkunkCoin.objects.aggregate(t=Sum("cents"))["t"] == 73 * 25
    rolled = 0
    for settlement in Settlement.objects.order_by("session__date"):
        (bank,) = settlement.side_pots
        rows = LedgerEntry.objects.filter(settlement=settlement, pot="skunk_bank")
        coins = rows.filter(kind="skunk_coin").aggregate(t=Sum("amount_cents"))["t"] or 0
        wins = rows.filter(kind="skunk_bank_win").aggregate(t=Sum("amount_cents"))["t"] or 0
        assert (bank["carried_cents"], bank["in_cents"], bank["won_cents"]) == (
            rolled,
            coins,
            -wins,
        )
        assert sum(w["cents"] for w in bank["winners"]) == -wins
        rolled = bank["rolled_cents"]
        assert rolled == bank["carried_cents"] + coins + wins
    assert Payout.objects.count() == 183 and LedgerEntry.objects.count() == 322
    # The audit trail's entries about settlements point at the money app's settlement now.
    settled = rows_now("core.auditentry")
    assert {
        tuple(f["content_type"]) for f in settled.values() if f["action"] == "session.settled"
    } == {("money", "settlement")}
