"""The jackpot winners, `money.selectors.accepted_hands` (DESIGN.md "Claims, muggins and
disputes": "A hand or crib claim wins a 29, 28 or 24 jackpot only once a player of another side at
the table (or a judge) has confirmed the cards; a wrong muggins call never costs the claimant a
jackpot").

Terms: a *jackpot table* (tests/scoring/jackpot_tables.py): a 2-player game whose session runs
the jackpots; the side-1 player holds the 29 (hoyle.txt "Showing"). *Confirmed*: the side-0
player confirmed the cards. A *false call*: muggins called on an exact claim, where nothing was
overlooked (ACC rule 10.4a: the claimant is given N).
"""

import pytest

from money.selectors import accepted_hands
from scoring import services
from scoring.models import OutcomeKind
from tests.factories import UserFactory
from tests.scoring.jackpot_tables import file_29, make_jackpot_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return make_jackpot_table()


def confirm(table, claim):
    services.claim_confirm_cards(claim=claim, actor=table.users[0])


def test_a_29_filed_at_his_own_table_wins_only_once_the_other_side_confirms(table):
    """The issue's case: a player files a 29 and nobody else has seen the cards: no jackpot yet."""
    claim = file_29(table)

    assert accepted_hands(table.session, 29) == []
    confirm(table, claim)
    assert accepted_hands(table.session, 29) == [table.players[1].pk]


def test_a_false_muggins_call_never_costs_the_jackpot(table):
    """An exact 29 and a wrong "muggins for 2": the call is false (ACC rule 10.4a), the claimant
    is given 2, and the 29 still wins."""
    claim = file_29(table)
    confirm(table, claim)

    outcome = services.muggins_call(
        claim=claim, actor=table.users[0], caller=table.players[0], points=2
    )

    assert outcome.kind == OutcomeKind.FALSE_MUGGINS
    assert outcome.points == {"0": 0, "1": 31}
    assert accepted_hands(table.session, 29) == [table.players[1].pk]


@pytest.mark.parametrize("claimed", [28, 30], ids=["found by a muggins call", "over-claimed"])
def test_a_29_not_announced_as_counted_does_not_win(table, claimed):
    """Only a claim announced as the engine counts it wins (docs/decisions.md, hand jackpots):
    a 29 claimed as 28 (and the 1 taken by muggins), or claimed as 30 and corrected."""
    claim = file_29(table, claimed=claimed)
    confirm(table, claim)
    if claimed < 29:
        services.muggins_call(claim=claim, actor=table.users[0], caller=table.players[0], points=1)

    assert accepted_hands(table.session, 29) == []


def test_a_ruling_for_the_claimant_wins_once_the_cards_are_confirmed(table):
    """Rulings as before (the judge's last ruling gives the claimant's side 29 or more), and
    the cards must be confirmed too: here by the judge who ruled, not a party."""
    claim = file_29(table)
    dispute = services.dispute_open(claim=claim, actor=table.users[0], statement="Show me.")
    a_judge = UserFactory(role="judges", club=table.club)
    services.dispute_rule(dispute=dispute, actor=a_judge, decision="agree")

    assert accepted_hands(table.session, 29) == []
    services.claim_confirm_cards(claim=claim, actor=a_judge)
    assert accepted_hands(table.session, 29) == [table.players[1].pk]
