"""The cash box and the ledger agree to the cent (docs/spec.md "The pot and payouts") for every
settled session of the demo club's season (`manage.py load_demo`, which runs the skunk bank and the
29/28/24 jackpots) and of a ten-year history (`ops.history.build_history`).

Terms: a session's cash box (`money.selectors.session_cash_box`) is counted from the money taken
(check-ins and skunk coins marked paid) and its current settlement (payouts and the side pots'
wins); the ledger's view is that settlement's rows: collected = the + rows, paid out = the - rows,
carried = the side pots' rows.

Ten years at the benchmark's size (40 players, weekly, 6 rounds) takes many minutes; at 4 players
one year takes about half a minute, so the test builds ten years of every eighth Thursday at 4
players and 2 rounds (about 65 sessions) and prints how long it took.
"""

import datetime as dt
import time

import pytest
from django.db.models import Sum

from club.models import Club, Session, SessionState
from money.models import LedgerEntry, Pot, SettlementState
from money.selectors import current_settlement, pot_balances, session_cash_box
from ops.history import build_history
from tests.demo_snapshot import load_demo

pytestmark = pytest.mark.django_db


def check_every_settled_session(club) -> int:
    """Assert cash box == ledger for each settled session of `club`; the number checked."""
    sessions = Session.objects.filter(club=club, state=SessionState.SETTLED).order_by("date")
    checked = 0
    for session in sessions:
        settlement = current_settlement(session)
        box = session_cash_box(session, settlement)
        rows = LedgerEntry.objects.filter(settlement=settlement)

        def total(rows=rows, **filters):
            return rows.filter(**filters).aggregate(t=Sum("amount_cents"))["t"] or 0

        assert (box.collected_cents, box.paid_out_cents, box.carried_cents) == (
            total(amount_cents__gt=0),
            -total(amount_cents__lt=0),
            total() - total(pot=Pot.MAIN),
        ), session
        # The sheet's side pots add up too: what rolled over is what was carried, in, not won.
        for pot in settlement.side_pots:
            assert pot["rolled_cents"] == pot["carried_cents"] + pot["in_cents"] - pot["won_cents"]
            assert pot["won_cents"] == sum(winner["cents"] for winner in pot["winners"])
        checked += 1
    # Each side pot rolls over: every settlement carries what the one before rolled over.
    rolled: dict[str, int] = {}
    for session in sessions:
        for pot in current_settlement(session).side_pots:
            assert pot["carried_cents"] == rolled.get(pot["pot"], 0), (session, pot["pot"])
            rolled[pot["pot"]] = pot["rolled_cents"]
    balances = pot_balances(club)
    assert {pot: balances[pot] for pot in rolled} == rolled
    assert all(balance >= 0 for balance in balances.values())
    return checked


def test_the_demo_seasons_cash_boxes_are_the_ledger():
    """The demo club's past season shows the side pots on its payout sheets."""
    load_demo(season=True)  # what the command builds (tests/demo_snapshot.py)
    club = Club.objects.get()
    rules = club.house_rules
    assert rules.skunk_bank and set(rules.jackpots) == {29, 28, 24}
    checked = check_every_settled_session(club)
    assert checked >= 8
    settlements = [current_settlement(s) for s in Session.objects.filter(club=club)]
    assert all(len(s.side_pots) == 4 for s in settlements)
    # The season's 29 wins the 29 jackpot; skunk coins were taken and booked.
    won = {pot["pot"] for s in settlements for pot in s.side_pots if pot["winners"]}
    assert Pot.JACKPOT_29 in won
    assert sum(pot["in_count"] for s in settlements for pot in s.side_pots[:1]) > 0


def test_ten_years_of_cash_boxes_are_the_ledger():
    start = time.perf_counter()
    report = build_history(
        years=10,
        players=4,
        seed=14,
        slug="cash",
        today=dt.date(2026, 11, 19),
        rounds=2,
        weeks_apart=8,
    )
    seconds = time.perf_counter() - start
    print(f"ten years, {report.sessions} sessions, {report.games} games: {seconds:.0f} s")
    assert report.settled == report.sessions - 1 >= 60
    first, last = (
        Session.objects.filter(club=report.club).order_by("date").values_list("date", flat=True)
    )[:: report.sessions - 1]
    assert (last - first).days > 9 * 365
    assert check_every_settled_session(report.club) == report.settled
    assert not Session.objects.filter(
        club=report.club, settlements__state=SettlementState.REPLACED
    ).exists()
