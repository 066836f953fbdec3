"""Tables of the money app (django-tables2): the club's ledger.

Terms:
- balance (of a row): the balance of the row's pot just after it, the sum of that pot's rows of
  the whole club up to and including it (`money.ledger_selectors.ledger_balances`), whatever
  the page is filtered by. It is worked out for the rows shown (a page) or, for the CSV, every row.
- CSV cells: the session as an ISO date, amounts and balances as plain dollar figures
  (-3.25, 0.25), so a spreadsheet sums them; the page shows them as 25¢ and $3.25.
"""

from __future__ import annotations

from decimal import Decimal

import django_tables2 as tables
from django.template.defaultfilters import date as date_filter
from django.urls import reverse
from django.utils.html import format_html

from core.templatetags.pegboard import cents
from money.ledger_selectors import ledger_balances
from money.models import LedgerEntry, LedgerKind, Pot


def dollars(amount_cents: int) -> str:
    """Integer cents as a plain signed dollar figure for a spreadsheet: -325 -> "-3.25"."""
    return f"{Decimal(amount_cents) / 100:.2f}"


class SignedCentsColumn(tables.Column):
    """Money into (+) or out of (-) a pot: +25¢, -$3.25 (the CSV has plain figures)."""

    def render(self, value):
        return f"+{cents(value)}" if value > 0 else cents(value)


# "12 Nov" stays on one line, the year may wrap on a phone.
SESSION_DATE_FORMAT = "j\u00a0M Y"


class LedgerTable(tables.Table):
    session = tables.DateColumn(
        accessor="session__date",
        format=SESSION_DATE_FORMAT,
        linkify=("web:session", {"pk": tables.A("session_id")}),
        verbose_name="Session",
    )
    kind = tables.Column(accessor="get_kind_display", verbose_name="What")
    # On screen the pot is a second line of "What" (a phone has little room); the CSV has it as
    # a column of its own.
    pot = tables.Column(accessor="get_pot_display", verbose_name="Pot", visible=False)
    player = tables.Column(
        verbose_name="Player",
        linkify=("money:player_money", {"pk": tables.A("player_id")}),
        default="",
    )
    amount_cents = SignedCentsColumn(
        verbose_name="Amount", attrs={"td": {"class": "numeric"}, "th": {"class": "numeric"}}
    )
    balance = tables.Column(
        verbose_name="Balance",
        accessor="pk",
        empty_values=(),
        attrs={"td": {"class": "numeric"}, "th": {"class": "numeric"}},
    )

    class Meta:
        model = LedgerEntry
        # A statement's order: when, what, how much, the balance; then who (off to the side on
        # a phone, where the table scrolls sideways in its box).
        fields = sequence = ("session", "kind", "pot", "amount_cents", "balance", "player")
        orderable = False  # newest first, always: the running balances read down the page
        per_page = 50
        empty_text = "No ledger rows here."
        attrs = {"data-testid": "ledger"}
        template_name = "money/includes/ledger_table.html"

    def __init__(self, *args, club, pot_totals=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.pot_totals = pot_totals  # every pot's balance now, when the page has read them
        self._page_balances = None
        self._page_rows = None

    def _page_values(self) -> list[tuple]:
        """The ledger rows shown (this page's, or every row when the table is not paginated) as
        the values their cells show, read once: (id, session id, session date, kind, pot,
        amount, player id, player's name)."""
        if self._page_rows is None:
            shown = self.page.object_list.data if hasattr(self, "page") else self.data.data
            self._page_rows = list(
                shown.values_list(
                    "pk",
                    "session_id",
                    "session__date",
                    "kind",
                    "pot",
                    "amount_cents",
                    "player_id",
                    "player__display_name",
                )
            )
        return self._page_rows

    def _balances(self) -> dict[int, int]:
        """Each shown row's pot balance after it, read once for the table."""
        if self._page_balances is None:
            self._page_balances = ledger_balances(
                self.club, [values[0] for values in self._page_values()], pot_totals=self.pot_totals
            )
        return self._page_balances

    def render_balance(self, record):
        return cents(self._balances()[record.pk])

    def page_lines(self) -> list[dict]:
        """The cells of the rows shown, worked out once from their values (the page's template
        loops over them): what the columns render, each session's link and date and each
        player's link made once."""
        balances = self._balances()
        kinds = dict(LedgerKind.choices)
        pots = dict(Pot.choices)
        amount = self.columns["amount_cents"].column.render
        sessions: dict[int, tuple[str, str]] = {}
        player_urls: dict[int, str] = {}
        lines = []
        for pk, session_id, day, kind, pot, amount_cents, player_id, name in self._page_values():
            if session_id not in sessions:
                sessions[session_id] = (
                    reverse("web:session", args=[session_id]),
                    date_filter(day, SESSION_DATE_FORMAT),
                )
            if player_id is not None and player_id not in player_urls:
                player_urls[player_id] = reverse("money:player_money", args=[player_id])
            session_url, session_date = sessions[session_id]
            lines.append(
                {
                    "session_url": session_url,
                    "session_date": session_date,
                    "kind": kinds.get(kind, kind),
                    "pot": pots.get(pot, pot),
                    "amount": amount(amount_cents),
                    "balance": cents(balances[pk]),
                    "player_url": player_urls.get(player_id, ""),
                    "player": name if player_id is not None else "",
                }
            )
        return lines

    def render_kind(self, value, record):
        return format_html(
            '{}<br><span class="muted small">{}</span>', value, record.get_pot_display()
        )

    def as_values(self, exclude_columns=None):
        """The CSV's rows: the header, then every row (not a page) with the cells described in
        the module's terms. Built here rather than cell by cell through the columns, which took
        two seconds for three years of rows."""
        exclude_columns = exclude_columns or ()
        names = [
            column.name
            for column in self.columns.iterall()
            if not (column.column.exclude_from_export or column.name in exclude_columns)
        ]
        yield [str(self.columns[name].header) for name in names]
        balances = ledger_balances(self.club)
        for row in self.rows:
            entry = row.record
            cells = {
                "session": entry.session.date.isoformat(),
                "kind": entry.get_kind_display(),
                "pot": entry.get_pot_display(),
                "player": entry.player.display_name if entry.player_id else "",
                "amount_cents": dollars(entry.amount_cents),
                "balance": dollars(balances[entry.pk]),
            }
            yield [cells[name] for name in names]
