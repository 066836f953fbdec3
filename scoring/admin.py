"""Admin of the scoring app: claims with their outcomes, disputes with their rulings, read-only
(they change only through the site's pages, so every change is audited)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin, ReadOnlyMixin
from scoring.models import Claim, Dispute, Outcome, Ruling


class OutcomeInline(ReadOnlyMixin, admin.TabularInline):
    model = Outcome
    extra = 0
    fields = ("version", "kind", "points", "explanation", "created_at")
    readonly_fields = fields


class RulingInline(ReadOnlyMixin, admin.TabularInline):
    model = Ruling
    extra = 0
    fields = ("level", "judge", "decision", "points", "reason", "result", "note")
    readonly_fields = fields


@admin.register(Claim)
class ClaimAdmin(ReadOnlyAdmin):
    list_display = ("game", "kind", "claimant", "claimed_points", "true_points", "impossible")
    list_filter = ("kind", "impossible", "game__session__club")
    inlines = [OutcomeInline]


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyAdmin):
    list_display = ("claim", "opened_by", "state", "opened_at")
    list_filter = ("state",)
    inlines = [RulingInline]
