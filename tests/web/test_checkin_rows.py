"""The check-in rows' addresses and round options, worked out once for the table, are the ones
{% url %} and the old option-by-option loops gave."""

from types import SimpleNamespace

from django.urls import reverse

from web.checkin_rows import (
    ROW_URLS,
    add_row_notes,
    add_row_urls,
    coin_rows,
    leaves_options,
    sits_options,
)


def test_each_row_gets_the_addresses_url_reverses():
    session = SimpleNamespace(pk=7)
    rows = [SimpleNamespace(pk=pk) for pk in (1, 77, 987654, 12)]
    add_row_urls(session, rows)
    for row in rows:
        assert row.urls == {key: reverse(name, args=[7, row.pk]) for key, name in ROW_URLS.items()}


def test_leaves_options_every_round_but_the_last_the_drawn_one_chosen():
    assert leaves_options(range(1, 5), 2) == (
        '<option value="1">1</option><option value="2" selected>2</option>'
        '<option value="3">3</option>'
    )
    # Before any draw, round 1 is chosen.
    assert leaves_options(range(1, 4), 0) == (
        '<option value="1" selected>1</option><option value="2">2</option>'
    )


def test_sits_options_rounds_not_drawn_the_next_chosen():
    assert sits_options(range(1, 5), 2, 3) == (
        '<option value="3" selected>3</option><option value="4">4</option>'
    )
    assert sits_options(range(1, 3), 2, 3) == ""


def test_each_row_gets_its_own_refusal_and_every_row_every_note():
    rows = [SimpleNamespace(pk=pk) for pk in (1, 2, 3)]
    rows[2].fee = "the fee line"
    context = {"row_errors": {2: "Seated already."}, "absence_error": None, "fee_typed": {3: "40"}}
    add_row_notes(rows, context)
    assert [row.refusal for row in rows] == ["", "Seated already.", ""]
    assert [row.fee_typed for row in rows] == ["", "", "40"]
    assert all(row.absence_error == "" and row.fee_error == "" for row in rows)
    assert [row.fee for row in rows] == [None, None, "the fee line"]
    assert all(row.urls is None for row in rows)


def test_each_coin_gets_its_game_and_its_button_as_url_reverses_them():
    session = SimpleNamespace(pk=7)
    owed = SimpleNamespace(game_id=11, player_id=5, paid=False, coin=None)
    taken = SimpleNamespace(game_id=12, player_id=6, paid=True, coin=SimpleNamespace(pk=40))
    assert coin_rows(session, [owed, taken]) == [
        (owed, reverse("games:game", args=[11]), reverse("money:skunk_coin_paid", args=[7, 11, 5])),
        (taken, reverse("games:game", args=[12]), reverse("money:skunk_coin_back", args=[7, 40])),
    ]
