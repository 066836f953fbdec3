"""What every row of the session page's check-in table needs, worked out once for the morning
rather than once a row: the addresses of a check-in's buttons, and the options of the "Leaves
after round" and "Sits out round" lists (the same for every player checked in).

Forty players at the door make forty rows of up to nine forms each; building each address with
{% url %} and each list option by option in the template took most of the page's time.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import format_html_join

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

# A check-in id no session reaches: reversed once, then replaced by each row's id.
_MARK = 987654321


def add_row_urls(session, checkins) -> None:
    """Give each check-in a `urls` dict of its buttons' addresses (the same strings {% url %}
    gives), each name reversed once for the whole table."""
    templates = {
        key: reverse(name, args=[session.pk, _MARK]).split(f"/{_MARK}/")
        for key, name in ROW_URLS.items()
    }
    for checkin in checkins:
        middle = f"/{checkin.pk}/"
        checkin.urls = {key: middle.join(parts) for key, parts in templates.items()}


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
