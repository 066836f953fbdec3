"""Claim, dispute and ruling pages through the test client: bad cards are named on their field
and save nothing; only the table's players (or an organiser) file; judges see the queue oldest
first; the disputes report lists every claim."""

import pytest
from django.urls import reverse

from core.models import AuditEntry
from scoring import services
from scoring.models import Claim, Dispute, Outcome
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def post_claim(client, game, **fields):
    return client.post(reverse("scoring:claim_new", args=[game.pk]), fields)


@pytest.mark.parametrize(
    ("hand", "starter", "field", "message"),
    [
        ("5H 5C 5S 5X", "5D", "hand", "'5X' is not a card"),
        ("5H 5C 5S 5H", "5D", "hand", "5H"),
        ("5H 5C 5S JD", "5H", "starter", "5H"),
        ("5H 5C", "5D", "hand", "2"),
        ("5H 5C 5S JD", "ZZ", "starter", "'ZZ' is not a card"),
    ],
)
def test_bad_cards_are_named_and_nothing_is_saved(
    client, club_table, hand, starter, field, message
):
    client.force_login(club_table.users[0])
    before = (Claim.objects.count(), Outcome.objects.count(), AuditEntry.objects.count())
    response = post_claim(
        client,
        club_table.game,
        kind="hand",
        claimant=club_table.players[0].pk,
        claimed_points=4,
        hand=hand,
        starter=starter,
    )
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors[field])
    after = (Claim.objects.count(), Outcome.objects.count(), AuditEntry.objects.count())
    assert after == before


def test_play_claim_past_31_is_a_form_error(client, club_table):
    client.force_login(club_table.users[1])
    first, second = club_table.players
    response = post_claim(
        client,
        club_table.game,
        kind="play",
        claimant=second.pk,
        claimed_points=2,
        play_player_1=first.pk,
        play_card_1="KH",
        play_player_2=second.pk,
        play_card_2="QH",
        play_player_3=first.pk,
        play_card_3="JH",
        play_player_4=second.pk,
        play_card_4="5S",
    )
    assert response.status_code == 400
    assert "past 31" in response.content.decode() or "never passes 31" in response.content.decode()
    assert not Claim.objects.exists()


def test_someone_not_at_the_table_cannot_file(client, club_table, club):
    outsider = UserFactory(role="players")
    PlayerFactory(club=club, user=outsider)
    client.force_login(outsider)
    url = reverse("scoring:claim_new", args=[club_table.game.pk])
    assert client.get(url).status_code == 403
    response = post_claim(
        client,
        club_table.game,
        kind="heels",
        claimant=club_table.players[0].pk,
        claimed_points=2,
        starter="JH",
    )
    assert response.status_code == 403
    assert not Claim.objects.exists()


def test_claim_muggins_dispute_queue_and_report(client, club_table, club, member):
    client.force_login(club_table.users[0])
    claimant, opponent = club_table.players
    response = post_claim(
        client,
        club_table.game,
        kind="hand",
        claimant=claimant.pk,
        claimed_points=12,
        hand="2S QD AD 2H",
        starter="3S",
    )
    claim = Claim.objects.get()
    assert response.status_code == 302
    assert claim.true_points == 14

    client.force_login(club_table.users[1])
    muggins = client.post(
        reverse("scoring:muggins", args=[claim.pk]), {"caller": opponent.pk, "points": 2}
    )
    assert muggins.status_code == 302
    assert (
        services.current_outcome(claim).points[str(club_table.game.seats.get(player=opponent).side)]
        == 2
    )
    dispute = client.post(
        reverse("scoring:dispute_open", args=[claim.pk]), {"statement": "Fourteen? Surely 16."}
    )
    assert dispute.status_code == 302
    assert Dispute.objects.get().statement == "Fourteen? Surely 16."

    judge = member("judge")
    client.force_login(judge)
    queue = client.get(reverse("scoring:queue"))
    assert [d.pk for d in queue.context["disputes"]] == [Dispute.objects.get().pk]
    assert "double run makes 14" in queue.content.decode()
    report = client.get(reverse("scoring:session_report", args=[club_table.session.pk]))
    assert report.status_code == 200
    assert "Muggins for 2 called by" in report.content.decode()
