"""Tables of the club app (django-tables2), and the one column class that shows cents."""

import django_tables2 as tables
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from club.models import AuditEntry, Player, Session
from club.templatetags.pegboard import cents


class CentsColumn(tables.Column):
    """Integer cents shown as 25¢ or $3.25; the only place tables format money."""

    def render(self, value):
        return cents(value)


class PlayerTable(tables.Table):
    display_name = tables.Column(verbose_name="Name")

    class Meta:
        model = Player
        fields = ("display_name", "nickname", "active", "joined")
        order_by = ("display_name",)
        empty_text = "No players yet."


class EditablePlayerTable(PlayerTable):
    """The roster as organisers see it: each name links to the player's edit page."""

    display_name = tables.Column(
        verbose_name="Name", linkify=("club:player_edit", {"pk": tables.A("pk")})
    )


class AuditDataColumn(tables.Column):
    """An audit entry's data read as "field: before → after" lines (other keys as "key: value")."""

    def render(self, value):
        lines = []
        for key, item in value.items():
            label = key.replace("_", " ")
            if isinstance(item, dict) and set(item) == {"before", "after"}:
                lines.append(f"{label}: {item['before']} → {item['after']}")
            else:
                lines.append(f"{label}: {item}")
        return format_html_join(mark_safe("<br>"), "{}", ((line,) for line in lines))


class AuditTable(tables.Table):
    created_at = tables.DateTimeColumn(verbose_name="When", format="Y-m-d H:i")
    actor = tables.Column(verbose_name="Who", default="system")
    action = tables.Column(verbose_name="What")
    object_repr = tables.Column(verbose_name="About")
    data = AuditDataColumn(verbose_name="Change", orderable=False)

    class Meta:
        model = AuditEntry
        fields = ("created_at", "actor", "action", "object_repr", "data")
        empty_text = "Nothing recorded yet."


class SessionTable(tables.Table):
    date = tables.DateColumn(
        format="D j M Y", linkify=("club:session", {"pk": tables.A("pk")}), verbose_name="Date"
    )
    state = tables.Column()
    players = tables.Column(verbose_name="Players", attrs={"td": {"class": "numeric"}})
    rounds_drawn = tables.Column(verbose_name="Rounds", attrs={"td": {"class": "numeric"}})
    collected_cents = CentsColumn(verbose_name="Collected", attrs={"td": {"class": "numeric"}})

    class Meta:
        model = Session
        fields = ("date", "state", "players", "rounds_drawn", "collected_cents")
        order_by = ("-date",)
        empty_text = "No sessions yet."
