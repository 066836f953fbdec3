"""A correction of a game by someone who plays in it (docs/spec.md "A Thursday, step by step",
step 4; docs/club/results.md "An organiser who plays"): nobody corrects alone a game he plays in,
so either side proposes and a player of the other side accepts, through a one-time link."""

from types import SimpleNamespace

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from club import services as club_services
from club.models import PlayerLink
from core.models import AuditEntry
from games import services
from games.models import CorrectionProposal, ProposalState, ResultSource, ResultState
from tests.builders import make_table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_game(club):
    """The club's only organiser plays (users[0]); the result 121-100 is confirmed."""
    table = make_table(club=club, roles=("organisers", "players"))
    if not table.users[0].groups.filter(name="organisers").exists():
        table = SimpleNamespace(
            **{**vars(table), "users": table.users[::-1], "players": table.players[::-1]}
        )
    draft = services.result_enter(game=table.game, actor=table.users[0], scores=[121, 100])
    services.result_confirm(result=draft, actor=table.users[1])
    return table


def propose(t, user=None, new=None):
    return services.correction_propose(
        game=t.game,
        actor=user or t.users[0],
        scores=new or [121, 95],
        reason="Last hand miscounted.",
    )


def current(t):
    return t.game.results.exclude(state=ResultState.SUPERSEDED).get()


def test_the_organiser_who_plays_cannot_correct_directly(own_game):
    assert not services.can_correct(own_game.game, own_game.users[0])
    with pytest.raises(ValidationError, match="You play in this game"):
        services.result_correct(
            game=own_game.game, actor=own_game.users[0], scores=[121, 95], reason="x"
        )


def test_a_proposal_leaves_the_result_until_the_other_side_accepts(own_game):
    proposal, key = propose(own_game)
    assert current(own_game).scores == [121, 100]
    link = club_services.player_link_find(key, "accept")
    accepted = services.correction_accept(link=link, player=own_game.players[1])
    assert accepted.state == ProposalState.ACCEPTED
    result = current(own_game)
    assert result.scores == [121, 95]
    assert result.source == ResultSource.CORRECTION
    assert result.entered_by_player == own_game.players[0]
    assert result.confirmed_by_player == own_game.players[1]
    assert accepted.result == result
    entry = AuditEntry.objects.filter(action="result.corrected").get()
    assert entry.actor is None and entry.data["proposed_by"] == own_game.players[0].display_name
    assert PlayerLink.objects.get().used_at is not None


def test_never_accepted_by_the_proposers_side(own_game):
    _, key = propose(own_game)
    link = club_services.player_link_find(key, "accept")
    with pytest.raises(ValidationError, match="side proposed this correction"):
        services.correction_accept(link=link, player=own_game.players[0])
    assert current(own_game).scores == [121, 100]


def test_the_other_side_may_propose_and_the_organiser_accept(own_game):
    _, key = propose(own_game, user=own_game.users[1])
    link = club_services.player_link_find(key, "accept")
    services.correction_accept(link=link, player=own_game.players[0])
    assert current(own_game).scores == [121, 95]


def test_a_withdrawn_proposal_cannot_be_accepted(own_game):
    proposal, key = propose(own_game)
    with pytest.raises(PermissionDenied):
        services.correction_withdraw(proposal=proposal, actor=own_game.users[1])
    services.correction_withdraw(proposal=proposal, actor=own_game.users[0])
    link = club_services.player_link_find(key, "accept")
    with pytest.raises(ValidationError):
        services.correction_accept(link=link, player=own_game.players[1])
    assert current(own_game).scores == [121, 100]


def test_a_second_proposal_replaces_the_first(own_game):
    first, first_key = propose(own_game)
    second, _ = propose(own_game, new=[121, 90])
    first.refresh_from_db()
    assert first.state == ProposalState.REPLACED
    assert services.open_proposal(own_game.game) == second
    link = club_services.player_link_find(first_key, "accept")
    with pytest.raises(ValidationError, match="replaced"):
        services.correction_accept(link=link, player=own_game.players[1])


def test_a_proposal_made_before_the_result_changed_cannot_be_accepted(own_game):
    _, key = propose(own_game)
    other_organiser = UserFactory(role="organisers", club=own_game.club)
    services.result_correct(
        game=own_game.game, actor=other_organiser, scores=[121, 80], reason="Scorecard."
    )
    link = club_services.player_link_find(key, "accept")
    with pytest.raises(ValidationError, match="result changed"):
        services.correction_accept(link=link, player=own_game.players[1])


def test_an_organiser_who_does_not_play_still_corrects_directly(own_game):
    other_organiser = UserFactory(role="organisers", club=own_game.club)
    assert services.can_correct(own_game.game, other_organiser)
    with pytest.raises(PermissionDenied, match="Only a player of this game"):
        propose(own_game, user=other_organiser)


def test_the_game_page_says_why_and_offers_the_proposal(own_game, client):
    client.force_login(own_game.users[0])
    url = reverse("games:game", args=[own_game.game.pk])
    html = client.get(url).content.decode()
    assert "You play in this game, so you do not correct its result alone" in html
    assert "Propose a correction" in html
    post = {"side_0": "121", "side_1": "95", "reason": "Last hand miscounted."}
    response = client.post(reverse("games:correction_propose", args=[own_game.game.pk]), post)
    assert response.status_code == 302
    html = client.get(url).content.decode()
    assert 'data-testid="accept-qr"' in html and "/a/" in html
    assert CorrectionProposal.objects.get().state == ProposalState.OPEN


def test_the_acceptance_link_page(own_game, client):
    _, key = propose(own_game)
    url = reverse("accept_link:page", args=[key])
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert f"Accept: I am {own_game.players[1].display_name}" in html
    assert f"Accept: I am {own_game.players[0].display_name}" not in html
    refused = client.post(url, {"player": own_game.players[0].pk})
    assert refused.status_code == 400
    assert client.post(url, {"player": own_game.players[1].pk}).status_code == 302
    assert client.get(url).status_code == 200  # once, to the phone that accepted
    assert client.get(url).status_code == 410
    assert client.get(reverse("accept_link:page", args=["y" * 43])).status_code == 404
    assert current(own_game).scores == [121, 95]
