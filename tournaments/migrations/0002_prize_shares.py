"""The prize levels' shares in basis points (hundredths of a percent) instead of whole percents:
whole percents left the few losers of a first playoff round unpaid at some sizes. A director's
percents are kept as the same shares (30% is 3000 basis points)."""

from django.db import migrations, models


def percents_to_shares(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.all():
        if not tournament.prize_shares:
            continue
        tournament.prize_shares = [int(percent) * 100 for percent in tournament.prize_shares]
        tournament.save(update_fields=["prize_shares"])


def shares_to_percents(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.all():
        if not tournament.prize_shares:
            continue
        tournament.prize_shares = [int(share) // 100 for share in tournament.prize_shares]
        tournament.save(update_fields=["prize_shares"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [
        migrations.RenameField(
            model_name="tournament", old_name="prize_percents", new_name="prize_shares"
        ),
        migrations.AlterField(
            model_name="tournament",
            name="prize_shares",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Each prize level's share of the fund in basis points (hundredths of "
                "a percent, 10000 in all), the champion first (empty: the default shares).",
            ),
        ),
        migrations.RunPython(percents_to_shares, shares_to_percents),
    ]
