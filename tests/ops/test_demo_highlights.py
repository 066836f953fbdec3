"""The demo club's season shows highlights: its own sessions, played by `load_demo` as every day's
demo is, give the board, the session pages and the records something of every kind to celebrate: the
story 29, 28 and 24s, skunks at every session, grand slams by the stronger players, winning streaks
and a skunk king. (Seasons built on several days of the year give at least 3 grand slams and a
streak at most sessions.)"""

import re

import pytest
from django.urls import reverse

from club.models import Club, Session, SessionState
from standings.highlights import grand_slams, session_highlights
from standings.selectors import club_records
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    load_demo(season=True)
    return Club.objects.get(slug="thursday-peggers")


def test_the_demo_season_has_every_kind_of_highlight(demo):
    sessions = list(Session.objects.filter(club=demo, state=SessionState.SETTLED))
    found = [session_highlights(session) for session in sessions]
    assert all(each.skunks for each in found)  # an eighth of the games is a skunk
    assert sum(1 for each in found if each.streaks) >= len(found) // 2
    assert sum(len(each.grand_slams) for each in found) >= 2
    assert grand_slams(demo)
    records = club_records(demo)
    assert sorted(claim.true_points for claim in records.big_hands) == [24, 24, 28, 29]
    assert records.skunk_kings and records.longest_streaks and records.grand_slams
    assert found[-1].skunk_king is not None


def test_the_demo_pages_show_them(demo, client):
    settled = Session.objects.filter(club=demo, state=SessionState.SETTLED).latest("date")
    page = client.get(reverse("web:session", args=[settled.pk])).content.decode()
    card = page.split('id="highlights" data-testid="highlights">')[1].split("</section>")[0]
    assert 'data-testid="skunk"' in card and 'data-testid="skunk-king"' in card
    board = client.get(reverse("web:board", args=[settled.pk])).content.decode()
    assert 'data-testid="skunk"' in board.split('data-testid="board-highlights"')[1]
    records = client.get(reverse("standings:all_time")).content.decode()
    listed = records.split('data-testid="top-hands"')[1].split("</ul>")[0]
    hands = re.findall(r"<li><strong>(\d+)</strong>", listed)
    assert sorted(map(int, hands)) == [24, 24, 28, 29]
    assert "grand slam" in records.split('data-testid="grand-slams"')[1].split("</ol>")[0]
