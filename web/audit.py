"""The web app's audit verbs: what an organiser does about logins (see `core.verbs`)."""

from django.db import models

from core.verbs import register_verbs


@register_verbs
class WebVerb(models.TextChoices):
    LOCKOUT_LIFTED = "login.lockout_lifted", "Login lock-out lifted"
