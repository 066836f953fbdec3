"""Give the role groups the settling, settlement and ledger permissions."""

from django.db import migrations

from club.roles import sync_roles


class Migration(migrations.Migration):
    dependencies = [("club", "0007_settlements_ledger")]

    operations = [migrations.RunPython(sync_roles, migrations.RunPython.noop)]
