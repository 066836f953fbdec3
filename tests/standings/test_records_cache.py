"""The all-time standings and records, and each season's table and running ranks, are kept in
the cache under the club's pages version: counted once, counted again after a change moves the
version on (standings.selectors.all_time_standings_cached, club_records_cached,
season_table_cached)."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from club.models import Club
from core.templatetags.pegboard import signed
from standings import selectors
from tests.builders import play_session
from tests.factories import PlayerFactory
from tests.web.test_highlights import THURSDAY, Season, text_of

pytestmark = pytest.mark.django_db


def a_player(club):
    return club.players.first() or PlayerFactory(club=club)


@pytest.mark.parametrize(
    ("cached", "counted_by"),
    [
        (selectors.club_records_cached, "club_records"),
        (selectors.all_time_standings_cached, "all_time_standings"),
        (lambda club: selectors.season_table_cached(club, 2026), "season_table"),
        (
            lambda club: selectors.player_season_cached(club, a_player(club), 2026),
            "player_season",
        ),
    ],
)
def test_the_all_time_figures_are_recounted_only_when_the_pages_version_moves(
    club, monkeypatch, cached, counted_by
):
    counted = []
    count = getattr(selectors, counted_by)

    def counting(club, *args, **kwargs):
        counted.append(club.pages_version)
        return count(club, *args, **kwargs)

    monkeypatch.setattr(selectors, counted_by, counting)
    first = cached(club)
    assert cached(club) == first
    assert len(counted) == 1  # the second read came from the cache

    Club.pages_changed(club.pk)  # as every service that changes results does
    club.refresh_from_db()
    cached(club)
    assert len(counted) == 2 and counted[1] == counted[0] + 1


def table_rows(html: str) -> list[str]:
    body = html.split('data-testid="season-standings"')[1].split("</tbody>")[0]
    return [text_of(row) for row in re.findall(r"<tr class=.*?</tr>", body, re.S)]


def play_a_third_thursday(club, season):
    """A session two weeks after the season's first, of three of its players, one round."""
    play_session(
        club,
        season.people,
        THURSDAY + dt.timedelta(weeks=2),
        [season.cy, season.bob, season.ann],
        rounds=1,
    )


@pytest.mark.parametrize(
    ("url", "counted"),
    [
        (reverse("standings:all_time"), selectors.all_time_standings),
        (
            reverse("standings:season") + "?season=2026",
            lambda club: selectors.season_standings(club, 2026),
        ),
    ],
)
def test_a_member_sees_the_tables_of_every_result_confirmed(club, client, member, url, counted):
    """A member's page is rendered afresh, from the kept standings: a new session's results
    and payouts are on it at once, as the standings count them."""
    season = Season(club)
    client.force_login(member("player"))
    before = table_rows(client.get(url).content.decode())
    play_a_third_thursday(club, season)
    after = table_rows(client.get(url).content.decode())
    assert after != before
    fresh = counted(Club.objects.get(pk=club.pk))
    assert len(after) == len(fresh)
    for row, standing in zip(after, fresh, strict=True):
        assert row.startswith(f"{standing.rank_label} {standing.player} {standing.sessions} ")


def test_a_member_sees_a_players_season_of_every_result_confirmed(club, client, member):
    """The player's line, rank and rank chart come from the kept season table: a new session's
    results are on the page at once."""
    season = Season(club)
    client.force_login(member("player"))
    url = reverse("standings:player", args=[season.cy.pk]) + "?season=2026"

    def line():
        html = client.get(url).content.decode()
        return text_of(html.split('data-testid="season-line">')[1].split("</ul>")[0])

    assert "2 sessions" in line()
    play_a_third_thursday(club, season)
    table = selectors.season_table(Club.objects.get(pk=club.pk), 2026)
    standing = next(s for s in table.standings if s.player_id == season.cy.pk)
    assert line().startswith(f"Rank {standing.rank_label} in 2026 {standing.game_points} ")
    assert "3 sessions" in line()
    assert len(table.ranks[season.cy.pk]) == 3


def test_a_spread_is_shown_signed():
    assert [signed(value) for value in (12, -7, 0)] == ["+12", "-7", "0"]
