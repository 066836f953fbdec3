"""What holds a round's seats (docs/spec.md "A Thursday, step by step", step 3: "The organiser
may swap two players' seats until a result or a claim is entered at any table of the round, and
until the next round is drawn (its draw read these seats)"). A claim records its parties by the
seats it was filed under, so a swap after a claim would make the claimant a judge "not seated
there" of his own claim; and a swap in round 1 after round 2 was drawn would make a repeat that
round 2's draw never saw.

The claims live in the scoring app, above games: scoring registers a round guard
(games.hooks.register_round_guard, scoring/guards.py) and the swap asks it.
"""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club import services as club_services
from core.models import AuditEntry
from games import hooks, services
from games.audit import GameVerb
from games.models import Game, Seat
from scoring import services as scoring_services
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(club, organiser):
    """Round 1 of an open session: 4 players at tables 1 and 2."""
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    for _ in range(4):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
    return services.round_draw(session=session, actor=organiser, seed=5)


def tables(round_):
    return sorted(Seat.objects.filter(round=round_).values_list("game__table", "player_id"))


def file_claim(game, actor):
    seat = game.seats.order_by("position").first()
    return scoring_services.claim_file(
        game=game,
        actor=actor,
        kind="heels",
        claimant=seat.player,
        claimed_points=2,
        starter="JH",
    )


def players_of(game):
    return [seat.player for seat in game.seats.order_by("position")]


def test_a_claim_at_a_table_holds_the_round(drawn, organiser):
    """Scoring's round guard answers through games.hooks: nothing holds a fresh round; a claim
    at table 2 does, in words that say where."""
    assert hooks.round_holds(drawn) == []
    second = Game.objects.get(round=drawn, table=2)
    file_claim(second, organiser)
    assert hooks.round_holds(drawn) == ["A claim is filed at table 2 of round 1"]


def test_a_swap_after_a_claim_at_any_table_of_the_round_is_refused(drawn, organiser):
    """The claim is at table 1; the swap is of the two players of table 2 with table 1's
    claimant: refused, nothing moves, nothing is audited."""
    first, second = Game.objects.filter(round=drawn).order_by("table")
    file_claim(first, organiser)
    before = tables(drawn)

    with pytest.raises(ValidationError) as caught:
        services.round_swap_seats(
            round_=drawn,
            player_a=players_of(first)[1],
            player_b=players_of(second)[0],
            actor=organiser,
        )

    assert caught.value.messages == [
        "A claim is filed at table 1 of round 1: seats can no longer be swapped."
    ]
    assert tables(drawn) == before
    assert not AuditEntry.objects.filter(action=GameVerb.SEATS_SWAPPED).exists()


def test_a_claim_at_the_other_table_refuses_a_swap_at_this_one(drawn, organiser):
    """ "Before any result or claim at that round": a claim anywhere in the round."""
    first, second = Game.objects.filter(round=drawn).order_by("table")
    file_claim(second, organiser)
    a, b = players_of(first)
    with pytest.raises(ValidationError, match="A claim is filed at table 2 of round 1"):
        services.round_swap_seats(round_=drawn, player_a=a, player_b=b, actor=organiser)


def test_a_swap_in_round_one_after_round_two_is_drawn_is_refused(drawn, organiser):
    """Round 2's draw read round 1's seats as who met whom: a swap now would make a repeat the
    draw never saw."""
    services.round_draw(session=drawn.session, actor=organiser, seed=6)
    first, second = Game.objects.filter(round=drawn).order_by("table")
    before = tables(drawn)

    with pytest.raises(ValidationError) as caught:
        services.round_swap_seats(
            round_=drawn,
            player_a=players_of(first)[0],
            player_b=players_of(second)[0],
            actor=organiser,
        )

    assert "Round 2 is already drawn" in caught.value.messages[0]
    assert "seats of round 1 can no longer be swapped" in caught.value.messages[0]
    assert tables(drawn) == before


def test_the_round_page_says_why_seats_can_no_longer_be_swapped(client, drawn, organiser):
    first, second = Game.objects.filter(round=drawn).order_by("table")
    client.force_login(organiser)
    url = reverse("games:round", args=[drawn.pk])
    form = client.get(url).context["swap_form"]
    file_claim(first, organiser)

    page = client.get(url)
    assert page.status_code == 200
    assert "swap_form" not in page.context
    assert "A claim is filed at table 1 of round 1" in page.content.decode()

    # The form of the page loaded before the claim, posted after it: the message, not a 500.
    posted = client.post(
        reverse("games:round_swap", args=[drawn.pk]),
        {
            "player_a": players_of(first)[0].pk,
            "player_b": players_of(second)[0].pk,
            "submission_token": form["submission_token"].initial,
        },
    )
    assert posted.status_code == 400
    assert "seats can no longer be swapped" in posted.content.decode()
    assert posted.context["swap_form"].non_field_errors() == [
        "A claim is filed at table 1 of round 1: seats can no longer be swapped."
    ]
