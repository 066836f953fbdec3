"""The club's season everywhere, from one function (club.seasons.in_season): the draw's season
history, the session list's season filter and the standings all read the club's season
(docs/spec.md "A Thursday, step by step", step 3: "'Season' is the club's season (its start date
in the house rules; one function, `club.seasons.in_season`, for the draw, the session list and the
standings)"), and the pages name a season alike ("2025–26" when it does not start on 1 January)."""

import datetime as dt
from itertools import combinations

import pytest
from django.urls import reverse

from club import services as club_services
from club.models import Session
from club.seasons import in_season, season_label, seasons_of
from games import services as game_services
from games.models import Game
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def autumn_club():
    """A club whose seasons start on 1 September."""
    return ClubFactory(season_start_month=9, season_start_day=1)


def opponents(round_):
    pairs = set()
    for game in Game.objects.filter(round=round_).prefetch_related("seats"):
        for a, b in combinations(game.seats.all(), 2):
            if a.side != b.side:
                pairs.add(frozenset((a.player_id, b.player_id)))
    return pairs


def first_rounds(club, dates, seed=7):
    """Round 1 of a session on each date, the same four players and the same seed each time:
    with nothing in the draw's history, the same seed draws the same tables."""
    actor = UserFactory(role="organisers", club=club)
    players = [PlayerFactory(club=club) for _ in range(4)]
    pairs = []
    for date in dates:
        session = club_services.session_open(club=club, actor=actor, date=date)
        for player in players:
            club_services.checkin_create(session=session, actor=actor, player=player)
        pairs.append(opponents(game_services.round_draw(session=session, actor=actor, seed=seed)))
    return pairs


def test_the_draw_avoids_an_opponent_from_october_of_the_previous_calendar_year(autumn_club):
    """October 2025 and March 2026 are one season (2025–26) for a club starting 1 September: the
    March draw avoids October's opponents (it read only 2026 sessions before)."""
    october, march = first_rounds(autumn_club, [dt.date(2025, 10, 2), dt.date(2026, 3, 5)])
    assert len(march) == 2
    assert not october & march


def test_the_draw_forgets_the_previous_season_in_the_same_calendar_year(autumn_club):
    """August 2026 is the end of season 2025–26 and September 2026 the start of 2026–27: the
    September draw does not avoid August's opponents, so the same seed draws the same tables."""
    august, september = first_rounds(autumn_club, [dt.date(2026, 8, 27), dt.date(2026, 9, 3)])
    assert august == september


def test_in_season_bounds_a_season_from_its_first_day_to_the_next_first_day(autumn_club):
    for date in ("2025-08-31", "2025-09-01", "2026-08-31", "2026-09-01"):
        Session.objects.create(club=autumn_club, date=date, rules={})
    dates = Session.objects.filter(in_season(autumn_club, 2025)).values_list("date", flat=True)
    assert sorted(dates) == [dt.date(2025, 9, 1), dt.date(2026, 8, 31)]
    assert seasons_of(autumn_club, [dt.date(2025, 8, 31), dt.date(2026, 8, 31)]) == [2025, 2024]


def test_season_names_follow_the_club_start():
    assert season_label(ClubFactory(), 2026) == "2026"
    assert season_label(ClubFactory(season_start_month=9), 2025) == "2025–26"
    assert season_label(ClubFactory(season_start_month=9), 1999) == "1999–00"


def test_the_session_list_filters_by_the_club_season_and_names_it_as_the_standings_do(
    client, member, club
):
    club.season_start_month = 9
    club.save()
    for date in (dt.date(2025, 10, 2), dt.date(2026, 3, 5), dt.date(2026, 9, 3)):
        Session.objects.create(club=club, date=date, rules=club.house_rules.snapshot())
    client.force_login(member("organiser"))

    listed = client.get(reverse("club:sessions"), {"season": "2025"})
    assert listed.status_code == 200
    assert sorted(s.date for s in listed.context["filter"].qs) == [
        dt.date(2025, 10, 2),
        dt.date(2026, 3, 5),
    ]
    choices = list(listed.context["filter"].form.fields["season"].choices)
    assert choices[1:] == [("2026", "2026–27"), ("2025", "2025–26")]
    assert "2025–26" in listed.content.decode()

    standings = client.get(reverse("standings:season"), {"season": "2025"}).content.decode()
    assert "Standings 2025–26" in standings
    assert '<option value="2025" selected>2025–26</option>' in standings


def test_a_calendar_year_club_names_its_seasons_by_the_year(client, member, club):
    for date in (dt.date(2025, 10, 2), dt.date(2026, 3, 5)):
        Session.objects.create(club=club, date=date, rules=club.house_rules.snapshot())
    client.force_login(member("organiser"))
    listed = client.get(reverse("club:sessions"), {"season": "2025"})
    assert [s.date for s in listed.context["filter"].qs] == [dt.date(2025, 10, 2)]
    assert list(listed.context["filter"].form.fields["season"].choices)[1:] == [
        ("2026", "2026"),
        ("2025", "2025"),
    ]
    assert (
        "Standings 2025"
        in client.get(reverse("standings:season"), {"season": "2025"}).content.decode()
    )
