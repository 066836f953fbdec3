"""Double posts of the forms whose rows already refuse a second one: opening a session (one per
date), adding a player (one name per club), checking a player in (once per session), settling (once;
reopening needs a settled session). Posted twice, each makes one row and the second post gets a
clear message: a form error or a message, never a 500 or a second row. (The forms nothing refused
carry a one-time token: tests/games/test_double_posts.py and
tests/scoring/test_double_claims.py.)"""

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from club import services as club_services
from club.audit import ClubVerb
from club.models import CheckIn, Player, Session, SessionState
from core.models import AuditEntry
from money.audit import MoneyVerb
from money.models import Settlement
from tests.builders import run_session, settle_by_page
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

DATE = dt.date(2026, 11, 26)


@pytest.fixture
def session(club, organiser):
    return club_services.session_open(club=club, actor=organiser, date=DATE)


def last_message(response) -> tuple[str, str]:
    return [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)][-1]


def test_a_session_opened_twice_is_one_session(client, club, organiser):
    client.force_login(organiser)
    post = {"date": "2026-12-03", "starts_at": "09:30"}
    assert client.post(reverse("club:session_open"), post).status_code == 302
    second = client.post(reverse("club:session_open"), post)
    assert second.status_code == 200  # the form again, with why
    assert (
        "There is already a session on Thursday 03 December 2026"
        in (second.context["form"].errors["date"][0])
    )
    assert Session.objects.filter(club=club, date=dt.date(2026, 12, 3)).count() == 1
    assert AuditEntry.objects.filter(action=ClubVerb.SESSION_OPENED).count() == 1


def test_a_player_added_twice_is_one_player(client, club, organiser):
    client.force_login(organiser)
    post = {"display_name": "Robin Lee", "active": "on"}
    assert client.post(reverse("club:player_add"), post).status_code == 302
    second = client.post(reverse("club:player_add"), post)
    assert second.status_code == 200
    assert "already a player of this club" in second.context["form"].errors["display_name"][0]
    assert Player.objects.filter(club=club, display_name="Robin Lee").count() == 1
    assert AuditEntry.objects.filter(action=ClubVerb.PLAYER_CREATED).count() == 1


def test_a_check_in_posted_twice_is_one_check_in(client, club, organiser, session):
    PlayerFactory(club=club, display_name="Kay Kowalski")
    client.force_login(organiser)
    url = reverse("web:checkin_add", args=[session.pk])
    assert client.post(url, {"name": "Kay Kowalski"}).status_code == 302
    second = client.post(url, {"name": "Kay Kowalski"})
    assert second.status_code == 400
    assert second.context["checkin_form"].errors["name"] == ["Kay Kowalski is already checked in."]
    assert CheckIn.objects.filter(session=session).count() == 1
    assert AuditEntry.objects.filter(action=ClubVerb.CHECKIN_CREATED).count() == 1


def test_a_new_player_checked_in_twice_is_one_player_checked_in_once(
    client, club, organiser, session
):
    client.force_login(organiser)
    url = reverse("web:checkin_add", args=[session.pk])
    post = {"name": "Zed Zulu", "new_player": "on"}
    assert client.post(url, post).status_code == 302
    second = client.post(url, post)
    assert second.status_code == 400
    assert (
        "There is already a player called Zed Zulu"
        in (second.context["checkin_form"].errors["name"][0])
    )
    assert Player.objects.filter(club=club, display_name="Zed Zulu").count() == 1
    assert CheckIn.objects.filter(session=session).count() == 1


def test_a_fee_marked_paid_twice_is_paid_once(client, club, organiser, session):
    checkin = club_services.checkin_create(
        session=session, actor=organiser, player=PlayerFactory(club=club)
    )
    client.force_login(organiser)
    url = reverse("web:checkin_paid", args=[session.pk, checkin.pk])
    client.post(url)
    assert client.post(url).status_code == 302
    assert AuditEntry.objects.filter(action=ClubVerb.FEE_PAID).count() == 1


@pytest.fixture
def played(club, organiser):
    confirmer = UserFactory(role="organisers", club=club)
    return run_session(club, organiser, confirmer, players=4, rounds=1, date=dt.date(2026, 12, 3))


def test_settling_twice_is_one_settlement_and_the_second_press_is_told(client, organiser, played):
    client.force_login(organiser)
    url = reverse("money:session_settle", args=[played.pk])
    sheet = {
        "sheet": client.get(reverse("money:settle_preview", args=[played.pk])).context[
            "sheet_token"
        ]
    }
    assert client.post(url, sheet).status_code == 302
    second = client.post(url, sheet)
    assert (second.status_code, second.url) == (
        302,
        reverse("money:settlement", args=[played.pk]),
    )
    assert last_message(second) == (
        "info",
        "This session is already settled: the payouts are below.",
    )
    assert Settlement.objects.filter(session=played).count() == 1
    assert AuditEntry.objects.filter(action=MoneyVerb.SESSION_SETTLED).count() == 1


def test_reopening_twice_reopens_once_and_the_second_press_is_told(client, organiser, played):
    client.force_login(organiser)
    settle_by_page(client, played)
    url = reverse("money:session_reopen", args=[played.pk])
    client.post(url, {"reason": "Recount table 1"})
    second = client.post(url, {"reason": "Recount table 1"})
    assert second.status_code == 302
    assert last_message(second) == ("error", "This session is open: there is nothing to reopen.")
    played.refresh_from_db()
    assert played.state == SessionState.OPEN
    assert AuditEntry.objects.filter(action=MoneyVerb.SESSION_REOPENED).count() == 1
