"""A result posted in the instant its round is withdrawn: the page read the game, the organiser
withdrew the round (games.services.round_withdraw deletes its games and seats), then the post's
service locked the game. The writer says so ("Round 1 was withdrawn a moment ago, so nothing was
saved: once the round is drawn again, find the table's new game."), a 400 page with the form
again, never a server error, and saves nothing.

Terms: a *table* is round 1 of a session drawn through the services (tests.builders.make_table:
one 2-player game, its players with logins, listed by side). *Stale*: the game (or round) as the
page read it before the withdrawal. *Withdrawn first*: the service the view calls is wrapped so
that the organiser's withdrawal runs just before it, after the view has read the game and
checked the form: the order the two posts take when the withdrawal holds the session's lock first.
"""

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.html import escape

from core.models import AuditEntry
from games import services, table_views
from games.models import Game, Result, Round

pytestmark = pytest.mark.django_db

WITHDRAWN = "was withdrawn a moment ago, so nothing was saved"
FIND = "once the round is drawn again, find the table's new game"


def withdraw(table) -> None:
    services.round_withdraw(round_=Round.objects.get(pk=table.game.round_id), actor=table.organiser)


def nothing_saved(table, audit_entries: int) -> None:
    assert not Round.objects.filter(pk=table.game.round_id).exists()
    assert not Game.objects.filter(pk=table.game.pk).exists()
    assert not Result.objects.exists()
    assert AuditEntry.objects.count() == audit_entries


def withdrawn_first(monkeypatch, table, owner, name: str) -> None:
    """`owner.name`, the service a view calls, runs after the organiser withdraws the round."""
    service = getattr(owner, name)

    def after_the_withdrawal(**kwargs):
        withdraw(table)
        return service(**kwargs)

    monkeypatch.setattr(owner, name, after_the_withdrawal)


# --- The services ---------------------------------------------------------------------------------


WRITERS = {
    "result at the game page": lambda t, game, round_: services.result_enter(
        game=game, actor=t.users[0], scores=[121, 100]
    ),
    "result at the table link": lambda t, game, round_: services.table_result_enter(
        game=game, player=t.players[0], scores=[121, 100]
    ),
    "a round's scorecards": lambda t, game, round_: services.round_results_enter(
        round_=round_, actor=t.organiser, scores={1: [121, 100]}
    ),
    "a round's drafts confirmed": lambda t, game, round_: services.round_results_confirm(
        round_=round_, actor=t.organiser
    ),
    "a seat swap": lambda t, game, round_: services.round_swap_seats(
        round_=round_, actor=t.organiser, player_a=t.players[0], player_b=t.players[1]
    ),
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_write_to_a_withdrawn_round_says_so_and_saves_nothing(table, writer):
    stale_game = Game.objects.select_related("round").get(pk=table.game.pk)
    stale_round = stale_game.round
    withdraw(table)
    before = AuditEntry.objects.count()

    with pytest.raises(ValidationError) as refused:
        WRITERS[writer](table, stale_game, stale_round)

    assert refused.value.messages == [
        f"Round 1 {WITHDRAWN}: {FIND}.",
    ]
    nothing_saved(table, before)


def test_the_game_lock_says_so_for_every_writer_at_a_game(table):
    """`lock_game` is what every writer at a game takes first (results, claims, muggins calls,
    disputes, rulings, confirming cards): a game read without its round says so too."""
    stale_game = Game.objects.get(pk=table.game.pk)
    withdraw(table)

    with pytest.raises(ValidationError) as refused, transaction.atomic():
        services.lock_game(stale_game)

    assert refused.value.messages == [f"The round of table 1 {WITHDRAWN}: {FIND}."]


# --- The pages ------------------------------------------------------------------------------------


def test_a_result_entered_on_the_game_page_as_its_round_is_withdrawn(client, table, monkeypatch):
    client.force_login(table.users[0])
    withdrawn_first(monkeypatch, table, services, "result_enter")
    before = AuditEntry.objects.count() + 1  # the withdrawal's

    response = client.post(
        reverse("games:result_enter", args=[table.game.pk]), {"side_0": "121", "side_1": "100"}
    )

    assert response.status_code == 400
    assert escape(f"Round 1 {WITHDRAWN}: {FIND}.") in response.content.decode()
    nothing_saved(table, before)


def test_a_result_entered_at_the_table_link_as_its_round_is_withdrawn(client, table, monkeypatch):
    withdrawn_first(monkeypatch, table, table_views, "enter_service")
    before = AuditEntry.objects.count() + 1

    response = client.post(
        f"/t/{table.game.table_token}/result/",
        {"player": table.players[0].pk, "side_0": "121", "side_1": "100"},
    )

    assert response.status_code == 400
    assert escape(f"Round 1 {WITHDRAWN}: {FIND}.") in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    nothing_saved(table, before)


def test_scorecards_typed_in_as_their_round_is_withdrawn(client, table, monkeypatch):
    client.force_login(table.organiser)
    withdrawn_first(monkeypatch, table, services, "round_results_enter")
    before = AuditEntry.objects.count() + 1

    response = client.post(
        reverse("games:round_scorecards", args=[table.game.round_id]),
        {"table_1_side_0": "121", "table_1_side_1": "100"},
    )

    assert response.status_code == 400
    assert escape(f"Round 1 {WITHDRAWN}: {FIND}.") in response.content.decode()
    nothing_saved(table, before)
