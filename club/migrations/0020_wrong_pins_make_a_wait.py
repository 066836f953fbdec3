"""Wrong table PINs make the next try wait instead of locking the PIN for the session: one row
per wrong PIN (`WrongPin`, with when it was typed) instead of a count per player and session
(`PinLock`), and when a player's PIN was last set (`Player.pin_set_at`).

Each wrong PIN a `PinLock` counted becomes a `WrongPin` typed when the PIN was locked, else when
its session began (the count kept no other time); none is lost. Back: one count per player and
session again, none of them locked.
"""

import datetime as dt

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count
from django.utils import timezone


def session_start(session) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(session.date, session.starts_at))


def wrong_pins_from_counts(apps, schema_editor):
    PinLock = apps.get_model("club", "PinLock")
    WrongPin = apps.get_model("club", "WrongPin")
    rows = []
    for lock in PinLock.objects.select_related("session").order_by("pk").iterator():
        typed_at = lock.locked_at or session_start(lock.session)
        rows.extend(
            WrongPin(session_id=lock.session_id, player_id=lock.player_id, typed_at=typed_at)
            for _ in range(lock.failures)
        )
    WrongPin.objects.bulk_create(rows, batch_size=500)


def counts_from_wrong_pins(apps, schema_editor):
    PinLock = apps.get_model("club", "PinLock")
    WrongPin = apps.get_model("club", "WrongPin")
    counts = WrongPin.objects.values("session", "player").annotate(wrong=Count("pk"))
    PinLock.objects.bulk_create(
        PinLock(
            session_id=row["session"], player_id=row["player"], failures=min(row["wrong"], 32767)
        )
        for row in counts.order_by("session", "player")
    )


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0019_club_large_type'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='pin_set_at',
            field=models.DateTimeField(blank=True, editable=False, help_text='When the PIN was last set or removed: wrong PINs before it count no more.', null=True),
        ),
        migrations.CreateModel(
            name='WrongPin',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('typed_at', models.DateTimeField()),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='wrong_pins', to='club.player')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='wrong_pins', to='club.session')),
            ],
            options={
                'ordering': ['typed_at', 'pk'],
            },
        ),
        migrations.AddIndex(
            model_name='wrongpin',
            index=models.Index(fields=['player', 'typed_at'], name='club_wrongp_player__03becc_idx'),
        ),
        migrations.RunPython(wrong_pins_from_counts, counts_from_wrong_pins),
        migrations.DeleteModel(
            name='PinLock',
        ),
    ]
