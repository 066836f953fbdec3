"""Admin of the club app. Writes go through the services (so they are audited); sessions and
check-ins are read-only here (core's read-only admin, as the audit trail's is).
"""

from django.contrib import admin

from club import services
from club.models import CheckIn, Club, Player, Session
from core.admin import ReadOnlyAdmin, ReadOnlyMixin

CLUB_EDITABLE = Club.EDITABLE_FIELDS


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "game_target", "entry_fee_cents", "table_mode", "standings_public")

    def get_prepopulated_fields(self, request, obj=None):
        return {} if obj else {"slug": ("name",)}

    def get_readonly_fields(self, request, obj=None):
        return ("slug",) if obj else ()

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        if change:
            changes = {f: form.cleaned_data[f] for f in form.changed_data if f in CLUB_EDITABLE}
            saved = services.club_update_rules(
                club=Club.objects.get(pk=obj.pk), actor=request.user, **changes
            )
        else:
            rules = {f: form.cleaned_data[f] for f in CLUB_EDITABLE if f in form.cleaned_data}
            name = rules.pop("name")
            saved = services.club_create(
                actor=request.user, name=name, slug=form.cleaned_data["slug"], **rules
            )
        obj.pk = saved.pk


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "nickname", "club", "active", "joined", "user")
    list_filter = ("club", "active")
    search_fields = ("display_name", "nickname")
    raw_id_fields = ("user",)
    fields = ("club", "display_name", "nickname", "user", "active", "joined")

    def get_readonly_fields(self, request, obj=None):
        return ("club",) if obj else ()

    def has_delete_permission(self, request, obj=None):
        # Players are kept for the record; mark them inactive instead.
        return False

    def save_model(self, request, obj, form, change):
        values = {f: form.cleaned_data[f] for f in form.changed_data if f != "club"}
        if change:
            services.player_update(
                player=Player.objects.get(pk=obj.pk), actor=request.user, **values
            )
        else:
            fields = ("display_name", "nickname", "user", "active", "joined")
            saved = services.player_create(
                club=form.cleaned_data["club"],
                actor=request.user,
                **{f: form.cleaned_data[f] for f in fields},
            )
            obj.pk = saved.pk


class CheckInInline(ReadOnlyMixin, admin.TabularInline):
    model = CheckIn
    extra = 0
    fields = (
        "player",
        "fee_cents",
        "jackpot_29_cents",
        "jackpot_28_cents",
        "jackpot_24_cents",
        "from_round",
        "paid_at",
        "paid_by",
    )
    readonly_fields = fields


@admin.register(Session)
class SessionAdmin(ReadOnlyAdmin):
    list_display = ("date", "club", "state", "starts_at")
    list_filter = ("club", "state")
    date_hierarchy = "date"
    inlines = [CheckInInline]


@admin.register(CheckIn)
class CheckInAdmin(ReadOnlyAdmin):
    list_display = ("session", "player", "fee_cents", "paid_at", "paid_by")
    list_filter = ("session__club",)
    search_fields = ("player__display_name",)
