"""Writes for the scoring app: claims, muggins calls, disputes, rulings and appeals. The one
bridge between the models and the scoring engine.

Every service locks the game (or dispute) it changes, refuses a settled session, validates, and
writes its audit entries inside its transaction. A ruling that changes the points of a game whose
result is confirmed makes a new result version through `games.services.result_correct`.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from club.audit import audit_record
from club.auth import member_player_id
from club.locking import locked
from club.models import Player
from club.rules import JACKPOT_HANDS
from club.services import passes, standings_changed
from club.submissions import spend_token
from games.models import Game, ResultSource, ResultState, Seat
from games.outcome import OutcomeError, game_outcome
from games.services import lock_game, result_correct
from scoring.audit import ScoringVerb
from scoring.counting import MAX_PLAY_POINTS, count_claim, is_impossible
from scoring.engine import ENGINE_VERSION
from scoring.models import (
    Claim,
    ClaimKind,
    Dispute,
    DisputeState,
    Outcome,
    Ruling,
    RulingDecision,
)
from scoring.outcomes import claim_outcome

__all__ = ["MAX_PLAY_POINTS", "count_claim", "is_impossible"]  # and the services below

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
    (`club.auth.member_player_id`); the services read it afresh."""
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


def _write_outcome(claim: Claim, actor, *, club) -> Outcome:
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
        data={"claim": claim.pk, "kind": outcome.kind, "points": outcome.points},
    )
    return outcome


# --- Claims and muggins ---------------------------------------------------------------------------


def claim_file(
    *,
    game: Game,
    actor: AbstractBaseUser,
    kind: str,
    claimant: Player,
    claimed_points: int,
    hand: str = "",
    starter: str = "",
    plays: Sequence[tuple[int, str]] = (),
    deal: int | None = None,
    token: str = "",
) -> Claim:
    """File what a player announced; the engine counts it and the outcome is worked out at once.

    By a player at the table (for anyone at it) or an organiser. Bad cards: ValidationError on the
    field, nothing saved. The same form posted twice files one claim (`token`: club.submissions;
    the second post's AlreadySaved names the claim).
    """
    with transaction.atomic():
        made = spend_token(token=token, actor=actor)
        game = lock_game(game)
        if _actor_seat(game, actor) is None and not actor.has_perm(ORGANISER_PERMISSION):
            raise PermissionDenied("Only the players at this table or an organiser file claims.")
        claimant_seat = _seat(game, claimant)
        if claimant_seat is None:
            raise ValidationError({"claimant": f"{claimant} is not at this table."})
        if claimed_points is None or claimed_points < 0:
            raise ValidationError({"claimed_points": "Write the points claimed (0 or more)."})
        if kind == ClaimKind.PLAY:
            seated = set(game.seats.values_list("player_id", flat=True))
            for player_id, _ in plays:
                if player_id not in seated:
                    raise ValidationError(
                        {"plays": "Every card is laid by a player at this table."}
                    )
            if plays and plays[-1][0] != claimant.pk:
                raise ValidationError(
                    {"plays": f"The last card is the one claimed for: {claimant} must lay it."}
                )
        counted = count_claim(kind=kind, hand=hand, starter=starter, plays=plays)
        claim = Claim(
            game=game,
            deal=deal,
            kind=kind,
            claimant=claimant,
            claimant_side=claimant_seat.side,
            filed_by=actor,
            cards=counted["cards"],
            starter=counted["starter"],
            plays=counted["plays"],
            claimed_points=claimed_points,
            true_points=counted["points"],
            breakdown=counted["items"],
            spoken=counted["spoken"][:400],
            engine_version=ENGINE_VERSION,
            impossible=is_impossible(kind, claimed_points, cards=len(counted["cards"].split())),
            parties=_parties_at_filing(game),
        )
        claim.full_clean()
        claim.save()
        made(claim)
        standings_changed(game.session.club_id)  # the records list the big hands
        audit_record(
            actor=actor,
            action=ScoringVerb.CLAIM_FILED,
            obj=claim,
            club=game.session.club,
            data={
                "game": game.pk,
                "kind": kind,
                "claimant": claimant.pk,
                "cards": claim.card_list(),
                "claimed": claimed_points,
                "true": claim.true_points,
                "impossible": claim.impossible,
                "engine_version": ENGINE_VERSION,
                "parties": claim.parties,
            },
        )
        _write_outcome(claim, actor, club=game.session.club)
    return claim


def muggins_call(
    *, claim: Claim, actor: AbstractBaseUser, caller: Player, points: int, token: str = ""
) -> Outcome:
    """An opponent calls "muggins for N": a new outcome (ACC rule 10.4a: the caller takes the
    lesser of N and the points overlooked; a call when nothing was overlooked gives the claimant N).
    Once per claim, so never on a muggins score (ACC rule 10.3); never on his heels (ACC rule
    10.3). The caller is an opponent of the claimant when the claim was filed (`claim.parties`).
    The same form posted twice is AlreadySaved (`token`: club.submissions)."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(claim.game)
        claim = locked(Claim.objects.all()).get(pk=claim.pk)
        if not game.session.house_rules.muggins:
            raise ValidationError("This session is played without muggins.")
        if claim.kind == ClaimKind.HEELS:
            raise ValidationError(
                "There is no muggins on his heels (ACC rule 10.3): two for his heels not "
                "pegged are lost, nobody takes them."
            )
        if claim.muggins_caller_id:
            raise ValidationError(
                f"{claim.muggins_caller} already called muggins on this claim: there is no "
                "muggins on a muggins score or a penalty (ACC rule 10.3)."
            )
        if hasattr(claim, "dispute"):
            raise ValidationError("This claim is disputed: the judge's ruling decides it.")
        actor_side = claim.party_side(_actor_player_id(actor))
        if actor_side is None and not actor.has_perm(ORGANISER_PERMISSION):
            raise PermissionDenied("Only the players at this table or an organiser record it.")
        caller_side = claim.party_side(caller.pk)
        if caller_side is None or caller_side == claim.claimant_side:
            raise ValidationError({"caller": "Muggins is called by an opponent of the claimant."})
        if actor_side is not None and actor_side != caller_side:
            raise PermissionDenied("A player records a muggins call for their own side only.")
        if not points or points < 1:
            raise ValidationError({"points": "Call muggins for 1 point or more."})
        claim.muggins_caller = caller
        claim.muggins_points = points
        claim.muggins_called_at = timezone.now()
        claim.save(update_fields=["muggins_caller", "muggins_points", "muggins_called_at"])
        audit_record(
            actor=actor,
            action=ScoringVerb.MUGGINS_CALLED,
            obj=claim,
            club=game.session.club,
            data={"claim": claim.pk, "caller": caller.pk, "points": points},
        )
        outcome = _write_outcome(claim, actor, club=game.session.club)
    return outcome


# --- Confirming the cards of a jackpot hand -------------------------------------------------------


def needs_card_confirmation(claim: Claim) -> bool:
    """A hand or crib whose true count is one of the session's jackpots (29, 28, 24 as the club
    runs them): it wins the jackpot only once the cards are confirmed (DESIGN.md, "Claims,
    muggins and disputes")."""
    return (
        claim.kind in (ClaimKind.HAND, ClaimKind.CRIB)
        and claim.true_points in claim.game.session.house_rules.jackpots
    )


def _check_confirmer(claim: Claim, actor: AbstractBaseUser, page: bool = False) -> None:
    # A 24, 28 or 29 may be confirmed even where the session runs no jackpot for it (the records
    # list the big hands); the pages ask for it only where a jackpot hangs on it.
    if claim.kind not in (ClaimKind.HAND, ClaimKind.CRIB) or claim.true_points not in JACKPOT_HANDS:
        raise ValidationError("Only the cards of a 24, 28 or 29 hand or crib are confirmed.")
    if claim.cards_confirmed_by_id:
        raise ValidationError("The cards of this claim are already confirmed.")
    if not actor.is_authenticated:
        raise PermissionDenied("Log in to confirm the cards.")
    side = claim.party_side(_actor_player_id(actor, page=page))
    if side == claim.claimant_side:
        raise PermissionDenied("The claimant's own side does not confirm its cards.")
    if side is None and not actor.has_perm(JUDGE_PERMISSION):
        raise PermissionDenied(
            "A player of another side at this table, or a judge, confirms the cards."
        )


def can_confirm_cards(claim: Claim, actor: AbstractBaseUser) -> bool:
    """Whether `actor` may confirm the claim's cards now (for the pages; the service decides)."""
    return claim.game.session.is_open and passes(_check_confirmer, claim, actor, True)


def claim_confirm_cards(*, claim: Claim, actor: AbstractBaseUser, token: str = "") -> Claim:
    """Someone who is not of the claimant's side has seen the cards of a jackpot hand or crib:
    a player of another side at the table when the claim was filed (`claim.parties`), or a judge
    who is not a party. Once; refused on a settled session; audited. The same form posted twice
    confirms once (`token`: club.submissions)."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(claim.game)
        claim = locked(Claim.objects.select_related("game__session")).get(pk=claim.pk)
        _check_confirmer(claim, actor)
        claim.cards_confirmed_by = actor
        claim.cards_confirmed_at = timezone.now()
        claim.save(update_fields=["cards_confirmed_by", "cards_confirmed_at"])
        standings_changed(game.session.club_id)
        audit_record(
            actor=actor,
            action=ScoringVerb.CARDS_CONFIRMED,
            obj=claim,
            club=game.session.club,
            data={"claim": claim.pk, "cards": claim.card_list(), "true": claim.true_points},
        )
    return claim


# --- Disputes, rulings, appeals -------------------------------------------------------------------


def _party(claim: Claim, actor: AbstractBaseUser) -> Player:
    """The actor's player, when a party to the claim (seated at the game when it was filed)."""
    player_id = _actor_player_id(actor)
    if claim.party_side(player_id) is None:
        raise PermissionDenied("Only a player at this table can dispute its claims.")
    return Player.objects.get(pk=player_id)


def dispute_open(
    *, claim: Claim, actor: AbstractBaseUser, statement: str, token: str = ""
) -> Dispute:
    """A player of the game does not accept the outcome: the claim goes to the judges. Once per
    claim; the same form posted twice is AlreadySaved (`token`: club.submissions)."""
    statement = (statement or "").strip()
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(claim.game)
        claim = locked(Claim.objects.all()).get(pk=claim.pk)
        player = _party(claim, actor)
        if Dispute.objects.filter(claim=claim).exists():
            raise ValidationError("This claim is already disputed.")
        if not statement:
            raise ValidationError({"statement": "Say in a sentence what you do not accept."})
        dispute = Dispute(claim=claim, opened_by=player, statement=statement)
        dispute.full_clean()
        dispute.save()
        audit_record(
            actor=actor,
            action=ScoringVerb.DISPUTE_OPENED,
            obj=dispute,
            club=game.session.club,
            data={"claim": claim.pk, "statement": statement},
        )
    return dispute


def can_rule(dispute: Dispute, actor: AbstractBaseUser) -> bool:
    """Whether `actor` may rule on this dispute now (for the pages; the service decides)."""
    return passes(_check_judge, dispute, actor, True)


def _check_judge(dispute: Dispute, actor: AbstractBaseUser, page: bool = False) -> None:
    if not actor.is_authenticated or not actor.has_perm(JUDGE_PERMISSION):
        raise PermissionDenied("Only judges rule on disputes.")
    if dispute.claim.party_side(_actor_player_id(actor, page=page)) is not None:
        # The parties are fixed when the claim is filed: a seat swap later changes nothing.
        raise PermissionDenied("You are a party to this claim: a judge who is not must rule.")
    if dispute.state == DisputeState.APPEALED:
        first = next(ruling for ruling in dispute.rulings.all() if ruling.level == 1)
        if first.judge_id == actor.pk:
            raise PermissionDenied("You gave the first ruling: the appeal goes to another judge.")
    elif dispute.state != DisputeState.OPEN:
        raise ValidationError(f"This dispute is {dispute.get_state_display().lower()}.")


def dispute_rule(
    *,
    dispute: Dispute,
    actor: AbstractBaseUser,
    decision: str,
    points: dict[int, int] | None = None,
    reason: str = "",
    token: str = "",
) -> Ruling:
    """A judge rules: agree with the engine's outcome, or override it with points and a reason.

    A first ruling can be appealed once; the appeal's ruling, by a different judge, is final.
    When the ruling changes the points and the game's result is confirmed, the result gets a new
    version with the difference (through the result service); otherwise the ruling says why not.
    The same form posted twice rules once (`token`: club.submissions).
    """
    reason = (reason or "").strip()
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(dispute.claim.game)
        locked(Claim.objects.all()).get(pk=dispute.claim_id)
        dispute = locked(Dispute.objects.select_related("claim")).get(pk=dispute.pk)
        _check_judge(dispute, actor)
        claim = dispute.claim
        engine_points = {int(k): v for k, v in current_outcome(claim).points.items()}
        if decision == RulingDecision.AGREE:
            ruled = engine_points
        elif decision == RulingDecision.OVERRIDE:
            if not reason:
                raise ValidationError({"reason": "Write why you override the engine."})
            sides = set(game.seats.values_list("side", flat=True))
            ruled = {side: int((points or {}).get(side, 0)) for side in sorted(sides)}
            if any(value < 0 for value in ruled.values()):
                raise ValidationError("Points given are 0 or more for each side.")
        else:
            raise ValidationError({"decision": "Agree with the engine or override it."})
        level = 2 if dispute.state == DisputeState.APPEALED else 1
        before = (
            engine_points
            if level == 1
            else {int(k): v for k, v in dispute.rulings.get(level=1).points.items()}
        )
        ruling = Ruling(
            dispute=dispute,
            level=level,
            judge=actor,
            decision=decision,
            points=_points_json(ruled),
            reason=reason,
        )
        ruling.result, ruling.note = _apply_to_result(game, before, ruled, actor, claim, level)
        ruling.full_clean()
        ruling.save()
        dispute.state = DisputeState.FINAL if level == 2 else DisputeState.RULED
        dispute.save(update_fields=["state"])
        audit_record(
            actor=actor,
            action=ScoringVerb.DISPUTE_RULED,
            obj=ruling,
            club=game.session.club,
            data={
                "dispute": dispute.pk,
                "level": level,
                "decision": decision,
                "points": ruling.points,
                "reason": reason,
                "result_version": ruling.result.version if ruling.result else None,
            },
        )
    return ruling


def _apply_to_result(game, before, after, actor, claim, level):
    """Move the game's confirmed scores by what the ruling changes; (result, note)."""
    delta = {side: after.get(side, 0) - before.get(side, 0) for side in set(before) | set(after)}
    if not any(delta.values()):
        return None, "The ruling does not change the points."
    current = game.results.exclude(state=ResultState.SUPERSEDED).first()
    if current is None or current.state != ResultState.CONFIRMED:
        return None, "No confirmed result yet: the scores entered must include this ruling."
    rules = game.session.house_rules
    scores = [
        max(0, min(rules.game_target, score + delta.get(side, 0)))
        for side, score in enumerate(current.scores)
    ]
    if scores == current.scores:
        return None, "The recorded scores do not change (the winner is already at the target)."
    try:
        game_outcome(scores, rules=rules)
    except OutcomeError as error:
        return None, f"The recorded scores could not move ({error}); an organiser corrects them."
    which = "appeal ruling" if level == 2 else "ruling"
    result = result_correct(
        game=game,
        actor=actor,
        scores=scores,
        reason=f"Judge's {which} on claim {claim.pk} ({claim}).",
        source=ResultSource.RULING,
    )
    return result, f"Recorded scores moved to {scores} (result version {result.version})."


def dispute_appeal(
    *, dispute: Dispute, actor: AbstractBaseUser, statement: str, token: str = ""
) -> Dispute:
    """A party appeals a first ruling, once; a different judge then rules, finally. The same
    form posted twice appeals once (`token`: club.submissions)."""
    statement = (statement or "").strip()
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(dispute.claim.game)
        claim = locked(Claim.objects.all()).get(pk=dispute.claim_id)
        dispute = locked(Dispute.objects.all()).get(pk=dispute.pk)
        player = _party(claim, actor)
        if dispute.state != DisputeState.RULED:
            raise ValidationError(
                "Only a first ruling can be appealed, once."
                if dispute.state == DisputeState.FINAL
                else "There is no ruling to appeal yet."
            )
        if not statement:
            raise ValidationError({"statement": "Say in a sentence why you appeal."})
        dispute.state = DisputeState.APPEALED
        dispute.appealed_by = player
        dispute.appeal_statement = statement
        dispute.appealed_at = timezone.now()
        dispute.save(update_fields=["state", "appealed_by", "appeal_statement", "appealed_at"])
        audit_record(
            actor=actor,
            action=ScoringVerb.DISPUTE_APPEALED,
            obj=dispute,
            club=game.session.club,
            data={"dispute": dispute.pk, "statement": statement},
        )
    return dispute
