"""A claim filed in the instant its round is withdrawn: the page read the game, the organiser
withdrew the round (its games and seats deleted), then the claim's service locked the game. The
claim is refused with what happened and what to do ("Round 1 was withdrawn a moment ago, so
nothing was saved: once the round is drawn again, find the table's new game."), the form again
(400), never a server error, and nothing is saved. (A muggins call, a dispute or a ruling is on a
claim, which holds its round: a round with a claim is never withdrawn.)

Terms: a *table* is round 1 of a session drawn through the services (tests.builders.make_table:
one 2-player game, its players with logins, listed by side); the claim is the 29 (hoyle.txt
"Showing"). *Withdrawn first*: the service the view calls is wrapped so that the organiser's
withdrawal runs just before it, after the view has read the game and checked the form.
"""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import escape

from core.models import AuditEntry
from games import services as game_services
from games.models import Game, Round
from scoring import services
from scoring.models import Claim, ClaimKind, Outcome

pytestmark = pytest.mark.django_db

REFUSAL = (
    "Round 1 was withdrawn a moment ago, so nothing was saved: once the round is drawn again, "
    "find the table's new game."
)
HAND_29 = {"kind": ClaimKind.HAND, "hand": "5H 5C 5S JD", "starter": "5D", "claimed_points": 29}


def withdraw(table) -> None:
    game_services.round_withdraw(
        round_=Round.objects.get(pk=table.game.round_id), actor=table.organiser
    )


def nothing_saved(table, audit_entries: int) -> None:
    assert not Round.objects.filter(pk=table.game.round_id).exists()
    assert not Claim.objects.exists() and not Outcome.objects.exists()
    assert AuditEntry.objects.count() == audit_entries


def withdrawn_first(monkeypatch, table, name: str) -> None:
    """`scoring.services.<name>`, which the view calls, runs after the round is withdrawn."""
    service = getattr(services, name)

    def after_the_withdrawal(**kwargs):
        withdraw(table)
        return service(**kwargs)

    monkeypatch.setattr(services, name, after_the_withdrawal)


@pytest.mark.parametrize("where", ["game page", "table link"])
def test_a_claim_on_a_withdrawn_round_says_so_and_saves_nothing(table, where):
    stale = Game.objects.select_related("session", "round").get(pk=table.game.pk)
    withdraw(table)
    before = AuditEntry.objects.count()

    with pytest.raises(ValidationError) as refused:
        if where == "game page":
            services.claim_file(
                game=stale, actor=table.users[1], claimant=table.players[1], **HAND_29
            )
        else:
            services.table_claim_file(game=stale, claimant=table.players[1], **HAND_29)

    assert refused.value.messages == [REFUSAL]
    nothing_saved(table, before)


def test_a_claim_filed_on_the_game_page_as_its_round_is_withdrawn(client, table, monkeypatch):
    client.force_login(table.users[1])
    withdrawn_first(monkeypatch, table, "claim_file")
    before = AuditEntry.objects.count() + 1  # the withdrawal's

    response = client.post(
        reverse("scoring:claim_new", args=[table.game.pk]),
        {"claimant": table.players[1].pk, **HAND_29},
    )

    assert response.status_code == 400
    assert escape(REFUSAL) in response.content.decode()
    nothing_saved(table, before)


def test_a_claim_filed_at_the_table_link_as_its_round_is_withdrawn(client, table, monkeypatch):
    withdrawn_first(monkeypatch, table, "table_claim_file")
    before = AuditEntry.objects.count() + 1

    response = client.post(
        f"/t/{table.game.table_token}/claims/new/", {"claimant": table.players[1].pk, **HAND_29}
    )

    assert response.status_code == 400
    assert escape(REFUSAL) in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    nothing_saved(table, before)
