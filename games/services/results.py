"""Writes of a game's result: entering a draft, confirming it, correcting a confirmed one, each a
new version. The bridge between the models and the pure `games.game_result`.

Terms: a *version* is one Result row of a game; at most one is not superseded (the current one).
A draft waits for the other side (or another organiser) to confirm it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from club.audit import at_the_table, by_link
from club.locking import lock_session
from club.models import Player
from club.services import session_require_open
from core.audit import audit_record
from core.locking import locked
from core.refusals import passes
from core.submissions import spend_token
from games.audit import GameVerb
from games.game_result import GameResultError, game_result
from games.hooks import results_changed
from games.models import (
    Game,
    GameStatus,
    Result,
    ResultLine,
    ResultSource,
    ResultState,
    Round,
    Seat,
)
from games.totals import refresh_session_totals

CORRECT_PERMISSION = "games.correct_result"
WITHDRAWN = "round_withdrawn"  # the code of the refusal of a write to a withdrawn round


def _scores_error(error: GameResultError) -> ValidationError:
    if error.side is None:
        return ValidationError(str(error))
    return ValidationError({f"side_{error.side}": str(error)})


def status_refusal(game: Game) -> str | None:
    """Why no result can be entered or corrected at this game, or None: it is marked not played
    or a forfeit (games.services.unfinished), until an organiser puts it back to playing."""
    if game.status == GameStatus.NOT_PLAYED:
        return (
            f"Table {game.table} is marked not played: an organiser puts it back to playing on "
            "its game page before a result is entered."
        )
    if game.status == GameStatus.FORFEIT:
        return (
            f"Table {game.table} is a forfeit: an organiser puts it back to playing on its game "
            "page before a result is entered."
        )
    return None


def require_played(game: Game) -> None:
    refusal = status_refusal(game)
    if refusal:
        raise ValidationError(refusal)


def current_result(game: Game) -> Result | None:
    return game.results.exclude(state=ResultState.SUPERSEDED).first()


def _seat_of(game: Game, actor: AbstractBaseUser) -> Seat | None:
    if not actor.is_authenticated:
        return None
    return Seat.objects.filter(game=game, player__user=actor).first()


def new_version(
    *,
    game: Game,
    seats: Sequence[Seat],
    latest: int,
    scores: Sequence[int],
    actor: AbstractBaseUser | None,
    state: str,
    source: str,
    reason: str = "",
    entered_side: int | None = None,
    now=None,
    player: Player | None = None,
    confirmer: Player | None = None,
) -> tuple[Result, list[ResultLine]]:
    """The next version of a game's result and its lines, validated, not yet saved. `player`:
    entered at the table by that player (no login; `actor` is None); `confirmer`: a confirmed
    version accepted by that player without a login (a correction's other side, a named judge)."""
    if len(scores) != game.side_count:
        raise ValidationError(f"This table has {game.side_count} sides: give a score for each.")
    try:
        scored = game_result(list(scores), rules=game.session.house_rules)
    except GameResultError as error:
        raise _scores_error(error) from None
    now = now or timezone.now()
    confirmed = state == ResultState.CONFIRMED
    result = Result(
        game=game,
        version=latest + 1,
        state=state,
        source=source,
        reason=reason,
        entered_by=actor,
        entered_by_player=player,
        entered_side=entered_side,
        entered_at=now,
        confirmed_by=actor if confirmed else None,
        confirmed_by_player=confirmer if confirmed else None,
        confirmed_at=now if confirmed else None,
    )
    result.full_clean(
        exclude=["game", "entered_by", "entered_by_player", "confirmed_by", "confirmed_by_player"],
        validate_constraints=False,
    )
    lines = []
    for seat in seats:
        side = scored.sides[seat.side]
        lines.append(
            ResultLine(
                result=result,
                player_id=seat.player_id,
                side=seat.side,
                score=side.score,
                won=side.won,
                skunked=side.skunked,
                double_skunked=side.double_skunked,
                skunks_given=side.skunks_given,
                game_points=side.game_points,
                spread=side.spread,
            )
        )
    return result, lines


def write_version(
    *,
    game: Game,
    scores: Sequence[int],
    actor: AbstractBaseUser | None,
    state: str,
    source: str,
    reason: str = "",
    entered_side: int | None = None,
    player: Player | None = None,
    confirmer: Player | None = None,
) -> Result:
    """Supersede the current version (if any) and write the next one with its lines."""
    latest = game.results.aggregate(latest=Max("version"))["latest"] or 0
    result, lines = new_version(
        game=game,
        seats=list(game.seats.all()),
        latest=latest,
        scores=scores,
        actor=actor,
        state=state,
        source=source,
        reason=reason,
        entered_side=entered_side,
        player=player,
        confirmer=confirmer,
    )
    game.results.exclude(state=ResultState.SUPERSEDED).update(state=ResultState.SUPERSEDED)
    result.save()
    for line in lines:
        line.result = result
    ResultLine.objects.bulk_create(lines)
    return result


def round_withdrawn(which: str) -> ValidationError:
    """The refusal of a write to a round withdrawn since the page was read (`which`: "Round 2").
    A withdrawal deletes the round's games and seats (round_withdraw), so the page's game is gone:
    its players find their table in the round drawn again."""
    return ValidationError(
        f"{which} was withdrawn a moment ago, so nothing was saved: once the round is drawn "
        "again, find the table's new game.",
        code=WITHDRAWN,
    )


def lock_round(round_: Round) -> Round:
    """The round row (with its session and club), locked after its session (club.locking's
    order). A round withdrawn since the caller read it is refused with `round_withdrawn`, not
    a missing row: the withdrawal held the session's lock, and once it is let go the round is
    gone."""
    lock_session(round_.session_id)
    found = locked(Round.objects.select_related("session__club")).filter(pk=round_.pk).first()
    if found is None:
        raise round_withdrawn(f"Round {round_.number}")
    return found


def lock_game(game: Game) -> Game:
    """The game row, locked after its session and round (club.locking's order), in an open
    session: every change at a table (results here, claims, muggins calls, disputes, rulings and
    confirmed cards in scoring) takes it. A game whose round was withdrawn since the caller read
    it is refused with `round_withdrawn`, as `lock_round` does."""
    lock_session(game.session_id)
    round_ = locked(Round.objects.all()).filter(pk=game.round_id).first()
    games = locked(Game.objects.select_related("session__club", "round"))
    found = games.filter(pk=game.pk).first() if round_ is not None else None
    if found is None:
        known = Game.round.is_cached(game)  # the page's game may not hold its round: no query
        raise round_withdrawn(
            f"Round {game.round.number}" if known else f"The round of table {game.table}"
        )
    session_require_open(found.session)
    return found


def result_enter(
    *, game: Game, actor: AbstractBaseUser, scores: Sequence[int], token: str = ""
) -> Result:
    """Enter a game's final side scores as a draft, by a player at the table or an organiser.

    A new entry replaces an unconfirmed draft (a side that disagrees enters its own scores,
    which the first side then confirms). A confirmed result is changed only by a correction.
    The same form posted twice enters once (`token`: core.submissions).
    """
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(game)
        seat = _seat_of(game, actor)
        if seat is None and not actor.has_perm(CORRECT_PERMISSION):
            raise PermissionDenied("Only the players at this table or an organiser can enter it.")
        return enter_draft(
            game=game,
            scores=scores,
            actor=actor,
            source=ResultSource.ENTRY,
            entered_side=seat.side if seat else None,
        )


def enter_draft(
    *,
    game: Game,
    scores: Sequence[int],
    actor: AbstractBaseUser | None,
    source: str,
    entered_side: int | None,
    player: Player | None = None,
) -> Result:
    """The next draft of a game's result and its audit entry, inside the caller's transaction
    with the game locked: on the game page by a login (`actor`), or at the table by `player`
    (no actor; audited "at the table"). An unconfirmed draft is replaced; a confirmed result is
    changed only by a correction."""
    require_played(game)
    current = current_result(game)
    if current is not None and current.state == ResultState.CONFIRMED:
        raise ValidationError(
            "This result is confirmed: an organiser can correct it, giving a reason."
        )
    result = write_version(
        game=game,
        scores=scores,
        actor=actor,
        state=ResultState.DRAFT,
        source=source,
        entered_side=entered_side,
        player=player,
    )
    audit_record(
        actor=actor,
        action=GameVerb.RESULT_ENTERED,
        obj=result,
        club=game.session.club,
        data={
            "game": game.pk,
            "version": result.version,
            "scores": list(scores),
            **(at_the_table(player) if player is not None else {}),
        },
    )
    return result


def can_confirm(result: Result, actor: AbstractBaseUser) -> bool:
    """Whether `actor` may confirm this draft (for showing the button; the service decides)."""
    return passes(_check_confirmer, result, actor)


def _check_confirmer(result: Result, actor: AbstractBaseUser) -> None:
    """The other side confirms, or an organiser who did not enter it and does not play on the
    side that did: a seated organiser confirms only as a player of his side (docs/spec.md)."""
    if not actor.is_authenticated:
        raise PermissionDenied("Log in to confirm a result.")
    organiser = actor.has_perm(CORRECT_PERMISSION)
    if actor.pk == result.entered_by_id:
        raise ValidationError(
            "You entered this result: a player of the other side"
            + (" or another organiser" if result.entered_side is None else "")
            + " must confirm it."
        )
    seat = _seat_of(result.game, actor)
    if seat is not None:
        if result.entered_side is None or seat.side != result.entered_side:
            return
        raise ValidationError(
            "Your side entered this result: the other side"
            + (", or an organiser who does not play in this game," if organiser else "")
            + " must confirm it."
        )
    if not organiser:
        raise PermissionDenied("Only the players at this table or an organiser can confirm it.")


def can_correct(game: Game, actor: AbstractBaseUser) -> bool:
    """Whether `actor` may correct this game's confirmed result (for showing the form; the
    service decides)."""
    return passes(_check_corrector, game, actor)


def _check_corrector(game: Game, actor: AbstractBaseUser) -> None:
    if not actor.is_authenticated or not actor.has_perm(CORRECT_PERMISSION):
        raise PermissionDenied("Only an organiser corrects a confirmed result.")
    _refuse_own_game(game, actor)


def _refuse_own_game(game: Game, actor: AbstractBaseUser) -> None:
    """Nobody corrects alone a game he plays in: an organiser who does not play in it does, or
    a judge's ruling on a dispute (docs/spec.md, "A Thursday, step by step", step 4)."""
    if _seat_of(game, actor) is not None:
        raise ValidationError(
            "You play in this game: another organiser, or a judge ruling on a dispute, must "
            "correct it."
        )


def result_confirm(*, result: Result, actor: AbstractBaseUser) -> Result:
    """Confirm a draft: by the other side, or by an organiser other than the one who entered it."""
    with transaction.atomic():
        game = lock_game(result.game)
        result = Result.objects.select_related("game__session").get(pk=result.pk)
        if result.state != ResultState.DRAFT:
            raise ValidationError(
                f"Version {result.version} is {result.get_state_display().lower()}, "
                "not a draft waiting for confirmation."
            )
        _check_confirmer(result, actor)
        result.state = ResultState.CONFIRMED
        result.confirmed_by = actor
        result.confirmed_at = timezone.now()
        result.save(update_fields=["state", "confirmed_by", "confirmed_at"])
        refresh_session_totals(game.session)
        results_changed(game.session)
        audit_record(
            actor=actor,
            action=GameVerb.RESULT_CONFIRMED,
            obj=result,
            club=game.session.club,
            data={"game": game.pk, "version": result.version},
        )
    return result


def result_correct(
    *,
    game: Game,
    actor: AbstractBaseUser | None,
    scores: Sequence[int],
    reason: str,
    source: str = ResultSource.CORRECTION,
    token: str = "",
    player: Player | None = None,
) -> Result:
    """Correct a confirmed result: a new confirmed version with a reason; the old one is kept.

    Used by organisers (a correction) and by judges' rulings (`source=ResultSource.RULING`); never
    by someone who plays in the game (`_refuse_own_game`: he proposes a correction instead,
    games.services.corrections). `player`: a player named judge for one dispute, ruling through
    a one-time link (no login, `actor` is None): the version is entered and confirmed by them.
    """
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why the result is corrected."})
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        game = lock_game(game)
        if player is not None:
            if game.seats.filter(player=player).exists():
                raise ValidationError(f"{player} plays in this game: they cannot correct it.")
        else:
            _refuse_own_game(game, actor)
        require_played(game)
        current = current_result(game)
        if current is None or current.state != ResultState.CONFIRMED:
            raise ValidationError(
                "Only a confirmed result is corrected: enter or confirm the result first."
            )
        before = current.scores
        if list(scores) == before:
            raise ValidationError("These are the scores already recorded: nothing to correct.")
        result = write_version(
            game=game,
            scores=scores,
            actor=actor,
            state=ResultState.CONFIRMED,
            source=source,
            reason=reason,
            player=player,
            confirmer=player,
        )
        refresh_session_totals(game.session)
        results_changed(game.session)
        audit_record(
            actor=actor,
            action=GameVerb.RESULT_CORRECTED,
            obj=result,
            club=game.session.club,
            data={
                "game": game.pk,
                "version": result.version,
                "scores": {"before": before, "after": list(scores)},
                "reason": reason,
                "source": source,
                **(by_link(player) if player is not None else {}),
            },
        )
    return result
