"""Settling a session: every blocker named, payouts adding up to the pot, the ledger as sums of
rows, settle twice = one settlement, reopen with a reason, the skunk bank rolling over. (Two
settles at once: tests/concurrency/test_races.py.)"""

import datetime as dt
import random

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum

from club import services as club_services
from club.models import Session, SessionState
from core.models import AuditEntry
from games import services as game_services
from games.models import ResultLine, ResultState
from money.audit import MoneyVerb
from money.models import LedgerEntry, LedgerKind, Payout, Pot, Settlement, SettlementState
from money.selectors import pot_balances, settle_blockers
from money.services import session_reopen, session_settle
from scoring import services as scoring_services
from tests.builders import run_session
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return UserFactory(role="organisers"), UserFactory(role="organisers")


def test_settle_pays_the_whole_pot_and_locks_the_session(people):
    organiser, confirmer = people
    club = ClubFactory()
    session = run_session(club, organiser, confirmer, players=13)
    settlement = session_settle(session=session, actor=organiser, seed=5)
    assert settlement.pot_cents == 13 * 25
    payouts = Payout.objects.filter(settlement=settlement)
    assert payouts.aggregate(total=Sum("amount_cents"))["total"] == 325
    assert settlement.paid_places == 4  # one in four of 13, rounded up
    assert payouts.count() == 13
    assert Session.objects.get(pk=session.pk).state == SessionState.SETTLED
    main = LedgerEntry.objects.filter(settlement=settlement, pot=Pot.MAIN)
    assert main.filter(kind=LedgerKind.FEE).aggregate(t=Sum("amount_cents"))["t"] == 325
    assert main.aggregate(t=Sum("amount_cents"))["t"] == 0  # all money collected is awarded
    assert AuditEntry.objects.filter(action=MoneyVerb.SESSION_SETTLED).count() == 1
    # Locked: no check-in, draw, result or claim afterwards.
    game = session.games.first()
    with pytest.raises(ValidationError, match="settled"):
        club_services.checkin_create(session=session, actor=organiser, new_player_name="Late")
    with pytest.raises(ValidationError, match="settled"):
        game_services.round_draw(session=session, actor=organiser)
    with pytest.raises(ValidationError, match="settled"):
        game_services.result_correct(game=game, actor=organiser, scores=[121, 1], reason="x")
    seat = game.seats.first()
    with pytest.raises(ValidationError, match="settled"):
        scoring_services.claim_file(
            game=game,
            actor=organiser,
            kind="heels",
            claimant=seat.player,
            claimed_points=2,
            starter="JH",
        )


def test_each_blocker_is_named(people):
    organiser, confirmer = people
    club = ClubFactory()
    assert settle_blockers(
        club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 1, 1))
    ) == ["Nobody is checked in: there is nothing to settle."]

    session = run_session(club, organiser, confirmer, players=4, rounds=1, pay=False)
    game = session.games.first()
    other = session.games.exclude(pk=game.pk).first()
    # an unconfirmed game: enter round 2 without confirming
    round2 = game_services.round_draw(session=session, actor=organiser, seed=9)
    draft_game = round2.games.first()
    game_services.result_enter(game=draft_game, actor=organiser, scores=[121, 100])
    # an open dispute
    seat = other.seats.first()
    seat.player.user = UserFactory(role="players")
    seat.player.save()
    claim = scoring_services.claim_file(
        game=other,
        actor=seat.player.user,
        kind="heels",
        claimant=seat.player,
        claimed_points=2,
        starter="JH",
    )
    scoring_services.dispute_open(claim=claim, actor=seat.player.user, statement="Check it")
    with pytest.raises(ValidationError) as caught:
        session_settle(session=session, actor=organiser)
    text = " | ".join(caught.value.messages)
    assert "Fees not paid" in text
    assert "Results not confirmed: round 2 table 1" in text
    assert "round 2 table 2" in text  # no result at all
    assert "1 dispute waiting for a judge" in text
    assert not Settlement.objects.exists()
    assert not LedgerEntry.objects.exists()


def test_settling_twice_is_one_settlement(people):
    organiser, confirmer = people
    session = run_session(ClubFactory(), organiser, confirmer, players=6, rounds=1)
    first = session_settle(session=session, actor=organiser)
    second = session_settle(session=session, actor=confirmer)
    assert first.pk == second.pk
    assert Settlement.objects.count() == 1
    assert LedgerEntry.objects.filter(kind=LedgerKind.FEE).count() == 6


def test_reopen_needs_a_reason_keeps_both_settlements_and_reverses_the_ledger(people):
    organiser, confirmer = people
    session = run_session(ClubFactory(), organiser, confirmer, players=5, rounds=1)
    first = session_settle(session=session, actor=organiser, seed=1)
    with pytest.raises(ValidationError):
        session_reopen(session=session, actor=organiser, reason=" ")
    session_reopen(session=session, actor=organiser, reason="Table 2 was mis-entered")
    assert Session.objects.get(pk=session.pk).state == SessionState.OPEN
    assert LedgerEntry.objects.aggregate(t=Sum("amount_cents"))["t"] == 0
    game = session.games.first()
    current = game.results.get(state=ResultState.CONFIRMED)
    scores = current.scores
    loser = scores.index(min(scores))
    scores[loser] = max(0, scores[loser] - 1) if scores[loser] else 1
    game_services.result_correct(game=game, actor=organiser, scores=scores, reason="fix")
    second = session_settle(session=session, actor=organiser, seed=1)
    assert second.version == 2
    assert Settlement.objects.get(pk=first.pk).state == SettlementState.REPLACED
    assert Settlement.objects.get(pk=first.pk).reopen_reason == "Table 2 was mis-entered"
    main = LedgerEntry.objects.filter(pot=Pot.MAIN)
    assert main.aggregate(t=Sum("amount_cents"))["t"] == 0
    assert main.filter(settlement=second).aggregate(t=Sum("amount_cents"))["t"] == 0
    assert AuditEntry.objects.filter(action=MoneyVerb.SESSION_REOPENED).count() == 1


def test_ledger_rows_cannot_be_changed_or_deleted(people):
    organiser, confirmer = people
    session = run_session(ClubFactory(), organiser, confirmer, players=4, rounds=1)
    session_settle(session=session, actor=organiser)
    row = LedgerEntry.objects.first()
    with pytest.raises(PermissionError):
        row.delete()
    with pytest.raises(PermissionError):
        LedgerEntry.objects.all().delete()
    with pytest.raises(PermissionError):
        LedgerEntry.objects.update(amount_cents=0)
    row.amount_cents = 1
    with pytest.raises(PermissionError):
        row.save()


def skunk_scores(pattern):
    """Scores by table: 'double' -> 121 v 50, 'skunk' -> 121 v 80, else 121 v 100."""

    def scores(game):
        kind = pattern(game)
        loser = {"double": 50, "skunk": 80}.get(kind, 100)
        return [121] + [loser] * (game.side_count - 1)

    return scores


def test_skunk_bank_collects_rolls_over_and_is_won_by_a_double_skunk(people):
    organiser, confirmer = people
    club = ClubFactory(skunk_bank=True)
    # Session 1: one skunk (table 1), no double skunk: the coin rolls over.
    s1 = run_session(
        club,
        organiser,
        confirmer,
        players=4,
        rounds=1,
        date=dt.date(2026, 1, 1),
        scores=skunk_scores(lambda g: "skunk" if g.table == 1 else ""),
    )
    session_settle(session=s1, actor=organiser)
    assert pot_balances(club)[Pot.SKUNK_BANK] == 25
    # Session 2: nobody skunked: it rolls over again.
    s2 = run_session(
        club,
        organiser,
        confirmer,
        players=4,
        rounds=1,
        date=dt.date(2026, 1, 8),
        scores=skunk_scores(lambda g: ""),
    )
    session_settle(session=s2, actor=organiser)
    assert pot_balances(club)[Pot.SKUNK_BANK] == 25
    # Session 3: a double skunk at table 1: its winner takes 25¢ + the new coin.
    s3 = run_session(
        club,
        organiser,
        confirmer,
        players=4,
        rounds=1,
        date=dt.date(2026, 1, 15),
        scores=skunk_scores(lambda g: "double" if g.table == 1 else ""),
    )
    session_settle(session=s3, actor=organiser)
    assert pot_balances(club)[Pot.SKUNK_BANK] == 0
    winner_line = ResultLine.objects.get(
        result__game__session=s3,
        result__game__table=1,
        won=True,
        result__state=ResultState.CONFIRMED,
    )
    win = LedgerEntry.objects.get(kind=LedgerKind.SKUNK_BANK_WIN)
    assert (win.player_id, win.amount_cents) == (winner_line.player_id, -50)


def test_ledger_balances_are_sums_of_rows_over_a_season(people):
    organiser, confirmer = people
    club = ClubFactory(skunk_bank=True)
    rng = random.Random(7)
    for week in range(6):
        session = run_session(
            club,
            organiser,
            confirmer,
            players=rng.randint(2, 9),
            rounds=rng.randint(1, 3),
            date=dt.date(2026, 1, 1) + dt.timedelta(days=7 * week),
            seed=week,
        )
        session_settle(session=session, actor=organiser)
        if week == 3:
            session_reopen(session=session, actor=organiser, reason="recount")
            session_settle(session=session, actor=organiser)
    balances = pot_balances(club)
    for pot in Pot.values:
        rows = LedgerEntry.objects.filter(club=club, pot=pot).values_list("amount_cents", flat=True)
        assert balances[pot] == sum(rows)
    assert balances[Pot.MAIN] == 0
    assert balances[Pot.SKUNK_BANK] >= 0
    for settlement in Settlement.objects.filter(state=SettlementState.CURRENT):
        paid = settlement.payouts.aggregate(t=Sum("amount_cents"))["t"]
        assert paid == settlement.pot_cents


def test_jackpots_collect_roll_over_and_an_accepted_29_wins(people):
    """A 29 (club-thursday-rules.md, "A PERFECT 29!": three fives and the jack of the starter's
    suit, a five turned) claimed exactly wins the 29 jackpot; the 24 jackpot rolls over."""
    organiser, confirmer = people
    club = ClubFactory(jackpot_29_cents=10, jackpot_24_cents=5)
    s1 = run_session(club, organiser, confirmer, players=4, rounds=1, date=dt.date(2026, 1, 1))
    session_settle(session=s1, actor=organiser)
    balances = pot_balances(club)
    assert (balances[Pot.JACKPOT_29], balances[Pot.JACKPOT_24], balances[Pot.JACKPOT_28]) == (
        40,
        20,
        0,
    )
    s2 = run_session(club, organiser, confirmer, players=4, rounds=1, date=dt.date(2026, 1, 8))
    game = s2.games.first()
    seat = game.seats.first()
    claim = scoring_services.claim_file(
        game=game,
        actor=organiser,
        kind="hand",
        claimant=seat.player,
        claimed_points=29,
        hand="5H 5C 5S JD",
        starter="5D",
    )
    assert claim.true_points == 29
    # docs/spec.md "Claims, muggins and disputes": it wins once another side has seen it.
    scoring_services.claim_confirm_cards(claim=claim, actor=UserFactory(role="judges", club=club))
    # An over-claimed 24 is not accepted: no 24 jackpot for it.
    scoring_services.claim_file(
        game=game,
        actor=organiser,
        kind="hand",
        claimant=seat.player,
        claimed_points=28,
        hand="3S 3H 3D 3C",
        starter="9H",
    )
    session_settle(session=s2, actor=organiser)
    balances = pot_balances(club)
    assert balances[Pot.JACKPOT_29] == 0
    assert balances[Pot.JACKPOT_24] == 40  # rolled over twice: 4 players x 5¢ x 2
    win = LedgerEntry.objects.get(kind=LedgerKind.JACKPOT_WIN)
    assert (win.player_id, win.amount_cents, win.pot) == (seat.player_id, -80, Pot.JACKPOT_29)


def test_a_jackpot_hand_upheld_by_a_judge_wins(people):
    organiser, confirmer = people
    club = ClubFactory(jackpot_24_cents=5)
    session = run_session(club, organiser, confirmer, players=4, rounds=1)
    game = session.games.first()
    claimant = game.seats.get(side=0).player
    opponent = game.seats.get(side=1).player
    opponent.user = UserFactory(role="players")
    opponent.save()
    claim = scoring_services.claim_file(
        game=game,
        actor=organiser,
        kind="crib",
        claimant=claimant,
        claimed_points=24,
        hand="3S 3H 3D 3C",
        starter="9H",
    )
    dispute = scoring_services.dispute_open(
        claim=claim, actor=opponent.user, statement="Four threes and a nine is not 24"
    )
    a_judge = UserFactory(role="judges", club=club)
    scoring_services.dispute_rule(dispute=dispute, actor=a_judge, decision="agree")
    scoring_services.claim_confirm_cards(claim=claim, actor=a_judge)  # the judge saw the cards
    session_settle(session=session, actor=organiser)
    win = LedgerEntry.objects.get(kind=LedgerKind.JACKPOT_WIN)
    assert (win.player_id, win.amount_cents) == (claimant.pk, -20)
