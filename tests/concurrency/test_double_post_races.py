"""Double posts at the same moment (PostgreSQL): the draw button pressed twice at once draws one
round, and the same claim posted twice at once files one claim.

The draw names the round it draws; both presses lock the session, the second finds the round drawn
and does nothing (AlreadySaved). A claim carries the one-time token of the page it was typed on
(core.submissions); the second insert of the token waits for the first transaction, then fails on
the unique constraint, and that post does nothing (AlreadySaved, a ValidationError). Without them
both presses would draw (rounds 1 and 2) and both posts file.

Terms: as in test_races.py (`race` runs calls in threads released together by a barrier, each
with its own connection; `one_winner` is the value of the call that succeeded and the error of
the one that lost).
"""

from functools import partial

from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from club import services as club_services
from core.models import AuditEntry
from core.submissions import TOKEN_FIELD, AlreadySaved, new_token
from games import services as game_services
from games.audit import GameVerb
from games.models import Round
from scoring import services as scoring_services
from scoring.audit import ScoringVerb
from scoring.models import Claim, Outcome
from tests.concurrency.test_races import (
    DATE,
    ITERATIONS,
    RACE_MARKS,
    all_succeed,
    one_winner,
    race,
)
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = RACE_MARKS


def open_session(club, organiser, *, players: int):
    session = club_services.session_open(club=club, actor=organiser, date=DATE)
    for _ in range(players):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
    return session


def messages_of(responses) -> list[tuple[str, str]]:
    return sorted(
        (message.level_tag, message.message)
        for response in responses
        for message in get_messages(response.wsgi_request)
    )


# --- The draw -------------------------------------------------------------------------------------


def test_two_presses_of_one_draw_at_once_draw_one_round():
    club = ClubFactory(rounds_per_session=ITERATIONS)
    organiser = UserFactory(role="organisers", club=club)
    session = open_session(club, organiser, players=6)
    for number in range(1, ITERATIONS + 1):
        drawn, error = one_winner(
            race(
                *[
                    partial(
                        game_services.round_draw,
                        session=session,
                        actor=organiser,
                        expected_number=number,
                    )
                ]
                * 2
            )
        )
        assert isinstance(error, AlreadySaved)
        assert error.message == f"Round {number} is already drawn."
        assert error.made_pk(Round) == drawn.pk
        assert list(session.rounds.order_by("number").values_list("number", flat=True)) == list(
            range(1, number + 1)
        )
    assert AuditEntry.objects.filter(action=GameVerb.ROUND_DRAWN).count() == ITERATIONS


def test_two_organisers_press_draw_on_the_page_at_once(club, member):
    """Both posts redirect to the one round drawn: one with "drawn", one with "already drawn"."""
    organisers = [member("organiser"), member("organiser")]
    session = open_session(club, organisers[0], players=6)
    url = reverse("games:round_draw", args=[session.pk])
    clients = [Client(), Client()]
    for client, user in zip(clients, organisers, strict=True):
        client.force_login(user)
    responses = all_succeed(
        race(*(partial(client.post, url, {"round_number": "1"}) for client in clients))
    )
    (round_,) = Round.objects.filter(session=session)
    assert [r.status_code for r in responses] == [302, 302]
    assert {r.url for r in responses} == {reverse("games:round", args=[round_.pk])}
    levels = [level for level, _ in messages_of(responses)]
    assert sorted(levels) == ["info", "success"]
    assert ("info", "Round 1 is already drawn.") in messages_of(responses)


# --- A claim --------------------------------------------------------------------------------------


def a_table(club, organiser):
    session = open_session(club, organiser, players=2)
    game = game_services.round_draw(session=session, actor=organiser, seed=3).games.get()
    return game, game.seats.order_by("side").first().player


def test_the_same_claim_posted_twice_at_once_is_one_claim():
    club = ClubFactory()
    organiser = UserFactory(role="organisers", club=club)
    game, claimant = a_table(club, organiser)
    for _ in range(ITERATIONS):
        file = partial(
            scoring_services.claim_file,
            game=game,
            actor=organiser,
            kind="heels",
            claimant=claimant,
            claimed_points=2,
            starter="JH",
            token=new_token(),
        )
        claim, error = one_winner(race(file, file))
        assert isinstance(error, AlreadySaved)
        assert error.message == "This was already saved."
        assert error.made_pk(Claim) == claim.pk
    assert Claim.objects.filter(game=game).count() == ITERATIONS
    assert Outcome.objects.filter(claim__game=game).count() == ITERATIONS
    assert AuditEntry.objects.filter(action=ScoringVerb.CLAIM_FILED).count() == ITERATIONS


def test_one_claim_form_posted_twice_at_once_through_the_page(club, member):
    """A double click on "File the claim": both posts end on the one claim's page."""
    organiser = member("organiser")
    game, claimant = a_table(club, organiser)
    url = reverse("scoring:claim_new", args=[game.pk])
    clients = [Client(), Client()]
    for client in clients:
        client.force_login(organiser)
    page = clients[0].get(url)
    post = {
        "kind": "hand",
        "claimant": str(claimant.pk),
        "claimed_points": "29",
        "hand": "5H 5C 5S JD",
        "starter": "5D",
        TOKEN_FIELD: page.context["form"][TOKEN_FIELD].value(),
    }
    responses = all_succeed(race(*(partial(client.post, url, post) for client in clients)))
    (claim,) = Claim.objects.filter(game=game)
    assert [r.status_code for r in responses] == [302, 302]
    assert {r.url for r in responses} == {reverse("scoring:claim", args=[claim.pk])}
    assert ("info", "This was already saved.") in messages_of(responses)
    assert AuditEntry.objects.filter(action=ScoringVerb.CLAIM_FILED).count() == 1
