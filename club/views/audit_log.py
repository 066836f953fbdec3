"""The audit log page: the club's audit trail, filtered, with ids read as names
(core.audit_log)."""

from __future__ import annotations

from django.contrib.auth.mixins import PermissionRequiredMixin
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from club.filters import AuditFilter
from club.mixins import ClubMixin
from club.selectors import club_audit_entries
from club.tables import AuditTable
from core.mixins import ClampedPaginator


class AuditLogView(PermissionRequiredMixin, ClubMixin, SingleTableMixin, FilterView):
    permission_required = "core.view_auditentry"
    template_name = "club/audit_list.html"
    filterset_class = AuditFilter
    table_class = AuditTable
    paginate_by = 50
    paginator_class = ClampedPaginator

    def get_queryset(self):
        return club_audit_entries(self.club)

    def get_table_kwargs(self):
        return {"club": self.club}
