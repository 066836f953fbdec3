"""The one definition of an accepted big hand (scoring.selectors: `big_hand_claims`,
`accepted_big_hands`), which the highlights read as it is and the jackpot winners
(money.selectors.accepted_hands) read with confirmed cards.

docs/spec.md "Claims, muggins and disputes": "A 29, 28 or 24 wins its jackpot when accepted as
claimed (or upheld by a judge) and a player of another side at the table (or a judge who is not a
party) has confirmed the cards, and only when it was not an over-claim: a count corrected down
never wins, whatever a judge later rules. A wrong muggins call never costs the claimant the
jackpot. One definition of an accepted big hand serves the jackpots and the highlights."
docs/claims.md: "A count found only by a muggins call, or corrected down from an over-claim, does
not win: the claimant did not announce it."

Terms: a *jackpot table* (tests/scoring/jackpot_tables.py): a 2-player game whose session runs the
29, 28 and 24 jackpots; the side-1 player files the 29 (hoyle.txt "Showing"), the side-0 player
is the opponent. A *story* is what happens to the claim after it is filed, step by step:
`call N` (the opponent calls "muggins for N"), `dispute` (the claimant disputes), `agree` (a
judge agrees with the engine), `give N` (a judge overrides, giving the claimant's side N and the
opponent 0, with a reason).
"""

import pytest

from money.selectors import accepted_hands
from scoring import services
from scoring.models import Claim, RulingDecision
from scoring.selectors import accepted_big_hands, big_hand_claims, session_big_hands
from tests.factories import UserFactory
from tests.scoring.jackpot_tables import file_29, make_jackpot_table

pytestmark = pytest.mark.django_db

# (claimed, story, accepted): whether the 29 is an accepted big hand after the story.
STORIES = {
    "claimed as counted": (29, [], True),
    "over-claimed, corrected": (30, [], False),
    "under-claimed, the rest taken by muggins": (28, ["call 1"], False),
    # ACC rule 10.4a: nothing was overlooked, the call is false and the claimant is given 2.
    "claimed as counted, a false muggins call": (29, ["call 2"], True),
    "over-claimed, a false muggins call": (30, ["call 2"], False),
    "claimed as counted, disputed, waiting for a judge": (29, ["dispute"], False),
    "claimed as counted, disputed, upheld": (29, ["dispute", "agree"], True),
    "claimed as counted, disputed, given less": (29, ["dispute", "give 20"], False),
    "over-claimed, disputed, a judge agrees with the engine": (30, ["dispute", "agree"], False),
    "over-claimed, disputed, a judge gives the 29": (30, ["dispute", "give 29"], False),
    "under-claimed, disputed, a judge gives the 29": (28, ["dispute", "give 29"], False),
    "a false muggins call, disputed, upheld": (29, ["call 2", "dispute", "agree"], True),
    "a false muggins call, disputed, the penalty struck": (
        29,
        ["call 2", "dispute", "give 29"],
        True,
    ),
}


def play(table, claimed: int, story: list[str]) -> Claim:
    claim = file_29(table, claimed=claimed)
    judge = UserFactory(role="judges", club=table.club)
    dispute = None
    for step in story:
        what, _, points = step.partition(" ")
        if what == "call":
            services.muggins_call(
                claim=claim, actor=table.users[0], caller=table.players[0], points=int(points)
            )
        elif what == "dispute":
            dispute = services.dispute_open(
                claim=claim, actor=table.users[1], statement="Count it again, please."
            )
        elif what == "agree":
            services.dispute_rule(dispute=dispute, actor=judge, decision=RulingDecision.AGREE)
        else:
            services.dispute_rule(
                dispute=dispute,
                actor=judge,
                decision=RulingDecision.OVERRIDE,
                points={0: 0, 1: int(points)},
                reason="The cards as the judge saw them.",
            )
    return claim


@pytest.mark.parametrize("confirmed", [False, True], ids=["cards not confirmed", "confirmed"])
@pytest.mark.parametrize("name", list(STORIES))
def test_the_highlights_and_the_jackpot_read_one_definition(name, confirmed):
    """The highlights take every accepted big hand; the jackpot only those whose cards a player
    of the other side confirmed. An over-claim never is one, whatever a judge rules."""
    claimed, story, accepted = STORIES[name]
    table = make_jackpot_table()
    claim = play(table, claimed, story)
    if confirmed:
        services.claim_confirm_cards(claim=claim, actor=table.users[0])
    claims = Claim.objects.filter(game__session=table.session)

    assert accepted_big_hands(claims) == ([claim] if accepted else [])
    assert session_big_hands(table.session) == ([claim] if accepted else [])
    wins = accepted and confirmed
    assert accepted_big_hands(claims, cards_confirmed=True) == ([claim] if wins else [])
    assert accepted_hands(table.session, 29) == ([table.players[1].pk] if wins else [])


def test_the_claims_rows_alone_rule_out_every_over_claim_and_unconfirmed_card():
    """`big_hand_claims` is a filter of the claims: what a ruling did is read apart."""
    table = make_jackpot_table()
    exact = file_29(table)
    file_29(table, claimed=30)  # over-claimed
    file_29(table, claimed=28)  # under-claimed
    services.claim_confirm_cards(claim=exact, actor=table.users[0])
    unconfirmed = file_29(table)
    claims = Claim.objects.filter(game__session=table.session).order_by("pk")

    assert list(big_hand_claims(claims)) == [exact, unconfirmed]
    assert list(big_hand_claims(claims, cards_confirmed=True)) == [exact]
    assert list(big_hand_claims(claims, at_least=30)) == []


def test_the_definition_reads_two_queries_whatever_the_claims(django_assert_num_queries):
    """The claims, then every ruling on them (read even when there is none)."""
    table = make_jackpot_table()
    for story in STORIES.values():
        claim = play(table, story[0], [])
        if story[2]:
            services.claim_confirm_cards(claim=claim, actor=table.users[0])
    claims = Claim.objects.filter(game__session=table.session)
    with django_assert_num_queries(2):
        accepted_big_hands(claims, cards_confirmed=True)
    with django_assert_num_queries(2):
        accepted_hands(table.session, 29)
