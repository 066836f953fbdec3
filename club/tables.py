"""Tables of the club app (django-tables2): the roster, the audit log and the sessions. The
column class that shows cents and the CSV exporter are core's (core.tables)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from club.audit import AT_THE_TABLE, BY_LINK
from club.models import Player, Session
from core.audit_log import AuditNames
from core.models import AuditEntry
from core.tables import CentsColumn


class PlayerTable(tables.Table):
    """The roster. With `player_pages`, each name links to the player's page (standings), for
    those who may read it."""

    display_name = tables.Column(verbose_name="Name")

    class Meta:
        model = Player
        fields = ("display_name", "nickname", "active", "joined")
        order_by = ("display_name",)
        empty_text = "No players yet."

    def __init__(self, *args, player_pages: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.player_pages = player_pages

    def render_display_name(self, value, record):
        if not self.player_pages:
            return value
        return format_html(
            '<a href="{}">{}</a>', reverse("standings:player", args=[record.pk]), value
        )


class EditablePlayerTable(PlayerTable):
    """The roster as organisers see it: beside each name, links to the player's edit page and
    login page (with the login's username, or "none")."""

    login = tables.Column(
        verbose_name="Edit, login",
        accessor="pk",
        orderable=False,
        attrs={"td": {"class": "actions"}},
    )

    class Meta(PlayerTable.Meta):
        fields = (*PlayerTable.Meta.fields, "login")

    def render_login(self, record):
        return format_html(
            # One flex item of the .actions cell: the username goes under the two links.
            '<span><a href="{}">Edit<span class="visually-hidden"> {}</span></a>'
            ' · <a href="{}">Login<span class="visually-hidden"> of {}</span></a>'
            '<br><span class="muted small">{}</span></span>',
            reverse("club:player_edit", args=[record.pk]),
            record.display_name,
            reverse("club:player_login", args=[record.pk]),
            record.display_name,
            record.user.get_username() if record.user_id else "none",
        )


class AuditDataColumn(tables.Column):
    """An audit entry's data read to people (core.audit_log): "field: before → after" lines,
    names where the entry stores ids."""

    def render(self, value, table):
        return table.audit_names().html(value)


class AuditTable(tables.Table):
    created_at = tables.DateTimeColumn(verbose_name="When", format="Y-m-d H:i")
    # Rendered for an empty actor too: a change made through a table's link has no login but
    # names the player who made it (club.audit.at_the_table).
    actor = tables.Column(verbose_name="Who", empty_values=())
    action = tables.Column(verbose_name="What", accessor="get_action_display", order_by=("action",))
    object_repr = tables.Column(verbose_name="About")
    data = AuditDataColumn(verbose_name="Change", orderable=False)

    class Meta:
        model = AuditEntry
        fields = ("created_at", "actor", "action", "object_repr", "data")
        empty_text = "Nothing recorded yet."

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self._names = None

    def audit_names(self) -> AuditNames:
        """The names of the page's references and actors, looked up once for the page."""
        if self._names is None:
            rows = self.page.object_list if hasattr(self, "page") else self.rows
            self._names = AuditNames(self.club, [row.record for row in rows])
        return self._names

    def render_actor(self, value, record):
        if value is not None:
            return self.audit_names().actor(record)
        data = record.data if isinstance(record.data, dict) else {}
        if data.get("via") == AT_THE_TABLE:
            return f"At the table: {data.get('by_player') or 'a player'}"
        if data.get("via") == BY_LINK:
            return f"By one-time link: {data.get('by_player') or 'a player'}"
        return "system"


class SessionTable(tables.Table):
    date = tables.DateColumn(
        # "Thu 19 Nov" stays on one line on a phone; only the year may wrap under it.
        format="D\u00a0j\u00a0M Y",
        linkify=("web:session", {"pk": tables.A("pk")}),
        verbose_name="Date",
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
