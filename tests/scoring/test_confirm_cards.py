"""Confirming the cards of a jackpot hand (docs/spec.md "Claims, muggins and disputes": "A 29, 28
or 24 wins its jackpot when accepted as claimed (or upheld by a judge) and a player of another side
at the table (or a judge who is not a party) has confirmed the cards").

Terms: a *jackpot table* (`jackpot_table`, tests/scoring/jackpot_tables.py) is a 2-player game whose
session runs the 29, 28 and 24 jackpots; the side-1 player files the 29 (hoyle.txt "Showing"). The
*other side* is the side-0 player; a *judge* is a judge of the club who is not a party to the claim.
"""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from club.models import Session, SessionState
from core.models import AuditEntry
from scoring import services
from scoring.audit import ScoringVerb
from scoring.models import ClaimKind
from tests.factories import PlayerFactory, UserFactory
from tests.scoring.jackpot_tables import file_29, make_jackpot_table

pytestmark = pytest.mark.django_db


def test_a_player_of_the_other_side_confirms_the_cards(jackpot_table):
    claim = file_29(jackpot_table)
    assert services.needs_card_confirmation(claim)
    assert not claim.cards_confirmed

    services.claim_confirm_cards(claim=claim, actor=jackpot_table.users[0])

    claim.refresh_from_db()
    assert claim.cards_confirmed_by == jackpot_table.users[0]
    assert claim.cards_confirmed_at is not None
    assert claim.cards_confirmer_name == jackpot_table.players[0].display_name
    entry = AuditEntry.objects.get(action=ScoringVerb.CARDS_CONFIRMED)
    assert entry.object_id == str(claim.pk)
    assert entry.data == {"claim": claim.pk, "cards": claim.card_list(), "true": 29}


def test_a_judge_who_is_not_a_party_confirms_the_cards(jackpot_table):
    claim = file_29(jackpot_table)
    a_judge = UserFactory(role="judges", club=jackpot_table.club)

    services.claim_confirm_cards(claim=claim, actor=a_judge)

    claim.refresh_from_db()
    assert claim.cards_confirmed_by == a_judge


@pytest.mark.parametrize("who", ["the claimant", "the claimant's partner", "another player"])
def test_the_claimants_side_and_outsiders_cannot_confirm(who):
    """Nobody confirms his own side's cards; a player not at the table is no witness."""
    partners = who == "the claimant's partner"
    jackpot_table = make_jackpot_table(roles=("players",) * 4) if partners else make_jackpot_table()
    claim = file_29(jackpot_table)
    if who == "the claimant":
        actor = claim.claimant.user
    elif who == "the claimant's partner":
        seats = jackpot_table.game.seats.select_related("player__user")
        actor = next(
            s.player.user
            for s in seats
            if s.side == claim.claimant_side and s.player_id != claim.claimant_id
        )
    else:
        actor = UserFactory(role="players")
        PlayerFactory(club=jackpot_table.club, user=actor)

    assert services.can_confirm_cards(claim, actor) is False
    with pytest.raises(PermissionDenied):
        services.claim_confirm_cards(claim=claim, actor=actor)
    claim.refresh_from_db()
    assert not claim.cards_confirmed
    assert not AuditEntry.objects.filter(action=ScoringVerb.CARDS_CONFIRMED).exists()


def test_a_judge_on_the_claimants_side_cannot_confirm():
    jackpot_table = make_jackpot_table(roles=("judges", "judges"))
    claim = file_29(jackpot_table)

    with pytest.raises(PermissionDenied, match="own side"):
        services.claim_confirm_cards(claim=claim, actor=jackpot_table.users[1])
    services.claim_confirm_cards(claim=claim, actor=jackpot_table.users[0])  # the other side may


def test_only_a_jackpot_count_is_confirmed_and_only_once(jackpot_table):
    """A 16 (club-thursday-rules.md "Combinations") has no jackpot: nothing to confirm."""
    sixteen = services.claim_file(
        game=jackpot_table.game,
        actor=jackpot_table.users[1],
        kind=ClaimKind.HAND,
        claimant=jackpot_table.players[1],
        claimed_points=16,
        hand="8S 7H 7D 6C",
        starter="2H",
    )
    assert not services.needs_card_confirmation(sixteen)
    with pytest.raises(ValidationError, match="24, 28 or 29"):
        services.claim_confirm_cards(claim=sixteen, actor=jackpot_table.users[0])

    claim = file_29(jackpot_table)
    services.claim_confirm_cards(claim=claim, actor=jackpot_table.users[0])
    with pytest.raises(ValidationError, match="already confirmed"):
        services.claim_confirm_cards(
            claim=claim, actor=UserFactory(role="judges", club=jackpot_table.club)
        )


def test_an_under_claimed_29_asks_for_no_confirmation(jackpot_table):
    """A 29 claimed as 24 scores 24 (hoyle.txt "Muggins": the rest is overlooked) and is never a
    jackpot hand (the jackpots take a hand claimed at its count, docs/spec.md "Claims, muggins
    and disputes"): the pages do not ask for its cards."""
    claim = file_29(jackpot_table, claimed=24)
    assert not services.needs_card_confirmation(claim)
    assert services.needs_card_confirmation(file_29(jackpot_table))


def test_a_settled_session_refuses_a_confirmation(jackpot_table):
    claim = file_29(jackpot_table)
    Session.objects.filter(pk=jackpot_table.session.pk).update(state=SessionState.SETTLED)

    with pytest.raises(ValidationError, match="is settled"):
        services.claim_confirm_cards(claim=claim, actor=jackpot_table.users[0])
    claim.refresh_from_db()
    assert not claim.cards_confirmed


# --- The claims panel of the game page ------------------------------------------------------------


def panel(client, jackpot_table, user):
    client.force_login(user)
    return client.get(reverse("games:game", args=[jackpot_table.game.pk])).content.decode()


def test_the_panel_shows_the_button_to_the_other_side_only(client, jackpot_table):
    claim = file_29(jackpot_table)
    button = "I have seen the cards: confirm"
    waiting = "waiting for the other side to confirm the cards"

    mine = panel(client, jackpot_table, jackpot_table.users[1])
    theirs = panel(client, jackpot_table, jackpot_table.users[0])

    assert waiting in mine and button not in mine
    assert waiting in theirs and button in theirs
    assert reverse("scoring:claim_confirm_cards", args=[claim.pk]) in theirs


def test_the_button_confirms_and_the_panel_says_by_whom(client, jackpot_table):
    claim = file_29(jackpot_table)
    client.force_login(jackpot_table.users[0])

    response = client.post(reverse("scoring:claim_confirm_cards", args=[claim.pk]), {})

    assert response.status_code == 302
    after = panel(client, jackpot_table, jackpot_table.users[1])
    assert f"cards confirmed by {jackpot_table.players[0].display_name}" in after
    assert "waiting for the other side" not in after


def test_a_post_by_the_claimant_is_refused(client, jackpot_table):
    claim = file_29(jackpot_table)
    client.force_login(jackpot_table.users[1])

    response = client.post(reverse("scoring:claim_confirm_cards", args=[claim.pk]), {})

    assert response.status_code == 403
    claim.refresh_from_db()
    assert not claim.cards_confirmed
