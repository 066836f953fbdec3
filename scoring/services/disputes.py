"""Writes of disputes: opening one (on the game page or at the table), a judge's ruling, an
appeal to a second judge, and naming a player present as judge for one dispute, who rules
through a one-time link (club.services.player_links) without a login. A ruling that changes the
points of a confirmed result makes a new result version through `games.services.result_correct`.

Terms:
- named judge: a player checked in to the dispute's session, of its club, not a party to the
  claim (and, for an appeal, not the first ruling's judge), named by an organiser of the club.
  Changeable until someone rules; naming again (the same player or another) makes a new link and
  kills the older one. A ruling by a login judge kills the named player's unused link too.
- PIN: when the session's rules ask for table PINs, the named judge types theirs before ruling,
  as a player accepting a result at the table does: the link may be photographed or passed on,
  and the PIN is what shows that the phone is in the named player's hand.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from club.audit import at_the_table, by_link
from club.models import CheckIn, Player, PlayerLink, PlayerLinkPurpose
from club.services import (
    pages_changed,
    pin_verify,
    player_link_issue,
    player_link_refusal,
    player_link_revoke,
    player_link_spend,
)
from club.services.logins import require_organiser
from core.audit import audit_record
from core.locking import locked
from core.refusals import passes
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


def rule_refusal(dispute: Dispute, actor: AbstractBaseUser) -> str | None:
    """Why `actor` may not rule on this dispute now, and what to do instead (None: they may)."""
    try:
        _check_judge(dispute, actor, True)
    except (PermissionDenied, ValidationError) as error:
        return " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
    return None


def can_name_judge(dispute: Dispute, actor: AbstractBaseUser) -> bool:
    """Whether `actor` may name a judge for this dispute now (for the pages)."""
    if dispute.state not in (DisputeState.OPEN, DisputeState.APPEALED):
        return False
    club = dispute.claim.game.session.club
    return passes(require_organiser, actor, club) and actor is not None


def judge_candidates(dispute: Dispute) -> list[Player]:
    """The players who may be named judge for this dispute: checked in to its session, not a
    party to the claim, and for an appeal not the first ruling's judge; by name."""
    claim = dispute.claim
    session_id = claim.game.session_id
    first = _first_ruling(dispute) if dispute.state == DisputeState.APPEALED else None
    players = Player.objects.filter(checkins__session_id=session_id).order_by("display_name")
    return [
        player
        for player in players
        if claim.party_side(player.pk) is None and not _gave_ruling(first, player)
    ]


def _first_ruling(dispute: Dispute) -> Ruling | None:
    return next((ruling for ruling in dispute.rulings.all() if ruling.level == 1), None)


def _gave_ruling(ruling: Ruling | None, player: Player) -> bool:
    if ruling is None:
        return False
    if ruling.judge_player_id is not None:
        return ruling.judge_player_id == player.pk
    return player.user_id is not None and ruling.judge_id == player.user_id


def _check_named(dispute: Dispute, player: Player, session) -> None:
    """Refuse, saying why, a player who may not be named judge for this dispute."""
    if player.club_id != session.club_id:
        raise ValidationError({"player": f"{player} is not a player of this club."})
    if dispute.state not in (DisputeState.OPEN, DisputeState.APPEALED):
        raise ValidationError(
            f"This dispute is {dispute.get_state_display().lower()}: no judge to name now."
        )
    if not CheckIn.objects.filter(session=session, player=player).exists():
        raise ValidationError(
            {"player": f"{player} is not checked in to this session: name a player present."}
        )
    if dispute.claim.party_side(player.pk) is not None:
        raise ValidationError(
            {
                "player": f"{player} plays in this game (a party to the claim): name a player "
                "who does not."
            }
        )
    if dispute.state == DisputeState.APPEALED and _gave_ruling(_first_ruling(dispute), player):
        raise ValidationError(
            {"player": f"{player} gave the first ruling: the appeal goes to someone else."}
        )


def dispute_name_judge(
    *, dispute: Dispute, actor: AbstractBaseUser, player: Player, token: str = ""
) -> str:
    """An organiser of the club names a player present, not a party, as judge for this one
    dispute (or its appeal). Returns the raw token of the one-time link to hand to that player
    (club.services.player_links); naming again makes a new link and kills the older one. The
    same form posted twice names once (`token`: core.submissions)."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(dispute.claim.game)
        require_organiser(actor, game.session.club)
        locked(Claim.objects.all()).get(pk=dispute.claim_id)
        dispute = locked(Dispute.objects.select_related("claim")).get(pk=dispute.pk)
        _check_named(dispute, player, game.session)
        before = dispute.named_judge_id
        dispute.named_judge = player
        dispute.named_by = actor
        dispute.named_at = timezone.now()
        dispute.save(update_fields=["named_judge", "named_by", "named_at"])
        link = player_link_issue(
            session=game.session,
            purpose=PlayerLinkPurpose.JUDGE,
            target=dispute.pk,
            player=player,
            actor=actor,
        )
        audit_record(
            actor=actor,
            action=ScoringVerb.DISPUTE_JUDGE_NAMED,
            obj=dispute,
            club=game.session.club,
            data={
                "dispute": dispute.pk,
                "player": player.pk,
                "player_name": player.display_name,
                "replaces": before,
            },
        )
    return link


def judge_link_dispute(link: PlayerLink) -> Dispute | None:
    """The dispute a judge's link is for (a read, for the link's page)."""
    return (
        Dispute.objects.select_related(
            "claim__game__session__club", "claim__game__round", "claim__claimant", "opened_by"
        )
        .filter(pk=link.target, claim__game__session_id=link.session_id)
        .first()
    )


def judge_link_refusal(link: PlayerLink, dispute: Dispute | None) -> str | None:
    """Why a named judge's link cannot rule now (None: it can)."""
    refusal = player_link_refusal(link)
    if refusal:
        return refusal
    if dispute is None:
        return "This dispute no longer exists: ask the organiser."
    if dispute.named_judge_id != link.player_id:
        return "The organiser has named another judge for this dispute: this link no longer works."
    if dispute.state not in (DisputeState.OPEN, DisputeState.APPEALED):
        return f"This dispute is {dispute.get_state_display().lower()}: there is nothing to rule."
    return None


def link_dispute_rule(
    *,
    link: PlayerLink,
    decision: str,
    points: dict[int, int] | None = None,
    reason: str = "",
    pin: str = "",
) -> Ruling:
    """The player named judge for a dispute rules through their one-time link, as a judge does
    on the claim page (agree with the engine, or override with points and a reason). The ruling
    has `judge_player` and no login; a result correction it makes records the player. The link
    is spent. With the session's "table PINs" rule on, the player's PIN first (see the terms);
    a refusal for another reason is made before the PIN is read, so it costs no try."""
    player = link.player
    dispute = judge_link_dispute(link)
    refusal = judge_link_refusal(link, dispute)
    if refusal:
        raise ValidationError(refusal)
    if dispute.claim.game.session.house_rules.table_pins:
        pin_verify(session=dispute.claim.game.session, player=player, pin=pin)
    reason = (reason or "").strip()
    with transaction.atomic():
        game = lock_game(dispute.claim.game)
        locked(Claim.objects.all()).get(pk=dispute.claim_id)
        dispute = locked(Dispute.objects.select_related("claim")).get(pk=dispute.pk)
        refusal = judge_link_refusal(PlayerLink.objects.get(pk=link.pk), dispute)
        if refusal:
            raise ValidationError(refusal)
        if dispute.claim.party_side(player.pk) is not None or (
            dispute.state == DisputeState.APPEALED and _gave_ruling(_first_ruling(dispute), player)
        ):
            raise ValidationError("You may not rule on this dispute: ask the organiser.")
        player_link_spend(link)
        return _rule(
            game=game,
            dispute=dispute,
            decision=decision,
            points=points,
            reason=reason,
            actor=None,
            player=player,
        )


def _check_judge(dispute: Dispute, actor: AbstractBaseUser, page: bool = False) -> None:
    if not actor.is_authenticated or not actor.has_perm(JUDGE_PERMISSION):
        raise PermissionDenied("Only judges rule on disputes.")
    if dispute.claim.party_side(_actor_player_id(actor, page=page)) is not None:
        # The parties are fixed when the claim is filed: a seat swap later changes nothing.
        raise PermissionDenied(
            "You play in this game (a party to this claim): a judge who does not rules, or an "
            "organiser names a player present who does not as judge for this dispute."
        )
    if dispute.state == DisputeState.APPEALED:
        first = next(ruling for ruling in dispute.rulings.all() if ruling.level == 1)
        if first.judge_id is not None and first.judge_id == actor.pk:
            raise PermissionDenied(
                "You gave the first ruling: the appeal goes to another judge, or an organiser "
                "names a player present who did not rule as judge for the appeal."
            )
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
        return _rule(
            game=game,
            dispute=dispute,
            decision=decision,
            points=points,
            reason=reason,
            actor=actor,
            player=None,
        )


def _rule(*, game, dispute, decision, points, reason, actor, player) -> Ruling:
    """The ruling and what follows it (inside the caller's transaction, the game, claim and
    dispute locked and the judge checked): by a login judge (`actor`) or a named player."""
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
        judge_player=player,
        decision=decision,
        points=_points_json(ruled),
        reason=reason,
    )
    ruling.result, ruling.note = _apply_to_result(game, before, ruled, actor, claim, level, player)
    ruling.full_clean()
    ruling.save()
    dispute.state = DisputeState.FINAL if level == 2 else DisputeState.RULED
    dispute.save(update_fields=["state"])
    player_link_revoke(purpose=PlayerLinkPurpose.JUDGE, target=dispute.pk)
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
            **(by_link(player) if player is not None else {}),
        },
    )
    return ruling


def _apply_to_result(game, before, after, actor, claim, level, player=None):
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
        player=player,
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
