"""What every row of the session page's check-in table needs, worked out once for the morning
rather than once a row: the addresses of a check-in's buttons, the options of the "Leaves
after round" and "Sits out round" lists (the same for every player checked in), and on each row
what a button pressed on it refused; and the addresses of the skunk coins' rows.

Forty players at the door make forty rows of up to nine forms each; building each address with
{% url %} and each list option by option in the template took most of the page's time, and so
did looking for each row's refusal in every refusal of the page.

The rows themselves are written here too (`checkin_rows_html`), as the rounds' table lines are
(web/round_lines.py): a row carries up to forty values and a dozen choices, and the template
engine's lookups, filters and escapes for them cost more than the rest of the page's template.
What each row says and offers is told in `checkin_row_html`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils import timezone
from django.utils.html import conditional_escape as esc
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from club.templatetags.club import or_login
from core.addresses import ROW, addresses
from core.cents import format_cents
from core.templatetags.pegboard import clock

# The check-in buttons' URL names, each with the key the rows read them by (checkin.urls.<key>).
ROW_URLS = {
    "paid": "web:checkin_paid",
    "unpaid": "web:checkin_unpaid",
    "undo": "web:checkin_undo",
    "fee_take": "web:checkin_fee_take",
    "fee_change": "web:checkin_fee_change",
    "fee_undo": "web:checkin_fee_undo",
    "leaves": "web:checkin_leaves",
    "leaves_undo": "web:checkin_leaves_undo",
    "sits_out": "web:checkin_sits_out",
    "sits_out_undo": "web:checkin_sits_out_undo",
}


def add_row_urls(session, checkins) -> None:
    """Give each check-in a `urls` dict of its buttons' addresses (the same strings {% url %}
    gives), each name reversed once for the whole table (core.addresses)."""
    makers = {key: addresses(name, session.pk, ROW) for key, name in ROW_URLS.items()}
    for checkin in checkins:
        checkin.urls = {key: address(checkin.pk) for key, address in makers.items()}


# A row's refusals (web.views.SessionPageMixin's overrides, by check-in id): the attribute each is
# read by on its row, and the override that carries them.
ROW_NOTES = {
    "refusal": "row_errors",  # a paid, unpaid or undo button
    "absence_error": "absence_error",  # leaves or sits out
    "fee_error": "fee_error",  # a fee per game button
    "fee_typed": "fee_typed",  # the amount typed ahead with it
}


def add_row_notes(checkins, refusals: Mapping[str, dict | None]) -> None:
    """Give each check-in every attribute its row reads beyond its own fields, so that none is
    missing (the template would search the object's dir() for each on every row): each of
    ROW_NOTES, its text in `refusals` (the page's context: override -> check-in id -> text)
    or ""; `fee`, None unless the fee per game gave it its FeeLine; `urls`, None unless
    `add_row_urls` gave it."""
    notes = {attribute: refusals.get(override) or {} for attribute, override in ROW_NOTES.items()}
    for checkin in checkins:
        for attribute, by_checkin in notes.items():
            setattr(checkin, attribute, by_checkin.get(checkin.pk, ""))
        for attribute in ("fee", "urls"):
            if not hasattr(checkin, attribute):
                setattr(checkin, attribute, None)


def leaves_options(round_numbers, rounds_drawn: int) -> str:
    """ "Leaves after round": every round but the last, the round just drawn chosen (round 1
    before any draw)."""
    numbers = list(round_numbers)[:-1]
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        (
            (n, " selected" if n == rounds_drawn or (rounds_drawn == 0 and n == 1) else "", n)
            for n in numbers
        ),
    )


def sits_options(round_numbers, rounds_drawn: int, next_round: int) -> str:
    """ "Sits out round": the rounds not drawn yet, the next one chosen."""
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((n, " selected" if n == next_round else "", n) for n in round_numbers if n > rounds_drawn),
    )


def coin_rows(session, coins) -> list[tuple]:
    """The skunk coins' rows: (coin line, its game's address, its button's address: hand a coin
    taken back, or mark it paid), each URL name reversed once for the table."""
    game = addresses("games:game", ROW)
    back = addresses("money:skunk_coin_back", session.pk, ROW)
    paid = addresses("money:skunk_coin_paid", session.pk, ROW, ROW)
    return [
        (
            coin,
            game(coin.game_id),
            back(coin.coin.pk) if coin.paid else paid(coin.game_id, coin.player_id),
        )
        for coin in coins
    ]


NEWLINE = "\n"  # between a cell's forms, as between any two parts of a line of text


@dataclass(frozen=True)
class RowPage:
    """What every check-in row reads of the page: whether fees are shown and the rows' buttons
    offered, the forms' token, the rounds' options, how many rounds are drawn and a session's
    rounds, and whether a fee per game button was refused (its amount typed is then shown)."""

    show_fees: bool
    can_manage: bool
    csrf_input: str = ""
    leaves_options: str = ""
    sits_options: str = ""
    rounds_drawn: int = 0
    rounds_per_session: int = 0
    fee_refused: bool = False


def checkin_rows_html(checkins, page: RowPage) -> SafeString:
    """The check-in table's rows, each by `checkin_row_html`."""
    return mark_safe("".join(checkin_row_html(checkin, page) for checkin in checkins))


def _form(action: str, css: str, page: RowPage, inside: str) -> str:
    return (
        f'<form method="post" action="{action}" hx-post="{action}" class="{css}">'
        f"{page.csrf_input}{inside}</form>"
    )


def _button(css: str, text: str, label: str = "") -> str:
    """A form's button; `label`, what a screen reader says of it, is written as it is given
    (its name escaped by the caller)."""
    aria = f' aria-label="{label}"' if label else ""
    return f'<button class="{css}" type="submit"{aria}>{text}</button>'


def _fee_cells(checkin, fee) -> str:
    """Owed and paid with the fee per game (`fee`: its money.fee_selectors.FeeLine)."""
    owed = f"{format_cents(fee.owed_cents)}, {fee.games} game{'' if fee.games == 1 else 's'}"
    if fee.jackpots_cents:
        jackpots = format_cents(fee.jackpots_cents)
        owed += f' <span class="muted owed-parts">(+ jackpots {jackpots})</span>'
    paid = ""
    if fee.paid_cents:
        paid = f'<span class="paid">Paid {format_cents(fee.paid_cents)}</span>'
        if fee.change_cents:
            paid += (
                f' <span class="muted">({format_cents(fee.change_cents)} change given back)</span>'
            )
    paid += " "  # as between any two parts of a line of text
    if fee.to_pay_cents:
        paid += (
            f'{"· " if fee.paid_cents else ""}<span class="unpaid" data-testid="to-pay">'
            f"{format_cents(fee.to_pay_cents)} to pay</span>"
        )
    elif fee.change_due_cents:
        paid += (
            f'· <span class="unpaid" data-testid="change-due">change '
            f"{format_cents(fee.change_due_cents)} to give back</span>"
        )
    elif not fee.paid_cents:
        paid += '<span class="muted">nothing owed yet</span>'
    return f'<td class="numeric" data-testid="owed">{owed}</td><td data-testid="paid">{paid}</td>'


def _session_fee_cells(checkin) -> str:
    """Owed and paid with the fee once a session: the fee and jackpot contributions."""
    owed = format_cents(checkin.owed_cents)
    if checkin.contributions:
        owed += f' <span class="muted owed-parts">({esc(checkin.owed_parts)})</span>'
    if checkin.is_paid:
        who = or_login(checkin.paid_by_name, checkin.paid_by)
        when = clock(timezone.localtime(checkin.paid_at))
        paid = f'<span class="paid">Paid</span> <span class="muted">to {esc(who)}, {when}</span>'
    else:
        paid = '<span class="unpaid">Owes</span>'
    return f'<td class="numeric" data-testid="owed">{owed}</td><td>{paid}</td>'


def _fee_buttons(checkin, fee, name: str, page: RowPage) -> str:
    """A fee per game's buttons: take what is owed, give the change, undo a payment, and pay
    ahead for more of the morning (its form open, with the refusal, when it was refused)."""
    urls, pk, parts = checkin.urls, checkin.pk, []
    if fee.to_pay_cents:
        owed = format_cents(fee.to_pay_cents)
        button = _button("button button--small", f"Take {owed}", f"Take {owed} from {name}")
        parts.append(_form(urls["fee_take"], "inline-form", page, button))
    if fee.change_due_cents:
        due = format_cents(fee.change_due_cents)
        label = f"Change given: {due} back to {name}"
        button = _button("button button--small", "Change given", label)
        parts.append(_form(urls["fee_change"], "inline-form", page, button))
    if fee.paid_cents:
        button = _button("link-button", "Undo payment", f"Undo {name}'s last payment")
        parts.append(_form(urls["fee_undo"], "inline-form", page, button))
    if fee.room_cents:
        error = esc(checkin.fee_error)
        typed = esc(checkin.fee_typed) if page.fee_refused else fee.room_cents
        invalid = f' aria-invalid="true" aria-describedby="fee-error-{pk}"' if error else ""
        jackpots = f" + jackpots {format_cents(fee.jackpots_cents)}" if fee.jackpots_cents else ""
        parts.append(
            f'<details class="absence fee-ahead"{" open" if error else ""} data-testid="fee-ahead">'
            f'<summary>Pays ahead<span class="visually-hidden"> ({name})</span></summary>'
            + (
                f'<p class="errorlist absence__error" role="alert" id="fee-error-{pk}">{error}</p>'
                if error
                else ""
            )
            + _form(
                urls["fee_take"],
                "absence__form",
                page,
                f'<input type="hidden" name="kept" value="{fee.kept_cents}">'
                f'<label for="fee-amount-{pk}">Amount (cents)</label>'
                f'<input type="text" inputmode="numeric" name="amount" id="fee-amount-{pk}" '
                f'size="6" value="{typed}"{invalid}>' + _button("button button--small", "Take"),
            )
            + '<p class="muted fee-ahead__hint">'
            f"The whole morning: {format_cents(fee.morning_cents)}"
            f" ({page.rounds_per_session} rounds at {format_cents(fee.fee_cents)}{jackpots}); "
            f"up to {format_cents(fee.room_cents)} more.</p></details>"
        )
    return NEWLINE.join(parts)


def _absence(checkin, name: str, page: RowPage) -> str:
    """ "Leaves or sits out": leaving after a round (or its undo), the rounds not drawn yet that
    the player sits out (each with its undo), and sitting out one more."""
    urls, pk = checkin.urls, checkin.pk
    error = esc(checkin.absence_error)
    forms = []
    if checkin.last_round:
        text = f"Stays after round {checkin.last_round} (undo leaving)"
        forms.append(
            _form(urls["leaves_undo"], "inline-form", page, _button("button button--small", text))
        )
    else:
        forms.append(
            _form(
                urls["leaves"],
                "absence__form",
                page,
                f'<label for="leaves-{pk}">Leaves after round</label>'
                f'<select name="round" id="leaves-{pk}">{page.leaves_options}</select>'
                + _button("button button--small", "Leaves"),
            )
        )
    for n in checkin.sits_out or ():
        if n > page.rounds_drawn:
            text = f"Plays round {n} (undo sitting out)"
            inside = f'<input type="hidden" name="round" value="{n}">' + _button(
                "button button--small", text
            )
            forms.append(_form(urls["sits_out_undo"], "inline-form", page, inside))
    if page.sits_options:
        forms.append(
            _form(
                urls["sits_out"],
                "absence__form",
                page,
                f'<label for="sits-{pk}">Sits out round</label>'
                f'<select name="round" id="sits-{pk}">{page.sits_options}</select>'
                + _button("button button--small", "Sits out"),
            )
        )
    return (
        f'<details class="absence"{" open" if error else ""} data-testid="absence">'
        f'<summary>Leaves or sits out<span class="visually-hidden"> ({name})</span></summary>'
        + (f'<p class="errorlist absence__error" role="alert">{error}</p>' if error else "")
        + f'<div class="absence__forms">{NEWLINE.join(forms)}</div></details>'
    )


def _actions(checkin, fee, name: str, page: RowPage) -> str:
    """The row's buttons: the fee's (per game), or mark paid and its undo (per session); undo
    the check-in while the player has no seat; leaving and sitting out."""
    urls = checkin.urls
    if fee:
        money = _fee_buttons(checkin, fee, name, page)
    elif checkin.is_paid:
        money = _form(urls["unpaid"], "inline-form", page, _button("link-button", "Undo payment"))
    else:
        label = f"Mark {name} paid {format_cents(checkin.owed_cents)}"
        money = _form(
            urls["paid"], "inline-form", page, _button("button button--small", "Mark paid", label)
        )
    undo = ""
    if not checkin.seated:
        button = _button("link-button", "Undo check-in", f"Undo {name}'s check-in")
        undo = _form(urls["undo"], "inline-form", page, button)
    parts = (money, undo, _absence(checkin, name, page))
    return f'<td class="actions no-print">{NEWLINE.join(part for part in parts if part)}</td>'


def checkin_row_html(checkin, page: RowPage) -> str:
    """One check-in's row: the player's name (with the round they came from and the rounds
    they miss), what they owe and paid (when fees are shown), and the buttons (when the page
    offers them); then, when a button pressed on the row was refused, a row saying why. The
    attributes it reads beyond the check-in's fields come from add_row_urls and add_row_notes
    (and `fee`, a money.fee_selectors.FeeLine, with the fee per game). Every value is escaped
    where it is written; the helpers take the player's name escaped already."""
    name, pk, fee = esc(checkin.player.display_name), checkin.pk, checkin.fee
    who = name
    if checkin.from_round > 1:
        who += f' <span class="muted">(from round {checkin.from_round})</span>'
    if absence := checkin.absence_text:
        who += f' <span class="absence-note" data-testid="absence-note">({esc(absence)})</span>'
    cells = [f'<tr data-player="{name}" id="checkin-{pk}"><td>{who}</td>']
    if page.show_fees:
        cells.append(_fee_cells(checkin, fee) if fee else _session_fee_cells(checkin))
    if page.can_manage:
        cells.append(_actions(checkin, fee, name, page))
    cells.append("</tr>")
    if checkin.refusal:
        cells.append(
            f'<tr class="row-refusal" id="refusal-{pk}"><td colspan="5"><p class="errorlist" '
            f'role="alert" data-testid="row-refusal">{esc(checkin.refusal)}</p></td></tr>'
        )
    return "".join(cells)
