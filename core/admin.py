"""Admin of the core app: the audit trail, read-only: it can be viewed, never added to,
changed or deleted; and the read-only admin every app uses for the rows that change only through
the site's pages (so every change is audited).

Terms: read-only: shown in the admin, never added, changed or deleted there (`ReadOnlyMixin`
for inlines, `ReadOnlyAdmin` for a model's own admin).
"""

from django.contrib import admin

from core.models import AuditEntry


class ReadOnlyMixin:
    """Shown in the admin, changed only through the site's pages (so every change is audited)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(ReadOnlyMixin, admin.ModelAdmin):
    pass


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "club", "actor", "action", "object_repr")
    list_filter = ("action", "club")
    search_fields = ("object_repr",)
    date_hierarchy = "created_at"

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
