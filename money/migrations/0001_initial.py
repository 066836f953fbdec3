"""The money app takes over the sessions' money from the club app: Settlement, Payout and
LedgerEntry keep their tables (club_settlement, club_payout, club_ledgerentry) and their rows;
only Django's idea of which app they belong to changes (state only). Their content types move
to the money app with them, so the audit trail's references to settlements and the groups'
permissions stay as they were; the settle permission moves from Session to Settlement."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

MOVED = ("settlement", "payout", "ledgerentry")


def _retarget(apps, db, *, source, target):
    """Move the moved models' content types from app `source` to `target`, and the settle
    permission with them (from club's session to money's settlement, or back)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    AuditEntry = apps.get_model("club", "AuditEntry")
    types = ContentType.objects.using(db)
    for model in MOVED:
        old = types.filter(app_label=source, model=model).first()
        if old is None:
            continue
        new = types.filter(app_label=target, model=model).first()
        if new is None:
            old.app_label = target
            old.save(update_fields=["app_label"])
            continue
        # Both exist (a migrate of one app ran in between): keep the target's, point the audit
        # trail at it, and drop the other (the role groups are synced again after migrate).
        AuditEntry.objects.using(db).filter(content_type=old).update(content_type=new)
        Permission.objects.using(db).filter(content_type=old).delete()
        old.delete()
    session = types.filter(app_label="club", model="session").first()
    settlement = types.filter(app_label="money", model="settlement").first()
    if session is None or settlement is None:
        return
    here, there = (session, settlement) if target == "money" else (settlement, session)
    permissions = Permission.objects.using(db).filter(codename="settle_session")
    if permissions.filter(content_type=there).exists():
        permissions.filter(content_type=here).delete()
    else:
        permissions.filter(content_type=here).update(content_type=there)


def to_money(apps, schema_editor):
    _retarget(apps, schema_editor.connection.alias, source="club", target="money")


def to_club(apps, schema_editor):
    _retarget(apps, schema_editor.connection.alias, source="money", target="club")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("club", "0013_money_moves_out"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Settlement',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('version', models.PositiveSmallIntegerField()),
                        ('state', models.CharField(choices=[('current', 'Current'), ('replaced', 'Replaced (session reopened)')], default='current', max_length=10)),
                        ('pot_cents', models.PositiveIntegerField()),
                        ('coin_cents', models.PositiveIntegerField()),
                        ('paid_places', models.PositiveSmallIntegerField()),
                        ('weights', models.JSONField()),
                        ('seed', models.BigIntegerField(help_text='Seeds the cut that breaks an indivisible coin.')),
                        ('steps', models.JSONField(help_text='How the pot was split, step by step.')),
                        ('cuts', models.JSONField(blank=True, default=list)),
                        ('settled_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('reopened_at', models.DateTimeField(blank=True, null=True)),
                        ('reopen_reason', models.TextField(blank=True)),
                        ('reopened_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='settlements', to='club.session')),
                        ('settled_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'club_settlement',
                        'ordering': ['session', '-version'],
                        'permissions': [('settle_session', 'Can settle and reopen a session')],
                    },
                ),
                migrations.CreateModel(
                    name='Payout',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('rank', models.PositiveSmallIntegerField()),
                        ('place', models.PositiveSmallIntegerField()),
                        ('amount_cents', models.PositiveIntegerField()),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='payouts', to='club.player')),
                        ('settlement', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='payouts', to='money.settlement')),
                    ],
                    options={
                        'db_table': 'club_payout',
                        'ordering': ['settlement', 'place', 'player__display_name'],
                    },
                ),
                migrations.CreateModel(
                    name='LedgerEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('pot', models.CharField(choices=[('main', 'Session pot'), ('skunk_bank', 'Skunk bank'), ('jackpot_29', '29 jackpot'), ('jackpot_28', '28 jackpot'), ('jackpot_24', '24 jackpot')], max_length=12)),
                        ('kind', models.CharField(choices=[('fee', 'Entry fee'), ('payout', 'Payout'), ('skunk_coin', 'Skunk coin'), ('skunk_bank_win', 'Skunk bank won'), ('jackpot_coin', 'Jackpot contribution'), ('jackpot_win', 'Jackpot won'), ('reversal', 'Reversed (session reopened)')], max_length=16)),
                        ('amount_cents', models.IntegerField()),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='club.club')),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='club.player')),
                        ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='club.session')),
                        ('settlement', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ledger', to='money.settlement')),
                    ],
                    options={
                        'verbose_name_plural': 'ledger entries',
                        'db_table': 'club_ledgerentry',
                        'ordering': ['created_at', 'pk'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='settlement',
                    constraint=models.UniqueConstraint(fields=('session', 'version'), name='settlement_version_unique'),
                ),
                migrations.AddConstraint(
                    model_name='settlement',
                    constraint=models.UniqueConstraint(condition=models.Q(('state', 'current')), fields=('session',), name='settlement_one_current_per_session'),
                ),
                migrations.AddConstraint(
                    model_name='payout',
                    constraint=models.UniqueConstraint(fields=('settlement', 'player'), name='payout_one_per_player_per_settlement'),
                ),
                migrations.AddIndex(
                    model_name='ledgerentry',
                    index=models.Index(fields=['club', 'pot', 'created_at'], name='club_ledger_club_id_682184_idx'),
                ),
                migrations.AddIndex(
                    model_name='ledgerentry',
                    index=models.Index(fields=['club', 'kind'], name='club_ledger_club_id_01a71f_idx'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(to_money, to_club),
    ]
