"""The rows every app writes and no app owns: the append-only audit trail and the one-time
tokens of forms.

Terms:
- append-only: rows written once and never changed or deleted (the audit trail, the money
  ledger): a correction is a new row. `AppendOnlyModel` refuses the rest, one row or many.
- audit entry: one row per change, written only by `core.audit.audit_record`; its `action` is a
  verb some app registered (`core.verbs`). An entry belongs to a club (the model the
  PEGBOARD_CLUB_MODEL setting names, so the trail knows no app above it), or to none when it
  is site-wide.
- submission token: a form's one-time token, spent by the service that saves the form
  (`core.submissions.spend_token`) in its transaction: a second post of the same page finds it
  spent and saves nothing again.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from core import verbs


def _append_only(model) -> PermissionError:
    what = str(model._meta.verbose_name_plural).capitalize()
    return PermissionError(f"{what} are append-only: correct them with new rows, never edits.")


class AppendOnlyQuerySet(models.QuerySet):
    """Bulk deletes and updates are refused (the audit trail, the ledger)."""

    def delete(self):
        raise _append_only(self.model)

    def update(self, **kwargs):
        raise _append_only(self.model)


class AppendOnlyModel(models.Model):
    """Rows that are written once: saving an existing row or deleting one raises."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None or not self._state.adding:
            raise _append_only(type(self))
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise _append_only(type(self))


class AuditEntry(AppendOnlyModel):
    club = models.ForeignKey(
        settings.PEGBOARD_CLUB_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        help_text="Who made the change; empty for the system itself.",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(
        max_length=40, help_text="The verb: one an app registered (core.verbs)."
    )
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, null=True, blank=True)
    object_id = models.CharField(max_length=40, blank=True)
    object_repr = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["content_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.get_action_display()}: {self.object_repr}"

    def get_action_display(self) -> str:
        """The verb's label, as the app that owns it registered it."""
        return verbs.verb_label(self.action)

    def clean(self) -> None:
        if self.action and not verbs.is_verb(self.action):
            raise ValidationError({"action": f"{self.action!r} is not a registered audit verb."})


class SubmissionToken(models.Model):
    """A form's one-time token (see the module's terms). `made` names what the first post made
    ("app_label.model:pk")."""

    token = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    made = models.CharField(max_length=80, blank=True)

    def __str__(self) -> str:
        return f"submission {self.token[:8]}…"
