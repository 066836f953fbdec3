"""The all-time standings and records are kept in the cache under the club's pages version:
counted once, counted again after a change moves the version on
(standings.selectors.all_time_standings_cached, club_records_cached)."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from club.models import Club
from core.templatetags.pegboard import signed
from standings import selectors
from tests.builders import play_session
from tests.web.test_highlights import THURSDAY, Season, text_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("cached", "counted_by"),
    [
        (selectors.club_records_cached, "club_records"),
        (selectors.all_time_standings_cached, "all_time_standings"),
    ],
)
def test_the_all_time_figures_are_recounted_only_when_the_pages_version_moves(
    club, monkeypatch, cached, counted_by
):
    counted = []
    count = getattr(selectors, counted_by)

    def counting(club, **kwargs):
        counted.append(club.pages_version)
        return count(club, **kwargs)

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


def test_a_member_sees_the_all_time_table_of_every_result_confirmed(club, client, member):
    """A member's page is rendered afresh, from the kept standings: a new session's results
    and payouts are on it at once, as the standings count them."""
    season = Season(club)
    client.force_login(member("player"))
    url = reverse("standings:all_time")
    before = table_rows(client.get(url).content.decode())
    play_session(
        club,
        season.people,
        THURSDAY + dt.timedelta(weeks=2),
        [season.cy, season.bob, season.ann],
        rounds=1,
    )
    after = table_rows(client.get(url).content.decode())
    assert after != before
    fresh = selectors.all_time_standings(Club.objects.get(pk=club.pk))
    assert len(after) == len(fresh)
    for row, standing in zip(after, fresh, strict=True):
        assert row.startswith(f"{standing.rank_label} {standing.player} {standing.sessions} ")


def test_a_spread_is_shown_signed():
    assert [signed(value) for value in (12, -7, 0)] == ["+12", "-7", "0"]
