"""The club's pages version starts at a number drawn at random (core.pages): a cache that
outlives the database (a shared Redis, a club restored from a file into a new database) must
never meet a club that counts again from where an older database counted. Every club here
draws its number now, which leaves each club's cached copies of before unread, once."""

from django.db import migrations, models

import core.pages


def draw_versions(apps, schema_editor):
    Club = apps.get_model("club", "Club")
    for pk in Club.objects.values_list("pk", flat=True):
        Club.objects.filter(pk=pk).update(pages_version=core.pages.new_pages_version())


def draw_small_versions(apps, schema_editor):
    """Back to a 32-bit column: numbers that fit it, still drawn at random."""
    Club = apps.get_model("club", "Club")
    for pk in Club.objects.values_list("pk", flat=True):
        Club.objects.filter(pk=pk).update(pages_version=core.pages.new_pages_version() >> 32)


class Migration(migrations.Migration):
    dependencies = [("club", "0028_session_kind")]

    # Backwards, the versions are drawn small again before the column is narrowed.
    operations = [
        migrations.AlterField(
            model_name="club",
            name="pages_version",
            field=models.PositiveBigIntegerField(
                default=core.pages.new_pages_version,
                editable=False,
                help_text="Moved on by every service that changes what this row's public pages show; the key of their cached copies.",
            ),
        ),
        migrations.RunPython(draw_versions, draw_small_versions),
    ]
