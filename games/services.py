"""Writes for the games app: drawing rounds, swapping seats, entering, confirming and correcting
results. The one bridge between the models and the pure modules `games.draw` and
`games.outcome`.

Every service locks the rows it changes, refuses a settled session, validates, and writes one
audit entry per change inside its transaction. `actor` is the logged-in user doing it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from club.models import AuditAction, CheckIn, Player, Session
from club.services import audit_record, audit_record_many, passes, session_require_open
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
from games.totals import refresh_session_totals

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


def _new_version(
    *,
    game: Game,
    seats: Sequence[Seat],
    latest: int,
    scores: Sequence[int],
    actor: AbstractBaseUser,
    state: str,
    source: str,
    reason: str = "",
    entered_side: int | None = None,
    now=None,
) -> tuple[Result, list[ResultLine]]:
    """The next version of a game's result and its lines, validated, not yet saved."""
    if len(scores) != game.side_count:
        raise ValidationError(f"This table has {game.side_count} sides: give a score for each.")
    try:
        outcome = game_outcome(list(scores), rules=game.session.rules)
    except OutcomeError as error:
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
        entered_side=entered_side,
        entered_at=now,
        confirmed_by=actor if confirmed else None,
        confirmed_at=now if confirmed else None,
    )
    result.full_clean(exclude=["game", "entered_by", "confirmed_by"], validate_constraints=False)
    lines = []
    for seat in seats:
        side = outcome.sides[seat.side]
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
    latest = game.results.aggregate(latest=Max("version"))["latest"] or 0
    result, lines = _new_version(
        game=game,
        seats=list(game.seats.all()),
        latest=latest,
        scores=scores,
        actor=actor,
        state=state,
        source=source,
        reason=reason,
        entered_side=entered_side,
    )
    game.results.exclude(state=ResultState.SUPERSEDED).update(state=ResultState.SUPERSEDED)
    result.save()
    for line in lines:
        line.result = result
    ResultLine.objects.bulk_create(lines)
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
        refresh_session_totals(game.session)
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
        refresh_session_totals(game.session)
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


# --- A whole round at once (scorecards typed in after play) --------------------------------------


def round_results_enter(
    *, round_: Round, actor: AbstractBaseUser, scores: Mapping[int, Sequence[int]]
) -> list[Result]:
    """Enter several tables' results of a round at once, as drafts: an organiser typing in the
    round's scorecards. `scores` maps table number to side scores.

    All or nothing: a table that is not in the round, is already confirmed or has impossible
    scores is a ValidationError naming the table, and nothing is saved. A table's unconfirmed
    draft is replaced, as `result_enter` does. One audit entry per result, as `result_enter`
    writes.
    """
    if not actor.has_perm(CORRECT_PERMISSION):
        raise PermissionDenied("Only an organiser enters a whole round's results.")
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("session__club").get(pk=round_.pk)
        session = round_.session
        session_require_open(session)
        games = {
            game.table: game
            for game in Game.objects.select_for_update().filter(round=round_).order_by("table")
        }
        unknown = sorted(set(scores) - set(games))
        if unknown:
            raise ValidationError(f"Round {round_.number} has no table {unknown[0]}.")
        chosen = [games[table] for table in sorted(scores)]
        seats: dict[int, list[Seat]] = {}
        for seat in (
            Seat.objects.filter(game__in=chosen)
            .select_related("player")
            .order_by("game_id", "position")
        ):
            seats.setdefault(seat.game_id, []).append(seat)
        current: dict[int, Result] = {
            result.game_id: result
            for result in Result.objects.filter(game__in=chosen).exclude(
                state=ResultState.SUPERSEDED
            )
        }
        latest = dict(
            Result.objects.filter(game__in=chosen)
            .values("game_id")
            .annotate(latest=Max("version"))
            .values_list("game_id", "latest")
        )
        now = timezone.now()
        versions = []
        for game in chosen:
            game.session, game.round = session, round_  # no query per game for rules or names
            old = current.get(game.pk)
            if old is not None and old.state == ResultState.CONFIRMED:
                raise ValidationError(
                    f"Table {game.table}'s result is confirmed: an organiser can correct it, "
                    "giving a reason."
                )
            try:
                versions.append(
                    _new_version(
                        game=game,
                        seats=seats.get(game.pk, []),
                        latest=latest.get(game.pk, 0),
                        scores=scores[game.table],
                        actor=actor,
                        state=ResultState.DRAFT,
                        source=ResultSource.ENTRY,
                        # An organiser who plays at the table enters it for their side, as
                        # `result_enter` records it (so their partner cannot confirm it).
                        entered_side=next(
                            (
                                seat.side
                                for seat in seats.get(game.pk, [])
                                if seat.player.user_id == actor.pk
                            ),
                            None,
                        ),
                        now=now,
                    )
                )
            except ValidationError as error:
                raise ValidationError(f"Table {game.table}: {'; '.join(error.messages)}") from None
        Result.objects.filter(pk__in=[old.pk for old in current.values()]).update(
            state=ResultState.SUPERSEDED
        )
        results = Result.objects.bulk_create([result for result, _ in versions])
        lines = []
        for result, (_, result_lines) in zip(results, versions, strict=True):
            for line in result_lines:
                line.result = result
            lines.extend(result_lines)
        ResultLine.objects.bulk_create(lines)
        audit_record_many(
            actor=actor,
            action=AuditAction.RESULT_ENTERED,
            club=session.club,
            entries=[
                (
                    result,
                    {
                        "game": result.game_id,
                        "version": result.version,
                        "scores": list(scores[result.game.table]),
                    },
                )
                for result in results
            ],
        )
    return results


def round_results_confirm(*, round_: Round, actor: AbstractBaseUser) -> list[Result]:
    """Confirm every draft of a round at once: an organiser checking the scorecards another
    organiser typed in. Drafts the actor entered, or whose table the actor plays at, are left for
    someone else (they are not confirmed here); the confirmed ones are returned.
    """
    if not actor.has_perm(CORRECT_PERMISSION):
        raise PermissionDenied("Only an organiser confirms a whole round's results.")
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("session__club").get(pk=round_.pk)
        session_require_open(round_.session)
        list(Game.objects.select_for_update().filter(round=round_).values_list("pk", flat=True))
        own_games = Seat.objects.filter(round=round_, player__user=actor).values("game_id")
        drafts = list(
            Result.objects.filter(game__round=round_, state=ResultState.DRAFT)
            .select_related("game__round")
            .exclude(entered_by=actor)
            .exclude(game__in=own_games)
            .order_by("game__table")
        )
        now = timezone.now()
        Result.objects.filter(pk__in=[draft.pk for draft in drafts]).update(
            state=ResultState.CONFIRMED, confirmed_by=actor, confirmed_at=now
        )
        for draft in drafts:
            draft.state, draft.confirmed_by, draft.confirmed_at = ResultState.CONFIRMED, actor, now
        refresh_session_totals(round_.session)
        audit_record_many(
            actor=actor,
            action=AuditAction.RESULT_CONFIRMED,
            club=round_.session.club,
            entries=[
                (draft, {"game": draft.game_id, "version": draft.version}) for draft in drafts
            ],
        )
    return drafts
