"""The payouts of a settled session are pinned on the wall: the public session page shows each
paid place's name and amount when the club publishes its standings (docs/spec.md "A Thursday,
step by step", step 6), and never the cash box or how it was worked out."""

import datetime as dt

import pytest
from django.urls import reverse

from money.services import session_settle
from tests.builders import run_session
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled(club, organiser):
    confirmer = UserFactory(role="organisers", club=club)
    session = run_session(
        club, organiser, confirmer, players=8, rounds=1, date=dt.date(2026, 12, 3)
    )
    return session, session_settle(session=session, actor=organiser, seed=5)


def visitors_page(client, club, session) -> str:
    """The session page as a visitor reads it while the club publishes its standings."""
    club.standings_public = True
    club.save()
    return client.get(reverse("web:session", args=[session.pk])).content.decode()


def test_a_visitor_reads_the_payouts_of_a_published_club(client, club, settled):
    session, settlement = settled
    html = visitors_page(client, club, session)
    wall = html.split('data-testid="wall-payouts"')[1].split("</table>")[0]
    paid = [p for p in settlement.payouts.select_related("player") if p.amount_cents]
    assert paid
    for payout in paid:
        assert payout.player.display_name in wall
    assert 'data-testid="cash-box"' not in html  # the bookkeeping stays the members'
    assert reverse("money:settlement", args=[session.pk]) not in html


def test_a_visitor_reads_nothing_of_a_club_that_does_not_publish(client, club, settled):
    session, _ = settled
    club.standings_public = False
    club.save()
    assert client.get(reverse("web:session", args=[session.pk])).status_code == 404


def test_the_wall_card_is_headed_payouts_not_the_organisers_settle(client, club, settled):
    """A visitor reads what was paid out, under the word for it, not an organiser's verb."""
    session, _ = settled
    html = visitors_page(client, club, session)
    card = html.split('id="settle"')[1].split("</section>")[0]
    assert "<h2>Payouts</h2>" in card
    assert "<h2>Settle</h2>" not in card
