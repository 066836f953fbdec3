"""Corrections proposed by a player of the game: someone who plays never corrects a confirmed
result alone (`results._refuse_own_game`), so either side proposes new scores with a reason and
the correction takes effect when a player of another side accepts it, as a result is accepted
at the table (docs/spec.md "A Thursday, step by step", step 4).

Terms:
- proposal: `CorrectionProposal`, open until accepted, withdrawn or replaced (a second proposal
  of the game replaces the first). It corrects the confirmed version it was made against
  (`base`): once the result changes otherwise (a judge's ruling, an organiser's correction) it
  can no longer be accepted.
- acceptance link: the one-time player link (club.services.player_links, purpose "accept") made
  with each proposal, shown with its QR code on the game page to the browser that proposed: a
  player of another side opens it on their phone, taps their name (and types their PIN when the
  session's rules ask for table PINs) and accepts, during the round or after it.
- acceptance: writes the next confirmed version (source CORRECTION), entered by the proposer and
  confirmed by the acceptor, both players, audited as a correction with both named.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from club.audit import by_link
from club.models import Player, PlayerLink, PlayerLinkPurpose
from club.services import (
    pin_verify,
    player_link_issue,
    player_link_refusal,
    player_link_revoke,
    player_link_spend,
)
from core.audit import audit_record
from core.submissions import spend_token
from games.audit import GameVerb
from games.game_result import GameResultError, game_result
from games.hooks import results_changed
from games.models import CorrectionProposal, Game, ProposalState, ResultSource, ResultState, Seat
from games.services.results import (
    _scores_error,
    current_result,
    lock_game,
    require_played,
    write_version,
)
from games.totals import refresh_session_totals

ACCEPT = PlayerLinkPurpose.ACCEPT


def open_proposal(game: Game) -> CorrectionProposal | None:
    return (
        CorrectionProposal.objects.filter(game=game, state=ProposalState.OPEN)
        .select_related("proposed_by_player", "base")
        .first()
    )


def _login_seat(game: Game, actor: AbstractBaseUser) -> Seat:
    seat = None
    if actor.is_authenticated:
        seat = game.seats.filter(player__user=actor).select_related("player").first()
    if seat is None:
        raise PermissionDenied(
            "Only a player of this game proposes a correction: an organiser who does not play "
            "in it corrects the result directly."
        )
    return seat


def correction_propose(
    *,
    game: Game,
    actor: AbstractBaseUser,
    scores: Sequence[int],
    reason: str,
    token: str = "",
) -> tuple[CorrectionProposal, str]:
    """A player of the game (logged in, on the game page) proposes new scores for its confirmed
    result, with a reason. Returns the proposal and the raw token of its acceptance link. An open
    proposal of the game is replaced. The same form posted twice proposes once."""
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why the result should be corrected."})
    scores = [int(score) for score in scores]
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(game)
        seat = _login_seat(game, actor)
        require_played(game)
        current = current_result(game)
        if current is None or current.state != ResultState.CONFIRMED:
            raise ValidationError(
                "Only a confirmed result is corrected: enter or accept the result first."
            )
        if len(scores) != game.side_count:
            raise ValidationError(f"This table has {game.side_count} sides: give a score for each.")
        try:
            game_result(scores, rules=game.session.house_rules)
        except GameResultError as error:
            raise _scores_error(error) from None
        if scores == current.scores:
            raise ValidationError("These are the scores already recorded: nothing to correct.")
        now = timezone.now()
        replaced = CorrectionProposal.objects.filter(game=game, state=ProposalState.OPEN)
        for old in replaced:
            player_link_revoke(purpose=ACCEPT, target=old.pk, now=now)
        replaced.update(state=ProposalState.REPLACED, closed_at=now)
        proposal = CorrectionProposal(
            game=game,
            base=current,
            scores=scores,
            reason=reason,
            proposed_side=seat.side,
            proposed_by_player=seat.player,
            proposed_by=actor,
            proposed_at=now,
        )
        proposal.full_clean(exclude=["game", "base", "proposed_by_player", "proposed_by"])
        proposal.save()
        link = player_link_issue(
            session=game.session, purpose=ACCEPT, target=proposal.pk, player=None, actor=actor
        )
        audit_record(
            actor=actor,
            action=GameVerb.CORRECTION_PROPOSED,
            obj=proposal,
            club=game.session.club,
            data={
                "game": game.pk,
                "scores": {"before": current.scores, "proposed": scores},
                "reason": reason,
            },
        )
    return proposal, link


def correction_withdraw(*, proposal: CorrectionProposal, actor: AbstractBaseUser) -> None:
    """The proposing side (or an organiser) withdraws an open proposal; its link dies."""
    with transaction.atomic():
        game = lock_game(proposal.game)
        proposal = CorrectionProposal.objects.get(pk=proposal.pk)
        if proposal.state != ProposalState.OPEN:
            raise ValidationError(f"This proposal is {proposal.get_state_display().lower()}.")
        seat = game.seats.filter(player__user=actor).first() if actor.is_authenticated else None
        organiser = actor.has_perm("games.correct_result")
        if (seat is None or seat.side != proposal.proposed_side) and not organiser:
            raise PermissionDenied("Only the side that proposed it, or an organiser, withdraws it.")
        proposal.state = ProposalState.WITHDRAWN
        proposal.closed_at = timezone.now()
        proposal.save(update_fields=["state", "closed_at"])
        player_link_revoke(purpose=ACCEPT, target=proposal.pk)
        audit_record(
            actor=actor,
            action=GameVerb.CORRECTION_WITHDRAWN,
            obj=proposal,
            club=game.session.club,
            data={"game": game.pk, "scores": proposal.scores},
        )


def acceptors(proposal: CorrectionProposal) -> list[Seat]:
    """The seats whose players may accept: every side but the one that proposed, in seat order."""
    seats = proposal.game.seats.select_related("player").order_by("position")
    return [seat for seat in seats if seat.side != proposal.proposed_side]


def link_proposal(link: PlayerLink) -> CorrectionProposal | None:
    return (
        CorrectionProposal.objects.select_related(
            "game__session__club", "game__round", "proposed_by_player", "base"
        )
        .filter(pk=link.target, game__session_id=link.session_id)
        .first()
    )


def accept_refusal(link: PlayerLink, proposal: CorrectionProposal | None) -> str | None:
    """Why the acceptance link cannot accept now (None: it can)."""
    refusal = player_link_refusal(link)
    if refusal:
        return refusal
    if proposal is None or proposal.state != ProposalState.OPEN:
        what = proposal.get_state_display().lower() if proposal else "gone"
        return f"This proposed correction is {what}: nothing to accept."
    current = current_result(proposal.game)
    if current is None or current.pk != proposal.base_id:
        return "The result changed since this correction was proposed: ask for a new proposal."
    return None


def correction_accept(*, link: PlayerLink, player: Player, pin: str = "") -> CorrectionProposal:
    """A player of another side than the proposer's accepts the proposal through its one-time
    link: the new confirmed version is written and the link spent. With the session's "table
    PINs" rule on, their PIN first; a refusal for another reason costs no try."""
    proposal = link_proposal(link)
    refusal = accept_refusal(link, proposal)
    if refusal:
        raise ValidationError(refusal)
    seat = proposal.game.seats.filter(player=player).first()
    if seat is None:
        raise ValidationError({"player": f"{player} does not play at this table."})
    if seat.side == proposal.proposed_side:
        raise ValidationError(
            {
                "player": f"{player}'s side proposed this correction: a player of the other side "
                "accepts it."
            }
        )
    if proposal.game.session.house_rules.table_pins:
        pin_verify(session=proposal.game.session, player=player, pin=pin)
    with transaction.atomic():
        game = lock_game(proposal.game)
        proposal = CorrectionProposal.objects.select_related("proposed_by_player").get(
            pk=proposal.pk
        )
        refusal = accept_refusal(PlayerLink.objects.get(pk=link.pk), proposal)
        if refusal:
            raise ValidationError(refusal)
        player_link_spend(link)
        before = proposal.base.scores
        result = write_version(
            game=game,
            scores=proposal.scores,
            actor=None,
            state=ResultState.CONFIRMED,
            source=ResultSource.CORRECTION,
            reason=proposal.reason,
            player=proposal.proposed_by_player,
            confirmer=player,
        )
        proposal.state = ProposalState.ACCEPTED
        proposal.accepted_by_player = player
        proposal.closed_at = timezone.now()
        proposal.result = result
        proposal.save(update_fields=["state", "accepted_by_player", "closed_at", "result"])
        refresh_session_totals(game.session)
        results_changed(game.session)
        audit_record(
            actor=None,
            action=GameVerb.RESULT_CORRECTED,
            obj=result,
            club=game.session.club,
            data={
                "game": game.pk,
                "version": result.version,
                "scores": {"before": before, "after": proposal.scores},
                "reason": proposal.reason,
                "source": ResultSource.CORRECTION,
                "proposal": proposal.pk,
                "proposed_by": proposal.proposed_by_player.display_name,
                **by_link(player),
            },
        )
    return proposal
