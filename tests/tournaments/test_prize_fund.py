"""A tournament's session settled on money's pages (tournaments/prize_fund.py through
money.hooks): its pot is the prize fund, the entry fees less the club's share, paid to the
qualifiers by how far they went; the club's share is a ledger row of its own; settling waits for
the final; reopening reverses every row; a Thursday settles as it always has.

The ACC's rules: http://cribbage.org/rules/rule13.asp (13.1: a qualifier who does not appear
"is still entitled to receive any prize money ... awarded to the losers in that round"; 13.2.b:
one in four entrants qualify) and http://cribbage.org/rules/playoffbracket.asp (the bracket).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.urls import reverse

from club.roles import ORGANISERS
from core.models import AuditEntry
from money.hooks import pot_plan
from money.models import LedgerEntry, LedgerKind, Payout, Pot, SettlementState
from money.selectors import pot_balance, session_cash_box, settle_blockers, settle_inputs
from money.services import SettleChanged, session_reopen, session_settle, settle_plan
from tests.builders import run_session
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.test_tournament_services import (
    enter,
    make_tournament,
    open_playoff_games,
    play,
    play_qualifying,
    stronger,
)
from tournaments import services
from tournaments.models import Match, Stage, Tournament
from tournaments.prize_fund import NOT_FINISHED, club_share_cents

pytestmark = pytest.mark.django_db

FUND_STEP = "The fund: 37 entrants at $20.00 = $740.00, less the club's 10% ($74.00) = $666.00."


@pytest.fixture
def confirmer(member):
    return member("organiser")


def play_playoffs(tournament, organiser, confirmer) -> None:
    """Every playoff game to the end, the stronger player (the lower id) winning each."""
    plays = 0
    while (games := open_playoff_games(tournament)) and plays < 200:
        for game in games:
            play(game, organiser, confirmer, stronger(game))
            plays += 1


def finished_tournament(club, organiser, confirmer, entrants: int = 37, **changes) -> Tournament:
    """A tournament of `entrants` at $20 (10% kept by the club unless `changes` say otherwise),
    qualifying played, the cut made and the playoffs played to a champion."""
    values = {"match_lengths": [5, 3], "club_share_percent": 10} | changes
    tournament = make_tournament(club, organiser, **values)
    enter(tournament, organiser, entrants)
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=7)
    play_playoffs(tournament, organiser, confirmer)
    tournament.refresh_from_db()
    assert tournament.stage == Stage.FINISHED
    return tournament


@pytest.fixture(scope="module")
def settled_world(django_db_setup, django_db_blocker) -> tuple[int, int]:
    """(tournament id, organiser id): the finished tournament of 37 in a club of its own, its
    session settled. Played once for the module (its qualifying and playoffs are most of the
    module's time) inside a transaction rolled back at the end; each test runs in a savepoint of
    it, so what one test changes (a reopening) the next does not see."""
    with django_db_blocker.unblock(), transaction.atomic():
        club = ClubFactory(name="Prize Fund Club", slug="prize-fund")
        organiser, confirmer = (UserFactory(role=ORGANISERS, club=club) for _ in range(2))
        tournament = finished_tournament(club, organiser, confirmer)
        session_settle(session=tournament.session, actor=organiser, seed=3)
        yield tournament.pk, organiser.pk
        transaction.set_rollback(True)


@pytest.fixture
def settled(settled_world) -> Tournament:
    return Tournament.objects.get(pk=settled_world[0])


@pytest.fixture
def settled_organiser(settled_world):
    """An organiser of the settled tournament's club (`settled`), who settled it."""
    return get_user_model().objects.get(pk=settled_world[1])


def test_the_prize_fund_is_the_fees_less_the_clubs_share_paid_exactly(settled):
    """37 entrants at $20: $740.00; the club keeps 10%, $74.00; the fund of $666.00 is paid to
    the 10 qualifiers (ACC rule 13.2.b: one in four, rounded up) to the cent."""
    session = settled.session
    settlement = session.settlements.get(state=SettlementState.CURRENT)
    payouts = list(Payout.objects.filter(settlement=settlement))

    assert settlement.pot_cents == 74_000
    assert sum(p.amount_cents for p in payouts) == 66_600
    (share,) = LedgerEntry.objects.filter(settlement=settlement, kind=LedgerKind.CLUB_SHARE)
    assert (share.pot, share.amount_cents, share.player_id) == (Pot.MAIN, -7_400, None)
    assert pot_balance(settled.club, Pot.MAIN) == 0
    assert settlement.steps == [
        FUND_STEP,
        "Each level's share is split evenly among its players, rounded down to whole coins of 25¢.",
        "Champion: 1 player, 38.1% of the fund, $255.25.",
        "Runner-up: 1 player, 19.05% of the fund, $126.75.",
        "Semi-finalists: 2 players, 19.05% of the fund, $63.25 each.",
        "Quarter-finalists: 4 players, 19.04% of the fund, $31.50 each.",
        "Round of 16: 2 players, 4.76% of the fund, $15.75 each.",
        "The Champion's amount includes the $1.75 the rounding leaves.",
        "Paid: $666.00 to 10 players.",
    ]
    entry = AuditEntry.objects.get(action="session.settled")
    assert (entry.data["pot_cents"], entry.data["kept_cents"]) == (74_000, 7_400)


def test_the_cash_box_says_what_the_club_keeps(settled):
    session = settled.session
    session.refresh_from_db()
    box = session_cash_box(session)
    assert (box.collected_cents, box.payouts_cents, box.kept_cents) == (74_000, 66_600, 7_400)
    assert box.carried_cents == 0


def test_every_qualifier_is_paid_by_how_far_they_went_and_the_rest_nothing(settled):
    """Every entrant is on the sheet: the champion takes most, each deeper level at least as
    much as a shallower one, every qualifier more than 0 (ACC rule 13.1), the others 0."""
    settlement = settled.session.settlements.get(state=SettlementState.CURRENT)
    paid = {p.player_id: p for p in Payout.objects.filter(settlement=settlement)}
    qualifiers = set(settled.seeds)

    assert len(paid) == 37
    champion = paid[settled.champion_id]
    assert champion.place == 1
    assert all(champion.amount_cents > p.amount_cents for p in paid.values() if p != champion)
    assert all(paid[q].amount_cents > 0 for q in qualifiers)
    assert all(p.amount_cents == 0 for pid, p in paid.items() if pid not in qualifiers)
    # 10 qualifiers, a bracket of 16: champion 1, runner-up 2, semi-finalists 3, quarter-
    # finalists 5, the two losers of round 1 at 9; then the 27 others from 11.
    places = sorted(paid[q].place for q in qualifiers)
    assert places == [1, 2, 3, 3, 5, 5, 5, 5, 9, 9]
    assert min(p.place for pid, p in paid.items() if pid not in qualifiers) == 11
    by_place = sorted(paid.values(), key=lambda p: p.place)
    amounts = [p.amount_cents for p in by_place]
    assert amounts == sorted(amounts, reverse=True)
    final = Match.objects.get(tournament=settled, round_number=4)
    runner_up = final.top_id if final.winner_id == final.bottom_id else final.bottom_id
    assert paid[runner_up].place == 2


def test_the_payout_sheet_shown_is_what_settling_writes(club, organiser, confirmer):
    """The sheet's fingerprint names what the club keeps: a sheet shown before the share
    changed is refused, the one shown after it settles exactly."""
    tournament = finished_tournament(club, organiser, confirmer, club_share_percent=20)
    shown = settle_plan(tournament.session, 5)
    Tournament.objects.filter(pk=tournament.pk).update(club_share_percent=10)
    with pytest.raises(SettleChanged):
        session_settle(
            session=tournament.session, actor=organiser, seed=5, fingerprint=shown.fingerprint
        )

    plan = settle_plan(tournament.session, 5)
    assert (plan.pot_cents, plan.kept_cents, plan.pot.pot_cents) == (74_000, 7_400, 66_600)
    assert plan.steps[0] == FUND_STEP
    settlement = session_settle(
        session=tournament.session, actor=organiser, seed=5, fingerprint=plan.fingerprint
    )
    written = {p.player_id: p.amount_cents for p in settlement.payouts.all()}
    assert written == {p.player_id: p.amount_cents for p in plan.pot.payouts}


def test_the_payout_sheet_and_the_ledger_show_the_clubs_share(settled, client, settled_organiser):
    client.force_login(settled_organiser)
    sheet = client.get(reverse("money:settlement", args=[settled.session_id]))
    ledger = client.get(reverse("money:ledger"))

    assert sheet.status_code == ledger.status_code == 200
    text = sheet.content.decode()
    assert '<strong data-testid="kept">$74.00</strong>' in text
    assert '<strong data-testid="cash-kept">$74.00</strong>' in text
    assert FUND_STEP.replace("'", "&#x27;") in text
    assert "Club&#x27;s share" in ledger.content.decode()


def test_reopening_reverses_every_row_the_clubs_share_too(settled, settled_organiser):
    organiser = settled_organiser
    session = settled.session
    settlement = session.settlements.get(state=SettlementState.CURRENT)

    session_reopen(session=session, actor=organiser, reason="A fee was entered twice.")

    rows = LedgerEntry.objects.filter(settlement=settlement)
    assert rows.aggregate(total=Sum("amount_cents"))["total"] == 0
    assert rows.filter(kind=LedgerKind.REVERSAL, amount_cents=7_400, player=None).exists()
    assert pot_balance(settled.club, Pot.MAIN) == 0
    again = session_settle(session=session, actor=organiser, seed=3)
    assert again.version == 2
    assert again.ledger.get(kind=LedgerKind.CLUB_SHARE).amount_cents == -7_400


def test_settling_waits_for_the_final(club, organiser, confirmer):
    """Before the final is decided the fund has no champion to pay: settling is refused, and
    says why; the final decided, it settles."""
    tournament = make_tournament(
        club, organiser, qualifying_games=1, match_lengths=[3], club_share_percent=25
    )
    enter(tournament, organiser, 8)  # 2 qualifiers: the final alone
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    (game,) = open_playoff_games(tournament)
    play(game, organiser, confirmer, stronger(game))

    assert NOT_FINISHED in settle_blockers(tournament.session)
    with pytest.raises(ValidationError, match="The playoffs are not finished"):
        session_settle(session=tournament.session, actor=organiser)

    play_playoffs(tournament, organiser, confirmer)
    assert NOT_FINISHED not in settle_blockers(tournament.session)
    settlement = session_settle(session=tournament.session, actor=organiser)
    assert settlement.ledger.get(kind=LedgerKind.CLUB_SHARE).amount_cents == -4_000
    assert sum(p.amount_cents for p in settlement.payouts.all()) == 12_000


def test_a_qualifier_who_does_not_appear_is_paid_the_runner_ups_prize(club, organiser, confirmer):
    """ACC rule 13.1: a qualifier who forfeits the final is still entitled to the prize money
    of that round's losers."""
    tournament = make_tournament(club, organiser, qualifying_games=1, match_lengths=[3])
    enter(tournament, organiser, 8)
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    final = Match.objects.get(tournament=tournament, round_number=1)
    for _ in range(2):
        services.match_game_forfeit(match=final, actor=organiser, absent=final.bottom)

    settlement = session_settle(session=tournament.session, actor=organiser)

    paid = {p.player_id: p for p in settlement.payouts.all()}
    assert paid[final.bottom_id].place == 2
    assert 0 < paid[final.bottom_id].amount_cents < paid[final.top_id].amount_cents
    assert not settlement.ledger.filter(kind=LedgerKind.CLUB_SHARE).exists()  # 0%: none
    assert sum(p.amount_cents for p in paid.values()) == 16_000


def test_a_directors_shares_that_do_not_fit_the_playoff_block_settling(club, organiser, confirmer):
    """Three shares for a playoff of two levels (8 entrants, 2 qualifiers): the sheet says
    what to change instead of paying a wrong split."""
    tournament = make_tournament(
        club, organiser, qualifying_games=1, match_lengths=[3], prize_shares=[5000, 3000, 2000]
    )
    enter(tournament, organiser, 8)
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    play_playoffs(tournament, organiser, confirmer)

    (blocker,) = settle_blockers(tournament.session)
    assert blocker.startswith("The tournament's prize shares do not fit its playoff: Give one")


@pytest.mark.parametrize(
    ("pot_cents", "percent", "kept_cents"),
    [(74_000, 10, 7_400), (2_999, 10, 299), (1, 50, 0), (99, 1, 0), (10_000, 0, 0)],
)
def test_the_clubs_share_is_rounded_down_to_whole_cents(pot_cents, percent, kept_cents):
    """Rounding down never takes more than the percent from the players."""
    tournament = Tournament(club_share_percent=percent)
    assert club_share_cents(tournament, pot_cents) == kept_cents


def test_a_thursday_is_planned_by_the_house_rules_with_nothing_kept(organiser, confirmer):
    """The planner answers for tournaments only: a Thursday's session is paid by the house
    rules, the whole pot, with no club's share and nothing said of playoffs."""
    club = ClubFactory()
    session = run_session(club, organiser, confirmer, players=13)
    assert pot_plan(session, settle_inputs(session), 1) is None
    assert not [text for text in settle_blockers(session) if "playoffs" in text]

    settlement = session_settle(session=session, actor=organiser, seed=5)

    assert settlement.pot_cents == 13 * 25
    assert sum(p.amount_cents for p in settlement.payouts.all()) == 13 * 25
    assert not settlement.ledger.filter(kind=LedgerKind.CLUB_SHARE).exists()
    assert settlement.steps[0] == "The pot: 13 players at 25¢ = $3.25."
    session.refresh_from_db()
    box = session_cash_box(session)
    assert (box.payouts_cents, box.kept_cents, box.carried_cents) == (325, 0, 0)
