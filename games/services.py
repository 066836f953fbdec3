"""Writes for the games app: drawing rounds, swapping seats, entering, confirming and correcting
results. The one bridge between the models and the pure modules `games.draw` and
`games.outcome`.

Every service locks the rows it changes, refuses a settled session, validates, and writes one
audit entry per change inside its transaction. `actor` is the logged-in user doing it.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from club.models import AuditAction, CheckIn, Player, Session
from club.services import audit_record, passes, session_require_open
from games.draw import Draw, DrawError, DrawHistory, DrawTable, draw_round
from games.models import (
    Game,
    Result,
    ResultLine,
    ResultSource,
    ResultState,
    Round,
    Seat,
    TableKind,
)
from games.outcome import OutcomeError, game_outcome

KIND_OF_TABLE = {"two": TableKind.TWO, "three": TableKind.THREE, "partners": TableKind.PARTNERS}
CORRECT_PERMISSION = "games.correct_result"


# --- The draw -------------------------------------------------------------------------------------


def _tables_of(rounds_queryset) -> list[list[DrawTable]]:
    """Earlier rounds as the draw module sees them: per round, tables of players in seat order."""
    by_game: dict[int, list[tuple[int, int]]] = {}
    game_round: dict[int, tuple[int, int]] = {}
    seats = Seat.objects.filter(round__in=rounds_queryset).values_list(
        "round_id", "game_id", "game__table", "position", "player_id"
    )
    for round_id, game_id, table, position, player_id in seats:
        by_game.setdefault(game_id, []).append((position, player_id))
        game_round[game_id] = (round_id, table)
    rounds: dict[int, list[DrawTable]] = {}
    for game_id, seated in by_game.items():
        round_id, table = game_round[game_id]
        rounds.setdefault(round_id, []).append(
            DrawTable(number=table, seats=tuple(player for _, player in sorted(seated)))
        )
    return [sorted(tables, key=lambda t: t.number) for _, tables in sorted(rounds.items())]


def draw_history(session: Session) -> DrawHistory:
    """Who has met whom this session, and earlier in the season (the calendar year)."""
    this_session = Round.objects.filter(session=session)
    season = Round.objects.filter(
        session__club=session.club,
        session__date__year=session.date.year,
        session__date__lt=session.date,
    )
    return DrawHistory.from_rounds(_tables_of(this_session), _tables_of(season))


def round_entrants(session: Session, number: int) -> list[int]:
    """Player ids of everyone checked in who plays from round `number`."""
    return list(
        CheckIn.objects.filter(
            session=session, from_round__lte=number, player__active=True
        ).values_list("player_id", flat=True)
    )


def _save_draw(*, session: Session, number: int, draw: Draw, actor) -> Round:
    round_ = Round(session=session, number=number, seed=draw.seed, mode=draw.mode, drawn_by=actor)
    round_.full_clean(validate_constraints=False)
    round_.save()
    _save_tables(round_, draw.tables)
    return round_


def _save_tables(round_: Round, tables: Sequence[DrawTable]) -> None:
    games = Game.objects.bulk_create(
        Game(
            session=round_.session, round=round_, table=table.number, kind=KIND_OF_TABLE[table.kind]
        )
        for table in tables
    )
    seats = []
    for game, table in zip(games, tables, strict=True):
        side_of = {player: side for side, members in enumerate(table.sides()) for player in members}
        seats.extend(
            Seat(game=game, round=round_, player_id=player, position=position, side=side_of[player])
            for position, player in enumerate(table.seats)
        )
    Seat.objects.bulk_create(seats)


def round_draw(*, session: Session, actor: AbstractBaseUser, seed: int | None = None) -> Round:
    """Draw the next round: seat every checked-in active player (see games.draw for how)."""
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session.pk)
        session_require_open(session)
        number = session.rounds.count() + 1
        planned = session.rules["rounds_per_session"]
        if number > planned:
            raise ValidationError(
                f"All {planned} rounds of this session are drawn (the house rules it is played "
                "under say so)."
            )
        entrants = round_entrants(session, number)
        seed = seed if seed is not None else secrets.randbelow(2**53)
        try:
            draw = draw_round(
                entrants=entrants,
                mode=session.rules["table_mode"],
                seed=seed,
                history=draw_history(session),
                rounds_remaining=planned - number + 1,
            )
        except DrawError as error:
            raise ValidationError(str(error)) from None
        round_ = _save_draw(session=session, number=number, draw=draw, actor=actor)
        audit_record(
            actor=actor,
            action=AuditAction.ROUND_DRAWN,
            obj=round_,
            club=session.club,
            data={
                "session": session.pk,
                "round": number,
                "seed": seed,
                "mode": draw.mode,
                "tables": [list(table.seats) for table in draw.tables],
                "session_repeats": draw.session_repeats,
                "season_repeats": draw.season_repeats,
            },
        )
    return round_


def round_swap_seats(
    *, round_: Round, player_a: Player, player_b: Player, actor: AbstractBaseUser
) -> Round:
    """Swap two players' seats by hand, allowed until a result of the round is entered."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("session").get(pk=round_.pk)
        session_require_open(round_.session)
        if Result.objects.filter(game__round=round_).exists():
            raise ValidationError(
                f"A result of round {round_.number} is already entered: seats can no longer "
                "be swapped."
            )
        if player_a == player_b:
            raise ValidationError({"player_b": "Choose two different players to swap."})
        seats = {seat.player_id: seat for seat in Seat.objects.filter(round=round_)}
        for field, player in (("player_a", player_a), ("player_b", player_b)):
            if player.pk not in seats:
                raise ValidationError({field: f"{player} is not seated in round {round_.number}."})
        seat_a, seat_b = seats[player_a.pk], seats[player_b.pk]
        before = {"a": _where(seat_a), "b": _where(seat_b)}
        Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
        seat_a.player_id, seat_b.player_id = player_b.pk, player_a.pk
        seat_a.pk = seat_b.pk = None
        Seat.objects.bulk_create([seat_a, seat_b])
        audit_record(
            actor=actor,
            action=AuditAction.SEATS_SWAPPED,
            obj=round_,
            club=round_.session.club,
            data={
                "round": round_.number,
                "players": [player_a.pk, player_b.pk],
                "before": before,
            },
        )
    return round_


def _where(seat: Seat) -> dict:
    return {"player": seat.player_id, "game": seat.game_id, "position": seat.position}


# --- Results --------------------------------------------------------------------------------------


def _scores_error(error: OutcomeError) -> ValidationError:
    if error.side is None:
        return ValidationError(str(error))
    return ValidationError({f"side_{error.side}": str(error)})


def _current(game: Game) -> Result | None:
    return game.results.exclude(state=ResultState.SUPERSEDED).first()


def _seat_of(game: Game, actor: AbstractBaseUser) -> Seat | None:
    if not actor.is_authenticated:
        return None
    return Seat.objects.filter(game=game, player__user=actor).first()


def _write_version(
    *,
    game: Game,
    scores: Sequence[int],
    actor: AbstractBaseUser,
    state: str,
    source: str,
    reason: str = "",
    entered_side: int | None = None,
) -> Result:
    """Supersede the current version (if any) and write the next one with its lines."""
    if len(scores) != game.side_count:
        raise ValidationError(f"This table has {game.side_count} sides: give a score for each.")
    try:
        outcome = game_outcome(list(scores), rules=game.session.rules)
    except OutcomeError as error:
        raise _scores_error(error) from None
    seats = list(game.seats.all())
    game.results.exclude(state=ResultState.SUPERSEDED).update(state=ResultState.SUPERSEDED)
    latest = game.results.aggregate(latest=Max("version"))["latest"] or 0
    now = timezone.now()
    confirmed = state == ResultState.CONFIRMED
    result = Result(
        game=game,
        version=latest + 1,
        state=state,
        source=source,
        reason=reason,
        entered_by=actor,
        entered_side=entered_side,
        entered_at=now,
        confirmed_by=actor if confirmed else None,
        confirmed_at=now if confirmed else None,
    )
    result.full_clean(validate_constraints=False)
    result.save()
    ResultLine.objects.bulk_create(
        ResultLine(
            result=result,
            player_id=seat.player_id,
            side=seat.side,
            score=outcome.sides[seat.side].score,
            won=outcome.sides[seat.side].won,
            skunked=outcome.sides[seat.side].skunked,
            double_skunked=outcome.sides[seat.side].double_skunked,
            skunks_given=outcome.sides[seat.side].skunks_given,
            game_points=outcome.sides[seat.side].game_points,
            spread=outcome.sides[seat.side].spread,
        )
        for seat in seats
    )
    return result


def _lock_game(game: Game) -> Game:
    game = Game.objects.select_for_update().select_related("session", "round").get(pk=game.pk)
    session_require_open(game.session)
    return game


def result_enter(*, game: Game, actor: AbstractBaseUser, scores: Sequence[int]) -> Result:
    """Enter a game's final side scores as a draft, by a player at the table or an organiser.

    A new entry replaces an unconfirmed draft (a side that disagrees enters its own scores,
    which the first side then confirms). A confirmed result is changed only by a correction.
    """
    with transaction.atomic():
        game = _lock_game(game)
        seat = _seat_of(game, actor)
        if seat is None and not actor.has_perm(CORRECT_PERMISSION):
            raise PermissionDenied("Only the players at this table or an organiser can enter it.")
        current = _current(game)
        if current is not None and current.state == ResultState.CONFIRMED:
            raise ValidationError(
                "This result is confirmed: an organiser can correct it, giving a reason."
            )
        result = _write_version(
            game=game,
            scores=scores,
            actor=actor,
            state=ResultState.DRAFT,
            source=ResultSource.ENTRY,
            entered_side=seat.side if seat else None,
        )
        audit_record(
            actor=actor,
            action=AuditAction.RESULT_ENTERED,
            obj=result,
            club=game.session.club,
            data={"game": game.pk, "version": result.version, "scores": list(scores)},
        )
    return result


def can_confirm(result: Result, actor: AbstractBaseUser) -> bool:
    """Whether `actor` may confirm this draft (for showing the button; the service decides)."""
    return passes(_check_confirmer, result, actor)


def _check_confirmer(result: Result, actor: AbstractBaseUser) -> None:
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
        if result.entered_side is None or seat.side != result.entered_side or organiser:
            return
        raise ValidationError("Your side entered this result: the other side must confirm it.")
    if not organiser:
        raise PermissionDenied("Only the players at this table or an organiser can confirm it.")


def result_confirm(*, result: Result, actor: AbstractBaseUser) -> Result:
    """Confirm a draft: by the other side, or by an organiser other than the one who entered it."""
    with transaction.atomic():
        game = _lock_game(result.game)
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
        audit_record(
            actor=actor,
            action=AuditAction.RESULT_CONFIRMED,
            obj=result,
            club=game.session.club,
            data={"game": game.pk, "version": result.version},
        )
    return result


def result_correct(
    *,
    game: Game,
    actor: AbstractBaseUser,
    scores: Sequence[int],
    reason: str,
    source: str = ResultSource.CORRECTION,
) -> Result:
    """Correct a confirmed result: a new confirmed version with a reason; the old one is kept.

    Used by organisers (a correction) and by judges' rulings (`source=ResultSource.RULING`).
    """
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why the result is corrected."})
    with transaction.atomic():
        game = _lock_game(game)
        current = _current(game)
        if current is None or current.state != ResultState.CONFIRMED:
            raise ValidationError(
                "Only a confirmed result is corrected: enter or confirm the result first."
            )
        before = current.scores
        if list(scores) == before:
            raise ValidationError("These are the scores already recorded: nothing to correct.")
        result = _write_version(
            game=game,
            scores=scores,
            actor=actor,
            state=ResultState.CONFIRMED,
            source=source,
            reason=reason,
        )
        audit_record(
            actor=actor,
            action=AuditAction.RESULT_CORRECTED,
            obj=result,
            club=game.session.club,
            data={
                "game": game.pk,
                "version": result.version,
                "scores": {"before": before, "after": list(scores)},
                "reason": reason,
                "source": source,
            },
        )
    return result
