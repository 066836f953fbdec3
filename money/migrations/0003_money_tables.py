"""The money app's tables are named for it: club_settlement, club_payout and club_ledgerentry
(names kept from when the models lived in the club app, money 0001) become money_settlement,
money_payout and money_ledgerentry, like money_skunkcoin. Every row, id and key stays as it was.

- tables: renamed in place (ALTER TABLE ... RENAME TO); the foreign keys that point at them
  follow the table on both engines.
- indexes: the two declared on LedgerEntry are named from the table, so they take the new
  names (PostgreSQL renames them; SQLite, which cannot, drops and builds them again). The
  indexes and constraints the database named for itself (a foreign key's) keep their names:
  Django finds them by their columns.
- id counters: SQLite keeps a table's AUTOINCREMENT counter under the table's name and renames
  it with the table. PostgreSQL's sequence belongs to the id column and goes on counting; it is
  renamed too (club_payout_id_seq becomes money_payout_id_seq), so its name says whose it is.
"""

from django.db import migrations

TABLES = {
    "club_settlement": "money_settlement",
    "club_payout": "money_payout",
    "club_ledgerentry": "money_ledgerentry",
}


def _rename_sequences(schema_editor, *, source: str, target: str) -> None:
    """Rename the id sequence of each renamed table from the name it has for the table's `source`
    name ("club" or "money") to the one for its `target` name, where it has that name (PostgreSQL
    only; a sequence named otherwise is left alone). Runs while the tables have their money_
    names: after the renames going forward, before them going back."""
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_name
    with connection.cursor() as cursor:
        for old, new in TABLES.items():
            names = {"club": old, "money": new}
            for sequence in connection.introspection.get_sequences(cursor, new):
                column = sequence["column"]
                if sequence["name"] != f"{names[source]}_{column}_seq":
                    continue
                schema_editor.execute(
                    f"ALTER SEQUENCE {quote(sequence['name'])} "
                    f"RENAME TO {quote(f'{names[target]}_{column}_seq')}"
                )


def sequences_forward(apps, schema_editor):
    _rename_sequences(schema_editor, source="club", target="money")


def sequences_backward(apps, schema_editor):
    _rename_sequences(schema_editor, source="money", target="club")


class Migration(migrations.Migration):
    dependencies = [
        ("money", "0002_side_pots_skunk_coins"),
    ]

    operations = [
        migrations.RenameIndex(
            model_name="ledgerentry",
            new_name="money_ledge_club_id_ce5d49_idx",
            old_name="club_ledger_club_id_682184_idx",
        ),
        migrations.RenameIndex(
            model_name="ledgerentry",
            new_name="money_ledge_club_id_341e3a_idx",
            old_name="club_ledger_club_id_01a71f_idx",
        ),
        migrations.AlterModelTable(name="ledgerentry", table=None),
        migrations.AlterModelTable(name="payout", table=None),
        migrations.AlterModelTable(name="settlement", table=None),
        migrations.RunPython(sequences_forward, sequences_backward),
    ]
