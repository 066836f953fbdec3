"""The ops app's audit verbs (`core.verbs`): a club restored from a backup (`manage.py
import_club`), with the SHA-256 of the file it came from; a restore from a file whose signature
did not hold (imported only because the operator said the file is trusted) has a verb of its
own, so the club's audit log shows it for what it is."""

from django.db import models

from core.verbs import register_verbs


@register_verbs
class OpsVerb(models.TextChoices):
    CLUB_RESTORED = "backup.restored", "Club restored from a signed backup"
    CLUB_RESTORED_UNSIGNED = (
        "backup.restored_unsigned",
        "Club restored from a backup without a valid signature",
    )
