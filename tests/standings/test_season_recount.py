"""The standings of one club's season against a naive recount from its result lines: every
figure of the season table, a club counting each player's best N sessions, and the running rank
on a player's page after each session.

Terms: the *season* is `build_season`'s (tests/standings/test_selectors.py) 2025 of four sessions
of nine players, each played through the services and settled; built once for the module, and
its club is the only one here. A *naive recount* adds up the confirmed `ResultLine` rows and the
current settlements' payouts one at a time, as the selectors must agree with it.
"""

import pytest
from django.db import connection, transaction

from club.models import Club
from games.models import ResultLine, ResultState
from money.models import Payout, SettlementState
from standings.selectors import all_time_standings, player_season, season_standings
from tests.factories import ClubFactory, UserFactory
from tests.standings.test_selectors import build_season

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built_season(django_db_setup, django_db_blocker) -> int:
    """A club's 2025 season of four sessions of nine players (`build_season`), built once for
    the module inside a transaction rolled back after it: the club's id. Each test runs in a
    savepoint of it, so what one changes (the club's best N) is gone before the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        club = ClubFactory()
        build_season(club, (UserFactory(role="organisers"), UserFactory(role="organisers")), 2025)
        connection.check_constraints()  # once, not again at every test's teardown (PostgreSQL)
        yield club.pk
        transaction.set_rollback(True)


@pytest.fixture
def season_of(built_season):
    """The built season's club, counting each player's best `best` sessions (None: all)."""

    def club_counting(best: int | None) -> Club:
        Club.objects.filter(pk=built_season).update(best_sessions=best)
        return Club.objects.get(pk=built_season)

    return club_counting


def naive(club, year, best=None):
    """name -> figures, recounted from the confirmed result lines and the payouts."""
    per_session: dict = {}
    for line in ResultLine.objects.filter(
        result__state=ResultState.CONFIRMED, result__game__session__date__year=year
    ).select_related("player", "result__game__session"):
        key = (line.player.display_name, line.result.game.session_id)
        row = per_session.setdefault(key, [0, 0, 0, 0, 0, 0])
        row[0] += line.game_points
        row[1] += 1
        row[2] += line.won
        row[3] += line.spread
        row[4] += line.skunks_given
        row[5] += line.skunked
    money: dict = {}
    for payout in Payout.objects.filter(
        settlement__state=SettlementState.CURRENT, settlement__session__date__year=year
    ).select_related("player"):
        money[payout.player.display_name] = (
            money.get(payout.player.display_name, 0) + payout.amount_cents
        )
    table: dict = {}
    by_player: dict = {}
    for (name, _), row in per_session.items():
        by_player.setdefault(name, []).append(row)
    for name, rows in by_player.items():
        if best:
            rows = sorted(rows, key=lambda r: (-r[0], -r[3]))[:best]
        table[name] = {
            "sessions": len(rows),
            "game_points": sum(r[0] for r in rows),
            "played": sum(r[1] for r in rows),
            "won": sum(r[2] for r in rows),
            "lost": sum(r[1] - r[2] for r in rows),
            "spread": sum(r[3] for r in rows),
            "skunks_given": sum(r[4] for r in rows),
            "skunks_taken": sum(r[5] for r in rows),
            "money_cents": money.get(name, 0),
        }
    return table


def as_dict(standing):
    return {
        key: getattr(standing, key)
        for key in (
            "sessions",
            "game_points",
            "played",
            "won",
            "lost",
            "spread",
            "skunks_given",
            "skunks_taken",
            "money_cents",
        )
    }


def test_every_figure_equals_a_naive_recount(season_of):
    club = season_of(None)
    standings = season_standings(club, 2025)
    assert {s.player: as_dict(s) for s in standings} == naive(club, 2025)
    assert sum(s.spread for s in standings) == 0
    points = [s.game_points for s in standings]
    assert points == sorted(points, reverse=True)


def test_best_n_sessions(season_of):
    club = season_of(2)
    standings = season_standings(club, 2025)
    assert {s.player: as_dict(s) for s in standings} == naive(club, 2025, best=2)
    assert max(s.sessions for s in standings) == 2


@pytest.mark.parametrize("best", [2, None])
def test_the_running_rank_counts_best_n_sessions_as_the_season_table_does(season_of, best):
    """After each session, a player's rank on their page is the rank the season table would give
    them with the sessions played so far, each player's best N only; after the last session it is
    their rank in the season table."""
    club = season_of(best)
    table = {s.player_id: s.rank for s in season_standings(club, 2025)}
    everything = {s.player_id: s.rank for s in all_time_standings(club)}
    if best:
        assert table != everything, "the data must make best N change someone's rank"
    dates = sorted(club.sessions.values_list("date", flat=True))
    so_far = {}  # the recount before each date (None: the whole season), made once each
    for player in club.players.filter(active=True):
        data = player_season(club, player, 2025)
        assert data.rank_by_session, player
        assert data.rank_by_session[-1][1] == table[player.pk], player
        for day, rank in data.rank_by_session:
            until = dates[dates.index(day) + 1] if day != dates[-1] else None
            if until not in so_far:
                so_far[until] = naive_ranks(club, 2025, best=best, until=until)
            assert rank == so_far[until][player.display_name], (player, day)


def naive_ranks(club, year, *, best, until):
    """name -> rank by game points, wins, spread over the sessions before `until` (best N)."""
    lines = ResultLine.objects.filter(
        result__state=ResultState.CONFIRMED, result__game__session__date__year=year
    )
    if until is not None:
        lines = lines.filter(result__game__session__date__lt=until)
    per_session: dict = {}
    for line in lines.select_related("player"):
        key = (line.player.display_name, line.result.game.session_id)
        row = per_session.setdefault(key, [0, 0, 0])
        row[0] += line.game_points
        row[1] += line.won
        row[2] += line.spread
    by_player: dict = {}
    for (name, _), row in per_session.items():
        by_player.setdefault(name, []).append(row)
    totals = {
        name: tuple(map(sum, zip(*sorted(rows, key=lambda r: (-r[0], -r[2]))[:best], strict=True)))
        for name, rows in by_player.items()
    }
    return {
        name: 1 + sum(1 for other in totals.values() if other > mine)
        for name, mine in totals.items()
    }
