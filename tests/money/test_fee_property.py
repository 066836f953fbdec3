"""Any morning of the fee per game keeps the money straight (docs/spec.md "The pot and
payouts": every payout sums exactly to its pot; the cash box and the ledger agree to the cent).

Terms: a *step* is one thing an organiser does in a per-game morning of 4 players and 3 rounds:
take what a player owes now, take an amount ahead, give back the change due, undo the last
payment, draw and play the next round, or let a player leave after the rounds drawn. Whatever
the steps, the cash box holds what the players' rows say they paid less the change given back;
once everyone is squared up and the session settled, the payouts sum to the pot, the pot is the
fee for each game played, and the cash box equals the settlement's ledger rows."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club import services as club_services
from games import services as game_services
from money.fee_selectors import fees_owed
from money.fee_services import fee_change_give, fee_payment_undo, fee_take
from money.models import LedgerEntry, Payout, Pot
from money.selectors import session_cash_box, settle_blockers
from money.services import session_settle
from tests.factories import ClubFactory, PlayerFactory, UserFactory

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["owed", "ahead", "change", "undo", "round", "leave"]),
        st.integers(min_value=0, max_value=3),  # which player
        st.integers(min_value=1, max_value=90),  # an amount ahead, in cents
    ),
    max_size=14,
)


def _play_round(session, organiser, confirmer, seed):
    round_ = game_services.round_draw(session=session, actor=organiser, seed=seed)
    for game in round_.games.order_by("table"):
        scores = [121] + [90 + 5 * side for side in range(game.side_count - 1)]
        draft = game_services.result_enter(game=game, actor=organiser, scores=scores)
        game_services.result_confirm(result=draft, actor=confirmer)


def _check_the_box_holds_what_the_rows_say(session):
    box = session_cash_box(session)
    lines = fees_owed(session).values()
    kept = sum(line.kept_cents for line in lines)
    assert box.collected_cents - box.refunds_cents == kept


def _morning(steps):
    club = ClubFactory(fee_per="game", rounds_per_session=3, jackpot_24_cents=5)
    organiser = UserFactory(role="organisers", club=club)
    confirmer = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    checkins = [
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
        for _ in range(4)
    ]
    drawn = 0
    for action, who, amount in steps:
        checkin = checkins[who]
        try:
            if action == "owed":
                fee_take(checkin=checkin, actor=organiser)
            elif action == "ahead":
                fee_take(checkin=checkin, actor=organiser, amount_cents=amount)
            elif action == "change":
                fee_change_give(checkin=checkin, actor=organiser)
            elif action == "undo":
                fee_payment_undo(checkin=checkin, actor=organiser)
            elif action == "round" and drawn < 3:
                drawn += 1
                _play_round(session, organiser, confirmer, seed=drawn)
            elif action == "leave" and 1 <= drawn < 3:
                club_services.checkin_leaves_after(
                    checkin=checkin, actor=organiser, round_number=drawn
                )
        except ValidationError:
            pass  # a refusal (over the morning, a second press) changes nothing
        _check_the_box_holds_what_the_rows_say(session)
    if drawn == 0:
        _play_round(session, organiser, confirmer, seed=9)
    for checkin in checkins:  # square everyone up
        fee_take(checkin=checkin, actor=organiser)
        fee_change_give(checkin=checkin, actor=organiser)
    assert settle_blockers(session) == []
    settlement = session_settle(session=session, actor=organiser, seed=1)
    games = sum(line.games for line in fees_owed(session).values())
    assert settlement.pot_cents == 25 * games
    payouts = Payout.objects.filter(settlement=settlement).aggregate(t=Sum("amount_cents"))["t"]
    assert payouts == settlement.pot_cents
    rows = LedgerEntry.objects.filter(settlement=settlement)

    def total(**filters):
        return rows.filter(**filters).aggregate(t=Sum("amount_cents"))["t"] or 0

    box = session_cash_box(session, settlement)
    assert box.collected_cents == total(amount_cents__gt=0)
    assert box.refunds_cents + box.paid_out_cents == -total(amount_cents__lt=0)
    assert box.carried_cents == total() - total(pot=Pot.MAIN)
    assert total(pot=Pot.MAIN) == 0


@pytest.mark.django_db
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_any_morning_keeps_the_cash_box_equal_to_the_ledger(steps):
    with transaction.atomic():
        _morning(steps)
        transaction.set_rollback(True)
