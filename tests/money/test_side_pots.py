"""Side pots in the cash box: what a check-in owes (the fee plus each jackpot's contribution), skunk
coins owed by the skunked and taken one by one, settling refused while anything owed is unpaid or no
game is confirmed, the side pots' sheet, and the cash box agreeing with the ledger to the cent
(docs/spec.md "The pot and payouts"; "A Thursday, step by step", steps 2 and 6)."""

import datetime as dt

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Sum

from club import services as club_services
from club.models import CheckIn, Session
from club.selectors import session_fee_totals
from core.cents import MONEY_LIMIT_CENTS
from core.models import AuditEntry
from games import services as game_services
from money.audit import MoneyVerb
from money.models import LedgerEntry, LedgerKind, Pot, SkunkCoin
from money.selectors import pot_balances, session_cash_box, settle_blockers, skunk_coin_lines
from money.services import (
    session_reopen,
    session_settle,
    skunk_coin_hand_back,
    skunk_coin_mark_paid,
    skunk_coins_collect,
)
from tests.builders import run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return UserFactory(role="organisers"), UserFactory(role="organisers")


def ledger_of(settlement) -> dict[str, int]:
    """The cash box as the ledger says it: + rows in, - rows out, the side pots' net."""
    rows = LedgerEntry.objects.filter(settlement=settlement)
    total = lambda **kw: rows.filter(**kw).aggregate(t=Sum("amount_cents"))["t"] or 0  # noqa: E731
    return {
        "collected": total(amount_cents__gt=0),
        "paid_out": -total(amount_cents__lt=0),
        "carried": total() - total(pot=Pot.MAIN),
    }


def assert_cash_box_is_the_ledger(session, settlement) -> None:
    box = session_cash_box(Session.objects.get(pk=session.pk), settlement)
    assert {
        "collected": box.collected_cents,
        "paid_out": box.paid_out_cents,
        "carried": box.carried_cents,
    } == ledger_of(settlement)


def skunk_scores(loser_score):
    return lambda game: [121] + [loser_score(game)] * (game.side_count - 1)


# --- Two players and a jackpot ------------------------------------------------------------------


def test_two_players_at_25_cents_and_a_10_cent_jackpot_owe_35_each(people):
    """2 players at 25¢ and a 10¢ jackpot: each check-in owes 35¢ (docs/spec.md "A Thursday,
    step by step", step 2: what the player owes is the entry fee plus each side pot's
    contribution), so the session page never says "collected 50¢, owed 0" while the ledger has
    70¢ in."""
    organiser, confirmer = people
    club = ClubFactory(jackpot_29_cents=10)
    session = run_session(club, organiser, confirmer, players=2, rounds=1, pay=False)
    checkins = list(CheckIn.objects.filter(session=session))
    assert [c.owed_cents for c in checkins] == [35, 35]
    assert checkins[0].owed_parts == "fee 25¢ + 29 jackpot 10¢"
    assert session_fee_totals(session).owed_cents == 70
    for checkin in checkins:
        club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    totals = session_fee_totals(session)
    assert (totals.collected_cents, totals.owed_cents) == (70, 0)
    audit = AuditEntry.objects.filter(action="fee.paid").first()
    assert audit.data["owed_cents"] == 35 and audit.data["jackpots_cents"] == {"29": 10}

    settlement = session_settle(session=session, actor=organiser, seed=1)
    assert ledger_of(settlement)["collected"] == 70
    box = session_cash_box(Session.objects.get(pk=session.pk))
    assert (box.fees_cents, box.contributions_cents, box.collected_cents) == (50, 20, 70)
    assert_cash_box_is_the_ledger(session, settlement)
    (jackpot,) = settlement.side_pots
    assert (jackpot["pot"], jackpot["carried_cents"], jackpot["in_cents"]) == ("jackpot_29", 0, 20)
    assert (jackpot["won_cents"], jackpot["rolled_cents"]) == (0, 20)


def test_the_contribution_is_the_one_recorded_at_check_in(people):
    """What a check-in owes is copied from the session's rules when the player checks in, so a
    later edit never changes it, and settling books those amounts (not today's rules)."""
    organiser, confirmer = people
    club = ClubFactory(jackpot_24_cents=5)
    session = run_session(club, organiser, confirmer, players=4, rounds=1)
    Session.objects.filter(pk=session.pk).update(rules={**session.rules, "jackpot_24_cents": 50})
    session.refresh_from_db()
    settlement = session_settle(session=Session.objects.get(pk=session.pk), actor=organiser)
    coins = LedgerEntry.objects.filter(settlement=settlement, kind=LedgerKind.JACKPOT_COIN)
    assert sorted(coins.values_list("amount_cents", flat=True)) == [5, 5, 5, 5]


def test_the_jackpot_parts_stay_within_the_money_limit():
    checkin = CheckIn(fee_cents=25, jackpot_29_cents=MONEY_LIMIT_CENTS + 1)
    with pytest.raises(ValidationError) as error:
        checkin.clean_fields(exclude=["session", "player"])
    assert "jackpot_29_cents" in error.value.message_dict


def test_old_check_ins_get_their_sessions_contributions(people):
    """The data migration (club 0017): a check-in of a session with a jackpot on gets the
    contribution its settlement booked for every paid player."""
    organiser, confirmer = people
    club = ClubFactory(jackpot_29_cents=10)
    session = run_session(club, organiser, confirmer, players=2, rounds=1)
    CheckIn.objects.filter(session=session).update(jackpot_29_cents=0)  # as before the migration
    migration = __import__("club.migrations.0017_checkin_jackpots", fromlist=["x"])
    migration.copy_contributions(django_apps, type("Editor", (), {"connection": connection}))
    assert set(CheckIn.objects.filter(session=session).values_list("jackpot_29_cents")) == {(10,)}


# --- Skunk coins --------------------------------------------------------------------------------


def test_skunk_coins_are_owed_taken_and_settled_exactly(people):
    """docs/spec.md "The pot and payouts": each skunked player pays a coin, owed like the fee;
    an unpaid coin blocks settling ("A Thursday, step by step", step 6: "a fee, contribution or
    skunk coin is unpaid"), and settling books the coins taken."""
    organiser, confirmer = people
    club = ClubFactory(skunk_bank=True)
    session = run_session(
        club, organiser, confirmer, players=4, rounds=1, scores=skunk_scores(lambda g: 80)
    )
    coins = skunk_coin_lines(session)
    assert len(coins) == 2 and all(c.owed and c.paid for c in coins)  # run_session paid them
    for coin in SkunkCoin.objects.filter(session=session):
        skunk_coin_hand_back(coin=coin, actor=organiser)
    assert AuditEntry.objects.filter(action=MoneyVerb.SKUNK_COIN_RETURNED).count() == 2
    blockers = settle_blockers(session)
    (text,) = [b for b in blockers if b.startswith("Skunk coins not paid")]
    first = skunk_coin_lines(session)[0]
    assert first.label in text and "(round 1 table" in text
    assert text.url.endswith(f"/sessions/{session.pk}/#skunk-coins")
    with pytest.raises(ValidationError, match="Skunk coins not paid"):
        session_settle(session=session, actor=organiser)

    coin = skunk_coin_mark_paid(
        session=session, game_id=first.game_id, player_id=first.player_id, actor=organiser
    )
    assert (
        skunk_coin_mark_paid(
            session=session, game_id=first.game_id, player_id=first.player_id, actor=organiser
        )
        == coin
    )  # twice: one coin
    with pytest.raises(ValidationError, match="No skunk coin is owed"):
        winner = next(
            s.player_id
            for s in session.games.get(pk=first.game_id).seats.all()
            if s.player_id != first.player_id
        )
        skunk_coin_mark_paid(
            session=session, game_id=first.game_id, player_id=winner, actor=organiser
        )
    skunk_coins_collect(session=session, actor=organiser)
    assert not settle_blockers(session)
    settlement = session_settle(session=session, actor=organiser, seed=3)
    coins = LedgerEntry.objects.filter(settlement=settlement, kind=LedgerKind.SKUNK_COIN)
    assert coins.count() == SkunkCoin.objects.filter(session=session).count() == 2
    assert pot_balances(club)[Pot.SKUNK_BANK] == 50
    (bank,) = settlement.side_pots
    assert (bank["carried_cents"], bank["in_cents"], bank["in_count"]) == (0, 50, 2)
    assert (bank["winners"], bank["rolled_cents"]) == ([], 50)
    assert_cash_box_is_the_ledger(session, settlement)


def test_a_coin_paid_for_a_skunk_corrected_away_is_handed_back_first(people):
    """A correction that takes the skunk away leaves a coin taken and no longer owed: a blocker
    until it is handed back (docs/spec.md "A Thursday, step by step", step 6)."""
    organiser, confirmer = people
    club = ClubFactory(skunk_bank=True)
    session = run_session(
        club, organiser, confirmer, players=2, rounds=1, scores=skunk_scores(lambda g: 80)
    )
    game = session.games.get()
    game_services.result_correct(game=game, actor=organiser, scores=[121, 100], reason="Recount")
    draft = game.results.exclude(state="superseded").get()
    if draft.state != "confirmed":
        game_services.result_confirm(result=draft, actor=confirmer)
    (line,) = skunk_coin_lines(session)
    assert line.paid and not line.owed
    (text,) = settle_blockers(session)
    assert text.startswith("Skunk coins to hand back") and "(round 1 table 1)" in text
    skunk_coin_hand_back(coin=line.coin, actor=organiser)
    settlement = session_settle(session=session, actor=organiser)
    assert not LedgerEntry.objects.filter(settlement=settlement, pot=Pot.SKUNK_BANK).exists()
    assert_cash_box_is_the_ledger(session, settlement)


def test_a_double_skunk_wins_the_bank_and_the_sheet_says_so(people):
    organiser, confirmer = people
    club = ClubFactory(skunk_bank=True, jackpot_28_cents=10)
    first = run_session(
        club,
        organiser,
        confirmer,
        players=2,
        rounds=1,
        date=dt.date(2026, 1, 1),
        scores=skunk_scores(lambda g: 80),
    )
    session_settle(session=first, actor=organiser, seed=1)
    second = run_session(
        club,
        organiser,
        confirmer,
        players=2,
        rounds=1,
        date=dt.date(2026, 1, 8),
        scores=skunk_scores(lambda g: 50),
    )
    settlement = session_settle(session=second, actor=organiser, seed=1)
    bank, jackpot = settlement.side_pots
    winner = LedgerEntry.objects.get(settlement=settlement, kind=LedgerKind.SKUNK_BANK_WIN)
    assert (bank["carried_cents"], bank["in_cents"], bank["won_cents"]) == (25, 25, 50)
    assert bank["winners"] == [
        {"player": winner.player_id, "name": winner.player.display_name, "cents": 50}
    ]
    assert bank["rolled_cents"] == 0
    assert (jackpot["carried_cents"], jackpot["in_cents"], jackpot["rolled_cents"]) == (20, 20, 40)
    assert_cash_box_is_the_ledger(second, settlement)


def test_reopening_an_earlier_session_after_a_later_one_won_the_bank_is_refused(people):
    """The bank can never go below 0 (tests/ops backup checks say so too): reopening the session
    whose coin a later session has paid out would; reopen the later one first."""
    organiser, confirmer = people
    club = ClubFactory(skunk_bank=True)
    early = run_session(
        club,
        organiser,
        confirmer,
        players=2,
        rounds=1,
        date=dt.date(2026, 1, 1),
        scores=skunk_scores(lambda g: 80),
    )
    session_settle(session=early, actor=organiser)
    later = run_session(
        club,
        organiser,
        confirmer,
        players=2,
        rounds=1,
        date=dt.date(2026, 1, 8),
        scores=skunk_scores(lambda g: 50),
    )
    session_settle(session=later, actor=organiser)
    with pytest.raises(ValidationError, match="08 January 2026"):
        session_reopen(session=early, actor=organiser, reason="Recount")
    assert pot_balances(club)[Pot.SKUNK_BANK] == 0
    session_reopen(session=later, actor=organiser, reason="Recount")
    session_reopen(session=early, actor=organiser, reason="Recount")
    assert pot_balances(club)[Pot.SKUNK_BANK] == 0


# --- Blockers -----------------------------------------------------------------------------------


def test_a_session_with_no_game_confirmed_cannot_be_settled(people):
    """docs/spec.md "A Thursday, step by step", step 6: settling is refused while no game is
    confirmed, rather than paying four players 25¢ back each as "money won"."""
    organiser, _ = people
    club = ClubFactory()
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    club_services.checkins_create(
        session=session,
        actor=organiser,
        players=PlayerFactory.create_batch(4, club=club),
        paid=True,
    )
    (blocker,) = settle_blockers(session)
    assert blocker.startswith("No game confirmed yet")
    assert blocker.url == f"/club/sessions/{session.pk}/#rounds"
    with pytest.raises(ValidationError, match="No game confirmed yet"):
        session_settle(session=session, actor=organiser)
    assert not LedgerEntry.objects.exists()


def test_every_blocker_links_to_the_page_that_clears_it(people):
    organiser, confirmer = people
    club = ClubFactory()
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    players = PlayerFactory.create_batch(2, club=club)
    club_services.checkins_create(session=session, actor=organiser, players=players)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=1)
    blockers = settle_blockers(session)
    assert [b.split(":")[0] for b in blockers] == [
        "Fees not paid",
        "No game confirmed yet",
        "Results not confirmed",
    ]
    assert [b.url for b in blockers] == [
        f"/club/sessions/{session.pk}/#checkin",
        f"/club/sessions/{session.pk}/#rounds",
        f"/games/rounds/{round_.pk}/",
    ]
