"""What the scoring services share: who a login is at a game, a claim's parties at filing, and
the outcome written after every change of a claim.

Terms: `ORGANISER_PERMISSION` files and records for any table; `JUDGE_PERMISSION` rules on
disputes and confirms jackpot cards for any table it is not a party to.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from club.audit import at_the_table
from club.backends import member_player_id
from club.models import Player
from core.audit import audit_record
from games.models import Game, Seat
from scoring.audit import ScoringVerb
from scoring.models import (
    Claim,
    ClaimKind,
    Outcome,
)
from scoring.outcomes import claim_outcome

ORGANISER_PERMISSION = "games.correct_result"
JUDGE_PERMISSION = "scoring.rule_dispute"


# --- Helpers --------------------------------------------------------------------------------------


def _seat(game: Game, player: Player) -> Seat | None:
    return Seat.objects.filter(game=game, player=player).first()


def _actor_seat(game: Game, actor: AbstractBaseUser) -> Seat | None:
    if not actor.is_authenticated:
        return None
    return Seat.objects.filter(game=game, player__user=actor).first()


def _actor_player_id(actor: AbstractBaseUser, *, page: bool = False) -> int | None:
    """The player a login is (one per login, club.models.Player), or None. `page`: a page asking
    about many claims at once (the judges' queue, the claims panel) reads it once per user object
    (`club.backends.member_player_id`); the services read it afresh."""
    if page:
        return member_player_id(actor)
    if not actor.is_authenticated:
        return None
    return Player.objects.filter(user_id=actor.pk).values_list("pk", flat=True).first()


def _parties_at_filing(game: Game) -> dict[str, int]:
    return {
        str(player_id): side
        for player_id, side in game.seats.order_by("position").values_list("player_id", "side")
    }


def _points_json(points: dict[int, int]) -> dict[str, int]:
    return {str(side): value for side, value in sorted(points.items())}


def current_outcome(claim: Claim) -> Outcome:
    return claim.outcomes.order_by("-version").first()


def _write_outcome(claim: Claim, actor, *, club, at_table=None) -> Outcome:
    """The claim's next outcome and its audit entry; `at_table`: the player who made the change
    through the table's link (no actor), named in the entry as every change there is."""
    game = claim.game
    computed = claim_outcome(
        claimed=claim.claimed_points,
        true=claim.true_points,
        claimant_side=claim.claimant_side,
        muggins=game.session.house_rules.muggins,
        caller_side=claim.party_side(claim.muggins_caller_id),
        called=claim.muggins_points,
        heels=claim.kind == ClaimKind.HEELS,
    )
    latest = claim.outcomes.order_by("-version").values_list("version", flat=True).first() or 0
    outcome = Outcome.objects.create(
        claim=claim,
        version=latest + 1,
        kind=computed.kind,
        points=_points_json(computed.points),
        explanation=computed.explanation,
    )
    audit_record(
        actor=actor,
        action=ScoringVerb.OUTCOME_COMPUTED,
        obj=outcome,
        club=club,
        data={
            "claim": claim.pk,
            "kind": outcome.kind,
            "points": outcome.points,
            **(at_the_table(at_table) if at_table is not None else {}),
        },
    )
    return outcome
