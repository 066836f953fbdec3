"""The live board (web/board.py; docs/spec.md "A Thursday, step by step", step 7): who sees it,
what each part shows, the refresh that sends only what changed, the fixed number of queries a
refresh costs whatever the size of the session and of the club's history, and the page without
JavaScript."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club import services as club_services
from club.models import Club
from games import services as game_services
from games.models import Game, ResultState
from ops.demo import HAND_29, HANDS_24, HANDS_28
from scoring import services as scoring_services
from scoring.models import ClaimKind, RulingDecision
from scoring.selectors import session_big_hands
from tests.builders import run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from web import board as board_module

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PART_NAMES = list(board_module.PARTS)


def board_url(session) -> str:
    return reverse("web:board", args=[session.pk])


def parts_url(session) -> str:
    return reverse("web:board_parts", args=[session.pk])


class Morning:
    """An open session of `players` (with logins for the first two) of `club`: round 1 drawn and
    confirmed (table 1 a skunk, table 2 a double skunk when there are tables enough), round 2 drawn
    with table 1 confirmed, table 2 entered as a draft, the rest playing."""

    def __init__(self, club, *, players=8, date=dt.date(2026, 3, 5), claims=True):
        self.club = club
        self.organiser = UserFactory(role="organisers", club=club)
        self.confirmer = UserFactory(role="organisers", club=club)
        self.judge = UserFactory(role="judges", club=club)
        self.session = club_services.session_open(club=club, actor=self.organiser, date=date)
        roster = [
            PlayerFactory(club=club, user=UserFactory(role="players") if i < 2 else None)
            for i in range(players)
        ]
        club_services.checkins_create(
            session=self.session, actor=self.organiser, players=roster, paid=True
        )
        first = game_services.round_draw(session=self.session, actor=self.organiser, seed=11)
        for game in first.games.order_by("table"):
            scores = {1: [121, 85], 2: [121, 55]}.get(game.table, [121, 110])
            scores = scores + [100] * (game.side_count - 2)
            self.confirm(game, scores)
        self.round = game_services.round_draw(session=self.session, actor=self.organiser, seed=12)
        games = list(self.round.games.order_by("table"))
        self.confirm(games[0], [100, 121] + [90] * (games[0].side_count - 2))
        self.draft = game_services.result_enter(
            game=games[1], actor=self.organiser, scores=[121, 99] + [98] * (games[1].side_count - 2)
        )
        self.games = games
        if claims:  # at a table of round 1 where a player with a login sits
            self.file_claims(first.games.get(seats__player=roster[0]))

    def confirm(self, game, scores):
        draft = game_services.result_enter(game=game, actor=self.organiser, scores=scores)
        return game_services.result_confirm(result=draft, actor=self.confirmer)

    def claim(self, game, kind, hand, claimed, claimant=None):
        claimant = claimant or game.seats.order_by("position").first().player
        return scoring_services.claim_file(
            game=game,
            actor=self.organiser,
            kind=kind,
            claimant=claimant,
            claimed_points=claimed,
            hand=hand[0],
            starter=hand[1],
        )

    def file_claims(self, game):
        """A 24 hand and a 28 crib accepted, a 29 over-claimed as 30 (corrected: not a highlight),
        a 24 under-claimed as 22, and a 24 disputed twice: one waiting for its judge, one upheld."""
        self.hand_24 = self.claim(game, ClaimKind.HAND, HANDS_24[0], 24)
        self.crib_28 = self.claim(game, ClaimKind.CRIB, HANDS_28[0], 28)
        self.claim(game, ClaimKind.HAND, HAND_29, 29 + 1)
        self.claim(game, ClaimKind.HAND, HANDS_24[1], 22)
        with_login = game.seats.filter(player__user__isnull=False).first()
        if with_login is None:
            return
        for upheld in (False, True):
            claim = self.claim(game, ClaimKind.HAND, HANDS_24[2], 24, claimant=with_login.player)
            dispute = scoring_services.dispute_open(
                claim=claim, actor=with_login.player.user, statement="Count it again."
            )
            if upheld:
                scoring_services.dispute_rule(
                    dispute=dispute, actor=self.judge, decision=RulingDecision.AGREE
                )
                self.upheld = claim
            else:
                self.waiting = claim


@pytest.fixture
def morning(club):
    return Morning(club)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- Who sees it ---------------------------------------------------------------------------------


@pytest.mark.parametrize("published", [True, False])
def test_visitors_see_it_only_while_the_club_publishes_its_standings(published, morning, client):
    Club.objects.filter(pk=morning.club.pk).update(standings_public=published)
    for url in (board_url(morning.session), parts_url(morning.session)):
        response = client.get(url, **HTMX)
        assert response.status_code == (200 if published else 404), url


@pytest.mark.parametrize("role", ["player", "judge", "organiser"])
def test_members_of_the_club_always_see_it(role, morning, client, member):
    Club.objects.filter(pk=morning.club.pk).update(standings_public=False)
    client.force_login(member(role))
    assert client.get(board_url(morning.session)).status_code == 200
    assert client.get(parts_url(morning.session), **HTMX).status_code == 200


@pytest.mark.parametrize("published", [True, False])
def test_a_login_linked_to_no_player_is_a_visitor(published, morning, client):
    Club.objects.filter(pk=morning.club.pk).update(standings_public=published)
    client.force_login(UserFactory(role="organisers"))
    assert client.get(board_url(morning.session)).status_code == (200 if published else 404)


@pytest.mark.parametrize("published", [True, False])
@pytest.mark.parametrize("role", ["player", "organiser"])
def test_members_of_another_club_get_404_as_on_every_page_naming_an_object(
    role, published, morning, client, stranger
):
    """They act in their own club (tests/security/test_permissions.py): even a published board of
    another club is, for them, as if it did not exist."""
    Club.objects.filter(pk=morning.club.pk).update(standings_public=published)
    client.force_login(stranger(role))
    assert client.get(board_url(morning.session)).status_code == 404
    assert client.get(parts_url(morning.session), **HTMX).status_code == 404


def test_a_site_administrator_sees_every_board(morning, client):
    Club.objects.filter(pk=morning.club.pk).update(standings_public=False)
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    assert client.get(board_url(morning.session)).status_code == 200


def test_a_visitor_on_a_site_of_several_clubs_sees_the_sessions_own_club(client, club):
    """The visitors' club is the first one (`club`); a board is about its session's club."""
    other = ClubFactory(name="Second Club", slug="second")
    session = Morning(other, claims=False).session
    html = client.get(board_url(session)).content.decode()
    assert "Second Club" in html
    assert club.name not in html
    Club.objects.filter(pk=other.pk).update(standings_public=False)
    assert client.get(board_url(session)).status_code == 404


def test_no_such_session_is_404(client, db):
    assert client.get(reverse("web:board", args=[999999])).status_code == 404


# --- What each part shows ------------------------------------------------------------------------


def test_the_page_names_the_club_and_the_day_and_has_a_heading_per_part(morning, client):
    response = client.get(board_url(morning.session))
    html = response.content.decode()
    assert "<h1" in html and morning.club.name in html
    assert "Thursday 5 March 2026" in html
    for title in board_module.PARTS.values():
        assert f">{title}</h2>" in html
    # Each changing part is a polite live region with its version for the refresh.
    for name in PART_NAMES:
        assert f'id="board-{name}" aria-live="polite"' in html
        assert f'name="{name}" value="' in html


def test_the_tables_part_shows_the_current_round_and_each_tables_state(morning, client):
    html = client.get(board_url(morning.session)).content.decode()
    part = html.split('data-testid="board-tables"')[1].split("</section>")[0]
    assert "Round 2 of 6" in text_of(part)
    states = dict(re.findall(r'data-table="(\d+)" data-state="(\w+)"', part))
    assert states["1"] == "confirmed" and states["2"] == "entered"
    assert set(list(states.values())[2:]) == {"playing"}
    assert len(states) == morning.round.games.count()
    tables = re.split(r'<li class="board-table ', part)[1:]
    confirmed = text_of(tables[0])
    assert "100" in confirmed and "121" in confirmed
    winner = morning.games[0].seats.get(side=1).player.display_name
    assert re.search(rf'board-side--won"><span class="board-side__names">{winner}<', tables[0])
    # A draft's scores are not the table's yet: not shown (read from the score cells, not the
    # text, which holds player names that may carry any digits).
    entered = text_of(tables[1])
    assert "waiting to be accepted" in entered
    assert "board-side__score" not in tables[1]
    assert "board-side__score" in tables[0]
    for seat in morning.games[1].seats.all():
        assert seat.player.display_name in entered


def test_the_results_part_lists_the_latest_confirmed_newest_first(morning, client):
    html = client.get(board_url(morning.session)).content.decode()
    part = html.split('data-testid="board-results"')[1].split("</section>")[0]
    where = re.findall(r'data-table="(\d+)" data-round="(\d+)"', part)
    assert len(where) == 5  # every confirmed result so far: fewer than LATEST
    assert where[0] == ("1", "2")  # round 2's table 1 was confirmed last
    assert ("2", "2") not in where  # the draft is not a result yet
    assert "double skunk" in part and "skunk" in part


def test_the_standings_part_ranks_every_checked_in_player(morning, client):
    html = client.get(board_url(morning.session)).content.decode()
    part = html.split('data-testid="board-standings"')[1].split("</section>")[0]
    rows = re.findall(r'<tr data-player="([^"]+)"><td class="numeric">([T\d-]+)</td>', part)
    assert len(rows) == 8
    assert rows[0][1] in ("1", "T-1")
    for header in ("Player", "Pts", "W", "Spread"):
        assert f">{header}<" in part


def test_a_big_morning_runs_the_standings_in_two_columns(club, client):
    session = Morning(club, players=40, claims=False).session
    html = client.get(board_url(session)).content.decode()
    part = html.split('data-testid="board-standings"')[1].split("</section>")[0]
    assert part.count("<table") == 2
    assert part.count("<tr data-player=") == 40
    assert 'class="board board--crowded"' in html
    results = html.split('data-testid="board-results"')[1].split("</section>")[0]
    assert results.count('<li class="board-result"') == board_module.LATEST


def test_the_highlights_are_the_accepted_big_hands_and_todays_skunks(morning, client):
    html = client.get(board_url(morning.session)).content.decode()
    part = html.split('data-testid="board-highlights"')[1].split("</section>")[0]
    hands = [text_of(h) for h in re.findall(r'data-testid="big-hand">(.*?)</li>', part)]
    # Newest first: the upheld 24, the 28 crib, the first 24; not the over-claimed 29 (corrected),
    # not the 24 announced as 22, not the 24 whose dispute waits for a judge.
    assert [h.split()[0] for h in hands] == ["24", "28", "24"]
    assert "crib" in hands[1]
    assert morning.upheld.claimant.display_name in hands[0]
    skunks = [text_of(s) for s in re.findall(r'data-testid="skunk">(.*?)</li>', part)]
    assert len(skunks) == 2
    assert any("double skunk" in s and "121–55" in s for s in skunks)
    assert any(s.strip().startswith("skunk") and "121–85" in s for s in skunks)


def test_big_hands_come_from_scoring_by_its_rule(morning):
    """scoring.selectors.session_big_hands: claimed at the true count of 24 or more, undisputed
    or upheld by the last ruling (docs/spec.md, "Claims, muggins and disputes")."""
    found = session_big_hands(morning.session)
    assert [c.pk for c in found] == [morning.upheld.pk, morning.crib_28.pk, morning.hand_24.pk]
    assert morning.waiting not in found
    assert session_big_hands(morning.session, at_least=28) == [morning.crib_28]


def test_an_empty_session_says_so_in_each_part(club, client):
    organiser = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    html = text_of(client.get(board_url(session)).content.decode())
    assert "No round drawn yet." in html
    assert "Nobody is checked in yet." in html
    assert "No result confirmed yet." in html
    assert "No hand of 24 or more and no skunk yet today." in html


# --- The refresh ---------------------------------------------------------------------------------


def versions_of(html: str) -> dict[str, str]:
    return dict(
        re.findall(r'<input type="hidden" name="(\w+)" value="(\w+)" data-board-version>', html)
    )


def test_a_refresh_sends_every_part_out_of_band_to_a_page_that_has_none(morning, client):
    response = client.get(parts_url(morning.session), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    for name in PART_NAMES:
        assert f'<div id="board-{name}" hx-swap-oob="innerHTML">' in html
    assert "<html" not in html and "<h2" not in html  # the parts' insides only


def test_a_refresh_with_nothing_changed_is_204_and_swaps_nothing(morning, client):
    page = client.get(board_url(morning.session)).content.decode()
    versions = versions_of(page)
    assert set(versions) == set(PART_NAMES)
    response = client.get(parts_url(morning.session), versions, **HTMX)
    assert response.status_code == 204
    assert response.content == b""


def test_a_confirmed_result_refreshes_only_the_parts_it_changes(morning, client):
    versions = versions_of(client.get(board_url(morning.session)).content.decode())
    game_services.result_confirm(result=morning.draft, actor=morning.confirmer)
    html = client.get(parts_url(morning.session), versions, **HTMX).content.decode()
    sent = re.findall(r'<div id="board-(\w+)" hx-swap-oob', html)
    assert sent == ["tables", "standings", "results"]  # no new skunk or big hand
    assert re.search(rf'data-table="{morning.games[1].table}" data-state="confirmed"', html)
    new_versions = {**versions, **versions_of(html)}
    again = client.get(parts_url(morning.session), new_versions, **HTMX)
    assert again.status_code == 204


def test_the_refresh_opened_without_htmx_sends_you_to_the_board(morning, client):
    response = client.get(parts_url(morning.session))
    assert response.status_code == 302
    assert response.url == board_url(morning.session)


def test_the_page_polls_its_parts_with_htmx_under_the_policy(morning, client):
    html = client.get(board_url(morning.session)).content.decode()
    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in html
    assert '<script src="/static/js/board.js" defer></script>' in html
    assert f'hx-get="{parts_url(morning.session)}"' in html
    assert 'hx-trigger="every 5s"' in html
    assert 'hx-swap="none"' in html
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html).group(1)
    import json

    config = json.loads(config)
    assert config["allowEval"] is False
    assert config["allowScriptTags"] is False
    assert config["includeIndicatorStyles"] is False


def test_without_javascript_the_page_reloads_itself_and_shows_every_part(morning, client):
    html = client.get(board_url(morning.session)).content.decode()
    head = html.split("</head>")[0]
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in head
    body = html.split("</head>")[1]
    for name in PART_NAMES:
        assert f'data-testid="board-{name}"' in body
    assert "board-table--confirmed" in body  # the figures are in the page, not fetched later


# --- A fixed number of queries -------------------------------------------------------------------


def refresh_queries(client, session) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(parts_url(session), **HTMX)
    assert response.status_code == 200
    return len(queries)


# The session (with its club), the current round's seats with their results, the latest results,
# the standings, and the highlights: the big hands and their rulings, the skunks, the grand
# slams (the session's totals and its rounds), the winning streaks, the season's skunk king
# and the ratings' upsets (web/board.py's terms).
REFRESH_QUERIES = 12


def test_a_refresh_costs_a_fixed_number_of_queries_whatever_the_size(
    client, django_assert_num_queries
):
    """8 players and 40 players, each after a long history of the club (earlier sessions of
    40 players), and the 40-player morning again after more history: the same count."""
    small_club = ClubFactory(slug="small")
    big_club = ClubFactory(slug="big")
    small = Morning(small_club, players=8).session
    big_morning = Morning(big_club, players=40)
    big = big_morning.session
    with django_assert_num_queries(REFRESH_QUERIES):
        client.get(parts_url(small), **HTMX)
    with django_assert_num_queries(REFRESH_QUERIES):
        client.get(parts_url(big), **HTMX)
    organiser, confirmer = big_morning.organiser, big_morning.confirmer
    for week in range(1, 3):
        run_session(
            big_club,
            organiser,
            confirmer,
            players=40,
            rounds=2,
            date=dt.date(2026, 3, 5) - dt.timedelta(weeks=week),
            seed=week,
        )
    for game in Game.objects.filter(round=big_morning.round).exclude(
        results__state__in=[ResultState.DRAFT, ResultState.CONFIRMED]
    ):
        big_morning.confirm(game, [121, 60] + [70] * (game.side_count - 2))
    with django_assert_num_queries(REFRESH_QUERIES):
        client.get(parts_url(big), **HTMX)


def test_a_members_refresh_of_a_private_board_is_fixed_too(morning, client, member):
    Club.objects.filter(pk=morning.club.pk).update(standings_public=False)
    client.force_login(member("player"))
    first = refresh_queries(client, morning.session)
    game_services.result_confirm(result=morning.draft, actor=morning.confirmer)
    assert refresh_queries(client, morning.session) == first


# --- Links ---------------------------------------------------------------------------------------


def test_the_session_and_round_pages_link_to_the_board(morning, client_for):
    client = client_for("player")
    session_page = client.get(reverse("web:session", args=[morning.session.pk])).content.decode()
    assert f'href="{board_url(morning.session)}"' in session_page
    round_page = client.get(reverse("games:round", args=[morning.round.pk])).content.decode()
    assert f'href="{board_url(morning.session)}"' in round_page
