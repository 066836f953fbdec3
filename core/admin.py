"""Admin of the core app: the audit trail, read-only: it can be viewed, never added to,
changed or deleted."""

from django.contrib import admin

from core.models import AuditEntry


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
