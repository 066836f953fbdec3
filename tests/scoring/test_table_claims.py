"""Claims and calls for a judge made at the table, through its link, without a login
(scoring.services.table_claim_file, table_dispute_open; docs/spec.md "People and what they do": at
the table, "file a hand, crib or heels claim, or call a judge on one of the table's claims";
"Everything done through a table's link is in the audit trail 'at the table'"; and "A Thursday, step
by step", step 4: "The link works only while its round is open ... and only for its own game").

Terms: `link_table` (tests/conftest.py, tests.builders.LinkTable) is round 1's game of a session
opened, checked in and drawn through the services, its players without logins; `players[side]`.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from club import services as club_services
from club.audit import AT_THE_TABLE
from club.models import Club
from core.models import AuditEntry
from core.submissions import AlreadySaved, new_token
from games import services as game_services
from games.models import Game
from money.services import session_settle
from scoring import services
from scoring.audit import ScoringVerb
from scoring.models import Claim, Dispute, DisputeState, OutcomeKind
from tests.builders import LinkTable
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def file(link_table, claimant=None, **kwargs):
    data = {"kind": "hand", "claimed_points": 28, "hand": "5H 5C 5S JD", "starter": "5D"}
    data.update(kwargs)
    return services.table_claim_file(
        game=link_table.game, claimant=claimant or link_table.players[0], **data
    )


def rows():
    return Claim.objects.count(), Dispute.objects.count(), AuditEntry.objects.count()


# --- Filing ---------------------------------------------------------------------------------------


def test_a_claim_filed_at_the_table_is_counted_and_worked_out(link_table):
    claim = file(link_table)
    assert (claim.filed_at_table, claim.filed_by, claim.claimant) == (
        True,
        None,
        link_table.players[0],
    )
    assert (claim.claimed_points, claim.true_points) == (28, 29)
    assert claim.parties == {str(p.pk): side for side, p in enumerate(link_table.players)}
    outcome = services.current_outcome(claim)
    assert outcome.kind == OutcomeKind.UNDER  # muggins on by default: the point stands open


def test_every_entry_of_a_table_claim_is_at_the_table(link_table):
    """The claim and its outcome: both entries name the claimant, neither has an actor (the
    outcome's entry says it was made at the table too, not only the claim's)."""
    claim = file(link_table)
    entries = AuditEntry.objects.filter(
        action__in=[ScoringVerb.CLAIM_FILED, ScoringVerb.OUTCOME_COMPUTED]
    ).order_by("pk")
    assert [entry.action for entry in entries] == [
        ScoringVerb.CLAIM_FILED,
        ScoringVerb.OUTCOME_COMPUTED,
    ]
    for entry in entries:
        assert entry.actor is None
        assert entry.data["via"] == AT_THE_TABLE
        assert entry.data["by_player_id"] == claim.claimant_id


def test_a_claim_on_the_game_page_is_not_at_the_table(link_table):
    organiser = link_table.organiser
    services.claim_file(
        game=link_table.game,
        actor=organiser,
        kind="heels",
        claimant=link_table.players[1],
        claimed_points=2,
        starter="JH",
    )
    for entry in AuditEntry.objects.filter(action__startswith="claim.") | AuditEntry.objects.filter(
        action=ScoringVerb.OUTCOME_COMPUTED
    ):
        assert entry.actor == organiser
        assert "via" not in entry.data


def test_his_heels_at_the_table(link_table):
    claim = file(
        link_table,
        claimant=link_table.players[1],
        kind="heels",
        claimed_points=2,
        hand="",
        starter="JH",
    )
    assert (claim.kind, claim.true_points, claim.starter) == ("heels", 2, "JH")


def test_bad_cards_are_refused_on_the_field_and_nothing_is_saved(link_table):
    before = rows()
    with pytest.raises(ValidationError) as error:
        file(link_table, hand="5H 5C 5S ZZ")
    assert "hand" in error.value.message_dict
    assert rows() == before


def test_a_player_of_another_table_is_not_a_claimant(link_table):
    with pytest.raises(ValidationError) as error:
        file(link_table, claimant=PlayerFactory(club=link_table.club))
    assert "is not at this table" in error.value.message_dict["claimant"][0]
    assert not Claim.objects.exists()


def test_a_claim_posted_twice_is_filed_once(link_table):
    token = new_token()
    claim = file(link_table, token=token)
    with pytest.raises(AlreadySaved) as error:
        file(link_table, token=token)
    assert error.value.made_pk(Claim) == claim.pk
    assert Claim.objects.count() == 1


# --- Calling a judge ------------------------------------------------------------------------------


def test_a_party_calls_a_judge_at_the_table(link_table):
    claim = file(link_table)
    sam = link_table.players[1]
    dispute = services.table_dispute_open(claim=claim, player=sam, statement="That is 29.")
    assert (dispute.claim, dispute.opened_by, dispute.state) == (claim, sam, DisputeState.OPEN)
    entry = AuditEntry.objects.get(action=ScoringVerb.DISPUTE_OPENED)
    assert (entry.actor, entry.data["via"], entry.data["by_player"]) == (
        None,
        AT_THE_TABLE,
        sam.display_name,
    )


def test_the_claimant_may_call_a_judge_too(link_table):
    claim = file(link_table)
    services.table_dispute_open(claim=claim, player=link_table.players[0], statement="I said 29.")
    assert Dispute.objects.get().opened_by == link_table.players[0]


def test_only_a_party_calls_a_judge(link_table):
    claim = file(link_table)
    with pytest.raises(ValidationError) as error:
        services.table_dispute_open(
            claim=claim, player=PlayerFactory(club=link_table.club), statement="No."
        )
    assert "is not a party to this claim" in error.value.message_dict["player"][0]
    assert not Dispute.objects.exists()


def test_a_call_needs_a_sentence_and_comes_once(link_table):
    claim = file(link_table)
    with pytest.raises(ValidationError) as error:
        services.table_dispute_open(claim=claim, player=link_table.players[1], statement="  ")
    assert "Say in a sentence" in error.value.message_dict["statement"][0]
    services.table_dispute_open(claim=claim, player=link_table.players[1], statement="No.")
    with pytest.raises(ValidationError) as error:
        services.table_dispute_open(claim=claim, player=link_table.players[0], statement="No!")
    assert "already disputed" in " ".join(error.value.messages)
    assert Dispute.objects.count() == 1


def test_a_call_posted_twice_opens_once(link_table):
    claim = file(link_table)
    token = new_token()
    services.table_dispute_open(
        claim=claim, player=link_table.players[1], statement="No.", token=token
    )
    with pytest.raises(AlreadySaved):
        services.table_dispute_open(
            claim=claim, player=link_table.players[1], statement="No.", token=token
        )
    assert Dispute.objects.count() == 1


# --- Only while the round is open -----------------------------------------------------------------


def later_round():
    link_table = LinkTable(players=4, table_mode="singles")
    claim = file(link_table)
    game_services.round_draw(session=link_table.session, actor=link_table.organiser, seed=8)
    return link_table, claim


def test_a_later_round_closes_claims_and_calls():
    link_table, claim = later_round()
    before = rows()
    with pytest.raises(ValidationError) as error:
        file(link_table)
    assert "Round 1 is over (round 2 is drawn)" in " ".join(error.value.messages)
    with pytest.raises(ValidationError):
        services.table_dispute_open(claim=claim, player=link_table.players[1], statement="No.")
    assert rows() == before


def test_links_off_close_claims_and_calls(link_table):
    claim = file(link_table)
    Club.objects.filter(pk=link_table.club.pk).update(table_links=False)
    before = rows()
    with pytest.raises(ValidationError) as error:
        file(link_table)
    assert "does not use table links" in " ".join(error.value.messages)
    with pytest.raises(ValidationError):
        services.table_dispute_open(claim=claim, player=link_table.players[1], statement="No.")
    assert rows() == before


def test_a_settled_session_refuses_a_table_claim(link_table):
    for checkin in link_table.session.checkins.all():
        club_services.fee_mark_paid(checkin=checkin, actor=link_table.organiser)
    draft = game_services.result_enter(
        game=link_table.game, actor=link_table.organiser, scores=[121, 90]
    )
    game_services.result_confirm(
        result=draft, actor=UserFactory(role="organisers", club=link_table.club)
    )
    session_settle(session=link_table.session, actor=link_table.organiser, seed=1)
    game = Game.objects.get(pk=link_table.game.pk)
    before = rows()
    with pytest.raises(ValidationError):
        services.table_claim_file(
            game=game,
            kind="heels",
            claimant=link_table.players[0],
            claimed_points=2,
            starter="JH",
        )
    assert rows() == before
