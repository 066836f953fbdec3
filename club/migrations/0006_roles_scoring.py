"""Give the role groups the claim, dispute and ruling permissions."""

from django.db import migrations

from club.roles import sync_roles


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0005_alter_auditentry_action"),
        ("scoring", "0001_initial"),
    ]

    operations = [migrations.RunPython(sync_roles, migrations.RunPython.noop)]
