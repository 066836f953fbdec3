"""Give the role groups the session, check-in, draw and result permissions."""

from django.db import migrations

from club.roles import sync_roles


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0003_sessions_checkins"),
        ("games", "0001_initial"),
    ]

    operations = [migrations.RunPython(sync_roles, migrations.RunPython.noop)]
