"""The kept per-(session, player) totals (`games.totals`, `SessionTotal`) and what reads them.

Terms: a *line* here is (player_id, won, game_points, spread, skunks_given, skunked) as
`tally_lines` takes it; a *run* is games won in a row, and a *streak* a run across sessions (see
games/totals.py). A *history* is four sessions of a club of nine players with logins, played
through the real services with a seeded favourite who wins most games: one in the 2025 season
and three in 2026, then a correction, a judge's ruling that moves a confirmed score, drafts that
are never confirmed, and two sessions settled. The *naive recount* is written out below from the
confirmed `ResultLine` rows, one line at a time, as the totals must agree with it.
"""

import datetime as dt
import importlib
import itertools
import random
from collections import defaultdict

import pytest
from django.apps import apps as django_apps
from django.db import connection, transaction
from hypothesis import given
from hypothesis import strategies as st

from club.models import Club, Player, Session
from games import services
from games.models import Game, ResultLine, ResultSource, ResultState, SessionTotal, TableKind
from games.totals import refresh_session_totals, streak, tally_lines
from money.models import Payout, SettlementState
from money.services import session_settle
from scoring import services as scoring_services
from scoring.models import ClaimKind
from standings.selectors import all_time_standings, club_records, season_standings
from tests.builders import run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory

W, L = True, False
TOTAL_FIELDS = (
    "played",
    "won",
    "points",
    "spread",
    "skunks_given",
    "skunks_taken",
    "first_run",
    "last_run",
    "best_run",
)


def run_lengths(wins):
    """Lengths of the runs of wins in a sequence of won/lost, in order."""
    return [len(list(group)) for won, group in itertools.groupby(wins) if won]


def longest_run(wins):
    return max(run_lengths(wins), default=0)


def runs(wins):
    """(first_run, last_run, best_run) of one session's won/lost sequence, counted naively."""
    first = len(list(itertools.takewhile(bool, wins)))
    last = len(list(itertools.takewhile(bool, reversed(wins))))
    return first, last, longest_run(wins)


def session_row(wins):
    """A session as `streak` takes it: (played, first_run, last_run, best_run)."""
    return (len(wins), *runs(wins))


# --- tally_lines and streak on hand-made sequences ------------------------------------------------


def test_tally_lines_sums_each_players_lines_and_finds_their_runs():
    lines = [
        # player 7: W W L W W W L; player 8 interleaved: L W W
        (7, W, 3, 35, 1, False),
        (8, L, 0, -20, 0, True),
        (7, W, 2, 10, 0, False),
        (8, W, 2, 5, 0, False),
        (7, L, 0, -31, 0, True),
        (8, W, 3, 62, 2, False),
        (7, W, 2, 4, 0, False),
        (7, W, 3, 40, 1, False),
        (7, W, 2, 1, 0, False),
        (7, L, 0, -70, 0, True),
    ]

    tallies = tally_lines(lines)

    assert set(tallies) == {7, 8}
    assert vars(tallies[7]) == {
        "played": 7,
        "won": 5,
        "points": 12,
        "spread": -11,
        "skunks_given": 2,
        "skunks_taken": 2,
        "first_run": 2,
        "last_run": 0,
        "best_run": 3,
    }
    assert vars(tallies[8]) == {
        "played": 3,
        "won": 2,
        "points": 5,
        "spread": 47,
        "skunks_given": 2,
        "skunks_taken": 1,
        "first_run": 0,
        "last_run": 2,
        "best_run": 2,
    }


@pytest.mark.parametrize(
    "wins, expected",
    [
        ([W], (1, 1, 1)),
        ([L], (0, 0, 0)),
        ([W, W, W], (3, 3, 3)),
        ([L, W, W, L], (0, 0, 2)),
        ([W, L, W, W, W, L, W], (1, 1, 3)),
        ([L, L, W], (0, 1, 1)),
    ],
)
def test_tally_lines_runs(wins, expected):
    [tally] = tally_lines([(1, won, 2 * won, 0, 0, False) for won in wins]).values()

    assert (tally.first_run, tally.last_run, tally.best_run) == expected
    assert (tally.played, tally.won, tally.points) == (len(wins), sum(wins), 2 * sum(wins))


def test_tally_lines_of_nothing_is_empty():
    assert tally_lines([]) == {}


@pytest.mark.parametrize(
    "sessions, expected",
    [
        ([], 0),
        ([[L, L]], 0),
        ([[W, W, W]], 3),  # all won: first = last = best = played
        ([[L, W, W, W, W, L]], 4),  # the best run is inside the session
        ([[W, L, W, W], [W, W, W], [W, W, L, L, L]], 7),  # 2 + 3 + 2 across three sessions
        ([[W, W], [L, W], [W, W], [W, W]], 5),  # a streak still running at the end
        ([[L, W, W], [L, L, L]], 2),  # a run that ends with its session ends there
        ([[W, W, L, W, W, W, W, L], [W, L]], 4),  # a session's best beats the joins
        ([[W, W, W], [L], [W, W, W]], 3),  # one loss breaks it
    ],
)
def test_streak_joins_runs_across_sessions(sessions, expected):
    assert streak([session_row(wins) for wins in sessions]) == expected
    assert longest_run(list(itertools.chain.from_iterable(sessions))) == expected


sequences = st.lists(st.lists(st.booleans(), min_size=1, max_size=9), min_size=1, max_size=9)


@given(sessions=sequences)
def test_streak_over_the_tallies_is_the_longest_run_of_the_whole_sequence(sessions):
    rows = []
    for wins in sessions:
        [tally] = tally_lines([(1, won, 0, 0, 0, False) for won in wins]).values()
        assert (tally.first_run, tally.last_run, tally.best_run) == runs(wins)
        rows.append((tally.played, tally.first_run, tally.last_run, tally.best_run))

    assert streak(rows) == longest_run(list(itertools.chain.from_iterable(sessions)))


@given(first=sequences, second=sequences)
def test_interleaved_players_are_tallied_apart(first, second):
    """Two players' sessions, their lines interleaved in one list per session as a session's
    lines come from the database: each player's streak is still their own."""
    rows = defaultdict(list)
    for mine, theirs in zip(first, second, strict=False):
        lines = [
            (player, won, 0, 0, 0, False)
            for pair in itertools.zip_longest(mine, theirs)
            for player, won in zip((1, 2), pair, strict=True)
            if won is not None
        ]
        for player, tally in tally_lines(lines).items():
            rows[player].append((tally.played, tally.first_run, tally.last_run, tally.best_run))
    played = min(len(first), len(second))

    assert streak(rows[1]) == longest_run(list(itertools.chain.from_iterable(first[:played])))
    assert streak(rows[2]) == longest_run(list(itertools.chain.from_iterable(second[:played])))


# --- A history played through the services --------------------------------------------------------

DATES = [dt.date(2025, 12, 4), dt.date(2026, 1, 8), dt.date(2026, 1, 15), dt.date(2026, 1, 22)]


def favourite_wins(seed, favourite):
    """Scores for run_session: the favourite's side wins 4 games in 5, anyone else's otherwise."""
    rng = random.Random(seed)

    def scores(game):
        sides = dict(game.seats.values_list("player_id", "side"))
        count = game.side_count
        winner = sides[favourite] if favourite in sides and rng.random() < 0.8 else None
        if winner is None:
            winner = rng.randrange(count)
        result = [rng.randint(50, 110) for _ in range(count)]
        result[winner] = 121
        return result

    return scores


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker) -> tuple[int, list[int]]:
    """The history's club and sessions (ids), built once for the module inside a transaction
    rolled back after it; each test runs in a savepoint of it, so what one changes is gone
    before the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        club, sessions = build_history()
        connection.check_constraints()  # once, not again at every test's teardown (PostgreSQL)
        yield club.pk, [session.pk for session in sessions]
        transaction.set_rollback(True)


@pytest.fixture
def history(built, db):
    """The history's club and its sessions in date order, read afresh for the test."""
    club_id, session_ids = built
    sessions = Session.objects.in_bulk(session_ids)
    return Club.objects.get(pk=club_id), [sessions[pk] for pk in session_ids]


def build_history():
    club = ClubFactory()
    organiser = UserFactory(role="organisers", club=club)
    confirmer = UserFactory(role="organisers", club=club)
    judge = UserFactory(role="judges", club=club)
    roster = [PlayerFactory(club=club, user=UserFactory(role="players")) for _ in range(9)]
    favourite = roster[4].pk
    sessions = [
        run_session(
            club,
            organiser,
            confirmer,
            players=players,
            rounds=rounds,
            date=date,
            seed=index,
            scores=favourite_wins(index, favourite),
        )
        for index, (date, players, rounds) in enumerate(
            zip(DATES, [9, 8, 9, 9], [3, 4, 3, 1], strict=True)
        )
    ]

    # A correction: the first game of the second session that the organiser does not play in
    # (he corrects no game of his own: tests/games/test_own_side.py), winner and loser swapped.
    game = (
        Game.objects.filter(session=sessions[1], kind=TableKind.TWO)
        .exclude(seats__player__user=organiser)
        .order_by("round", "table")[0]
    )
    before = game.results.get(state=ResultState.CONFIRMED).scores
    services.result_correct(
        game=game, actor=organiser, scores=[before[1], before[0]], reason="Scores swapped."
    )

    # A judge's ruling: a loser of the third session's last round under-claimed a 16 hand and
    # the judge gives the 16, so their recorded score moves up by 4.
    game = Game.objects.filter(session=sessions[2], kind=TableKind.TWO).order_by(
        "-round__number", "table"
    )[0]
    loser = ResultLine.objects.get(
        result__game=game, result__state=ResultState.CONFIRMED, won=False
    )
    claim = scoring_services.claim_file(
        game=game,
        actor=organiser,
        kind=ClaimKind.HAND,
        claimant=loser.player,
        claimed_points=12,
        hand="8S 7H 7D 6C",
        starter="2H",
    )
    dispute = scoring_services.dispute_open(
        claim=claim, actor=loser.player.user, statement="I said sixteen."
    )
    ruling = scoring_services.dispute_rule(
        dispute=dispute,
        actor=judge,
        decision="override",
        points={loser.side: 16, 1 - loser.side: 0},
        reason="Both heard sixteen.",
    )
    assert ruling.result is not None and ruling.result.source == ResultSource.RULING

    # Drafts never confirmed: the last session's second round, typed in and left.
    second = services.round_draw(session=sessions[3], actor=organiser, seed=9)
    services.round_results_enter(
        round_=second,
        actor=organiser,
        scores={game.table: [121] + [100] * (game.side_count - 1) for game in second.games.all()},
    )

    for session in sessions[:2]:
        session_settle(session=session, actor=organiser, seed=1)
    return club, sessions


def confirmed_lines(club):
    """Every confirmed line of the club, in the order games are played."""
    return list(
        ResultLine.objects.filter(
            result__state=ResultState.CONFIRMED, result__game__session__club=club
        )
        .select_related("result__game__session", "result__game__round")
        .order_by(
            "result__game__session__date",
            "result__game__round__number",
            "result__game__table",
            "pk",
        )
    )


def naive_totals(club):
    """{(session id, player id): totals} recounted from the confirmed lines."""
    wins = defaultdict(list)
    totals = {}
    for line in confirmed_lines(club):
        session = line.result.game.session
        key = (session.pk, line.player_id)
        total = totals.setdefault(key, {"date": session.date, **dict.fromkeys(TOTAL_FIELDS[:6], 0)})
        total["played"] += 1
        total["won"] += 1 if line.won else 0
        total["points"] += line.game_points
        total["spread"] += line.spread
        total["skunks_given"] += line.skunks_given
        total["skunks_taken"] += 1 if line.skunked else 0
        wins[key].append(line.won)
    for key, total in totals.items():
        total["first_run"], total["last_run"], total["best_run"] = runs(wins[key])
    return totals


def kept_totals(club):
    return {
        (row.pop("session_id"), row.pop("player_id")): row
        for row in SessionTotal.objects.filter(club=club).values(
            "session_id", "player_id", "date", *TOTAL_FIELDS
        )
    }


def naive_standings(club, lines, *, best=None):
    """Standings rows as (rank, tied, player_id, name, sessions, played, points, won, lost,
    spread, skunks given, skunks taken, money won), from the lines given."""
    per_session = defaultdict(lambda: defaultdict(list))
    for line in lines:
        per_session[line.player_id][line.result.game.session].append(line)
    paid = Payout.objects.filter(
        settlement__state=SettlementState.CURRENT, settlement__session__club=club
    )
    sessions_of = {session for days in per_session.values() for session in days}
    money = defaultdict(int)
    for payout in paid.filter(settlement__session__in=sessions_of):
        money[payout.player_id] += payout.amount_cents
    rows = []
    for player_id, days in per_session.items():
        counted = list(days.items())
        if best:
            counted.sort(
                key=lambda item: (
                    -sum(line.game_points for line in item[1]),
                    -sum(line.spread for line in item[1]),
                    item[0].date,
                )
            )
            counted = counted[:best]
        mine = [line for _, session_lines in counted for line in session_lines]
        won = sum(line.won for line in mine)
        rows.append(
            [
                player_id,
                Player.objects.get(pk=player_id).display_name,
                len(counted),
                len(mine),
                sum(line.game_points for line in mine),
                won,
                len(mine) - won,
                sum(line.spread for line in mine),
                sum(line.skunks_given for line in mine),
                sum(line.skunked for line in mine),
                money[player_id],
            ]
        )
    rows.sort(key=lambda r: (-r[4], -r[5], -r[7], r[1].lower()))
    keys = [(r[4], r[5], r[7]) for r in rows]
    return [
        (
            1 + sum(other > keys[index] for other in keys),
            keys.count(keys[index]) > 1,
            *row,
        )
        for index, row in enumerate(rows)
    ]


def as_rows(standings):
    return [
        (
            s.rank,
            s.tied,
            s.player_id,
            s.player,
            s.sessions,
            s.played,
            s.game_points,
            s.won,
            s.lost,
            s.spread,
            s.skunks_given,
            s.skunks_taken,
            s.money_cents,
        )
        for s in standings
    ]


def test_the_kept_totals_are_a_recount_of_the_confirmed_lines(history):
    club, sessions = history
    kept = kept_totals(club)

    assert kept == naive_totals(club)
    # Every session is counted; the last one's drafts are not: everyone played round 1 only.
    assert {session_id for session_id, _ in kept} == {session.pk for session in sessions}
    assert {total["played"] for (sid, _), total in kept.items() if sid == sessions[3].pk} == {1}
    # The correction and the ruling made new versions that are the ones counted.
    sources = set(
        ResultLine.objects.filter(result__state=ResultState.CONFIRMED).values_list(
            "result__source", flat=True
        )
    )
    assert sources == {ResultSource.ENTRY, ResultSource.CORRECTION, ResultSource.RULING}
    assert ResultLine.objects.filter(result__state=ResultState.DRAFT).count() == 9


def test_refreshing_again_changes_nothing(history):
    club, sessions = history
    before = kept_totals(club)

    for session in sessions:
        refresh_session_totals(session)

    assert kept_totals(club) == before


@pytest.mark.parametrize("best", [None, 1])
def test_season_standings_are_a_recount_of_the_seasons_lines(history, best):
    club, _ = history
    Club.objects.filter(pk=club.pk).update(best_sessions=best)
    club.refresh_from_db()
    lines = [line for line in confirmed_lines(club) if line.result.game.session.date.year == 2026]

    standings = as_rows(season_standings(club, 2026))

    assert standings == naive_standings(club, lines, best=best)
    assert any(row[-1] for row in standings)  # the settled session's winners have money
    earlier = [line for line in confirmed_lines(club) if line.result.game.session.date.year == 2025]
    assert as_rows(season_standings(club, 2025)) == naive_standings(club, earlier, best=best)


def test_all_time_standings_are_a_recount_of_every_line(history):
    club, _ = history

    assert as_rows(all_time_standings(club)) == naive_standings(club, confirmed_lines(club))


def test_records_are_a_recount_of_every_line(history):
    club, _ = history
    names = dict(Player.objects.filter(club=club).values_list("pk", "display_name"))
    wins = defaultdict(list)
    points = defaultdict(int)
    session_games = defaultdict(int)
    for line in confirmed_lines(club):
        session = line.result.game.session
        wins[line.player_id].append(line.won)
        points[(line.player_id, session.date)] += line.game_points
        session_games[(line.player_id, session.pk)] += 1
    streaks = {player_id: longest_run(sequence) for player_id, sequence in wins.items()}
    longest = sorted(streaks.items(), key=lambda item: (-item[1], names[item[0]]))[:5]
    most = sorted(points.items(), key=lambda item: (-item[1], item[0][1], item[0][0]))[:5]

    records = club_records(club)

    assert [(s.player, s.games) for s in records.longest_streaks] == [
        (names[player_id], n) for player_id, n in longest if n
    ]
    assert records.most_points == [
        {"player": names[player_id], "date": date, "points": n} for (player_id, date), n in most
    ]
    # The favourite's best streak runs across sessions: longer than any one session's games.
    assert longest[0][1] > max(session_games.values())


def test_the_data_migration_counts_what_the_services_kept(history):
    club, sessions = history
    kept = kept_totals(club)
    migration = importlib.import_module("games.migrations.0002_session_totals")
    SessionTotal.objects.all().delete()  # the migration fills a table it has just created

    migration.count_existing(django_apps, None)

    assert kept_totals(club) == kept
    assert SessionTotal.objects.count() == len(kept)
