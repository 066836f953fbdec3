"""Races on the club-wide side pots (PostgreSQL): two sessions of one club settled at the same
moment, with the skunk bank and a 29 jackpot on and money rolled over in both, pay each pot out
once. Settling locks the club row first (club.locking's order: club, session, ...), so the
second settle sees what the first paid out; without it both read the same balance and pay it
twice, and the pot goes below zero.

Terms: as in test_races.py (`race` runs calls in threads released together by a barrier, each
with its own connection). A *balance* is the sum of a pot's ledger rows; the *running balance* is
that sum row by row in the order the rows were written.
"""

import datetime as dt
from functools import partial

from django.db.models import Sum

from money.models import LedgerEntry, LedgerKind, Pot, Settlement
from money.selectors import pot_balances
from money.services import session_settle
from scoring import services as scoring_services
from tests.builders import run_session
from tests.concurrency.test_races import (
    ITERATIONS,
    RACE_MARKS,
    all_succeed,
    organisers,
    race,
)
from tests.factories import ClubFactory, UserFactory

pytestmark = RACE_MARKS

MONDAY = dt.date(2026, 1, 5)
SIDE_POTS = (Pot.SKUNK_BANK, Pot.JACKPOT_29)


def skunked(game):
    return [121] + [80] * (game.side_count - 1)  # skunks (under 91), no double skunk


def double_skunked(game):
    return [121] + [50] * (game.side_count - 1)  # double skunks (under 61): the bank is won


def file_a_29(session, organiser) -> None:
    """An accepted 29 at the session's first table, its cards confirmed by a judge (docs/spec.md
    "Claims, muggins and disputes"): it wins the 29 jackpot."""
    game = session.games.order_by("round__number", "table").first()
    seat = game.seats.order_by("position").first()
    claim = scoring_services.claim_file(
        game=game,
        actor=organiser,
        kind="hand",
        claimant=seat.player,
        claimed_points=29,
        hand="5H 5C 5S JD",
        starter="5D",
    )
    scoring_services.claim_confirm_cards(
        claim=claim, actor=UserFactory(role="judges", club=session.club)
    )


def running_balances(club, pot) -> list[int]:
    total, balances = 0, []
    for amount in (
        LedgerEntry.objects.filter(club=club, pot=pot)
        .order_by("created_at", "pk")
        .values_list("amount_cents", flat=True)
    ):
        total += amount
        balances.append(total)
    return balances


def test_two_sessions_of_a_club_settled_at_once_pay_each_side_pot_once():
    organiser, confirmer = organisers(2)
    for iteration in range(ITERATIONS):
        club = ClubFactory(skunk_bank=True, jackpot_29_cents=50)
        week = MONDAY + dt.timedelta(weeks=4 * iteration)
        # A first morning puts money in both side pots and nobody wins them: it rolls over.
        first = run_session(
            club, organiser, confirmer, players=4, rounds=1, date=week, scores=skunked
        )
        session_settle(session=first, actor=organiser)
        rolled = pot_balances(club)
        assert all(rolled[pot] > 0 for pot in SIDE_POTS)
        # Two later mornings, each with a double skunk and an accepted 29: each would win both.
        later = [
            run_session(
                club,
                organiser,
                confirmer,
                players=4,
                rounds=1,
                date=week + dt.timedelta(weeks=weeks),
                scores=double_skunked,
            )
            for weeks in (1, 2)
        ]
        for session in later:
            file_a_29(session, organiser)

        all_succeed(race(*[partial(session_settle, session=s, actor=organiser) for s in later]))

        assert Settlement.objects.filter(session__in=later).count() == 2
        balances = pot_balances(club)
        for pot in SIDE_POTS:
            assert balances[pot] >= 0, (pot, balances[pot])
            assert min(running_balances(club, pot)) >= 0, pot
            paid_in = LedgerEntry.objects.filter(club=club, pot=pot, amount_cents__gt=0)
            won = LedgerEntry.objects.filter(
                club=club,
                pot=pot,
                kind__in=[LedgerKind.SKUNK_BANK_WIN, LedgerKind.JACKPOT_WIN],
            )
            total_in = paid_in.aggregate(total=Sum("amount_cents"))["total"]
            total_won = -won.aggregate(total=Sum("amount_cents"))["total"]
            # Whoever settled first took everything in the pot then; the second took its own.
            assert total_won == total_in, pot
            assert balances[pot] == 0, pot
        # The main pot of each session is paid out exactly.
        main = LedgerEntry.objects.filter(club=club, pot=Pot.MAIN)
        assert main.aggregate(total=Sum("amount_cents"))["total"] == 0
