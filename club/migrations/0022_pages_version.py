"""The club's `standings_version` is named for what it keys: `pages_version`, the version of
every public page of the club that visitors get from the cache (core.pages), not only the
standings. The column is renamed with its values."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("club", "0021_audit_trail_and_form_tokens_move_to_core")]

    operations = [
        migrations.RenameField(model_name="club", old_name="standings_version", new_name="pages_version"),
        migrations.AlterField(
            model_name="club",
            name="pages_version",
            field=models.PositiveIntegerField(
                default=0,
                editable=False,
                help_text="Moved on by every service that changes what this row's public pages show; the key of their cached copies.",
            ),
        ),
    ]
