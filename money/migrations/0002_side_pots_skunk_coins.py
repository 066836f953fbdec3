"""Side pots on the payout sheet, skunk coins taken one by one.

For the settlements made before: each current settlement's skunk coins (its skunk-coin ledger
rows) become SkunkCoin rows for the confirmed skunked lines they were booked for, taken by whoever
settled, when it was settled; and every settlement gets its side-pot sheet from its ledger rows:
carried over = the pot's rows before the settlement's first row, money in, wins, rolled over.
"""

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import Sum


SIDE_POTS = (
    ("skunk_bank", "Skunk bank"),
    ("jackpot_29", "29 jackpot"),
    ("jackpot_28", "28 jackpot"),
    ("jackpot_24", "24 jackpot"),
)
COINS = ("skunk_coin", "jackpot_coin")
WINS = ("skunk_bank_win", "jackpot_win")


def backfill(apps, schema_editor):
    db = schema_editor.connection.alias
    Settlement = apps.get_model("money", "Settlement")
    LedgerEntry = apps.get_model("money", "LedgerEntry")
    SkunkCoin = apps.get_model("money", "SkunkCoin")
    ResultLine = apps.get_model("games", "ResultLine")
    settlements = Settlement.objects.using(db).select_related("session").order_by("pk")
    for settlement in settlements.iterator():
        rows = list(
            LedgerEntry.objects.using(db)
            .filter(settlement=settlement)
            .exclude(kind="reversal")
            .select_related("player")
            .order_by("pk")
        )
        if not rows:
            continue
        rules = settlement.session.rules or {}
        sheet = []
        for pot, label in SIDE_POTS:
            these = [row for row in rows if row.pot == pot]
            if pot == "skunk_bank":
                runs = bool(rules.get("skunk_bank"))
            else:
                runs = bool(rules.get(f"{pot}_cents"))
            if not these and not runs:
                continue
            carried = (
                LedgerEntry.objects.using(db)
                .filter(club_id=settlement.session.club_id, pot=pot, pk__lt=rows[0].pk)
                .aggregate(total=Sum("amount_cents"))["total"]
                or 0
            )
            coins = [row for row in these if row.kind in COINS]
            wins = [row for row in these if row.kind in WINS]
            money_in = sum(row.amount_cents for row in coins)
            won = -sum(row.amount_cents for row in wins)
            sheet.append(
                {
                    "pot": pot,
                    "label": label,
                    "carried_cents": carried,
                    "in_cents": money_in,
                    "in_count": len(coins),
                    "won_cents": won,
                    "winners": [
                        {
                            "player": row.player_id,
                            "name": row.player.display_name if row.player else "",
                            "cents": -row.amount_cents,
                        }
                        for row in wins
                    ],
                    "rolled_cents": carried + money_in - won,
                    "steps": [],
                }
            )
        Settlement.objects.using(db).filter(pk=settlement.pk).update(side_pots=sheet)
        coins = [row for row in rows if row.kind == "skunk_coin"]
        if settlement.state != "current" or not coins:
            continue
        lines = (
            ResultLine.objects.using(db)
            .filter(
                result__game__session_id=settlement.session_id,
                result__state="confirmed",
                skunked=True,
            )
            .values_list("result__game_id", "player_id")
            .distinct()
        )
        SkunkCoin.objects.using(db).bulk_create(
            SkunkCoin(
                session_id=settlement.session_id,
                game_id=game_id,
                player_id=player_id,
                cents=coins[0].amount_cents,
                paid_at=settlement.settled_at,
                paid_by_id=settlement.settled_by_id,
            )
            for game_id, player_id in lines
        )


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0017_checkin_jackpots"),
        ("games", "0002_session_totals"),
        ("money", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="settlement",
            name="side_pots",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Each side pot at this settling: carried over, money in, winners, rolled over.",
            ),
        ),
        migrations.CreateModel(
            name="SkunkCoin",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "cents",
                    models.PositiveIntegerField(
                        validators=[
                            django.core.validators.MaxValueValidator(
                                10000, message="At most $100 (10000 cents)."
                            )
                        ]
                    ),
                ),
                ("paid_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="skunk_coins",
                        to="games.game",
                    ),
                ),
                (
                    "paid_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="skunk_coins",
                        to="club.player",
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="skunk_coins",
                        to="club.session",
                    ),
                ),
            ],
            options={
                "ordering": ["session", "game", "player"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "player"), name="skunkcoin_one_per_game_player"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("cents__gt", 0), ("cents__lte", 10000)),
                        name="skunkcoin_cents_in_range",
                    ),
                ],
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
