"""Withdrawing a round drawn by mistake (docs/spec.md "A Thursday, step by step", step 3: "A
round drawn by mistake is withdrawn from its page (the latest round only, while none of its tables
has a result or a claim): its tables are deleted, the audit log keeps its seed and tables, and
players checked in after it play in the round drawn again").

Only the session's latest round, only an organiser, only in an open session. The round's games
and seats are deleted: the next draw draws its number again, and the draw history, the standings
and the live board never see it. The audit entry keeps its number, seed, mode and tables.
"""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from club import services as club_services
from club.models import CheckIn, Session, SessionState
from core.models import AuditEntry
from core.submissions import AlreadySaved, new_token
from games import services
from games.audit import GameVerb
from games.models import Game, Round, Seat
from scoring import services as scoring_services
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(club, organiser):
    """An open session with 4 players checked in."""
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    for _ in range(4):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
    return session


def tables(round_):
    """The round's tables: player ids in seat order, table by table."""
    seated: dict[int, list[tuple[int, int]]] = {}
    for table, position, player in Seat.objects.filter(round=round_).values_list(
        "game__table", "position", "player_id"
    ):
        seated.setdefault(table, []).append((position, player))
    return [[player for _, player in sorted(seated[table])] for table in sorted(seated)]


def test_withdraw_deletes_the_round_and_the_audit_keeps_its_seed_and_tables(session, organiser):
    services.round_draw(session=session, actor=organiser, seed=5)
    second = services.round_draw(session=session, actor=organiser, seed=6)
    drawn_tables = tables(second)

    services.round_withdraw(round_=second, actor=organiser)

    assert list(session.rounds.values_list("number", flat=True)) == [1]
    assert not Game.objects.filter(round_id=second.pk).exists()
    assert not Seat.objects.filter(round_id=second.pk).exists()
    [entry] = AuditEntry.objects.filter(action=GameVerb.ROUND_WITHDRAWN)
    assert entry.actor == organiser
    assert entry.club == session.club
    assert entry.object_id == str(second.pk)
    assert entry.data["round"] == 2
    assert entry.data["seed"] == 6
    assert entry.data["mode"] == "singles"
    assert entry.data["tables"] == drawn_tables
    assert entry.data["session"] == session.pk


def test_the_next_draw_after_a_withdraw_draws_the_same_number_once(session, organiser):
    """Pressing draw twice draws one round (docs/spec.md "Safety of money and records": "a form
    sent twice saves once"): the draw button names the round it draws; after a withdraw it names the
    withdrawn number again, and a second press of it draws nothing."""
    services.round_draw(session=session, actor=organiser, seed=5)
    mistaken = services.round_draw(session=session, actor=organiser, seed=6, expected_number=2)
    services.round_withdraw(round_=mistaken, actor=organiser)

    again = services.round_draw(session=session, actor=organiser, seed=8, expected_number=2)
    assert (again.number, again.seed) == (2, 8)
    with pytest.raises(AlreadySaved, match="Round 2 is already drawn"):
        services.round_draw(session=session, actor=organiser, seed=9, expected_number=2)
    assert list(session.rounds.values_list("number", "seed")) == [(1, 5), (2, 8)]


def test_the_draw_history_never_sees_a_withdrawn_round(session, organiser):
    """Round 2 drawn again from the withdrawn round's seed is the withdrawn round exactly: its
    pairs are not in the history as met (they would be avoided), nor anything else of it."""
    services.round_draw(session=session, actor=organiser, seed=5)
    mistaken = services.round_draw(session=session, actor=organiser, seed=6)
    withdrawn_tables = tables(mistaken)
    services.round_withdraw(round_=mistaken, actor=organiser)

    redrawn = services.round_draw(session=session, actor=organiser, seed=6)
    assert tables(redrawn) == withdrawn_tables


def test_a_late_arrival_plays_in_the_round_drawn_again(session, organiser, club):
    """Late arrivals join from the next round (docs/spec.md "A Thursday, step by step", step 2):
    checked in after round 2 was drawn by mistake, a player plays in round 2 drawn again."""
    services.round_draw(session=session, actor=organiser, seed=5)
    mistaken = services.round_draw(session=session, actor=organiser, seed=6)
    late = club_services.checkin_create(
        session=session, actor=organiser, player=PlayerFactory(club=club)
    )
    assert late.from_round == 3

    services.round_withdraw(round_=mistaken, actor=organiser)

    assert CheckIn.objects.get(pk=late.pk).from_round == 2
    redrawn = services.round_draw(session=session, actor=organiser, seed=6)
    assert Seat.objects.filter(round=redrawn, player=late.player).exists()
    entry = AuditEntry.objects.get(action=GameVerb.ROUND_WITHDRAWN)
    assert entry.data["late_arrivals"] == [late.player_id]


def refused(round_, actor, match):
    before = (Round.objects.count(), Game.objects.count(), Seat.objects.count())
    with pytest.raises((ValidationError, PermissionDenied), match=match):
        services.round_withdraw(round_=round_, actor=actor)
    assert (Round.objects.count(), Game.objects.count(), Seat.objects.count()) == before
    assert not AuditEntry.objects.filter(action=GameVerb.ROUND_WITHDRAWN).exists()


def test_a_round_with_a_result_is_not_withdrawn(session, organiser):
    round_ = services.round_draw(session=session, actor=organiser, seed=5)
    services.result_enter(game=round_.games.first(), actor=organiser, scores=[121, 100])
    refused(round_, organiser, "A result of round 1 is already entered: round 1 can no longer")


def test_a_round_with_a_claim_at_any_table_is_not_withdrawn(session, organiser):
    round_ = services.round_draw(session=session, actor=organiser, seed=5)
    game = round_.games.order_by("table").last()
    scoring_services.claim_file(
        game=game,
        actor=organiser,
        kind="heels",
        claimant=game.seats.first().player,
        claimed_points=2,
        starter="JH",
    )
    refused(round_, organiser, "A claim is filed at table 2 of round 1: round 1 can no longer")


def test_only_the_latest_round_is_withdrawn(session, organiser):
    first = services.round_draw(session=session, actor=organiser, seed=5)
    services.round_draw(session=session, actor=organiser, seed=6)
    refused(first, organiser, "Only the latest round can be withdrawn: round 2 is drawn after")


def test_a_settled_session_keeps_its_rounds(session, organiser):
    round_ = services.round_draw(session=session, actor=organiser, seed=5)
    Session.objects.filter(pk=session.pk).update(state=SessionState.SETTLED)
    refused(round_, organiser, "settled")


@pytest.mark.parametrize("role", ["players", "judges"])
def test_only_an_organiser_withdraws_a_round(session, organiser, role, club):
    round_ = services.round_draw(session=session, actor=organiser, seed=5)
    refused(round_, UserFactory(role=role, club=club), "Only an organiser")


def test_the_same_withdraw_posted_twice_withdraws_once(session, organiser):
    """The second press of the confirm button, after round 2 was drawn again, must not
    withdraw the new round 2."""
    services.round_draw(session=session, actor=organiser, seed=5)
    mistaken = services.round_draw(session=session, actor=organiser, seed=6)
    token = new_token()
    services.round_withdraw(round_=mistaken, actor=organiser, token=token)
    redrawn = services.round_draw(session=session, actor=organiser, seed=8)

    with pytest.raises(AlreadySaved):
        services.round_withdraw(round_=redrawn, actor=organiser, token=token)
    assert Round.objects.filter(pk=redrawn.pk).exists()


# --- The pages ------------------------------------------------------------------------------------


def test_the_organiser_withdraws_from_the_round_page_through_a_confirm_step(
    client, session, organiser
):
    round_ = services.round_draw(session=session, actor=organiser, seed=5)
    client.force_login(organiser)
    confirm_url = reverse("games:round_withdraw", args=[session.pk, 1])

    page = client.get(reverse("games:round", args=[round_.pk])).content.decode()
    assert confirm_url in page
    confirm = client.get(confirm_url)
    assert confirm.status_code == 200
    assert "Withdraw round 1" in confirm.content.decode()
    assert Round.objects.filter(pk=round_.pk).exists()  # the GET only asks

    token = confirm.context["form"]["submission_token"].initial
    done = client.post(confirm_url, {"submission_token": token})
    assert done.status_code == 302
    assert done.url == reverse("web:session", args=[session.pk]) + "#rounds"
    assert not session.rounds.exists()
    followed = client.get(done.url).content.decode()
    assert "Round 1 withdrawn" in followed
    assert "Draw round 1" in followed

    again = client.post(confirm_url, {"submission_token": token}, follow=True)
    assert again.status_code == 200
    assert not session.rounds.exists()


def test_a_round_that_cannot_be_withdrawn_says_why_and_has_no_button(client, session, organiser):
    round_ = services.round_draw(session=session, actor=organiser, seed=5)
    services.result_enter(game=round_.games.first(), actor=organiser, scores=[121, 100])
    client.force_login(organiser)
    confirm_url = reverse("games:round_withdraw", args=[session.pk, 1])

    assert confirm_url not in client.get(reverse("games:round", args=[round_.pk])).content.decode()
    confirm = client.get(confirm_url)
    assert confirm.status_code == 200
    assert "A result of round 1 is already entered" in confirm.content.decode()
    assert "<form" not in confirm.content.decode().split("<main", 1)[-1]
    posted = client.post(confirm_url, {"submission_token": new_token()})
    assert posted.status_code == 400
    assert "A result of round 1 is already entered" in posted.content.decode()
    assert Round.objects.filter(pk=round_.pk).exists()


def test_a_player_sees_no_withdraw_button_and_may_not_post(client, session, organiser, member):
    round_ = services.round_draw(session=session, actor=organiser, seed=5)
    client.force_login(member("player"))
    confirm_url = reverse("games:round_withdraw", args=[session.pk, 1])
    assert confirm_url not in client.get(reverse("games:round", args=[round_.pk])).content.decode()
    assert client.post(confirm_url, {"submission_token": new_token()}).status_code == 403
    assert Round.objects.filter(pk=round_.pk).exists()
