"""`manage.py seed_history`: a year of weekly sessions played through the services
(club/history.py).

Terms: the *history* is what `seed_history --years=1 --players=8 --seed=3 --today=2026-11-19`
builds into the club `h`, built once for this module (about 15 s of work) inside a transaction
rolled back at the end; each test runs in its own savepoint. *This morning* is the last meeting
day, whose session is left open part-way through. The *twins* `t1` and `t2` are two builds of one
cheaper history (the same seed and day, two rounds a session, every sixth week: `TWIN`), which
must come out the same game for game; they are built beside `h`, after it.
"""

import datetime as dt
import io
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.db.models import Sum

from club.models import CheckIn, Club, Session, SessionState
from core.models import AuditEntry
from games.audit import GameVerb
from games.models import Game, Result, ResultLine, ResultSource, ResultState, Seat
from games.selectors import session_standings
from money.models import Payout, Settlement, SettlementState
from ops.history import build_history
from scoring.models import Claim, Dispute, DisputeState
from scoring.selectors import judges_queue
from standings.models import GameRating
from standings.ratings import replay_from
from standings.selectors import season_standings

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TODAY = dt.date(2026, 11, 19)  # a Thursday
ARGS = ("--years=1", "--players=8", "--seed=3", f"--today={TODAY}", "--json")
TWIN = {"years": 1, "players": 8, "seed": 3, "today": TODAY, "rounds": 2, "weeks_apart": 6}


def seed(slug: str) -> tuple[dict, float]:
    """The command's summary and the processor time it took in this process.

    Processor time, not wall time: on a machine busy with other work (the suite's other workers,
    a second suite beside it) a build of a few seconds' work can take minutes of wall time, which
    says nothing about the command."""
    out = io.StringIO()
    start = time.process_time()
    call_command("seed_history", *ARGS, f"--slug={slug}", stdout=out)
    return json.loads(out.getvalue()), time.process_time() - start


def check_constraints_once() -> None:
    """Check the foreign keys of everything built so far, now, once.

    Left pending in the module's transaction, PostgreSQL's deferred checks of both builds run
    again at every test's teardown: pytest-django checks constraints inside the test's savepoint,
    and rolling that back makes them pending again (about five seconds a test). Checked here,
    they are done for the module (without the statement timeout: config/test_postgresql).
    """
    connection.check_constraints()


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """{slug: (summary, processor seconds)} for the history, and {slug: report} for its twins,
    rolled back after."""
    with django_db_blocker.unblock(), transaction.atomic():
        histories = {"h": seed("h")}
        histories |= {slug: build_history(slug=slug, **TWIN) for slug in ("t1", "t2")}
        check_constraints_once()
        yield histories
        transaction.set_rollback(True)


@pytest.fixture
def history(built):
    summary, _ = built["h"]
    return Club.objects.get(slug="h"), summary


def sessions_of(club):
    return list(Session.objects.filter(club=club).order_by("date"))


# --- What one build makes -------------------------------------------------------------------------


def test_a_year_of_thursdays_without_the_festive_weeks(history, built):
    club, summary = history
    thursdays = [TODAY - dt.timedelta(weeks=n) for n in range(53)]  # back to 20 Nov 2025
    festive = [day for day in thursdays if day in (dt.date(2025, 12, 25), dt.date(2026, 1, 1))]
    assert len(festive) == 2

    dates = [session.date for session in sessions_of(club)]

    assert dates == sorted(set(thursdays) - set(festive))
    assert len(dates) == 51
    assert summary["sessions"] == 51 and summary["settled"] == 50
    assert {key: summary[key] for key in ("club", "years", "players", "seed")} == {
        "club": "h",
        "years": 1,
        "players": 8,
        "seed": 3,
    }
    assert built["h"][1] < 60, "seed_history --years=1 should take seconds of work, not minutes"


def test_the_summary_counts_what_is_in_the_database(history):
    club, summary = history

    assert summary["games"] == Game.objects.filter(session__club=club).count()
    assert summary["claims"] == Claim.objects.filter(game__session__club=club).count()
    assert summary["disputes"] == Dispute.objects.filter(claim__game__session__club=club).count()
    assert summary["games"] > 50 * 6 * 3  # six rounds of three or more tables a week


def test_every_session_but_this_mornings_is_settled_and_pays_out_its_pot(history):
    club, _ = history
    *settled, this_morning = sessions_of(club)

    assert {session.state for session in settled} == {SessionState.SETTLED}
    assert this_morning.state == SessionState.OPEN
    for session in settled:
        settlement = Settlement.objects.get(session=session, state=SettlementState.CURRENT)
        fees = CheckIn.objects.filter(session=session, paid_at__isnull=False).aggregate(
            total=Sum("fee_cents")
        )["total"]
        paid_out = Payout.objects.filter(settlement=settlement).aggregate(
            total=Sum("amount_cents")
        )["total"]
        assert settlement.pot_cents == fees == paid_out > 0
        assert session.rounds.count() == 6
        assert not Result.objects.filter(game__session=session, state=ResultState.DRAFT).exists()


def test_this_morning_is_open_in_round_three_with_disputes_for_the_judges(history, client):
    club, _ = history
    this_morning = sessions_of(club)[-1]
    rounds = list(this_morning.rounds.order_by("number"))

    assert [round_.number for round_ in rounds] == [1, 2, 3]
    for round_ in rounds:
        games = list(round_.games.all())
        states = {
            game.pk: game.results.exclude(state=ResultState.SUPERSEDED).get().state
            for game in games
        }
        expected = ResultState.DRAFT if round_.number == 3 else ResultState.CONFIRMED
        assert set(states.values()) == {expected}, round_
    open_disputes = Dispute.objects.filter(claim__game__session=this_morning)
    assert open_disputes.count() >= 3
    assert {dispute.state for dispute in open_disputes} == {DisputeState.OPEN}
    assert set(judges_queue(club)) == set(open_disputes)
    ruled = Dispute.objects.filter(claim__game__session__club=club).exclude(pk__in=open_disputes)
    assert ruled.exists()
    assert {d.state for d in ruled} <= {DisputeState.RULED, DisputeState.FINAL}

    judge = club_judge(club)
    client.force_login(judge)
    page = client.get("/scoring/disputes/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('data-testid="queue-item"') == open_disputes.count()
    assert html.count("#dispute") == open_disputes.count()  # not seated: may rule every one


def test_the_second_historys_staff_work_in_their_own_club(built, client):
    """Staff have a member record in their club, so the club is theirs on every page even when
    another club comes first (the site's default for users without one)."""
    twin = Club.objects.get(slug="t2")
    assert Club.objects.order_by("pk").first().slug == "h"
    client.force_login(club_judge(twin))
    page = client.get("/scoring/disputes/")
    open_disputes = Dispute.objects.filter(claim__game__session__club=twin, state=DisputeState.OPEN)
    assert open_disputes.exists()
    assert page.content.decode().count('data-testid="queue-item"') == open_disputes.count()
    assert twin.name in page.content.decode()


def club_judge(club):
    return get_user_model().objects.get(username=f"{club.slug}-judge1")


def test_the_ratings_follow_every_round_confirmed_and_every_ruling(history):
    """After the replays the services ran (a round's drafts confirmed, a judge's ruling correcting a
    result), the ratings are what a rebuild from scratch makes."""
    club, _ = history
    rated = GameRating.objects.filter(club=club)
    confirmed = Game.objects.filter(session__club=club, results__state=ResultState.CONFIRMED)
    assert rated.values("game_id").distinct().count() == confirmed.count()
    figures = ("game_id", "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
    kept = sorted(rated.values_list(*figures))
    replay_from(club.pk)
    assert sorted(rated.values_list(*figures)) == kept


def test_the_audit_trail_has_an_entry_per_result_entered_and_confirmed(history):
    club, _ = history
    results = Result.objects.filter(game__session__club=club)
    entered = {
        str(pk) for pk in results.filter(source=ResultSource.ENTRY).values_list("pk", flat=True)
    }
    confirmed = {
        str(pk)
        for pk in results.filter(source=ResultSource.ENTRY, confirmed_by__isnull=False).values_list(
            "pk", flat=True
        )
    }
    corrected = {
        str(pk) for pk in results.exclude(source=ResultSource.ENTRY).values_list("pk", flat=True)
    }

    def audited(action):
        ids = list(
            AuditEntry.objects.filter(club=club, action=action).values_list("object_id", flat=True)
        )
        assert len(ids) == len(set(ids)), action  # one entry each, not two
        return set(ids)

    assert audited(GameVerb.RESULT_ENTERED) == entered
    assert audited(GameVerb.RESULT_CONFIRMED) == confirmed
    assert audited(GameVerb.RESULT_CORRECTED) == corrected
    assert len(entered) == Game.objects.filter(session__club=club).count()
    assert len(confirmed) == len(entered) - this_mornings_drafts(club)


def this_mornings_drafts(club):
    return Result.objects.filter(game__session__club=club, state=ResultState.DRAFT).count()


# --- The same seed, the same history --------------------------------------------------------------


def club_story(club) -> dict:
    """What happened at each session of a club, by date and player name (ids differ between the
    two builds): the session's state, its games (seats and current scores), its standings, its
    payouts and its claims. Read in a few queries per club, not per game."""
    story: dict = defaultdict(lambda: defaultdict(list))
    for session in Session.objects.filter(club=club):
        story[session.date]["state"] = session.state
        story[session.date]["standings"] = [
            (row.rank, row.tied, row.player, row.game_points, row.won, row.spread)
            for row in session_standings(session)
        ]
    seats = (
        Seat.objects.filter(game__session__club=club)
        .order_by("game__session__date", "game__round__number", "game__table", "position")
        .values_list(
            "game__session__date",
            "game__round__number",
            "game__table",
            "game__kind",
            "position",
            "side",
            "player__display_name",
        )
    )
    for date, *seat in seats:
        story[date]["seats"].append(tuple(seat))
    lines = (
        ResultLine.objects.filter(result__game__session__club=club)
        .exclude(result__state=ResultState.SUPERSEDED)
        .order_by(
            "result__game__session__date", "result__game__round__number", "result__game__table"
        )
        .values_list(
            "result__game__session__date",
            "result__game__round__number",
            "result__game__table",
            "result__state",
            "result__version",
            "player__display_name",
            "score",
            "game_points",
            "spread",
        )
    )
    for date, *line in lines:
        story[date]["lines"].append(tuple(line))
    payouts = Payout.objects.filter(
        settlement__session__club=club, settlement__state=SettlementState.CURRENT
    ).values_list("settlement__session__date", "player__display_name", "place", "amount_cents")
    for date, *payout in payouts:
        story[date]["payouts"].append(tuple(payout))
    claims = Claim.objects.filter(game__session__club=club).values_list(
        "game__session__date",
        "game__round__number",
        "game__table",
        "kind",
        "claimant__display_name",
        "claimed_points",
        "true_points",
    )
    for date, *claim in claims:
        story[date]["claims"].append(tuple(claim))
    return {
        date: {
            key: sorted(value) if key != "standings" and isinstance(value, list) else value
            for key, value in parts.items()
        }
        for date, parts in story.items()
    }


def test_the_same_seed_builds_the_same_history_session_by_session(built):
    first, second = Club.objects.get(slug="t1"), Club.objects.get(slug="t2")
    assert first.name != second.name
    summaries = [
        {k: v for k, v in vars(built[slug]).items() if k not in ("club", "seconds")}
        for slug in ("t1", "t2")
    ]
    assert summaries[0] == summaries[1] and summaries[0]["sessions"] == 9

    ours, theirs = club_story(first), club_story(second)
    assert sorted(ours) == sorted(theirs) and len(ours) == 9
    for date, story in sorted(ours.items()):
        assert story == theirs[date], date
    last = ours[max(ours)]
    assert last["state"] == SessionState.OPEN and last["claims"] and last["lines"]

    for season in (2025, 2026):
        tables = [
            [
                (
                    row.rank,
                    row.player,
                    row.sessions,
                    row.game_points,
                    row.won,
                    row.spread,
                    row.money_cents,
                )
                for row in season_standings(club, season)
            ]
            for club in (first, second)
        ]
        assert tables[0] == tables[1] and tables[0]


# --- Refusals -------------------------------------------------------------------------------------


def test_a_slug_already_taken_is_exit_code_2_and_builds_nothing(built):
    clubs, results = Club.objects.count(), Result.objects.count()

    with pytest.raises(CommandError) as raised:
        call_command("seed_history", *ARGS, "--slug=h", stdout=io.StringIO())

    assert raised.value.returncode == 2
    assert str(raised.value) == "A club with the slug 'h' exists already: choose another."
    assert (Club.objects.count(), Result.objects.count()) == (clubs, results)


@pytest.mark.parametrize(
    "option, message",
    [
        ("--years=0", "--years: give 1 to 50 years."),
        ("--players=3", "--players: give 4 to 200"),
        ("--rounds=7", "--rounds: give 1 to 6 rounds."),
        ("--rounds=0", "--rounds: give 1 to 6 rounds."),
    ],
)
def test_a_bad_number_is_exit_code_2(option, message):
    with pytest.raises(CommandError, match=message) as raised:
        call_command("seed_history", option, "--slug=never", stdout=io.StringIO())

    assert raised.value.returncode == 2
    assert not Club.objects.filter(slug="never").exists()


def manage(tmp_path, *args):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"} | {
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
    }
    return subprocess.run(
        [sys.executable, "manage.py", "seed_history", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (("--years", "0"), "CommandError: --years: give 1 to 50 years."),
        (("--years", "x"), "argument --years: invalid int value: 'x'"),
    ],
)
def test_a_real_manage_py_exits_2_with_the_message_on_stderr(tmp_path, args, message):
    result = manage(tmp_path, *args)

    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
