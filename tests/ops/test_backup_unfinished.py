"""Backups carry leaving early, sitting out, games not played and forfeits (docs/spec.md "A
Thursday, step by step", step 7): export, empty the database, import, and the rows and the
standings read the same."""

import datetime as dt
import io

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from club import services as club_services
from club.models import CheckIn, Club
from games import services as game_services
from games.models import Game, GameStatus, ResultSource
from games.selectors import session_standings
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.ops.backup_support import empty_the_database, export_text

pytestmark = pytest.mark.django_db

SLUG = "leavers"


@pytest.fixture(autouse=True)
def _fresh_content_types():
    ContentType.objects.clear_cache()
    yield
    ContentType.objects.clear_cache()


def test_the_round_trip_keeps_leaving_and_unfinished_games(tmp_path):
    club = ClubFactory(slug=SLUG, forfeit_points=1)
    organiser = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    checkins = [
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
        for _ in range(4)
    ]
    round_ = game_services.round_draw(session=session, actor=organiser, seed=5)
    first, second = round_.games.order_by("table")
    game_services.game_forfeit(
        game=first, actor=organiser, leaving=first.seats.first().player, leaves=True
    )
    game_services.game_not_played(game=second, actor=organiser, reason="Taken ill")
    club_services.checkin_sits_out(checkin=checkins[3], actor=organiser, round_number=3)
    before_rows = {
        "checkins": sorted(
            CheckIn.objects.values_list("player__display_name", "last_round", "sits_out")
        ),
        "games": sorted(
            Game.objects.values_list("table", "status", "forfeit_side", "status_reason")
        ),
        "standings": session_standings(session),
    }
    text = export_text(SLUG)
    path = tmp_path / "club.json"
    path.write_text(text, encoding="utf-8")
    empty_the_database()
    call_command("import_club", str(path), stdout=io.StringIO())
    club = Club.objects.get(slug=SLUG)
    assert club.house_rules.forfeit_points == 1
    session = club.sessions.get()
    after_rows = {
        "checkins": sorted(
            CheckIn.objects.values_list("player__display_name", "last_round", "sits_out")
        ),
        "games": sorted(
            Game.objects.values_list("table", "status", "forfeit_side", "status_reason")
        ),
        "standings": session_standings(session),
    }
    assert after_rows == before_rows
    assert {g.status for g in Game.objects.all()} == {GameStatus.FORFEIT, GameStatus.NOT_PLAYED}
    assert Game.objects.get(status=GameStatus.FORFEIT).results.get().source == ResultSource.FORFEIT
