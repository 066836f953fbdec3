"""The sessions' money moves to the money app: the club app stops knowing Settlement, Payout
and LedgerEntry (state only: their tables stay where they are, and money.0001 takes them over),
the settle permission goes with them, and audit verbs are no longer a fixed list here (each app
registers its own: club.verbs)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("club", "0012_history_indexes")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="LedgerEntry"),
                migrations.DeleteModel(name="Payout"),
                migrations.DeleteModel(name="Settlement"),
            ],
            database_operations=[],
        ),
        migrations.AlterModelOptions(name="session", options={"ordering": ["-date"]}),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(
                help_text="The verb: one an app registered (club.verbs).", max_length=40
            ),
        ),
    ]
