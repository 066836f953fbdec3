"""The demo club's past season (club.demo): built by `load_demo` through the services, settled,
adding up, and the same every time for the same seed and day.

Terms: a *fingerprint* of a season is what a member would see of it, by name and date (never by
database id): each session's tables and scores, its claims and their outcomes, and its payouts.
"""

import datetime as dt
import io
import random
import re

import pytest
from django.core.management import call_command
from django.db import transaction
from django.db.models import Count, Sum
from django.utils import timezone

from club.audit import ClubVerb
from club.models import CheckIn, Club, Player, Session, SessionState
from core.models import AuditEntry
from games.audit import GameVerb
from games.models import Game, Result, ResultLine, ResultState, Round, Seat
from money.audit import MoneyVerb
from money.models import Payout, Pot, Settlement, SettlementState
from money.selectors import accepted_hands, pot_balance
from ops.demo import (
    DISPUTED,
    HAND_29,
    HANDS_24,
    HANDS_28,
    MAX_SESSIONS,
    MIN_SESSIONS,
    build_demo_season,
    season_dates,
)
from scoring.audit import ScoringVerb
from scoring.engine import score_hand
from scoring.models import Claim, Dispute, DisputeState, OutcomeKind
from scoring.services import current_outcome
from standings.models import GameRating
from standings.rating_selectors import current_ratings
from standings.ratings import replay_from
from tests import demo_snapshot

pytestmark = pytest.mark.django_db

THURSDAY = 3


def thursdays_before(today: dt.date, count: int) -> list[dt.date]:
    """The `count` Thursdays before `today`, newest first (written out the slow way)."""
    day, found = today - dt.timedelta(days=1), []
    while len(found) < count:
        if day.weekday() == THURSDAY:
            found.append(day)
        day -= dt.timedelta(days=1)
    return found


def fingerprint(club: Club) -> list:
    sessions = []
    for session in Session.objects.filter(club=club).order_by("date"):
        games = []
        for game in Game.objects.filter(session=session).order_by("round__number", "table"):
            result = game.results.get(state=ResultState.CONFIRMED)
            names = [seat.player.display_name for seat in game.seats.select_related("player")]
            games.append((game.round.number, game.table, names, result.scores))
        claims = [
            (
                claim.claimant.display_name,
                claim.kind,
                claim.cards,
                claim.starter,
                claim.claimed_points,
                claim.true_points,
                current_outcome(claim).kind,
            )
            for claim in Claim.objects.filter(game__session=session).order_by("game", "pk")
        ]
        settlement = session.settlements.get(state=SettlementState.CURRENT)
        payouts = list(
            settlement.payouts.order_by("place", "player__display_name").values_list(
                "player__display_name", "place", "amount_cents"
            )
        )
        sessions.append((session.date, len(games), games, claims, settlement.seed, payouts))
    return sessions


# --- The dates -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("today", "sessions", "first", "last", "holidays"),
    [
        # Late in the year: the last 16 Thursdays of the year but two skipped, the year's own.
        (dt.date(2026, 11, 21), 16, None, dt.date(2026, 11, 19), None),
        # A young year reaches back into December; Christmas and New Year's Day are the holidays.
        (
            dt.date(2026, 2, 20),
            8,
            dt.date(2025, 12, 18),
            dt.date(2026, 2, 19),
            [dt.date(2025, 12, 25), dt.date(2026, 1, 1)],
        ),
        # On a Thursday that Thursday is not yet played (strictly before today).
        (dt.date(2026, 1, 1), 8, None, dt.date(2025, 12, 18), [dt.date(2025, 12, 25)]),
        # Mid-year: 21 Thursdays so far, still at most 16 sessions.
        (dt.date(2026, 5, 28), 16, None, dt.date(2026, 5, 21), None),
    ],
)
def test_season_dates(today, sessions, first, last, holidays):
    dates = season_dates(weekday=THURSDAY, today=today, rng=random.Random(5))
    stretch = thursdays_before(today, sessions + 2)
    assert len(dates) == sessions
    assert dates == sorted(set(dates))
    assert set(dates) <= set(stretch)
    skipped = sorted(set(stretch) - set(dates))
    assert len(skipped) == 2
    if holidays:
        assert set(holidays) <= set(skipped)
    assert dates[-1] == last
    if first:
        assert dates[0] == first
    assert dates == season_dates(weekday=THURSDAY, today=today, rng=random.Random(5))


def test_season_dates_through_a_year():
    """Every day of two years: Thursdays strictly before today, 8 to 16 of them, the year's own
    whenever the year already has enough."""
    day = dt.date(2026, 1, 1)
    while day < dt.date(2028, 1, 1):
        dates = season_dates(weekday=THURSDAY, today=day, rng=random.Random(day.toordinal()))
        so_far = len([d for d in thursdays_before(day, 60) if d.year == day.year])
        assert all(d.weekday() == THURSDAY and d < day for d in dates)
        assert len(dates) == max(MIN_SESSIONS, min(MAX_SESSIONS, so_far - 2)), day
        if so_far >= MIN_SESSIONS + 2:
            assert all(d.year == day.year for d in dates), day
        day += dt.timedelta(days=1)


def test_the_story_hands_count_what_they_say():
    assert score_hand(*HAND_29).total == 29
    assert {score_hand(*hand).total for hand in HANDS_28} == {28}
    assert {score_hand(*hand).total for hand in HANDS_24} == {24}
    hand, starter, claimed = DISPUTED
    assert score_hand(hand, starter).total == claimed - 1


# --- The season load_demo builds --------------------------------------------------------------


def test_load_demo_builds_a_settled_past_season():
    today = timezone.localdate()
    # What the command built and printed, run once for the suite (tests/demo_snapshot.py).
    printed = demo_snapshot.load_demo(season=True)
    club = Club.objects.get()
    built = int(re.search(r"Built (\d+) past sessions", printed).group(1))
    sessions = Session.objects.filter(club=club)

    # Thursdays before today, 8 to 16 of them, all settled once.
    assert MIN_SESSIONS <= built <= MAX_SESSIONS
    assert sessions.count() == built
    assert all(s.date.weekday() == THURSDAY and s.date < today for s in sessions)
    assert set(sessions.values_list("state", flat=True)) == {SessionState.SETTLED}
    assert Settlement.objects.filter(session__club=club).count() == built
    for session in sessions.annotate(n=Count("checkins")):
        assert 9 <= session.n <= 14
        assert 4 <= session.rounds.count() <= 6
        assert not CheckIn.objects.filter(session=session, paid_at__isnull=True).exists()

    # Every game has one confirmed result, entered by one organiser and confirmed by the other.
    games = Game.objects.filter(session__club=club)
    assert games.count() >= built * 4 * 4
    assert not games.exclude(results__state=ResultState.CONFIRMED).exists()
    assert not Result.objects.filter(game__session__club=club, state=ResultState.DRAFT).exists()
    entries = Result.objects.filter(game__session__club=club, state=ResultState.CONFIRMED)
    assert set(entries.values_list("entered_by__username", "confirmed_by__username")) == {
        ("organiser", "organiser2")
    }

    # Realistic scores: one winner on 121, losers 40 to 120, some skunks, a few double skunks.
    lines = ResultLine.objects.filter(result__in=entries)
    assert lines.filter(won=True).count() == games.count()
    assert not lines.filter(won=True).exclude(score=121).exists()
    losers = lines.filter(won=False)
    assert not losers.exclude(score__gte=40, score__lte=120).exists()
    assert 0.05 < losers.filter(skunked=True).count() / losers.count() < 0.3
    assert losers.filter(double_skunked=True).count() < losers.count() * 0.08
    three = games.filter(kind="three")
    assert all(g.results.get(state=ResultState.CONFIRMED).scores.count(121) == 1 for g in three)
    # Players differ in strength, so the season's game points spread out.
    points = (
        lines.values("player")
        .annotate(points=Sum("game_points"), played=Count("id"))
        .filter(played__gte=10)
    )
    per_game = sorted(row["points"] / row["played"] for row in points)
    assert per_game[-1] - per_game[0] > 0.5
    # The judges play only sometimes.
    for judge in ("Judith Barrow", "Opal Ortiz"):
        played = sessions.filter(checkins__player__display_name=judge).count()
        assert played < built, judge

    # The season shows ratings: every game rated as a rebuild from scratch rates it.
    rated = GameRating.objects.filter(club=club)
    assert rated.values("game_id").distinct().count() == games.count()
    kept = sorted(rated.values_list("game_id", "player_id", "mu_after", "sigma_after"))
    replay_from(club.pk)
    assert sorted(rated.values_list("game_id", "player_id", "mu_after", "sigma_after")) == kept
    assert {row.provisional for row in current_ratings(club)} >= {False}

    # Money: each settlement pays out its pot (the fees paid), and the session pot is empty.
    for settlement in Settlement.objects.filter(session__club=club):
        paid = Payout.objects.filter(settlement=settlement).aggregate(t=Sum("amount_cents"))["t"]
        fees = settlement.session.checkins.aggregate(t=Sum("fee_cents"))["t"]
        assert paid == settlement.pot_cents == fees
    assert pot_balance(club, Pot.MAIN) == 0

    # Claims: a 29 (accepted, and counted as such at settling), a 28 and a 24, over-claims, a
    # muggins call, and a dispute the judge ruled without playing in the game.
    claims = Claim.objects.filter(game__session__club=club)
    kinds = [current_outcome(claim).kind for claim in claims]
    accepted = {
        c.true_points
        for c, kind in zip(claims, kinds, strict=True)
        if kind == OutcomeKind.EXACT and c.claimed_points == c.true_points
    }
    assert {24, 28, 29} <= accepted
    twenty_nine = claims.get(true_points=29, claimed_points=29)
    assert f"{twenty_nine.cards} {twenty_nine.starter}" == "5H 5C 5S JD 5D"
    # docs/spec.md "Claims, muggins and disputes": a jackpot hand wins once its cards are
    # confirmed by someone not of the claimant's side.
    assert twenty_nine.cards_confirmed_by is not None
    assert (
        twenty_nine.party_side(
            Player.objects.filter(user=twenty_nine.cards_confirmed_by)
            .values_list("pk", flat=True)
            .first()
        )
        != twenty_nine.claimant_side
    )
    assert accepted_hands(twenty_nine.game.session, 29) == [twenty_nine.claimant_id]
    assert kinds.count(OutcomeKind.OVER) >= 2
    # One session has a muggins call of each kind (ACC rule 10.4a): the caller takes all N; a
    # call for more than was overlooked takes the overlooked; a false call on an exact claim
    # gives the claimant N.
    called = {
        current_outcome(claim).kind: claim for claim in claims.filter(muggins_caller__isnull=False)
    }
    assert set(called) == {
        OutcomeKind.MUGGINS,
        OutcomeKind.MUGGINS_OVERCALLED,
        OutcomeKind.FALSE_MUGGINS,
    }
    assert len({claim.game.session_id for claim in called.values()}) == 1
    over = called[OutcomeKind.MUGGINS_OVERCALLED]
    assert (over.claimed_points, over.true_points, over.muggins_points) == (12, 16, 6)
    assert current_outcome(over).points[str(over.party_side(over.muggins_caller_id))] == 4
    false = called[OutcomeKind.FALSE_MUGGINS]
    assert current_outcome(false).points[str(false.claimant_side)] == 14 + 2
    dispute = Dispute.objects.get(claim__game__session__club=club)
    assert dispute.state == DisputeState.RULED
    ruling = dispute.rulings.get()
    assert ruling.judge.username == "judge"
    assert not Seat.objects.filter(game=dispute.claim.game, player__user=ruling.judge).exists()

    # The audit trail has an entry for every write, and the club was created once.
    audit = dict(AuditEntry.objects.filter(club=club).values_list("action").annotate(n=Count("id")))
    assert audit[ClubVerb.CLUB_CREATED] == 1
    assert audit[ClubVerb.SESSION_OPENED] == built
    assert audit[MoneyVerb.SESSION_SETTLED] == built
    checkins = CheckIn.objects.filter(session__club=club).count()
    assert audit[ClubVerb.CHECKIN_CREATED] == audit[ClubVerb.FEE_PAID] == checkins
    assert audit[GameVerb.ROUND_DRAWN] == Round.objects.filter(session__club=club).count()
    assert audit[GameVerb.RESULT_ENTERED] == audit[GameVerb.RESULT_CONFIRMED] == len(games)
    assert audit[ScoringVerb.CLAIM_FILED] == claims.count()
    assert audit[ScoringVerb.MUGGINS_CALLED] == 3
    assert audit[ScoringVerb.DISPUTE_OPENED] == audit[ScoringVerb.DISPUTE_RULED] == 1

    # Loading again changes nothing.
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "already loaded" in out.getvalue()
    assert Session.objects.count() == built
    assert AuditEntry.objects.filter(action=ClubVerb.CLUB_CREATED).count() == 1


def test_load_demo_without_the_season():
    call_command("load_demo", season=False, stdout=io.StringIO())
    assert Club.objects.get().players.count() == 16
    assert not Session.objects.exists()


def test_the_season_is_deterministic():
    """The same seed and day build the same season (built, undone, built again), another seed
    another one. A short season, across New Year (Christmas and New Year's Day are skipped)."""
    call_command("load_demo", season=False, stdout=io.StringIO())
    club = Club.objects.get()
    today = dt.date(2026, 1, 9)

    def build(seed: int) -> list:
        with transaction.atomic():
            assert build_demo_season(club=club, seed=seed, today=today, sessions=3) == 3
            built = fingerprint(club)
            transaction.set_rollback(True)
        assert not Session.objects.exists()
        return built

    first = build(7)
    assert [session[0] for session in first] == [
        dt.date(2025, 12, 11),
        dt.date(2025, 12, 18),
        dt.date(2026, 1, 8),
    ]
    assert all(games >= 4 * 4 for _, games, *_ in first)
    assert build(7) == first
    assert build(8) != first
