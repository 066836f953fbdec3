"""What every row of the session page's check-in table needs, worked out once for the morning
rather than once a row: the addresses of a check-in's buttons, the options of the "Leaves
after round" and "Sits out round" lists (the same for every player checked in), and on each row
what a button pressed on it refused; and the addresses of the skunk coins' rows.

Forty players at the door make forty rows of up to nine forms each; building each address with
{% url %} and each list option by option in the template took most of the page's time, and so
did looking for each row's refusal in every refusal of the page.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.html import format_html_join

from core.addresses import ROW, addresses

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
