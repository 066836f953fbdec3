"""Table links: every game gets its table token, results entered or accepted at the
table name the player instead of a login, and two new sources (the table's link, a scorecard)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import games.models


def give_tokens(apps, schema_editor):
    """Every game already drawn gets a token of its own (a unique column cannot take one
    default for all rows)."""
    game_model = apps.get_model("games", "Game")
    taken: set[str] = set()
    batch = []
    for game in game_model.objects.only("pk").order_by("pk").iterator():
        token = games.models.new_table_token()
        while token in taken:
            token = games.models.new_table_token()
        taken.add(token)
        game.table_token = token
        batch.append(game)
        if len(batch) == 2000:
            game_model.objects.bulk_update(batch, ["table_token"])
            batch = []
    game_model.objects.bulk_update(batch, ["table_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0017_checkin_jackpots"),
        ("games", "0002_session_totals"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="table_token",
            field=models.CharField(editable=False, max_length=12, null=True),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="game",
            name="table_token",
            field=models.CharField(
                default=games.models.new_table_token,
                editable=False,
                help_text="The key of the table's link (/t/<token>/) on the seating chart.",
                max_length=12,
                unique=True,
            ),
        ),
    ]
