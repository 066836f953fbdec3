"""The fee per game (docs/spec.md "The club's house rules": entry fee per session or per game;
"A Thursday, step by step", step 7: with the fee per game a player owes only the games they were
seated in, and change paid back is a ledger refund; "The pot and payouts": the pot is the fees
actually paid, and the cash box and the ledger agree to the cent).

Terms: see money.fee_selectors. A morning here is a club of 25¢ a game and 3 rounds, 4 players
checked in; `play_round` draws the next round and confirms every game of it."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum

from club import services as club_services
from club.selectors import club_sessions
from core.models import AuditEntry
from games import services as game_services
from money.audit import MoneyVerb
from money.fee_selectors import fees_owed
from money.fee_services import fee_change_give, fee_payment_undo, fee_take
from money.models import FeePayment, LedgerEntry, LedgerKind, Pot
from money.selectors import session_cash_box, settle_blockers
from money.services import session_reopen, session_settle
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def morning(club):
    """An open per-game session of 4 checked-in players, nothing drawn or paid yet."""
    club.fee_per = "game"
    club.rounds_per_session = 3
    club.save()
    organiser = UserFactory(role="organisers", club=club)
    organiser.confirmer = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    names = ["Ann", "Bob", "Cat", "Dan"]
    checkins = {
        name: club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club, display_name=name)
        )
        for name in names
    }
    return session, organiser, checkins


def play_round(session, organiser, seed=1):
    round_ = game_services.round_draw(session=session, actor=organiser, seed=seed)
    for game in round_.games.order_by("table"):
        scores = [121] + [100] * (game.side_count - 1)
        draft = game_services.result_enter(game=game, actor=organiser, scores=scores)
        game_services.result_confirm(result=draft, actor=organiser.confirmer)
    return round_


def line(session, checkin):
    return fees_owed(session)[checkin.pk]


def test_each_player_owes_the_fee_for_each_game_seated_in(morning):
    session, organiser, checkins = morning
    ann = checkins["Ann"]
    assert (line(session, ann).games, line(session, ann).owed_cents) == (0, 0)
    play_round(session, organiser, seed=1)
    play_round(session, organiser, seed=2)
    owed = line(session, ann)
    assert (owed.games, owed.owed_cents, owed.to_pay_cents) == (2, 50, 50)
    assert owed.morning_cents == 75  # 25¢ for each of the 3 rounds


def test_a_game_not_played_is_not_charged(morning):
    session, organiser, checkins = morning
    round_ = game_services.round_draw(session=session, actor=organiser, seed=1)
    game = round_.games.order_by("table").first()
    seated = set(game.seats.values_list("player_id", flat=True))
    game_services.game_not_played(game=game, actor=organiser, reason="taken ill")
    for checkin in checkins.values():
        expected = 0 if checkin.player_id in seated else 1
        assert line(session, checkin).games == expected


def test_the_jackpots_stay_once_a_morning(club, morning):
    session, organiser, _ = morning
    club.jackpot_29_cents = 10
    club.save()
    later = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 12, 3))
    eve = club_services.checkin_create(
        session=later, actor=organiser, player=PlayerFactory(club=club)
    )
    assert line(later, eve).owed_cents == 10  # no game yet: the contribution alone
    assert line(later, eve).morning_cents == 10 + 3 * 25


def test_per_session_owed_is_the_fee_once(club, organiser):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    checkin = club_services.checkin_create(
        session=session, actor=organiser, player=PlayerFactory(club=club)
    )
    assert (line(session, checkin).owed_cents, line(session, checkin).paid_cents) == (25, 0)
    club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    assert line(session, checkin).paid_cents == 25
    with pytest.raises(ValidationError, match="per session: press Mark paid"):
        fee_take(checkin=checkin, actor=organiser, amount_cents=25)


def test_taking_what_is_owed_now_is_safe_to_press_twice(morning):
    session, organiser, checkins = morning
    play_round(session, organiser)
    ann = checkins["Ann"]
    payment = fee_take(checkin=ann, actor=organiser)
    assert (payment.cents, payment.taken_by) == (25, organiser)
    assert fee_take(checkin=ann, actor=organiser) is None
    assert FeePayment.objects.filter(checkin=ann).count() == 1
    entry = AuditEntry.objects.filter(action=MoneyVerb.FEE_TAKEN).latest("pk")
    assert entry.data["cents"] == 25 and entry.data["player"] == ann.player_id


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "above 0"),
        (-25, "above 0"),
        (76, "At most 75¢: that pays for the whole morning"),
    ],
)
def test_an_amount_ahead_is_refused_with_what_to_take(morning, amount, message):
    session, organiser, checkins = morning
    with pytest.raises(ValidationError, match=message) as refused:
        fee_take(checkin=checkins["Ann"], actor=organiser, amount_cents=amount)
    assert "amount" in refused.value.message_dict
    assert not FeePayment.objects.exists()


def test_a_second_press_of_the_same_amount_is_refused(morning):
    session, organiser, checkins = morning
    fee_take(checkin=checkins["Ann"], actor=organiser, amount_cents=50, kept_cents=0)
    with pytest.raises(ValidationError, match="recorded meanwhile"):
        fee_take(checkin=checkins["Ann"], actor=organiser, amount_cents=50, kept_cents=0)
    assert line(session, checkins["Ann"]).paid_cents == 50


def test_the_fee_per_game_refuses_mark_paid_and_a_settled_session_refuses_payments(morning):
    session, organiser, checkins = morning
    with pytest.raises(ValidationError, match="per game"):
        club_services.fee_mark_paid(checkin=checkins["Ann"], actor=organiser)
    with pytest.raises(ValidationError, match="per game"):
        club_services.checkins_create(
            session=session,
            actor=organiser,
            players=[PlayerFactory(club=session.club)],
            paid=True,
        )


def test_a_check_in_with_payments_is_undone_only_after_them(morning):
    session, organiser, checkins = morning
    fee_take(checkin=checkins["Ann"], actor=organiser, amount_cents=75)
    with pytest.raises(ValidationError, match="undo the payments"):
        club_services.checkin_undo(checkin=checkins["Ann"], actor=organiser)
    assert fee_payment_undo(checkin=checkins["Ann"], actor=organiser).cents == 75
    club_services.checkin_undo(checkin=checkins["Ann"], actor=organiser)


def _pay_ahead_leave_early(session, organiser, checkins):
    """Ann pays for the morning (75¢) and leaves after round 2; the others pay as they go."""
    ann = checkins["Ann"]
    fee_take(checkin=ann, actor=organiser, amount_cents=75)
    for number in (1, 2):
        play_round(session, organiser, seed=number)
    club_services.checkin_leaves_after(checkin=ann, actor=organiser, round_number=2)
    play_round(session, organiser, seed=3)
    for name in ("Bob", "Cat", "Dan"):
        fee_take(checkin=checkins[name], actor=organiser)
    return ann


def test_change_due_blocks_settling_until_given_back_then_the_ledger_refunds_it(morning):
    session, organiser, checkins = morning
    ann = _pay_ahead_leave_early(session, organiser, checkins)
    owed = line(session, ann)
    assert (owed.games, owed.owed_cents, owed.change_due_cents) == (2, 50, 25)
    blockers = settle_blockers(session)
    assert blockers == [
        "Change to give back: Ann (25¢). Give it and press Change given on their rows."
    ]
    assert blockers[0].url.endswith("#checkin")

    change = fee_change_give(checkin=ann, actor=organiser)
    assert (change.kind, change.cents) == ("change", 25)
    assert fee_change_give(checkin=ann, actor=organiser) is None  # nothing more due
    assert settle_blockers(session) == []
    settlement = session_settle(session=session, actor=organiser, seed=1)

    games = sum(line.games for line in fees_owed(session).values())
    assert settlement.pot_cents == 25 * games
    main = LedgerEntry.objects.filter(settlement=settlement, pot=Pot.MAIN)
    refunds = main.filter(kind=LedgerKind.REFUND)
    assert list(refunds.values_list("player_id", "amount_cents")) == [(ann.player_id, -25)]
    fee_rows = dict(main.filter(kind=LedgerKind.FEE).values_list("player_id", "amount_cents"))
    assert fee_rows[ann.player_id] == 75
    assert main.aggregate(t=Sum("amount_cents"))["t"] == 0  # the whole pot is paid out
    assert settlement.steps[0] == (
        f"The pot: {games} games at 25¢ = ${settlement.pot_cents // 100}."
        f"{settlement.pot_cents % 100:02d} ($3.00 paid, less change given back: Ann 25¢)."
    )
    box = session_cash_box(session, settlement)
    assert (box.collected_cents, box.refunds_cents) == (300, 25)
    assert box.carried_cents == 0
    rows = LedgerEntry.objects.filter(settlement=settlement)
    assert (
        box.collected_cents == rows.filter(amount_cents__gt=0).aggregate(t=Sum("amount_cents"))["t"]
    )
    assert (
        box.refunds_cents + box.paid_out_cents
        == -rows.filter(amount_cents__lt=0).aggregate(t=Sum("amount_cents"))["t"]
    )


def test_unpaid_fees_block_settling_with_names_and_amounts(morning):
    session, organiser, checkins = morning
    play_round(session, organiser)
    assert settle_blockers(session)[0] == (
        "Fees not paid: Ann (25¢), Bob (25¢), Cat (25¢), Dan (25¢). Take what they owe on "
        "their rows."
    )


def test_reopening_reverses_the_refunds_and_the_pot_sums_to_zero(morning):
    session, organiser, checkins = morning
    ann = _pay_ahead_leave_early(session, organiser, checkins)
    fee_change_give(checkin=ann, actor=organiser)
    settlement = session_settle(session=session, actor=organiser, seed=1)
    session_reopen(session=session, actor=organiser, reason="a typo")
    reversed_refund = LedgerEntry.objects.filter(
        settlement=settlement, kind=LedgerKind.REVERSAL, player=ann.player, amount_cents=25
    )
    assert reversed_refund.exists()
    total = LedgerEntry.objects.filter(settlement=settlement).aggregate(t=Sum("amount_cents"))
    assert total["t"] == 0


def test_undo_takes_back_the_last_payment_or_change(morning):
    session, organiser, checkins = morning
    ann = _pay_ahead_leave_early(session, organiser, checkins)
    fee_change_give(checkin=ann, actor=organiser)
    assert fee_payment_undo(checkin=ann, actor=organiser).kind == "change"
    assert line(session, ann).change_due_cents == 25
    entry = AuditEntry.objects.filter(action=MoneyVerb.FEE_PAYMENT_UNDONE).latest("pk")
    assert entry.data["kind"] == "change" and entry.data["cents"] == 25


def test_the_per_session_payout_sheet_says_players_at_the_fee(club, organiser):
    from tests.builders import run_session

    confirmer = UserFactory(role="organisers", club=club)
    session = run_session(club, organiser, confirmer, players=10, rounds=1)
    settlement = session_settle(session=session, actor=organiser, seed=1)
    assert settlement.steps[0] == "The pot: 10 players at 25¢ = $2.50."


def test_the_session_list_counts_what_was_taken_per_game(morning):
    """The club's sessions list (club.selectors.club_sessions) says what each morning collected:
    with the fee per game, the payments taken less the change given back."""
    session, organiser, checkins = morning
    play_round(session, organiser)
    fee_take(checkin=checkins["Ann"], actor=organiser, amount_cents=75)  # the whole morning
    fee_take(checkin=checkins["Bob"], actor=organiser)
    checkin_leaves = club_services.checkin_leaves_after
    checkin_leaves(checkin=checkins["Ann"], actor=organiser, round_number=1)
    fee_change_give(checkin=checkins["Ann"], actor=organiser)
    row = club_sessions(session.club).get(pk=session.pk)
    assert row.collected_cents == 25 + 25  # Ann kept 25 of her 75, Bob paid 25
