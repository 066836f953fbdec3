"""The core app takes over the audit trail and the forms' one-time tokens from the club app.
club.0021 renamed their tables to core_auditentry and core_submissiontoken; here the models
join core's state (state only), the audit trail's index takes core's name, and their content
types move to core with them: the audit trail's own references and the groups' and logins'
permissions (view_auditentry, the judges') stay as they were, under core's label."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

MOVED = ("auditentry", "submissiontoken")


def _retarget(apps, db, *, source, target):
    """Move the moved models' content types from app `source` to `target`. Where both exist (a
    `migrate` of part of the apps made the target's in between), the target's is kept: the
    audit trail's references and the permissions' groups and logins move to it."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    AuditEntry = apps.get_model("core", "AuditEntry")
    GroupPermissions = apps.get_model("auth", "Group").permissions.through
    UserPermissions = apps.get_model(*settings.AUTH_USER_MODEL.split(".")).user_permissions.through
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
        AuditEntry.objects.using(db).filter(content_type=old).update(content_type=new)
        for permission in Permission.objects.using(db).filter(content_type=old):
            kept = Permission.objects.using(db).filter(
                content_type=new, codename=permission.codename
            ).first()
            if kept is None:
                permission.content_type = new
                permission.save(update_fields=["content_type"])
                continue
            for through, owner in ((GroupPermissions, "group_id"), (UserPermissions, "user_id")):
                rows = through.objects.using(db)
                have = set(rows.filter(permission=kept).values_list(owner, flat=True))
                rows.bulk_create(
                    through(**{owner: pk, "permission_id": kept.pk})
                    for pk in rows.filter(permission=permission).values_list(owner, flat=True)
                    if pk not in have
                )
            permission.delete()
        old.delete()


def to_core(apps, schema_editor):
    _retarget(apps, schema_editor.connection.alias, source="club", target="core")


def to_club(apps, schema_editor):
    _retarget(apps, schema_editor.connection.alias, source="core", target="club")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("club", "0021_audit_trail_and_form_tokens_move_to_core"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="SubmissionToken",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("token", models.CharField(max_length=64, unique=True)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("made", models.CharField(blank=True, max_length=80)),
                        ("user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                ),
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("created_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        ("action", models.CharField(help_text="The verb: one an app registered (core.verbs).", max_length=40)),
                        ("object_id", models.CharField(blank=True, max_length=40)),
                        ("object_repr", models.CharField(blank=True, max_length=200)),
                        ("data", models.JSONField(blank=True, default=dict)),
                        ("actor", models.ForeignKey(blank=True, help_text="Who made the change; empty for the system itself.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name="audit_entries", to=settings.AUTH_USER_MODEL)),
                        ("club", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="audit_entries", to="club.club")),
                        ("content_type", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, to="contenttypes.contenttype")),
                    ],
                    options={
                        "verbose_name_plural": "audit entries",
                        "ordering": ["-created_at", "-pk"],
                        # The club app's name for it; renamed below, in the database too.
                        "indexes": [models.Index(fields=["content_type", "object_id"], name="club_audite_content_bacdf6_idx")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RenameIndex(
            model_name="auditentry",
            new_name="core_audite_content_45f5e6_idx",
            old_name="club_audite_content_bacdf6_idx",
        ),
        migrations.RunPython(to_core, to_club),
    ]
