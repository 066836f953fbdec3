"""Nobody confirms, or alone corrects, the result of a side they play on.

docs/spec.md, "A Thursday, step by step", step 4: "An entry by one side (or an organiser) is a
draft until the other side, or an organiser who did not enter it, confirms it"; the role table:
a player may "enter their own table's result and confirm the other side's entry"; and, for
rulings, "A judge who is not seated at the game rules". An organiser seated at a game is a player
of it first: he confirms only the other side's entry, like any player, and a correction of a
game he plays in is made by an organiser who does not play in it (or by a judge's ruling).

Terms: a *seated organiser* is an organiser's login whose player sits at the game; the *desk* is
an organiser who does not play; seats are by position (partners: seats 0 & 2 are side 0, seats 1
& 3 side 1).
"""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.urls import reverse

from club import services as club_services
from club.roles import ORGANISERS
from core.models import AuditEntry
from games import services
from games.audit import GameVerb
from games.models import Result, ResultState
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def seated_table(players: int, *, mode: str, organiser_seats=()):
    """Open a session, check in `players` players with logins, draw round 1 (one game), and make
    the logins at `organiser_seats` organisers. (desk, game, users by seat position)"""
    club = ClubFactory(table_mode=mode)
    desk = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=desk, date=dt.date(2026, 3, 5))
    for _ in range(players):
        player = PlayerFactory(club=club, user=UserFactory(role="players"))
        club_services.checkin_create(session=session, actor=desk, player=player)
    (game,) = services.round_draw(session=session, actor=desk, seed=1).games.all()
    seats = list(game.seats.order_by("position").select_related("player"))
    organisers = Group.objects.get(name=ORGANISERS)
    for position in organiser_seats:
        organisers.user_set.add(seats[position].player.user_id)
    # Fresh user objects: permissions are cached on the instance.
    users = [get_user_model().objects.get(pk=seat.player.user_id) for seat in seats]
    return desk, game, users


def confirmed(game, enterer, confirmer, scores):
    draft = services.result_enter(game=game, actor=enterer, scores=scores)
    return services.result_confirm(result=draft, actor=confirmer)


# --- Confirming -----------------------------------------------------------------------------------


def test_a_seated_organiser_does_not_confirm_his_partners_entry():
    desk, game, users = seated_table(4, mode="partners", organiser_seats=[2])
    draft = services.result_enter(game=game, actor=users[0], scores=[121, 100])
    assert draft.entered_side == 0

    assert services.can_confirm(draft, users[2]) is False
    with pytest.raises(ValidationError, match="Your side entered this result"):
        services.result_confirm(result=draft, actor=users[2])
    draft.refresh_from_db()
    assert (draft.state, draft.confirmed_by) == (ResultState.DRAFT, None)
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).exists()


@pytest.mark.parametrize(
    ("confirmer", "allowed"),
    [("seat1", True), ("seat3", True), ("desk", True), ("seat2", False), ("seat0", False)],
)
def test_who_confirms_a_partners_entry_when_organisers_play(confirmer, allowed):
    """Seats 2 and 3 are organisers: seat 3 (the other side) and the desk confirm seat 0's
    entry; seat 2 (seat 0's partner) does not, organiser or not."""
    desk, game, users = seated_table(4, mode="partners", organiser_seats=[2, 3])
    draft = services.result_enter(game=game, actor=users[0], scores=[121, 100])
    actor = desk if confirmer == "desk" else users[int(confirmer[4:])]

    assert services.can_confirm(draft, actor) is allowed
    if allowed:
        services.result_confirm(result=draft, actor=actor)
        draft.refresh_from_db()
        assert draft.state == ResultState.CONFIRMED
    else:
        with pytest.raises(ValidationError):
            services.result_confirm(result=draft, actor=actor)


def test_a_seated_organisers_own_entry_waits_for_the_other_side():
    desk, game, users = seated_table(2, mode="singles", organiser_seats=[0])
    draft = services.result_enter(game=game, actor=users[0], scores=[121, 100])
    assert draft.entered_side == 0
    assert services.can_confirm(draft, users[0]) is False
    assert services.can_confirm(draft, users[1]) is True
    assert services.can_confirm(draft, desk) is True


# --- Correcting -----------------------------------------------------------------------------------


def test_a_seated_organiser_does_not_correct_his_own_game_alone():
    desk, game, users = seated_table(2, mode="singles", organiser_seats=[0])
    old = confirmed(game, users[1], users[0], [121, 85])

    assert services.can_correct(game, users[0]) is False
    with pytest.raises(ValidationError, match="You play in this game"):
        services.result_correct(game=game, actor=users[0], scores=[121, 95], reason="Recount")
    assert list(Result.objects.filter(game=game)) == [old]
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CORRECTED).exists()


def test_an_organiser_who_does_not_play_corrects_it():
    desk, game, users = seated_table(2, mode="singles", organiser_seats=[0])
    confirmed(game, users[1], users[0], [121, 85])

    assert services.can_correct(game, desk) is True
    new = services.result_correct(game=game, actor=desk, scores=[121, 95], reason="Recount")
    assert (new.version, new.state, new.scores) == (2, ResultState.CONFIRMED, [121, 95])


def test_only_organisers_correct():
    desk, game, users = seated_table(2, mode="singles")
    confirmed(game, users[1], users[0], [121, 85])
    assert services.can_correct(game, users[0]) is False


# --- The game page offers only what the service allows -------------------------------------------


def test_the_game_page_shows_a_seated_organiser_no_confirm_button_for_his_side(client):
    desk, game, users = seated_table(4, mode="partners", organiser_seats=[2])
    draft = services.result_enter(game=game, actor=users[0], scores=[121, 100])
    client.force_login(users[2])
    page = client.get(reverse("games:game", args=[game.pk]))
    assert page.status_code == 200
    assert not page.context["can_confirm"]
    assert reverse("games:result_confirm", args=[game.pk, draft.pk]) not in page.content.decode()

    client.force_login(desk)
    page = client.get(reverse("games:game", args=[game.pk]))
    assert page.context["can_confirm"]


def test_the_game_page_offers_no_correction_to_a_seated_organiser(client):
    desk, game, users = seated_table(2, mode="singles", organiser_seats=[0])
    confirmed(game, users[1], users[0], [121, 85])
    url = reverse("games:game", args=[game.pk])

    client.force_login(users[0])
    page = client.get(url)
    assert "correction_form" not in page.context
    assert reverse("games:result_correct", args=[game.pk]) not in page.content.decode()

    client.force_login(desk)
    assert "correction_form" in client.get(url).context


def test_a_seated_organisers_correction_post_is_refused_with_the_reason(client):
    desk, game, users = seated_table(2, mode="singles", organiser_seats=[0])
    old = confirmed(game, users[1], users[0], [121, 85])
    client.force_login(users[0])
    response = client.post(
        reverse("games:result_correct", args=[game.pk]),
        {"side_0": "121", "side_1": "95", "reason": "Recount"},
    )
    assert response.status_code == 400
    assert "You play in this game" in response.content.decode()
    assert list(Result.objects.filter(game=game)) == [old]
