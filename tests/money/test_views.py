"""The settle button, its blockers as messages, the payout sheet, reopening, the ledger and a
player's own money page, through the test client."""

import datetime as dt

import pytest

from club import services as club_services
from club.models import Session, SessionState
from money.models import Payout, Settlement
from money.services import session_settle
from tests.builders import run_session, settle_by_page
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_settle_refused_lists_blockers_then_settles_and_reopens(client, member, club):
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    club_services.checkin_create(session=session, actor=organiser, player=PlayerFactory(club=club))
    client.force_login(organiser)
    refused = client.post(f"/club/sessions/{session.pk}/settle/", follow=True)
    text = refused.content.decode()
    assert "cannot be settled yet" in text and "Fees not paid" in text
    assert not Settlement.objects.exists()

    finished = run_session(
        club, organiser, confirmer, players=5, rounds=1, date=dt.date(2026, 12, 3)
    )
    sheet = settle_by_page(client, finished, follow=True)
    assert 'data-testid="payouts"' in sheet.content.decode()
    assert sheet.context["settlement"].pot_cents == 125
    no_reason = client.post(f"/club/sessions/{finished.pk}/reopen/", {"reason": ""}, follow=True)
    assert "Say why" in no_reason.content.decode()
    assert Session.objects.get(pk=finished.pk).state == SessionState.SETTLED
    client.post(f"/club/sessions/{finished.pk}/reopen/", {"reason": "Recount table 1"})
    assert Session.objects.get(pk=finished.pk).state == SessionState.OPEN


def test_a_player_sees_their_own_money_and_not_anothers(client, member, club):
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    session = run_session(club, organiser, confirmer, players=4, rounds=1)
    session_settle(session=session, actor=organiser)
    user = UserFactory(role="players")
    mine = session.checkins.first().player
    mine.user = user
    mine.save()
    other = session.checkins.exclude(player=mine).first().player
    client.force_login(user)
    page = client.get(f"/club/players/{mine.pk}/money/")
    assert page.status_code == 200
    assert page.context["total"] == sum(amount for _, amount in page.context["rows"])
    assert any(row.kind == "fee" and amount == -25 for row, amount in page.context["rows"])
    assert client.get(f"/club/players/{other.pk}/money/").status_code == 403


def test_the_payout_sheet_prints_the_sum_of_its_rows_not_the_pot_twice(client, member, club):
    """ "Paid out" and "Total" are the sum of the payout rows, not the pot printed twice (a sheet
    that could never show a mismatch): a damaged row shows on the sheet."""
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    finished = run_session(club, organiser, confirmer, players=5, rounds=1)
    settlement = session_settle(session=finished, actor=organiser)
    client.force_login(organiser)
    sheet = client.get(f"/club/sessions/{finished.pk}/settlement/").content.decode()
    assert 'data-testid="paid-out">$1.25<' in sheet and 'data-testid="payout-total">$1.25<' in sheet

    first = Payout.objects.filter(settlement=settlement).order_by("place").first()
    Payout.objects.filter(pk=first.pk).update(amount_cents=first.amount_cents + 25)
    sheet = client.get(f"/club/sessions/{finished.pk}/settlement/").content.decode()
    assert 'data-testid="pot">$1.25<' in sheet
    assert 'data-testid="paid-out">$1.50<' in sheet and 'data-testid="payout-total">$1.50<' in sheet


def test_the_payout_sheet_names_who_settled_and_reopened_not_their_logins(client, club):
    """ "Settled by" and "reopened by" name the organiser's player, not the organiser's login."""
    olive = UserFactory(role="organisers", username="olive", first_name="", last_name="")
    PlayerFactory(club=club, user=olive, display_name="Olive Ashdown")
    confirmer = UserFactory(role="organisers", club=club)
    finished = run_session(club, olive, confirmer, players=4, rounds=1)
    session_settle(session=finished, actor=olive)
    client.force_login(olive)
    client.post(f"/club/sessions/{finished.pk}/reopen/", {"reason": "Recount table 1"})
    session_settle(session=finished, actor=olive)
    sheet = client.get(f"/club/sessions/{finished.pk}/settlement/").content.decode()
    assert "Settled by Olive Ashdown at" in sheet and "reopened by Olive Ashdown" in sheet
    assert "by olive" not in sheet
