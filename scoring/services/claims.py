"""Writes of claims: filing one (on the game page or at the table, through its link), an
opponent's muggins call, and confirming the cards of a jackpot hand."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from club.audit import at_the_table
from club.models import Player
from club.rules import JACKPOT_HANDS
from club.services import pages_changed
from core.audit import audit_record
from core.locking import locked
from core.refusals import passes
from core.submissions import spend_token
from games.models import Game
from games.services import lock_game, table_refusal
from scoring.audit import ScoringVerb
from scoring.counting import count_claim, is_impossible
from scoring.engine import ENGINE_VERSION
from scoring.models import (
    Claim,
    ClaimKind,
    Outcome,
)
from scoring.services.common import (
    JUDGE_PERMISSION,
    ORGANISER_PERMISSION,
    _actor_player_id,
    _actor_seat,
    _parties_at_filing,
    _seat,
    _write_outcome,
)


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
    field, nothing saved. The same form posted twice files one claim (`token`: core.submissions;
    the second post's AlreadySaved names the claim).
    """
    with transaction.atomic():
        made = spend_token(token=token, actor=actor)
        game = lock_game(game)
        if _actor_seat(game, actor) is None and not actor.has_perm(ORGANISER_PERMISSION):
            raise PermissionDenied("Only the players at this table or an organiser file claims.")
        claim = _file_claim(
            game=game,
            actor=actor,
            kind=kind,
            claimant=claimant,
            claimed_points=claimed_points,
            hand=hand,
            starter=starter,
            plays=plays,
            deal=deal,
        )
        made(claim)
    return claim


def table_claim_file(
    *,
    game: Game,
    kind: str,
    claimant: Player,
    claimed_points: int,
    hand: str = "",
    starter: str = "",
    plays: Sequence[tuple[int, str]] = (),
    deal: int | None = None,
    token: str = "",
) -> Claim:
    """The claimant files a claim at the table, through its link (no login; games.services.table):
    counted and worked out as `claim_file` does, audited as made at the table."""
    with transaction.atomic():
        made = spend_token(token=token, actor=None)
        game = lock_game(game)
        _require_table_open(game)
        claim = _file_claim(
            game=game,
            actor=None,
            kind=kind,
            claimant=claimant,
            claimed_points=claimed_points,
            hand=hand,
            starter=starter,
            plays=plays,
            deal=deal,
        )
        made(claim)
    return claim


def _require_table_open(game: Game) -> None:
    refusal = table_refusal(game)
    if refusal:
        raise ValidationError(refusal)


def _file_claim(
    *,
    game: Game,
    actor: AbstractBaseUser | None,
    kind: str,
    claimant: Player,
    claimed_points: int,
    hand: str,
    starter: str,
    plays: Sequence[tuple[int, str]],
    deal: int | None,
) -> Claim:
    """The claim, its audit entry and its first outcome (inside the caller's transaction, the
    game locked). No `actor`: filed at the table by the claimant."""
    claimant_seat = _seat(game, claimant)
    if claimant_seat is None:
        raise ValidationError({"claimant": f"{claimant} is not at this table."})
    if claimed_points is None or claimed_points < 0:
        raise ValidationError({"claimed_points": "Write the points claimed (0 or more)."})
    if kind == ClaimKind.PLAY:
        seated = set(game.seats.values_list("player_id", flat=True))
        for player_id, _ in plays:
            if player_id not in seated:
                raise ValidationError({"plays": "Every card is laid by a player at this table."})
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
        filed_at_table=actor is None,
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
    pages_changed(game.session.club_id)  # the records list the big hands
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
            **(at_the_table(claimant) if actor is None else {}),
        },
    )
    _write_outcome(
        claim, actor, club=game.session.club, at_table=claimant if actor is None else None
    )
    return claim


# --- Muggins --------------------------------------------------------------------------------------
# Each rule once: the call on the claim's page (`muggins_call`, a login) and at the table
# (scoring.services.table.table_muggins_call, a player named there) check the same things.


def check_muggins_open(claim: Claim) -> None:
    """Whether `claim` takes a muggins call now, whoever calls it; else a ValidationError saying
    why: muggins only when the session's rules have it; never on his heels, never on a muggins
    score (once per claim: ACC rule 10.3); a disputed claim is the judge's."""
    if not claim.game.session.house_rules.muggins:
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


def can_call_muggins(claim: Claim) -> bool:
    """Whether the claim takes a muggins call now (for the pages; the services decide)."""
    return claim.game.session.is_open and passes(check_muggins_open, claim)


def check_muggins_caller(claim: Claim, caller: Player) -> int:
    """The caller's side at filing: an opponent of the claimant (`claim.parties`)."""
    caller_side = claim.party_side(caller.pk)
    if caller_side is None or caller_side == claim.claimant_side:
        raise ValidationError({"caller": "Muggins is called by an opponent of the claimant."})
    return caller_side


def check_muggins_points(points: int | None) -> None:
    if not points or points < 1:
        raise ValidationError({"points": "Call muggins for 1 point or more."})


def call_muggins(
    claim: Claim, *, caller: Player, points: int, actor: AbstractBaseUser | None
) -> Outcome:
    """Record the call and its outcome (ACC rule 10.4a: the caller takes the lesser of N and the
    points overlooked; a call when nothing was overlooked gives the claimant N), inside the
    caller's transaction, the claim locked and checked. No `actor`: called at the table by
    `caller`, and audited so."""
    game = claim.game
    claim.muggins_caller = caller
    claim.muggins_points = points
    claim.muggins_called_at = timezone.now()
    claim.save(update_fields=["muggins_caller", "muggins_points", "muggins_called_at"])
    at_table = caller if actor is None else None
    audit_record(
        actor=actor,
        action=ScoringVerb.MUGGINS_CALLED,
        obj=claim,
        club=game.session.club,
        data={
            "claim": claim.pk,
            "caller": caller.pk,
            "points": points,
            **(at_the_table(caller) if at_table else {}),
        },
    )
    return _write_outcome(claim, actor, club=game.session.club, at_table=at_table)


def muggins_call(
    *, claim: Claim, actor: AbstractBaseUser, caller: Player, points: int, token: str = ""
) -> Outcome:
    """An opponent calls "muggins for N": a new outcome (ACC rule 10.4a: the caller takes the
    lesser of N and the points overlooked; a call when nothing was overlooked gives the claimant N).
    Once per claim, so never on a muggins score (ACC rule 10.3); never on his heels (ACC rule
    10.3). The caller is an opponent of the claimant when the claim was filed (`claim.parties`).
    The same form posted twice is AlreadySaved (`token`: core.submissions)."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(claim.game)
        claim = locked(Claim.objects.all()).get(pk=claim.pk)
        claim.game = game
        check_muggins_open(claim)
        actor_side = claim.party_side(_actor_player_id(actor))
        if actor_side is None and not actor.has_perm(ORGANISER_PERMISSION):
            raise PermissionDenied("Only the players at this table or an organiser record it.")
        caller_side = check_muggins_caller(claim, caller)
        if actor_side is not None and actor_side != caller_side:
            raise PermissionDenied("A player records a muggins call for their own side only.")
        check_muggins_points(points)
        return call_muggins(claim, caller=caller, points=points, actor=actor)


# --- Confirming the cards of a jackpot hand -------------------------------------------------------


def needs_card_confirmation(claim: Claim) -> bool:
    """A hand or crib claimed at its true count, one of the session's jackpots (29, 28, 24 as the
    club runs them): it wins the jackpot only once the cards are confirmed (docs/spec.md,
    "Claims, muggins and disputes"). An under-claim scores what was claimed and never wins one
    (scoring.selectors.big_hand_claims): its cards are not asked for."""
    return (
        claim.kind in (ClaimKind.HAND, ClaimKind.CRIB)
        and claim.claimed_points == claim.true_points
        and claim.true_points in claim.game.session.house_rules.jackpots
    )


def check_cards_to_confirm(claim: Claim) -> None:
    """Whether the claim's cards wait for a confirmation, whoever confirms them."""
    # A 24, 28 or 29 may be confirmed even where the session runs no jackpot for it (the records
    # list the big hands); the pages ask for it only where a jackpot hangs on it.
    if claim.kind not in (ClaimKind.HAND, ClaimKind.CRIB) or claim.true_points not in JACKPOT_HANDS:
        raise ValidationError("Only the cards of a 24, 28 or 29 hand or crib are confirmed.")
    if claim.cards_confirmed:
        raise ValidationError("The cards of this claim are already confirmed.")


def of_the_claimants_side(claim: Claim, player_id: int | None) -> bool:
    """The claimant's own side at filing never confirms its cards."""
    return player_id is not None and claim.party_side(player_id) == claim.claimant_side


CLAIMANTS_SIDE = "The claimant's own side does not confirm its cards."


def _check_confirmer(claim: Claim, actor: AbstractBaseUser, page: bool = False) -> None:
    check_cards_to_confirm(claim)
    if not actor.is_authenticated:
        raise PermissionDenied("Log in to confirm the cards.")
    player_id = _actor_player_id(actor, page=page)
    if of_the_claimants_side(claim, player_id):
        raise PermissionDenied(CLAIMANTS_SIDE)
    if claim.party_side(player_id) is None and not actor.has_perm(JUDGE_PERMISSION):
        raise PermissionDenied(
            "A player of another side at this table, or a judge, confirms the cards."
        )


def can_confirm_cards(claim: Claim, actor: AbstractBaseUser) -> bool:
    """Whether `actor` may confirm the claim's cards now (for the pages; the service decides)."""
    return claim.game.session.is_open and passes(_check_confirmer, claim, actor, True)


def confirm_cards(claim: Claim, *, actor: AbstractBaseUser | None, player: Player | None) -> Claim:
    """Record who confirmed the cards, inside the caller's transaction, the claim locked and
    checked: the login `actor`, or (no actor) `player` at the table, audited so."""
    claim.cards_confirmed_by = actor
    claim.cards_confirmed_by_player = player if actor is None else None
    claim.cards_confirmed_at = timezone.now()
    claim.save(
        update_fields=["cards_confirmed_by", "cards_confirmed_by_player", "cards_confirmed_at"]
    )
    club = claim.game.session.club
    pages_changed(club.pk)
    audit_record(
        actor=actor,
        action=ScoringVerb.CARDS_CONFIRMED,
        obj=claim,
        club=club,
        data={
            "claim": claim.pk,
            "cards": claim.card_list(),
            "true": claim.true_points,
            **(at_the_table(player) if actor is None else {}),
        },
    )
    return claim


def claim_confirm_cards(*, claim: Claim, actor: AbstractBaseUser, token: str = "") -> Claim:
    """Someone who is not of the claimant's side has seen the cards of a jackpot hand or crib:
    a player of another side at the table when the claim was filed (`claim.parties`), or a judge
    who is not a party. Once; refused on a settled session; audited. The same form posted twice
    confirms once (`token`: core.submissions)."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(claim.game)
        claim = locked(Claim.objects.select_related("game__session")).get(pk=claim.pk)
        claim.game = game
        _check_confirmer(claim, actor)
        return confirm_cards(claim, actor=actor, player=None)
