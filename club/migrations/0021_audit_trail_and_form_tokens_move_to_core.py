"""The audit trail and the forms' one-time tokens move to the core app, beneath the club:
AuditEntry and SubmissionToken leave the club app's state, and their tables take core's names
(club_auditentry -> core_auditentry, club_submissiontoken -> core_submissiontoken) with every
row and id as it was; core.0001 takes the models over. Runs after money.0001, which reads the
audit trail under its club label when it moves the money models' content types."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0020_wrong_pins_make_a_wait"),
        ("money", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name="auditentry", table="core_auditentry"),
                migrations.AlterModelTable(name="submissiontoken", table="core_submissiontoken"),
            ],
            state_operations=[
                migrations.DeleteModel(name="AuditEntry"),
                migrations.DeleteModel(name="SubmissionToken"),
            ],
        ),
    ]
