"""Writes for a game that cannot be finished (a player taken ill mid-game, docs/spec.md "A
Thursday, step by step", step 7): marking it *not played* or a *forfeit*, and putting it back to
playing. Never a made-up result.

Terms:
- not played: the game has no result and counts nowhere (standings, totals, highlights,
  ratings, money); a draft of it is superseded (the audit keeps it).
- forfeit: one side leaves; a confirmed result version of source FORFEIT, scored by the house
  rule "what a forfeit scores" (`HouseRules.forfeit_points`): the side that stays wins that many
  game points, the side that leaves loses with 0; both with no spread and no skunk. Ratings and
  highlights skip it (the game was not played out). Only at a two-sided table: at a cut-throat
  table the two who stay have not finished between themselves, so no one of them has won; it
  is refused there with the advice to mark it not played.
- back to playing: an organiser takes either back while the session is open; a forfeit's
  version is superseded, and the players enter the result as usual.

A confirmed result is never turned into not played or a forfeit: an organiser corrects it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from club.models import CheckIn, Player
from club.services import checkin_leaves_after
from core.audit import audit_record
from core.submissions import spend_token
from games.audit import GameVerb
from games.hooks import results_changed
from games.models import (
    Game,
    GameStatus,
    Result,
    ResultLine,
    ResultSource,
    ResultState,
    TableKind,
)
from games.services.results import (
    CORRECT_PERMISSION,
    _refuse_own_game,
    current_result,
    lock_game,
)
from games.totals import refresh_session_totals


def _check_organiser(game: Game, actor: AbstractBaseUser) -> None:
    if not actor.is_authenticated or not actor.has_perm(CORRECT_PERMISSION):
        raise PermissionDenied("Only an organiser marks a game not played or a forfeit.")
    _refuse_own_game(game, actor)


def _refuse_unless_open_to_mark(game: Game) -> list[int]:
    """The game must be played (not yet marked) and without a confirmed result. Returns the
    version numbers of the draft it supersedes (at most one)."""
    if game.status != GameStatus.PLAYED:
        raise ValidationError(
            f"Table {game.table} is already marked {game.get_status_display().lower()}: put it "
            "back to playing first."
        )
    current = current_result(game)
    if current is not None and current.state == ResultState.CONFIRMED:
        raise ValidationError(
            f"Table {game.table}'s result is confirmed: an organiser corrects it, giving a "
            "reason, instead of marking it not played or a forfeit."
        )
    return [current.version] if current is not None else []


def _supersede_current(game: Game) -> None:
    game.results.exclude(state=ResultState.SUPERSEDED).update(state=ResultState.SUPERSEDED)


def _mark(game: Game, *, status: str, actor, reason: str, side: int | None = None) -> None:
    game.status = status
    game.forfeit_side = side
    game.status_reason = reason
    game.status_by = actor
    game.status_at = timezone.now()
    game.full_clean(exclude=["session", "round", "status_by"], validate_constraints=False)
    game.save(update_fields=["status", "forfeit_side", "status_reason", "status_by", "status_at"])


def _leaves_after_this_round(game: Game, player: Player, actor: AbstractBaseUser) -> None:
    """`player` leaves after the game's round (club.services.checkin_leaves_after), in the
    caller's transaction; nothing to do after the session's last round."""
    if game.round.number >= game.session.house_rules.rounds_per_session:
        return
    if not any(seat.player_id == player.pk for seat in game.seats.all()):
        raise ValidationError({"leaving": f"{player} does not play at table {game.table}."})
    checkin = CheckIn.objects.get(session_id=game.session_id, player=player)
    checkin_leaves_after(checkin=checkin, actor=actor, round_number=game.round.number)


def game_not_played(
    *,
    game: Game,
    actor: AbstractBaseUser,
    reason: str = "",
    leaves: Player | None = None,
    token: str = "",
) -> Game:
    """Mark a game not played: no result, no points, counted nowhere; its draft, if any, is
    superseded. By an organiser who does not play in it, while the session is open and the
    game has no confirmed result. With `leaves`, that player also leaves after this round."""
    reason = (reason or "").strip()
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(game)
        _check_organiser(game, actor)
        superseded = _refuse_unless_open_to_mark(game)
        _supersede_current(game)
        _mark(game, status=GameStatus.NOT_PLAYED, actor=actor, reason=reason)
        if leaves is not None:
            _leaves_after_this_round(game, leaves, actor)
        refresh_session_totals(game.session)
        results_changed(game.session)
        audit_record(
            actor=actor,
            action=GameVerb.GAME_NOT_PLAYED,
            obj=game,
            club=game.session.club,
            data={"game": game.pk, "reason": reason, "superseded": superseded},
        )
    return game


def game_forfeit(
    *,
    game: Game,
    actor: AbstractBaseUser,
    leaving: Player,
    reason: str = "",
    leaves: bool = False,
    token: str = "",
) -> Result:
    """Mark a game a forfeit: `leaving`'s side leaves and loses, the other side wins the house
    rule's game points; no spread, no skunk. Stored as a confirmed version of source FORFEIT
    (see the module's terms). Refused at a cut-throat table: mark it not played there. With
    `leaves`, `leaving` also leaves after this round."""
    reason = (reason or "").strip()
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(game)
        _check_organiser(game, actor)
        if game.kind == TableKind.THREE:
            raise ValidationError(
                f"Table {game.table} is a cut-throat game: the two who stay have not finished "
                "between themselves, so nobody has won it. Mark it not played instead."
            )
        seats = list(game.seats.all())
        leaver = next((seat for seat in seats if seat.player_id == leaving.pk), None)
        if leaver is None:
            raise ValidationError({"leaving": f"{leaving} does not play at table {game.table}."})
        superseded = _refuse_unless_open_to_mark(game)
        points = game.session.house_rules.forfeit_points
        _supersede_current(game)
        latest = game.results.aggregate(latest=Max("version"))["latest"] or 0
        now = timezone.now()
        result = Result(
            game=game,
            version=latest + 1,
            state=ResultState.CONFIRMED,
            source=ResultSource.FORFEIT,
            reason=reason,
            entered_by=actor,
            entered_at=now,
            confirmed_by=actor,
            confirmed_at=now,
        )
        result.save()
        ResultLine.objects.bulk_create(
            ResultLine(
                result=result,
                player_id=seat.player_id,
                side=seat.side,
                score=0,
                won=seat.side != leaver.side,
                skunked=False,
                double_skunked=False,
                skunks_given=0,
                game_points=points if seat.side != leaver.side else 0,
                spread=0,
            )
            for seat in seats
        )
        _mark(game, status=GameStatus.FORFEIT, actor=actor, reason=reason, side=leaver.side)
        if leaves:
            _leaves_after_this_round(game, leaving, actor)
        refresh_session_totals(game.session)
        results_changed(game.session)
        audit_record(
            actor=actor,
            action=GameVerb.GAME_FORFEIT,
            obj=game,
            club=game.session.club,
            data={
                "game": game.pk,
                "player": leaving.pk,
                "side": leaver.side,
                "version": result.version,
                "game_points": points,
                "reason": reason,
                "superseded": superseded,
            },
        )
    return result


def game_back_to_playing(*, game: Game, actor: AbstractBaseUser, token: str = "") -> Game:
    """Take back "not played" or a forfeit while the session is open: the game is played again
    and its result is entered as usual; a forfeit's version is superseded (the audit keeps
    it). Safe to run twice."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(game)
        _check_organiser(game, actor)
        before = game.status
        if before == GameStatus.PLAYED:
            return game
        forfeit = current_result(game) if before == GameStatus.FORFEIT else None
        _supersede_current(game)
        game.status = GameStatus.PLAYED
        game.forfeit_side = None
        game.status_reason = ""
        game.status_by = None
        game.status_at = None
        game.save(
            update_fields=["status", "forfeit_side", "status_reason", "status_by", "status_at"]
        )
        refresh_session_totals(game.session)
        results_changed(game.session)
        audit_record(
            actor=actor,
            action=GameVerb.GAME_BACK_TO_PLAYING,
            obj=game,
            club=game.session.club,
            data={
                "game": game.pk,
                "before": before,
                "superseded": [forfeit.version] if forfeit is not None else [],
            },
        )
    return game
