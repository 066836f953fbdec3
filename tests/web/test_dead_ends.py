"""On the home page and the session page every page leads on. A member finds their money from the
home page; the "next session" banner links to the session open for it; judges and organisers find
the disputes queue with how many wait; every settle blocker is a link; a visitor is not sent to a
login page by "See the payouts"; the header reads "Singles (...)", not "singles"; "Paid to" names
the person, not their login.

Terms: *pat* is a player with a login; *olive* an organiser whose login is "olive" and whose
player is "Olive Ashdown".
"""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import Player
from games import services as game_services
from money.selectors import settle_blockers
from money.services import session_settle
from scoring import services as scoring_services
from tests.builders import run_session
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def olive(club):
    user = UserFactory(role="organisers", username="olive", first_name="", last_name="")
    PlayerFactory(club=club, user=user, display_name="Olive Ashdown")
    return user


@pytest.fixture
def pat(member):
    return member("player")


def page(client, path, user=None) -> str:
    if user is not None:
        client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


# --- a. A member's money, from the home page ------------------------------------------------------


def test_a_member_finds_their_own_money_on_the_home_page(client, club, pat):
    mine = Player.objects.get(user=pat)
    html = page(client, "/", pat)
    money = reverse("money:player_money", args=[mine.pk])
    assert f'href="{money}" data-testid="money-link">Your money<' in html
    assert client.get(money).status_code == 200
    client.logout()
    assert 'data-testid="money-link"' not in page(client, "/")


# --- e. The banner links to the open session ------------------------------------------------------


LINK = 'data-testid="next-session-link">The session\'s page: check-in, tables and results</a>'


def test_the_next_session_banner_links_to_the_session_open_for_it(client, club, olive, pat):
    assert 'data-testid="next-session-link"' not in page(client, "/", pat)
    today = timezone.localdate()
    past = club_services.session_open(club=club, actor=olive, date=today - dt.timedelta(days=7))
    assert 'data-testid="next-session-link"' not in page(client, "/")  # not the next one
    later = club_services.session_open(club=club, actor=olive, date=today + dt.timedelta(days=9))
    html = page(client, "/")
    assert f'<a href="{reverse("web:session", args=[later.pk])}" {LINK}' in html
    # Opened on another day than the club's usual one, today: the banner is about it.
    today_session = club_services.session_open(club=club, actor=olive, date=today)
    html = page(client, "/")
    assert f'<a href="{reverse("web:session", args=[today_session.pk])}" {LINK}' in html
    banner = html.split('data-testid="next-session">')[1].split("</div>")[0]
    assert "Today" in banner and "9:30 AM" in banner
    assert reverse("web:session", args=[past.pk]) not in html


def test_a_visitor_gets_the_banner_link_only_while_sessions_are_public(client, club, olive):
    club_services.session_open(club=club, actor=olive, date=timezone.localdate())
    assert 'data-testid="next-session-link"' in page(client, "/")
    club.standings_public = False
    club.save()
    assert 'data-testid="next-session-link"' not in page(client, "/")


# --- f. Judges and organisers find the disputes ---------------------------------------------------


def disputed_claim(club, olive):
    session = club_services.session_open(club=club, actor=olive, date=dt.date(2026, 11, 26))
    users = [UserFactory(role="players") for _ in range(2)]
    players = [PlayerFactory(club=club, user=user) for user in users]
    club_services.checkins_create(session=session, actor=olive, players=players)
    game = game_services.round_draw(session=session, actor=olive, seed=3).games.get()
    claim = scoring_services.claim_file(
        game=game,
        actor=users[0],
        kind="hand",
        claimant=players[0],
        claimed_points=12,
        hand="2S QD AD 2H",
        starter="3S",
    )
    scoring_services.dispute_open(claim=claim, actor=users[1], statement="Surely 16.")
    return claim


@pytest.mark.parametrize("role", ["judge", "organiser"])
def test_judges_and_organisers_find_the_disputes_queue_with_how_many_wait(
    client, club, member, olive, role
):
    user = member(role)
    html = page(client, "/", user)
    queue = reverse("scoring:queue")
    assert f'href="{queue}" data-testid="disputes-link">Disputes<' in html
    assert "none waiting for a judge" in html
    disputed_claim(club, olive)
    html = page(client, "/")
    assert '<strong data-testid="disputes-waiting">1</strong> waiting for a judge' in html


def test_players_get_no_disputes_link(client, club, pat):
    assert 'data-testid="disputes-link"' not in page(client, "/", pat)


# --- c. Every settle blocker links to what clears it ----------------------------------------------


def test_every_settle_blocker_on_the_session_page_is_a_link_to_what_clears_it(client, club, olive):
    disputed = disputed_claim(club, olive)
    session = disputed.game.session
    blockers = settle_blockers(session)
    assert len(blockers) >= 3  # fees, results, the dispute
    client.force_login(olive)
    refused = client.post(reverse("money:session_settle", args=[session.pk]), follow=True)
    html = refused.content.decode()
    assert "cannot be settled yet" in html
    listed = html.split('data-testid="blockers">')[1].split("</ul>")[0]
    items = re.findall(r"<li>(.*?)</li>", listed)
    assert len(items) == len(blockers)
    for blocker, item in zip(blockers, items, strict=True):
        assert blocker.url and f'<a href="{blocker.url}">' in item
        assert client.get(blocker.url.split("#")[0]).status_code == 200


# --- g. "See the payouts" only for those who may see them -----------------------------------------


def test_see_the_payouts_is_shown_only_to_those_who_may_see_the_sheet(client, club, olive, pat):
    confirmer = UserFactory(role="organisers", club=club)
    session = run_session(club, olive, confirmer, players=4, rounds=1)
    session_settle(session=session, actor=olive)
    url = reverse("web:session", args=[session.pk])
    sheet = reverse("money:settlement", args=[session.pk])
    visitor = page(client, url)
    assert "Settled." in visitor and sheet not in visitor and "See the payouts" not in visitor
    assert client.get(sheet).status_code == 302  # to the login page: members only
    html = page(client, url, pat)
    assert f'<a href="{sheet}" data-testid="settlement-link">See the payouts</a>' in html
    assert client.get(sheet).status_code == 200


# --- h. The session header in words ---------------------------------------------------------------


def test_the_session_header_reads_the_table_mode_as_people_do(client, club, olive):
    session = club_services.session_open(club=club, actor=olive, date=dt.date(2026, 11, 26))
    html = page(client, reverse("web:session", args=[session.pk]), olive)
    header = html.split("<h1>")[1].split("</p>")[0]
    assert "Singles (2-player tables, one 3-player table when odd)" in header
    assert "· singles" not in header


# --- j. "Paid to" names the person ----------------------------------------------------------------


def test_paid_to_names_the_organisers_player_not_their_login(client, club, olive):
    session = club_services.session_open(club=club, actor=olive, date=dt.date(2026, 11, 26))
    club_services.checkins_create(
        session=session, actor=olive, players=[PlayerFactory(club=club)], paid=True
    )
    html = page(client, reverse("web:session", args=[session.pk]), olive)
    assert "to Olive Ashdown," in html and "to olive," not in html
