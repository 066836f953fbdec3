"""The money app's tables are named for it (money 0003: money_settlement, money_payout,
money_ledgerentry, beside money_skunkcoin), and renaming them loses nothing, on SQLite and on
PostgreSQL.

Terms:
- before the rename: the database at money 0002, where the three tables still have the names the
  club app gave them (club_settlement, club_payout, club_ledgerentry).
- the schema of a table: its indexes and constraints (name, columns, kind), the tables its
  foreign keys point at, and its id counter (PostgreSQL: the id column's sequence, by name).
- the next insert: rows written after the rename through the services (a session settled, one
  reopened) take ids after every id written before it, and their foreign keys hold.
"""

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import Max

from club.models import Club, Session, SessionState
from money.models import LedgerEntry, Payout, Settlement, SkunkCoin
from money.services import session_reopen, session_settle
from tests.builders import run_session
from tests.demo_snapshot import load_demo
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = "0002_side_pots_skunk_coins"
RENAMED = {
    Settlement: "club_settlement",
    Payout: "club_payout",
    LedgerEntry: "club_ledgerentry",
}
NEW_TABLES = {"money_settlement", "money_payout", "money_ledgerentry", "money_skunkcoin"}


def table_names() -> set[str]:
    return set(connection.introspection.table_names())


def schema(tables) -> dict[str, dict]:
    """Each table's indexes and constraints, foreign key targets and id sequence."""
    found = {}
    with connection.cursor() as cursor:
        introspection = connection.introspection
        for table in sorted(tables):
            constraints = introspection.get_constraints(cursor, table)
            found[table] = {
                "constraints": {
                    name: (
                        tuple(each["columns"]),
                        each["unique"],
                        each["index"],
                        each["primary_key"],
                        each["foreign_key"],
                    )
                    for name, each in constraints.items()
                },
                "references": introspection.get_relations(cursor, table),
                "sequences": sorted(
                    str(sequence.get("name"))
                    for sequence in introspection.get_sequences(cursor, table)
                ),
            }
    return found


def money_rows() -> dict[str, list[tuple]]:
    """Every row of the money tables, every column, by id."""
    rows = {}
    for model in (Settlement, Payout, LedgerEntry, SkunkCoin):
        columns = [field.attname for field in model._meta.concrete_fields]
        rows[model._meta.label] = list(model._base_manager.order_by("pk").values_list(*columns))
    return rows


def raw_counts(tables: dict) -> dict:
    """(rows, the sum of their ids) of each model's table, named in `tables`, by plain SQL."""
    quote = connection.ops.quote_name
    counts = {}
    with connection.cursor() as cursor:
        for label, table in tables.items():
            cursor.execute(f"SELECT COUNT(*), COALESCE(SUM(id), 0) FROM {quote(table)}")
            counts[label] = tuple(cursor.fetchone())
    return counts


@pytest.fixture
def migrated_back():
    """Take the database back to before the rename; forward again afterwards, whatever the test
    did, so the tests after it find today's tables."""
    yield lambda: call_command("migrate", "money", BEFORE, verbosity=0)
    call_command("migrate", verbosity=0)


def test_the_money_models_have_money_tables():
    assert Settlement._meta.db_table == "money_settlement"
    assert Payout._meta.db_table == "money_payout"
    assert LedgerEntry._meta.db_table == "money_ledgerentry"
    assert SkunkCoin._meta.db_table == "money_skunkcoin"
    tables = table_names()
    assert tables >= NEW_TABLES
    assert not set(RENAMED.values()) & tables


def test_a_database_made_before_the_rename_keeps_every_row_and_goes_on_counting(migrated_back):
    load_demo()
    demo = Club.objects.get()
    today = schema(NEW_TABLES)
    rows = money_rows()
    assert all(rows.values()), "the demo season has rows in every money table"
    counts = raw_counts({model: model._meta.db_table for model in RENAMED})

    migrated_back()
    # Before the rename: the club app's names, the rows in them, and on PostgreSQL the
    # sequences and the declared indexes named for those tables.
    tables = table_names()
    assert set(RENAMED.values()) <= tables
    assert tables & NEW_TABLES == {"money_skunkcoin"}
    assert raw_counts(RENAMED) == counts
    before = schema(RENAMED.values())
    assert {"club_ledger_club_id_682184_idx", "club_ledger_club_id_01a71f_idx"} <= set(
        before["club_ledgerentry"]["constraints"]
    )
    if connection.vendor == "postgresql":
        assert before["club_payout"]["sequences"] == ["club_payout_id_seq"]

    call_command("migrate", verbosity=0)

    assert money_rows() == rows
    assert schema(NEW_TABLES) == today
    assert {"money_ledge_club_id_ce5d49_idx", "money_ledge_club_id_341e3a_idx"} <= set(
        today["money_ledgerentry"]["constraints"]
    )
    for model in (Settlement, Payout, LedgerEntry, SkunkCoin):
        targets = {table for _, table in today[model._meta.db_table]["references"].values()}
        wanted = {
            field.related_model._meta.db_table
            for field in model._meta.concrete_fields
            if field.is_relation
        }
        assert targets == wanted, model
    if connection.vendor == "postgresql":
        for table in ("money_settlement", "money_payout", "money_ledgerentry"):
            assert today[table]["sequences"] == [f"{table}_id_seq"]
    else:
        with connection.cursor() as cursor:
            cursor.execute("SELECT name FROM sqlite_sequence")
            counters = {name for (name,) in cursor.fetchall()}
        assert {"money_settlement", "money_payout", "money_ledgerentry"} <= counters
        assert not set(RENAMED.values()) & counters

    # The next insert: a new session settled, the demo's last settled session reopened.
    last = {model: model._base_manager.aggregate(m=Max("pk"))["m"] for model in RENAMED}
    organiser, confirmer = UserFactory(role="organisers"), UserFactory(role="organisers")
    club = ClubFactory(skunk_bank=True, jackpot_29_cents=10)
    settlement = session_settle(
        session=run_session(club, organiser, confirmer, players=4, rounds=1),
        actor=organiser,
        seed=1,
    )
    settled = Session.objects.filter(club=demo, state=SessionState.SETTLED).order_by("-date")
    session_reopen(session=settled.first(), actor=organiser, reason="Recount")
    assert settlement.pk > last[Settlement]
    assert Payout.objects.filter(settlement=settlement).aggregate(m=Max("pk"))["m"] > last[Payout]
    new_rows = LedgerEntry.objects.filter(pk__gt=last[LedgerEntry])
    assert new_rows.filter(kind="reversal").exists() and new_rows.exclude(kind="reversal").exists()
    connection.check_constraints(table_names=sorted(NEW_TABLES))
