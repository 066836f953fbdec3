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
from money.models import LedgerEntry


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

    def _shown(self) -> list:
        """The ledger rows shown: this page's, or every row when the table is not paginated
        (the CSV export)."""
        rows = self.page.object_list if hasattr(self, "page") else self.rows
        return [row.record for row in rows]

    def _balances(self) -> dict[int, int]:
        """Each shown row's pot balance after it, read once for the table."""
        if self._page_balances is None:
            self._page_balances = ledger_balances(
                self.club, [entry.pk for entry in self._shown()], pot_totals=self.pot_totals
            )
        return self._page_balances

    def render_balance(self, record):
        return cents(self._balances()[record.pk])

    def page_lines(self) -> list[dict]:
        """The cells of the rows shown, worked out once (the page's template loops over them):
        what the columns render, the session's and player's links built once each."""
        entries = self._shown()
        balances = self._balances()
        session_urls: dict[int, str] = {}
        player_urls: dict[int, str] = {}
        lines = []
        for entry in entries:
            if entry.session_id not in session_urls:
                session_urls[entry.session_id] = reverse("web:session", args=[entry.session_id])
            player_url = ""
            if entry.player_id is not None:
                if entry.player_id not in player_urls:
                    player_urls[entry.player_id] = reverse(
                        "money:player_money", args=[entry.player_id]
                    )
                player_url = player_urls[entry.player_id]
            lines.append(
                {
                    "session_url": session_urls[entry.session_id],
                    "session_date": date_filter(entry.session.date, SESSION_DATE_FORMAT),
                    "kind": entry.get_kind_display(),
                    "pot": entry.get_pot_display(),
                    "amount": self.columns["amount_cents"].column.render(entry.amount_cents),
                    "balance": cents(balances[entry.pk]),
                    "player_url": player_url,
                    "player": str(entry.player) if entry.player_id is not None else "",
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
