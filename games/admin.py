"""Admin of the games app: rounds, games, seats, result versions and table cards, read-only
(they change only through the site's pages, so every change is audited)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin, ReadOnlyMixin
from games.models import Game, Result, ResultLine, Round, Seat, TableCard


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "side", "player")
    readonly_fields = fields


class ResultLineInline(ReadOnlyMixin, admin.TabularInline):
    model = ResultLine
    extra = 0
    fields = ("player", "side", "score", "won", "skunked", "game_points", "spread")
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("session", "number", "mode", "seed", "drawn_at")
    list_filter = ("session__club",)


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("session", "round", "table", "kind")
    list_filter = ("session__club", "kind")
    inlines = [SeatInline]


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = ("game", "version", "state", "source", "entered_by", "confirmed_by")
    list_filter = ("state", "source")
    inlines = [ResultLineInline]


@admin.register(TableCard)
class TableCardAdmin(ReadOnlyAdmin):
    list_display = ("club", "number", "made_at", "retired_at")
    list_filter = ("club",)
    exclude = ("token",)  # a key to a table: shown on the organisers' cards page only
