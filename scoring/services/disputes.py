"""Writes of disputes: opening one (on the game page or at the table), a judge's ruling, an
appeal to a second judge. A ruling that changes the points of a confirmed result makes a new
result version through `games.services.result_correct`."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from club.audit import at_the_table
from club.models import Player
from club.services import pages_changed, passes
from core.audit import audit_record
from core.locking import locked
from core.submissions import spend_token
from games.game_result import GameResultError, game_result
from games.models import ResultSource, ResultState
from games.services import lock_game, result_correct
from scoring.audit import ScoringVerb
from scoring.models import (
    Claim,
    Dispute,
    DisputeState,
    Ruling,
    RulingDecision,
)
from scoring.selectors import BIG_HAND
from scoring.services.claims import _require_table_open
from scoring.services.common import (
    JUDGE_PERMISSION,
    _actor_player_id,
    _points_json,
    current_outcome,
)


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
    claim; the same form posted twice is AlreadySaved (`token`: core.submissions)."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        lock_game(claim.game)
        claim = locked(Claim.objects.all()).get(pk=claim.pk)
        player = _party(claim, actor)
        return _open_dispute(claim=claim, player=player, statement=statement, actor=actor)


def table_dispute_open(*, claim: Claim, player: Player, statement: str, token: str = "") -> Dispute:
    """A player at the table calls for a judge on one of its claims, through the table's link (no
    login): as `dispute_open`, by `player`, a party to the claim; audited as made at the table."""
    with transaction.atomic():
        spend_token(token=token, actor=None)
        game = lock_game(claim.game)
        _require_table_open(game)
        claim = locked(Claim.objects.all()).get(pk=claim.pk)
        if claim.party_side(player.pk) is None:
            raise ValidationError({"player": f"{player} is not a party to this claim."})
        return _open_dispute(claim=claim, player=player, statement=statement, actor=None)


def _open_dispute(
    *, claim: Claim, player: Player, statement: str, actor: AbstractBaseUser | None
) -> Dispute:
    """The dispute and its audit entry (inside the caller's transaction, the claim locked)."""
    statement = (statement or "").strip()
    if Dispute.objects.filter(claim=claim).exists():
        raise ValidationError("This claim is already disputed.")
    if not statement:
        raise ValidationError({"statement": "Say in a sentence what you do not accept."})
    dispute = Dispute(claim=claim, opened_by=player, statement=statement)
    dispute.full_clean()
    dispute.save()
    _big_hand_changed(claim)
    audit_record(
        actor=actor,
        action=ScoringVerb.DISPUTE_OPENED,
        obj=dispute,
        club=claim.game.session.club,
        data={
            "claim": claim.pk,
            "statement": statement,
            **(at_the_table(player) if actor is None else {}),
        },
    )
    return dispute


def _big_hand_changed(claim: Claim) -> None:
    """A big hand counts once undisputed or upheld (scoring.selectors): a dispute opened or ruled
    on one changes the all-time records' big hands, so the visitors' copies are stale."""
    if claim.true_points >= BIG_HAND:
        pages_changed(claim.game.session.club_id)


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
    The same form posted twice rules once (`token`: core.submissions).
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
        _big_hand_changed(claim)
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
        game_result(scores, rules=rules)
    except GameResultError as error:
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
    form posted twice appeals once (`token`: core.submissions)."""
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
