"""The highlights on the live board and the session page: every kind (grand slam, winning streak,
big hand, skunk and double skunk, the season's skunk king) on both, read by the one selector
standings.highlights.session_highlights; the words for an open and a settled session; the page's
queries do not grow with the club's history; visitors see them only while the club publishes its
standings."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club import services as club_services
from club.models import Club
from ops.demo import HAND_29, HANDS_24, HANDS_28
from scoring import services as scoring_services
from scoring.models import ClaimKind
from tests.builders import play_session
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
THURSDAY = dt.date(2026, 3, 5)


def file_big_hands(people, who):
    """claims(round_) for play_session: in round 1, `who` announces a 29 hand, a 28 crib and a
    24 hand, each at its true count."""

    def claims(round_):
        if round_.number != 1:
            return
        game = round_.games.get(seats__player=who)
        for kind, (hand, starter), points in (
            (ClaimKind.HAND, HANDS_24[0], 24),
            (ClaimKind.CRIB, HANDS_28[0], 28),
            (ClaimKind.HAND, HAND_29, 29),
        ):
            scoring_services.claim_file(
                game=game,
                actor=people[0],
                kind=kind,
                claimant=who,
                claimed_points=points,
                hand=hand,
                starter=starter,
            )

    return claims


class Season:
    """Two Thursdays of six players, three rounds each: Ann wins every game of both, each a
    skunk (two grand slams, a streak of six); Bob wins every game he does not play against
    Ann, each a double skunk on the first Thursday; on the second Cy announces a 29, a 28 crib
    and a 24."""

    def __init__(self, club, *, settle=True):
        self.club = club
        self.people = UserFactory(role="organisers"), UserFactory(role="organisers")
        names = ("Ann Able", "Bob Baker", "Cy Dale", "Di Eve", "Ed Fry", "Flo Gay")
        self.ann, self.bob, self.cy, *rest = [
            PlayerFactory(club=club, display_name=name) for name in names
        ]
        order = [self.ann, self.bob, self.cy, *rest]
        self.first = play_session(
            club, self.people, THURSDAY, order, skunks=[self.ann], double_skunks=[self.bob]
        )
        self.second = play_session(
            club,
            self.people,
            THURSDAY + dt.timedelta(weeks=1),
            order,
            skunks=[self.ann],
            claims=file_big_hands(self.people, self.cy),
            settle=settle,
        )


@pytest.fixture
def season(club):
    return Season(club)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def items(html: str, testid: str) -> list[str]:
    return [text_of(item) for item in re.findall(rf'data-testid="{testid}">(.*?)</li>', html)]


def board_highlights(client, session) -> str:
    html = client.get(reverse("web:board", args=[session.pk])).content.decode()
    return html.split('data-testid="board-highlights">')[1].split("</section>")[0]


def session_highlights_card(client, session) -> str:
    html = client.get(reverse("web:session", args=[session.pk])).content.decode()
    return html.split('id="highlights" data-testid="highlights">')[1].split("</section>")[0]


PAGES = {"board": board_highlights, "session": session_highlights_card}


@pytest.mark.parametrize("page", PAGES)
def test_every_kind_of_highlight_shows(page, season, client):
    html = PAGES[page](client, season.second)
    assert items(html, "grand-slam") == ["grand slam Ann Able won all 3 games"]
    assert items(html, "streak") == ["winning streak Ann Able, 6 wins in a row"]
    hands = items(html, "big-hand")
    # Newest first: the 29, the 28 crib, the 24.
    assert [hand.split()[0] for hand in hands] == ["29", "28", "24"]
    assert all("Cy Dale" in hand for hand in hands) and "crib" in hands[1]
    skunks = items(html, "skunk")
    assert len(skunks) == 3 and all("Ann Able over" in skunk for skunk in skunks)
    assert all(skunk.startswith("skunk ") and "121–80" in skunk for skunk in skunks)
    assert items(html, "skunk-king") == ["skunk king 2026 Ann Able, 6 skunks after this session"]


@pytest.mark.parametrize("page", PAGES)
def test_a_double_skunk_and_the_first_sessions_own_highlights(page, season, client):
    """The first Thursday, where Bob never meets Ann (the draw's seed): both win all three of
    their games, so they share the grand slam and the streak of three (a line each); Bob's wins
    are double skunks (50 is under the double skunk line of 61, western-publishing.txt
    "Pegging"), a skunk given each, so the two share the skunk king as it stood then; no big
    hand."""
    html = PAGES[page](client, season.first)
    assert items(html, "grand-slam") == ["grand slam Ann Able and Bob Baker won all 3 games"]
    assert items(html, "streak") == ["winning streak Ann Able and Bob Baker, 3 wins in a row"]
    assert items(html, "big-hand") == []
    doubles = [skunk for skunk in items(html, "skunk") if skunk.startswith("double skunk")]
    assert len(doubles) == 3
    assert all("Bob Baker over" in skunk and "121–50" in skunk for skunk in doubles)
    assert items(html, "skunk-king") == [
        "skunk king 2026 Ann Able and Bob Baker, 3 skunks each after this session"
    ]


@pytest.mark.parametrize("page", PAGES)
def test_an_open_session_says_so_far_and_counting(page, club, client):
    season = Season(club, settle=False)
    html = PAGES[page](client, season.second)
    # Three rounds of the six the rules plan, and not settled: no grand slam yet.
    assert items(html, "grand-slam") == []
    assert items(html, "streak") == ["winning streak Ann Able, 6 wins in a row and counting"]
    assert items(html, "skunk-king") == ["skunk king 2026 Ann Able, 6 skunks so far"]


def test_a_session_without_highlights_says_so(season, client):
    """A session still waiting for its first round: nothing of its own, the season's king."""
    from club import services as club_services

    session = club_services.session_open(
        club=season.club, actor=season.people[0], date=THURSDAY + dt.timedelta(weeks=2)
    )
    card = text_of(session_highlights_card(client, session))
    assert card.startswith("Highlights No hand of 24 or more, no skunk and no upset yet.")
    assert "skunk king 2026 Ann Able, 6 skunks so far" in card
    board = text_of(board_highlights(client, session))
    assert board.startswith("No hand of 24 or more and no skunk yet today.")


def test_the_session_page_links_to_its_highlights(season, client):
    html = client.get(reverse("web:session", args=[season.second.pk])).content.decode()
    assert '<a href="#highlights">Highlights</a>' in html


@pytest.mark.parametrize("published", [True, False])
def test_visitors_see_them_only_while_the_club_publishes_its_standings(published, season, client):
    Club.objects.filter(pk=season.club.pk).update(standings_public=published)
    for url in (
        reverse("web:session", args=[season.second.pk]),
        reverse("web:board", args=[season.second.pk]),
    ):
        response = client.get(url)
        assert response.status_code == (200 if published else 404)
        assert ('data-testid="grand-slam"' in response.content.decode()) is published


def count_queries(client, url, **extra) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **extra)
    assert response.status_code == 200
    return len(queries)


def test_the_session_page_and_the_board_cost_the_same_queries_whatever_the_history(
    season, client, member
):
    """Two Thursdays, then six more with grand slams, skunks and big hands: the session page
    (as a member, so it is rendered rather than served from the visitors' cache; each step
    moves the pages version on, so the session's kept highlights are read afresh too) and the
    board's refresh read the same number of times."""
    client.force_login(member("organiser"))
    urls = [
        (reverse("web:session", args=[season.second.pk]), {}),
        (reverse("web:board_parts", args=[season.second.pk]), HTMX),
    ]
    before = [count_queries(client, url, **extra) for url, extra in urls]
    order = [season.bob, season.ann, season.cy]
    for n in range(2, 8):
        play_session(
            season.club,
            season.people,
            THURSDAY + dt.timedelta(weeks=n),
            order,
            skunks=[season.bob],
            claims=file_big_hands(season.people, season.cy),
        )
    assert [count_queries(client, url, **extra) for url, extra in urls] == before


def test_the_session_page_reads_its_highlights_again_only_after_a_change(season, client, member):
    """The session page keeps a session's highlights in the cache under the club's pages version
    (standings.highlights.session_highlights_cached): a reload does not read them again, and a
    change through a service (a player renamed) shows at once."""
    client.force_login(member("organiser"))
    url = reverse("web:session", args=[season.second.pk])
    first = count_queries(client, url)
    assert count_queries(client, url) < first
    club_services.player_update(player=season.ann, actor=season.people[0], display_name="Ann Roe")
    html = session_highlights_card(client, season.second)
    assert items(html, "grand-slam") == ["grand slam Ann Roe won all 3 games"]
    assert items(html, "streak") == ["winning streak Ann Roe, 6 wins in a row"]
