"""A claim records its parties when it is filed; who may rule, call muggins, dispute or appeal reads
them, never the seats as they are later (docs/spec.md "Claims, muggins and disputes": "A claim
records its parties (the claimant's side and the opponents) when it is filed; who may call, dispute,
confirm the cards or rule reads those, not the seats as they are later", and "A judge who is not a
party to the claim rules").

Terms: `table_with_a_judge` is `tests.builders.make_table` with a player and a judge seated (the
draw says at which side); the claim is the 8-7-7-6-2 hand (16, club-thursday-rules.md
"Combinations") claimed as 12. A *swap* changes the Seat rows directly (the pages refuse swaps after
a claim; the seats are what a rule reading them instead of the parties would see). *Another judge*
is a judge of the club who never sat at the game.
"""

import importlib

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import PermissionDenied

from club import services as club_services
from games.models import Seat
from scoring import services
from scoring.models import Claim, ClaimKind
from tests.builders import make_table
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_with_a_judge():
    """A `table` where one side's player is a judge (which side, the draw says)."""
    return make_table(roles=("players", "judges"))


def claimant_judge_table(table_with_a_judge):
    """The judge's side, player and login (the draw may seat him at either side)."""
    judge_side = next(
        side
        for side, user in enumerate(table_with_a_judge.users)
        if user.groups.filter(name="judges")
    )
    return judge_side, table_with_a_judge.players[judge_side], table_with_a_judge.users[judge_side]


def file_claim(table_with_a_judge, side):
    return services.claim_file(
        game=table_with_a_judge.game,
        actor=table_with_a_judge.users[side],
        kind=ClaimKind.HAND,
        claimant=table_with_a_judge.players[side],
        claimed_points=12,
        hand="8S 7H 7D 6C",
        starter="2H",
    )


def swap_out(table_with_a_judge, player, newcomer):
    """Put `newcomer` in `player`'s seat, the way a seat swap would (directly in the rows)."""
    club_services.checkin_create(
        session=table_with_a_judge.session, actor=table_with_a_judge.organiser, player=newcomer
    )
    Seat.objects.filter(game=table_with_a_judge.game, player=player).update(player=newcomer)


def test_a_claim_records_its_parties_at_filing(table_with_a_judge):
    claim = file_claim(table_with_a_judge, 1)

    assert claim.parties == {
        str(table_with_a_judge.players[0].pk): 0,
        str(table_with_a_judge.players[1].pk): 1,
    }
    assert claim.opponent_ids == [table_with_a_judge.players[0].pk]
    assert claim.party_side(table_with_a_judge.players[1].pk) == claim.claimant_side == 1


def test_a_claimant_swapped_out_cannot_rule_on_his_own_claim(table_with_a_judge):
    """A judge files a claim, is swapped out of the game, and then as a judge not seated there would
    rule on the dispute of his own claim. He is a party: refused. A judge who was never a party may
    rule."""
    side, _, claimant_user = claimant_judge_table(table_with_a_judge)
    other = 1 - side
    claim = file_claim(table_with_a_judge, side)
    dispute = services.dispute_open(
        claim=claim, actor=table_with_a_judge.users[other], statement="That hand is 16, he said 12."
    )
    swap_out(
        table_with_a_judge,
        table_with_a_judge.players[side],
        PlayerFactory(club=table_with_a_judge.club),
    )
    assert not Seat.objects.filter(
        game=table_with_a_judge.game, player__user=claimant_user
    ).exists()
    another_judge = UserFactory(role="judges", club=table_with_a_judge.club)

    assert services.can_rule(dispute, claimant_user) is False
    with pytest.raises(PermissionDenied, match="a party to this claim"):
        services.dispute_rule(dispute=dispute, actor=claimant_user, decision="agree")
    assert services.can_rule(dispute, another_judge) is True
    ruling = services.dispute_rule(dispute=dispute, actor=another_judge, decision="agree")
    assert ruling.judge == another_judge


def test_after_a_swap_the_parties_still_act_and_the_newcomer_does_not(table_with_a_judge):
    """The opponent swapped out still calls muggins (hoyle.txt "Muggins": the opponent scores the
    points overlooked) and may dispute; the player swapped in was no party to the claim."""
    claim = file_claim(table_with_a_judge, 1)
    newcomer = PlayerFactory(club=table_with_a_judge.club, user=UserFactory(role="players"))
    swap_out(table_with_a_judge, table_with_a_judge.players[0], newcomer)

    with pytest.raises(PermissionDenied):
        services.dispute_open(claim=claim, actor=newcomer.user, statement="Not my claim.")
    with pytest.raises(PermissionDenied):
        services.muggins_call(claim=claim, actor=newcomer.user, caller=newcomer, points=4)
    outcome = services.muggins_call(
        claim=claim,
        actor=table_with_a_judge.users[0],
        caller=table_with_a_judge.players[0],
        points=4,
    )
    assert outcome.points == {"0": 4, "1": 12}
    dispute = services.dispute_open(
        claim=claim,
        actor=table_with_a_judge.users[0],
        statement="I called muggins for the double run.",
    )
    assert dispute.opened_by == table_with_a_judge.players[0]


def test_the_migration_fills_the_parties_of_older_claims_from_the_seats(table_with_a_judge):
    """Claims filed before parties were recorded get the game's seats as they are."""
    claim = file_claim(table_with_a_judge, 1)
    Claim.objects.filter(pk=claim.pk).update(parties={})
    migration = importlib.import_module("scoring.migrations.0005_claim_parties_from_seats")

    migration.fill_parties(django_apps, None)

    claim.refresh_from_db()
    assert claim.parties == {
        str(table_with_a_judge.players[0].pk): 0,
        str(table_with_a_judge.players[1].pk): 1,
    }


def test_a_claim_restored_without_parties_reads_the_seats(table_with_a_judge):
    """A backup made before claims recorded their parties restores them empty: the claim then
    reads the game's seats, as the migration did for older claims."""
    claim = file_claim(table_with_a_judge, 1)
    Claim.objects.filter(pk=claim.pk).update(parties={})
    claim.refresh_from_db()

    assert claim.party_side(table_with_a_judge.players[0].pk) == 0
    assert claim.opponent_ids == [table_with_a_judge.players[0].pk]
