"""Create the role groups (organisers, judges, players) with their permissions."""

from django.db import migrations

from club.roles import sync_roles


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(sync_roles, migrations.RunPython.noop)]
