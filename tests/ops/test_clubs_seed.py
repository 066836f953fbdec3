"""Many clubs in one database (ops.clubs_seed, ops.clubs_copy, `seed_history --clubs`).

Terms: the *clubs* are what `build_clubs` makes once for this module (rolled back at the end):
three clubs of one year, every eighth week, two rounds a session, the first played through the
services and the other two copied from it in bulk, and the long club: a copy of the first,
stacked back to four years (three copies, each of the played sessions alone). Each test runs
in its own savepoint.
"""

import datetime as dt
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from club.models import Club, Player, Session, SessionState
from core.models import AuditEntry
from games.models import Game, SessionTotal
from money.models import LedgerEntry
from ops.clubs_copy import club_copy
from ops.clubs_seed import build_clubs, club_figures, compare_clubs
from scoring.models import Claim
from standings.models import GameRating
from standings.ratings import replay_from

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 19)  # a Thursday
SMALL = {"players": 8, "today": TODAY, "rounds": 2, "weeks_apart": 8, "seed": 3}


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        report = build_clubs(clubs=3, years=1, long_years=4, check=True, **SMALL)
        connection.check_constraints()
        yield report
        transaction.set_rollback(True)


def test_the_first_club_is_played_and_the_others_copied(built):
    assert built.clubs == ["club-001", "club-002", "club-003"]
    assert built.played == ["club-001"]
    first, copy = Club.objects.get(slug="club-001"), Club.objects.get(slug="club-003")
    assert Session.objects.filter(club=copy).count() == Session.objects.filter(club=first).count()
    assert Game.objects.filter(session__club=copy).count() > 0


def test_a_copy_shows_what_its_source_shows(built):
    checked = built.check["club-002_copies_club-001"]
    assert {"session_totals", "payouts", "ledger_sums", "season_standings", "ratings"} <= set(
        checked
    )
    assert all(figure["same"] for figure in checked.values()), checked
    assert all(checked[name]["rows"] for name in ("session_totals", "payouts", "ratings"))


def test_the_check_sees_a_copy_that_differs(built):
    copy = Club.objects.get(slug="club-002")
    total = SessionTotal.objects.filter(club=copy).order_by("pk").first()
    SessionTotal.objects.filter(pk=total.pk).update(points=total.points + 1)
    checked = compare_clubs("club-001", "club-002")
    assert not checked["session_totals"]["same"]
    assert not checked["all_time_standings"]["same"]
    assert checked["payouts"]["same"]


def test_a_copys_rows_are_its_own(built):
    first, copy = Club.objects.get(slug="club-001"), Club.objects.get(slug="club-002")
    players = set(Player.objects.filter(club=copy).values_list("pk", flat=True))
    assert not players & set(Player.objects.filter(club=first).values_list("pk", flat=True))
    for model, path in (
        (SessionTotal, "session__club"),
        (LedgerEntry, "session__club"),
        (GameRating, "session__club"),
    ):
        rows = model.objects.filter(**{path: copy})
        assert rows.exists()
        assert set(rows.values_list("player_id", flat=True)) - {None} <= players, model
        assert set(rows.values_list("club_id", flat=True)) == {copy.pk}, model
    staff = get_user_model().objects.filter(username__startswith="club-002-")
    assert staff.count() == Player.objects.filter(club=copy, user__isnull=False).count() > 0
    for claim in Claim.objects.filter(game__session__club=copy):
        assert {int(pk) for pk in claim.parties} <= players
    tokens = Game.objects.filter(session__club__in=[first, copy]).values_list("table_token")
    assert len(set(tokens)) == len(tokens)
    entry = AuditEntry.objects.filter(club=copy, content_type__model="session").first()
    assert Session.objects.get(pk=entry.object_id).club == copy


def test_a_copys_open_session_works_and_new_rows_get_new_ids(built, client):
    copy = Club.objects.get(slug="club-002")
    this_morning = Session.objects.get(club=copy, state=SessionState.OPEN)
    game = Game.objects.filter(session=this_morning).order_by("-round__number").first()
    assert client.get(f"/t/{game.table_token}/").status_code == 200
    player = Player.objects.create(club=copy, display_name="Newcomer Nell")
    assert player.pk > Player.objects.filter(club__slug="club-003").order_by("-pk")[1].pk


def test_the_long_club_holds_its_years_and_its_copies_match(built):
    long_club = Club.objects.get(slug="club-long")
    dates = list(Session.objects.filter(club=long_club).order_by("date").values_list("date"))
    assert dates[0][0] >= dt.date(2022, 11, 20)
    assert dates[0][0] < dt.date(2023, 3, 1)
    assert built.stacked_sessions > 0
    assert len(set(dates)) == len(dates)
    stacked = built.check["club-long_stacked"]
    assert len(stacked) >= 3  # a span of the played sessions is a little under a year
    for figures in stacked.values():
        assert all(f["same"] for f in figures.values()), figures
        assert all(figures[name]["rows"] for name in ("session_totals", "payouts", "ledger_sums"))


def test_the_long_clubs_ratings_are_the_replay_of_all_its_years(built):
    long_club = Club.objects.get(slug="club-long")
    kept = list(GameRating.objects.filter(club=long_club).values_list("game_id", "mu_after"))
    first = Session.objects.filter(club=long_club).order_by("date").first()
    assert GameRating.objects.filter(session=first).exists()
    replay_from(long_club.pk)
    assert list(GameRating.objects.filter(club=long_club).values_list("game_id", "mu_after")) == (
        kept
    )


def test_the_copy_check_compares_a_club_with_itself_alike(built):
    club = Club.objects.get(slug="club-001")
    assert club_figures(club) == club_figures(club)


def test_a_slug_taken_builds_nothing(built):
    before = Club.objects.count()
    with pytest.raises(CommandError, match="exist already: club-001") as error:
        call_command("seed_history", "--clubs=2", "--years=1", "--players=8", stdout=io.StringIO())
    assert error.value.returncode == 2
    assert Club.objects.count() == before


def test_a_copy_into_a_taken_slug_fails_whole(built):
    source = Club.objects.get(slug="club-001")
    before = Session.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        club_copy(source=source, slug="club-002", name="Another")
    assert Session.objects.count() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--clubs=0"], "--clubs"),
        (["--clubs=2", "--played-clubs=3"], "--played-clubs"),
        (["--clubs=2", "--years=3", "--long-club-years=2"], "--long-club-years"),
        (["--long-club-years=5"], "--long-club-years"),
        (["--clubs=2", "--rounds=2"], "--rounds: one club's history only"),
    ],
)
def test_bad_options_are_exit_code_2(args, message):
    with pytest.raises(CommandError, match=message) as error:
        call_command("seed_history", *args, stdout=io.StringIO())
    assert error.value.returncode == 2


def test_the_command_names_each_figure_that_differs_even_where_the_source_has_none():
    from ops.management.commands.seed_history import _verdicts

    figures = {"payouts": {"rows": 0, "same": False}, "long": {"x": {"rows": 2, "same": True}}}
    assert list(_verdicts(figures)) == [("payouts", False), ("long x", True)]
