"""Addresses made once for a whole table are the ones `reverse()` gives row by row."""

from django.urls import reverse

from core.addresses import ROW, addresses


def test_one_id_changing_from_row_to_row():
    game = addresses("games:game", ROW)
    for pk in (1, 9, 987654321, 1234567):
        assert game(pk) == reverse("games:game", args=[pk])


def test_fixed_arguments_and_several_ids_changing():
    paid = addresses("money:skunk_coin_paid", 7, ROW, ROW)
    for game, player in ((1, 2), (22, 22), (5, 987654322)):
        assert paid(game, player) == reverse("money:skunk_coin_paid", args=[7, game, player])
    undo = addresses("web:checkin_undo", 12, ROW)
    assert undo(3) == reverse("web:checkin_undo", args=[12, 3])
