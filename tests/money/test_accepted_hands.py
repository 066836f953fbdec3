"""The jackpot winners, `money.selectors.accepted_hands`.

docs/spec.md "Claims, muggins and disputes": "A 29, 28 or 24 wins its jackpot when accepted as
claimed (or upheld by a judge) and a player of another side at the table (or a judge who is not a
party) has confirmed the cards, and only when it was not an over-claim: a count corrected down
never wins, whatever a judge later rules. A wrong muggins call never costs the claimant the
jackpot. One definition of an accepted big hand serves the jackpots and the highlights."

Terms: a *jackpot table* (`jackpot_table`, tests/scoring/jackpot_tables.py): a 2-player game whose
session runs the jackpots; the side-1 player holds the 29 (hoyle.txt "Showing"). *Confirmed*: the
side-0 player confirmed the cards. A *false call*: muggins called on an exact claim, where nothing
was overlooked (ACC rule 10.4a: the claimant is given N). *Settled*: the fees paid, the game's
result entered by the organiser and confirmed by the side-0 player, the session settled; each of the
two players put 25¢ in the 29 jackpot and 5¢ in the 24 jackpot.
"""

import pytest

from club import services as club_services
from club.models import CheckIn
from games import services as game_services
from money.models import LedgerEntry, LedgerKind, Pot
from money.selectors import accepted_hands
from money.services import session_settle
from scoring import services
from scoring.models import ClaimKind, OutcomeKind, RulingDecision
from standings.highlights import big_hands, session_highlights
from tests.factories import UserFactory
from tests.scoring.jackpot_tables import file_29

pytestmark = pytest.mark.django_db


def confirm(jackpot_table, claim):
    services.claim_confirm_cards(claim=claim, actor=jackpot_table.users[0])


def test_a_29_filed_at_his_own_table_wins_only_once_the_other_side_confirms(jackpot_table):
    """A player files a 29 and nobody else has seen the cards: no jackpot yet."""
    claim = file_29(jackpot_table)

    assert accepted_hands(jackpot_table.session, 29) == []
    confirm(jackpot_table, claim)
    assert accepted_hands(jackpot_table.session, 29) == [jackpot_table.players[1].pk]


def test_a_false_muggins_call_never_costs_the_jackpot(jackpot_table):
    """An exact 29 and a wrong "muggins for 2": the call is false (ACC rule 10.4a), the claimant
    is given 2, and the 29 still wins."""
    claim = file_29(jackpot_table)
    confirm(jackpot_table, claim)

    outcome = services.muggins_call(
        claim=claim, actor=jackpot_table.users[0], caller=jackpot_table.players[0], points=2
    )

    assert outcome.kind == OutcomeKind.FALSE_MUGGINS
    assert outcome.points == {"0": 0, "1": 31}
    assert accepted_hands(jackpot_table.session, 29) == [jackpot_table.players[1].pk]


@pytest.mark.parametrize("claimed", [28, 30], ids=["found by a muggins call", "over-claimed"])
def test_a_29_not_announced_as_counted_does_not_win(jackpot_table, claimed):
    """Only a claim announced as the engine counts it wins (docs/decisions/claims.md, on jackpot
    hands): a 29 claimed as 28 (and the 1 taken by muggins), or claimed as 30 and corrected."""
    claim = file_29(jackpot_table, claimed=claimed)
    confirm(jackpot_table, claim)
    if claimed < 29:
        services.muggins_call(
            claim=claim, actor=jackpot_table.users[0], caller=jackpot_table.players[0], points=1
        )

    assert accepted_hands(jackpot_table.session, 29) == []


def test_a_ruling_for_the_claimant_wins_once_the_cards_are_confirmed(jackpot_table):
    """Rulings as before (the judge's last ruling gives the claimant's side 29 or more), and
    the cards must be confirmed too: here by the judge who ruled, not a party."""
    claim = file_29(jackpot_table)
    dispute = services.dispute_open(claim=claim, actor=jackpot_table.users[0], statement="Show me.")
    a_judge = UserFactory(role="judges", club=jackpot_table.club)
    services.dispute_rule(dispute=dispute, actor=a_judge, decision="agree")

    assert accepted_hands(jackpot_table.session, 29) == []
    services.claim_confirm_cards(claim=claim, actor=a_judge)
    assert accepted_hands(jackpot_table.session, 29) == [jackpot_table.players[1].pk]


def settle(jackpot_table):
    for checkin in CheckIn.objects.filter(session=jackpot_table.session):
        club_services.fee_mark_paid(checkin=checkin, actor=jackpot_table.organiser)
    draft = game_services.result_enter(
        game=jackpot_table.game, actor=jackpot_table.organiser, scores=[121, 100]
    )
    game_services.result_confirm(result=draft, actor=jackpot_table.users[0])
    return session_settle(session=jackpot_table.session, actor=jackpot_table.organiser)


def jackpot_won(jackpot_table, pot: str) -> tuple[int, list[tuple[int, int]]]:
    """What settling paid out of the jackpot: the payout sheet's figure and the ledger's rows."""
    settlement = settle(jackpot_table)
    (sheet,) = [each for each in settlement.side_pots if each["pot"] == pot]
    rows = LedgerEntry.objects.filter(kind=LedgerKind.JACKPOT_WIN, pot=pot)
    return sheet["won_cents"], list(rows.values_list("player_id", "amount_cents"))


def highlighted(jackpot_table) -> list:
    """The big hands of the session's highlights (the live board, the session page) and of the
    club's all-time records."""
    return [
        session_highlights(jackpot_table.session).big_hands,
        big_hands(jackpot_table.club),
    ]


@pytest.mark.parametrize(
    ("claimed", "wins"), [(29, True), (30, False)], ids=["claimed 29", "over-claimed as 30"]
)
def test_a_29_a_judge_upholds_wins_only_when_it_was_claimed_as_counted(
    jackpot_table, claimed, wins
):
    """5H 5D 5C JS with the 5S turned is a 29 (hoyle.txt "Showing": three fives and the knave of
    the starter's suit, a five turned up). Claimed as 30 it is corrected down to 29 (docs/claims.md:
    a count "corrected down from an over-claim, does not win"); the claimant disputes and a judge
    agrees with the engine, 29 for the claimant. docs/spec.md: "a count corrected down never wins,
    whatever a judge later rules": settling pays nothing out of the 29 jackpot, and the hand is
    no highlight. Claimed as 29, the same dispute and ruling leave both won."""
    claim = services.claim_file(
        game=jackpot_table.game,
        actor=jackpot_table.users[1],
        kind=ClaimKind.HAND,
        claimant=jackpot_table.players[1],
        claimed_points=claimed,
        hand="5H 5D 5C JS",
        starter="5S",
    )
    assert claim.true_points == 29
    confirm(jackpot_table, claim)
    dispute = services.dispute_open(
        claim=claim, actor=jackpot_table.users[1], statement="I said it."
    )
    a_judge = UserFactory(role="judges", club=jackpot_table.club)
    ruling = services.dispute_rule(dispute=dispute, actor=a_judge, decision=RulingDecision.AGREE)
    assert ruling.points["1"] == 29

    assert highlighted(jackpot_table) == ([[claim], [claim]] if wins else [[], []])
    assert accepted_hands(jackpot_table.session, 29) == (
        [jackpot_table.players[1].pk] if wins else []
    )
    won = jackpot_won(jackpot_table, Pot.JACKPOT_29)
    assert won == ((50, [(jackpot_table.players[1].pk, -50)]) if wins else (0, []))


@pytest.mark.parametrize(
    ("claimed", "wins"), [(24, True), (26, False)], ids=["claimed 24", "over-claimed as 26"]
)
def test_a_24_after_a_false_muggins_call_and_a_ruling_wins_only_when_claimed_as_counted(
    jackpot_table, claimed, wins
):
    """Four threes and a nine are 24 (twelve for fifteens, twelve for the double pair royal).
    The opponent calls "muggins for 2" where nothing was overlooked: ACC rule 10.4a, the call is
    false and the claimant is given 2 (24 + 2); the caller disputes it and a judge agrees with
    the engine. A wrong muggins call never costs the claimant a jackpot (docs/spec.md), so the 24
    claimed as counted wins it; but claimed as 26 it was corrected down first, and "a count
    corrected down never wins, whatever a judge later rules": no jackpot, no highlight."""
    claim = services.claim_file(
        game=jackpot_table.game,
        actor=jackpot_table.users[1],
        kind=ClaimKind.HAND,
        claimant=jackpot_table.players[1],
        claimed_points=claimed,
        hand="3H 3C 3S 3D",
        starter="9C",
    )
    assert claim.true_points == 24
    confirm(jackpot_table, claim)
    call = services.muggins_call(
        claim=claim, actor=jackpot_table.users[0], caller=jackpot_table.players[0], points=2
    )
    assert (call.kind, call.points["1"]) == (OutcomeKind.FALSE_MUGGINS, 26)
    dispute = services.dispute_open(
        claim=claim, actor=jackpot_table.users[0], statement="There was a point to call."
    )
    a_judge = UserFactory(role="judges", club=jackpot_table.club)
    services.dispute_rule(dispute=dispute, actor=a_judge, decision=RulingDecision.AGREE)

    assert highlighted(jackpot_table) == ([[claim], [claim]] if wins else [[], []])
    assert accepted_hands(jackpot_table.session, 24) == (
        [jackpot_table.players[1].pk] if wins else []
    )
    won = jackpot_won(jackpot_table, Pot.JACKPOT_24)
    assert won == ((10, [(jackpot_table.players[1].pk, -10)]) if wins else (0, []))
