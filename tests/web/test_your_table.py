""" "Find your table" on the home page: a logged-in member seated in their current round sees "Your
table: round 2, table 5, with Bill Dawson" linking to the game page; checked in but not yet drawn,
"You are checked in for today; round N is not drawn yet"; otherwise nothing. The current round is
the latest round drawn of the latest open session of the club the member is checked in at
(games.selectors, docs/decisions/sessions-and-draw.md).

Terms: *pat* is a player with a login (the member asking); *session* is today's session of
`club`, with pat and five others checked in.
"""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import Club, Player, Session, SessionState
from games import services
from games.models import Game
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def pat(member):
    return member("player")


@pytest.fixture
def session(club, organiser, pat):
    session = club_services.session_open(club=club, actor=organiser, date=timezone.localdate())
    players = [Player.objects.get(user=pat)] + [PlayerFactory(club=club) for _ in range(5)]
    club_services.checkins_create(session=session, actor=organiser, players=players, paid=True)
    return session


def home(client, user=None) -> str:
    if user is not None:
        client.force_login(user)
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def box(html: str) -> str:
    assert 'data-testid="your-table"' in html
    return " ".join(html.split('data-testid="your-table">')[1].split("</div>")[0].split())


def pats_game(pat, number=1) -> Game:
    return Game.objects.get(round__number=number, seats__player__user=pat)


def test_a_seated_player_sees_their_table_and_who_they_play(client, organiser, pat, session):
    services.round_draw(session=session, actor=organiser, seed=3)
    game = pats_game(pat)
    [opponent] = [s.player.display_name for s in game.seats.exclude(player__user=pat)]

    text = box(home(client, pat))

    link = reverse("games:game", args=[game.pk])
    assert f'<a href="{link}">Round 1, table {game.table}</a>, with {opponent}' in text
    assert "Your table" in text


def test_the_latest_round_is_the_current_one(client, organiser, pat, session):
    for seed in (3, 5):
        services.round_draw(session=session, actor=organiser, seed=seed)
    game = pats_game(pat, number=2)
    assert f"Round 2, table {game.table}</a>" in box(home(client, pat))


def test_partners_name_the_partner_and_the_opponents(client, club, organiser, pat):
    Club.objects.filter(pk=club.pk).update(table_mode="partners")
    club.refresh_from_db()
    session = club_services.session_open(club=club, actor=organiser, date=timezone.localdate())
    players = [Player.objects.get(user=pat)] + [PlayerFactory(club=club) for _ in range(3)]
    club_services.checkins_create(session=session, actor=organiser, players=players)
    services.round_draw(session=session, actor=organiser, seed=3)
    game = pats_game(pat)
    mine = game.seats.get(player__user=pat).side
    partner = game.seats.exclude(player__user=pat).get(side=mine).player.display_name
    opponents = [s.player.display_name for s in game.seats.exclude(side=mine).order_by("position")]

    text = box(home(client, pat))

    assert f"with your partner {partner}, against {opponents[0]} and {opponents[1]}" in text


def test_checked_in_before_the_draw(client, pat, session):
    text = box(home(client, pat))
    assert "You are checked in for today; round 1 is not drawn yet." in text


def test_checked_in_late_waits_for_the_next_round(client, club, organiser, session):
    services.round_draw(session=session, actor=organiser, seed=3)
    late = UserFactory(role="players")
    player = PlayerFactory(club=club, user=late)
    club_services.checkin_create(session=session, actor=organiser, player=player)
    assert "round 2 is not drawn yet" in box(home(client, late))


def test_a_confirmed_result_says_the_next_round_is_not_drawn_yet(
    client, member, organiser, pat, session
):
    services.round_draw(session=session, actor=organiser, seed=3)
    game = pats_game(pat)
    draft = services.result_enter(game=game, actor=organiser, scores=[121, 100])
    services.result_confirm(result=draft, actor=member("organiser"))
    text = box(home(client, pat))
    assert f"Round 1, table {game.table}</a>" in text
    assert "Your result is confirmed. Round 2 is not drawn yet." in text


def test_another_days_session_names_its_date(client, club, organiser, pat):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    club_services.checkin_create(
        session=session, actor=organiser, player=Player.objects.get(user=pat)
    )
    assert "You are checked in for Thursday 5 March;" in box(home(client, pat))


@pytest.mark.parametrize("who", ["visitor", "not checked in", "organiser not seated", "stranger"])
def test_nobody_else_sees_a_table(client, member, organiser, stranger, session, who):
    services.round_draw(session=session, actor=organiser, seed=3)
    user = {
        "visitor": None,
        "not checked in": member("player"),
        "organiser not seated": organiser,
        "stranger": stranger("player"),
    }[who]
    assert 'data-testid="your-table"' not in home(client, user)


def test_a_settled_session_shows_nothing(client, organiser, pat, session):
    services.round_draw(session=session, actor=organiser, seed=3)
    Session.objects.filter(pk=session.pk).update(state=SessionState.SETTLED)
    assert 'data-testid="your-table"' not in home(client, pat)


def test_the_latest_open_session_wins_over_an_older_one_left_open(client, club, organiser, pat):
    older = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    newer = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 12))
    me = Player.objects.get(user=pat)
    for session in (older, newer):
        others = [PlayerFactory(club=club) for _ in range(3)]
        club_services.checkins_create(session=session, actor=organiser, players=[me, *others])
    services.round_draw(session=older, actor=organiser, seed=3)
    assert "checked in for Thursday 12 March; round 1 is not drawn yet" in box(home(client, pat))


def test_the_home_page_costs_the_same_queries_whatever_the_history(
    client, club, organiser, pat, session, django_assert_max_num_queries
):
    services.round_draw(session=session, actor=organiser, seed=3)
    client.force_login(pat)
    client.get("/")
    with django_assert_max_num_queries(100) as first:
        client.get("/")
        count = len(first)
    me = Player.objects.get(user=pat)
    for week in range(1, 4):  # older sessions, left open, with rounds
        older = club_services.session_open(
            club=club, actor=organiser, date=timezone.localdate() - dt.timedelta(days=7 * week)
        )
        others = [PlayerFactory(club=club) for _ in range(5)]
        club_services.checkins_create(session=older, actor=organiser, players=[me, *others])
        for seed in (1, 2):
            services.round_draw(session=older, actor=organiser, seed=seed)
    services.round_draw(session=session, actor=organiser, seed=9)
    with django_assert_max_num_queries(count):
        html = client.get("/").content.decode()
    assert "Round 2, table" in box(html)
