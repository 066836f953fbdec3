"""The session page and the payout sheet show the side pots: what each check-in owes with its parts,
the skunk coins with their buttons, blockers with links, the cash box, and a section per side pot on
the sheet (docs/spec.md "The pot and payouts": the payout sheet shows each side pot: money in,
carried over, who wins what, what rolls over)."""

import datetime as dt

import pytest

from club import services as club_services
from club.models import CheckIn
from core.models import AuditEntry
from money.audit import MoneyVerb
from money.models import SkunkCoin
from money.services import session_settle
from tests.builders import run_session, settle_by_page
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_check_in_list_shows_what_each_player_owes_and_its_parts(client, member, club):
    organiser = member("organiser")
    club_services.club_update_rules(club=club, actor=organiser, jackpot_29_cents=10)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    checkin = club_services.checkin_create(
        session=session, actor=organiser, player=PlayerFactory(club=club, display_name="Ann")
    )
    client.force_login(organiser)
    page = client.get(f"/club/sessions/{session.pk}/").content.decode()
    assert '35¢ <span class="muted owed-parts">(fee 25¢ + 29 jackpot 10¢)</span>' in page
    assert "owed <strong>35¢</strong>" in page
    done = client.post(f"/club/sessions/{session.pk}/checkins/{checkin.pk}/paid/", follow=True)
    assert "Ann paid 35¢." in done.content.decode()
    assert CheckIn.objects.get(pk=checkin.pk).is_paid
    assert "Collected <strong>35¢</strong>" in done.content.decode()


def test_skunk_coins_are_taken_on_the_session_page_and_the_sheet_shows_the_side_pots(
    client, member, club
):
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    club_services.club_update_rules(club=club, actor=organiser, skunk_bank=True, jackpot_24_cents=5)
    session = run_session(
        club,
        organiser,
        confirmer,
        players=2,
        rounds=1,
        pay=False,
        scores=lambda game: [121, 80],
    )
    for checkin in CheckIn.objects.filter(session=session):
        club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    client.force_login(organiser)
    url = f"/club/sessions/{session.pk}/"
    page = client.get(url).content.decode()
    assert 'id="skunk-coins"' in page and "Owes" in page
    assert "Skunk coins not paid" in page and f'href="{url}#skunk-coins">Go there</a>' in page
    game = session.games.get()
    loser = game.results.get().lines.get(won=False).player
    taken = client.post(
        f"/club/sessions/{session.pk}/skunk-coins/{game.pk}/{loser.pk}/paid/", follow=True
    )
    assert f"{loser} paid a skunk coin of 25¢." in taken.content.decode()
    coin = SkunkCoin.objects.get()
    assert AuditEntry.objects.filter(action=MoneyVerb.SKUNK_COIN_PAID).count() == 1
    page = client.get(url).content.decode()
    assert "Skunk coins not paid" not in page
    assert 'collected <strong data-testid="cash-collected">85¢</strong>' in page
    # Undo, and take it again with "Mark all owed paid".
    client.post(f"/club/sessions/{session.pk}/skunk-coins/{coin.pk}/back/")
    assert not SkunkCoin.objects.exists()
    client.post(f"/club/sessions/{session.pk}/skunk-coins/collect/")
    assert SkunkCoin.objects.count() == 1

    sheet = settle_by_page(client, session, follow=True).content.decode()
    assert 'data-testid="side-pot-skunk_bank"' in sheet
    assert 'data-testid="side-pot-jackpot_24"' in sheet
    assert "Rolled over to the next session" in sheet
    assert 'data-testid="cash-paid-out">50¢' in sheet
    assert 'data-testid="cash-carried">35¢' in sheet
    # The settle card of the session page shows the same.
    page = client.get(url).content.decode()
    assert 'data-testid="side-pot-skunk_bank"' in page and 'data-testid="cash-box"' in page
    # A settled session's coins cannot be handed back.
    refused = client.post(
        f"/club/sessions/{session.pk}/skunk-coins/{SkunkCoin.objects.get().pk}/back/", follow=True
    )
    assert "is settled" in refused.content.decode()
    assert SkunkCoin.objects.count() == 1


def test_a_player_sees_the_payout_sheet_but_no_cash_box_buttons(client, member, club):
    organiser = member("organiser")
    player = member("player")
    confirmer = UserFactory(role="organisers", club=club)
    club_services.club_update_rules(club=club, actor=organiser, skunk_bank=True)
    session = run_session(club, organiser, confirmer, players=4, rounds=1)
    session_settle(session=session, actor=organiser)
    client.force_login(player)
    sheet = client.get(f"/club/sessions/{session.pk}/settlement/").content.decode()
    assert 'data-testid="side-pot-skunk_bank"' in sheet
    page = client.get(f"/club/sessions/{session.pk}/").content.decode()
    assert "Mark all owed paid" not in page


def test_the_sheet_names_who_won_a_side_pot_and_what(client, member, club):
    """The organiser must know to pay the skunk bank's winner. A double skunk wins the bank; the
    sheet says who and how much, and that nothing rolls over."""
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    club_services.club_update_rules(club=club, actor=organiser, skunk_bank=True)
    session = run_session(
        club, organiser, confirmer, players=2, rounds=1, scores=lambda game: [121, 50]
    )
    session_settle(session=session, actor=organiser)
    winner = session.games.get().results.get().lines.get(won=True).player
    client.force_login(organiser)
    sheet = client.get(f"/club/sessions/{session.pk}/settlement/").content.decode()
    assert f'Won by {winner.display_name}</th><td class="numeric">−25¢' in sheet
    assert 'data-testid="rolled-over">0¢' in sheet
