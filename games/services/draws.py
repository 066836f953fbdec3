"""Writes of the draw: drawing the next round, swapping two players' seats by hand, and
withdrawing a round drawn by mistake. The bridge between the models and the pure draw
(`games.draw`): earlier rounds go in as plain tables, the chosen tables come back and are saved.

Terms: a round's *entrants* are the checked-in, active players who play in it (arrived by
then, not left after an earlier round, not sitting it out); the
*draw history* is who met whom earlier this session and this season (the club's season:
club.seasons). A round is *held* once a result is entered at one of its tables or an app above
attaches something to them (scoring's claims, through games.hooks' round guards): then its seats
stay as they are and it is not withdrawn; a later round drawn from it holds its seats too.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q

from club.locking import lock_session
from club.models import CheckIn, Player, Session
from club.seasons import in_season
from club.services import session_require_open
from core.audit import audit_record
from core.locking import locked
from core.submissions import AlreadySaved, label_of, spend_token
from games.audit import GameVerb
from games.draw import Draw, DrawError, DrawHistory, DrawTable, draw_round
from games.hooks import round_holds
from games.models import Game, Result, Round, Seat, TableCard, TableKind, new_table_token
from games.services.results import lock_round

KIND_OF_TABLE = {"two": TableKind.TWO, "three": TableKind.THREE, "partners": TableKind.PARTNERS}
WITHDRAW_PERMISSION = "games.delete_round"


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
    """Who has met whom this session, and earlier in the club's season (club.seasons, not
    the calendar year: a season from 1 September holds last October's sessions)."""
    club = session.club
    this_session = Round.objects.filter(session=session)
    season = Round.objects.filter(
        in_season(club, club.season_of(session.date), "session__date"),
        session__club=club,
        session__date__lt=session.date,
    )
    return DrawHistory.from_rounds(_tables_of(this_session), _tables_of(season))


def round_entrants(session: Session, number: int) -> list[int]:
    """Player ids of everyone checked in who plays in round `number`: arrived by then, not
    gone (`CheckIn.last_round`: leaves after that round), not sitting it out."""
    checkins = CheckIn.objects.filter(
        Q(last_round__isnull=True) | Q(last_round__gte=number),
        session=session,
        from_round__lte=number,
        player__active=True,
    ).values_list("player_id", "sits_out")
    return [player_id for player_id, sits_out in checkins if number not in (sits_out or [])]


def _save_draw(*, session: Session, number: int, draw: Draw, actor) -> Round:
    round_ = Round(session=session, number=number, seed=draw.seed, mode=draw.mode, drawn_by=actor)
    round_.full_clean(validate_constraints=False)
    round_.save()
    _save_tables(round_, draw.tables)
    return round_


def _save_tables(round_: Round, tables: Sequence[DrawTable]) -> None:
    tokens = [new_table_token() for _ in tables]
    # A game's token must not be a table card's (one `/t/<token>/` resolver tells them apart):
    # one query, and a new draw of the tokens in the unheard-of case.
    while TableCard.objects.filter(token__in=tokens).exists():
        tokens = [new_table_token() for _ in tables]
    games = Game.objects.bulk_create(
        Game(
            session=round_.session,
            round=round_,
            table=table.number,
            kind=KIND_OF_TABLE[table.kind],
            table_token=token,
        )
        for table, token in zip(tables, tokens, strict=True)
    )
    seats = []
    for game, table in zip(games, tables, strict=True):
        side_of = {player: side for side, members in enumerate(table.sides()) for player in members}
        seats.extend(
            Seat(game=game, round=round_, player_id=player, position=position, side=side_of[player])
            for position, player in enumerate(table.seats)
        )
    Seat.objects.bulk_create(seats)


def round_draw(
    *,
    session: Session,
    actor: AbstractBaseUser,
    seed: int | None = None,
    expected_number: int | None = None,
) -> Round:
    """Draw the next round: seat every checked-in active player (see games.draw for how).

    `expected_number` is the round the caller means to draw (the draw button says it): when the
    session has that round already (a second press, two organisers at once), nothing is drawn
    and AlreadySaved names it. Without it the next round is drawn, whatever its number.
    """
    with transaction.atomic():
        session = lock_session(session.pk)
        session_require_open(session)
        if session.is_tournament:
            raise ValidationError(
                "This session is a tournament's: its rounds are drawn on the tournament's page."
            )
        rules = session.house_rules
        number = session.rounds.count() + 1
        if expected_number is not None and expected_number != number:
            _refuse_unexpected(session, expected_number, number)
        planned = rules.rounds_per_session
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
                mode=rules.table_mode,
                seed=seed,
                history=draw_history(session),
                rounds_remaining=planned - number + 1,
            )
        except DrawError as error:
            raise ValidationError(str(error)) from None
        round_ = _save_draw(session=session, number=number, draw=draw, actor=actor)
        _audit_drawn(
            round_,
            actor=actor,
            seed=seed,
            mode=draw.mode,
            tables=draw.tables,
            session_repeats=draw.session_repeats,
            season_repeats=draw.season_repeats,
        )
    return round_


def _audit_drawn(
    round_: Round, *, actor, seed: int, mode: str, tables: Sequence[DrawTable], **more
) -> None:
    """The audit entry of a round drawn or seated: its seed, mode and tables (and `more`)."""
    audit_record(
        actor=actor,
        action=GameVerb.ROUND_DRAWN,
        obj=round_,
        club=round_.session.club,
        data={
            "session": round_.session_id,
            "round": round_.number,
            "seed": seed,
            "mode": mode,
            "tables": [list(table.seats) for table in tables],
            **more,
        },
    )


def round_seat(
    *,
    session: Session,
    actor: AbstractBaseUser | None,
    tables: Sequence[DrawTable],
    mode: str,
    seed: int,
    into: Round | None = None,
) -> Round:
    """Save the next round of `session` with tables an app above chose (a tournament's
    qualifying pairing, a round of playoff games), its games and seats, audited as a draw; with
    `into`, add the tables to that round of the session instead. The caller holds a lock that
    keeps two of these apart and has checked that the tables may be seated."""
    if into is not None:
        round_ = into
        _save_tables(round_, tables)
    else:
        number = session.rounds.count() + 1
        draw = Draw(seed=seed, mode=mode, tables=tuple(tables), session_repeats=0, season_repeats=0)
        round_ = _save_draw(session=session, number=number, draw=draw, actor=actor)
    _audit_drawn(
        round_,
        actor=actor,
        seed=seed,
        mode=mode,
        tables=tables,
        table_numbers=[table.number for table in tables],
    )
    return round_


def _refuse_unexpected(session: Session, expected: int, number: int) -> None:
    """The round asked for is not the next one: drawn already (a no-op), or not yet reachable."""
    drawn = session.rounds.filter(number=expected).first()
    if drawn is not None:
        raise AlreadySaved(f"Round {expected} is already drawn.", made=label_of(drawn))
    raise ValidationError(
        f"Round {number} is the next to draw, not round {expected}: reload the page."
    )


def round_swap_seats(
    *, round_: Round, player_a: Player, player_b: Player, actor: AbstractBaseUser, token: str = ""
) -> Round:
    """Swap two players' seats by hand, allowed until the round is held (a result or a claim at
    one of its tables) and until a later round is drawn (its draw read these seats as who met
    whom). The same form posted twice swaps once (`token`: core.submissions), instead of
    swapping them back."""
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        round_ = lock_round(round_)
        session_require_open(round_.session)
        refusal = swap_refusal(round_)
        if refusal:
            raise ValidationError(refusal)
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
            action=GameVerb.SEATS_SWAPPED,
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


def _holds(round_: Round) -> list[str]:
    """What holds the round's seats: a result at one of its tables, and what the apps above
    attach to them (games.hooks), one sentence each."""
    holds = []
    if Result.objects.filter(game__round=round_).exists():
        holds.append(f"A result of round {round_.number} is already entered")
    return holds + round_holds(round_)


def _later_round(round_: Round) -> Round | None:
    return (
        Round.objects.filter(session_id=round_.session_id, number__gt=round_.number)
        .order_by("-number")
        .first()
    )


def swap_refusal(round_: Round) -> str | None:
    """Why the round's seats can no longer be swapped by hand, or None (docs/spec.md "A
    Thursday, step by step", step 3). The session being settled is session_require_open's to say."""
    later = _later_round(round_)
    if later is not None:
        return (
            f"Round {later.number} is already drawn, and its draw went by these seats: seats of "
            f"round {round_.number} can no longer be swapped."
        )
    holds = _holds(round_)
    if holds:
        return f"{holds[0]}: seats can no longer be swapped."
    return None


def withdraw_refusal(round_: Round) -> str | None:
    """Why the round can no longer be withdrawn, or None: only the session's latest round, and
    only while none of its games has a result or a claim."""
    later = _later_round(round_)
    if later is not None:
        return (
            f"Only the latest round can be withdrawn: round {later.number} is drawn after "
            f"round {round_.number}."
        )
    holds = _holds(round_)
    if holds:
        return f"{holds[0]}: round {round_.number} can no longer be withdrawn."
    return None


def round_withdraw(*, round_: Round, actor: AbstractBaseUser, token: str = "") -> Session:
    """Withdraw a round drawn by mistake: its games and seats are deleted, so the next draw draws
    its number again, and the draw history, the standings and the live board never see it.

    By an organiser, in an open session, only the latest round, only while none of its games
    has a result or claim (`withdraw_refusal`). The audit entry keeps the round's number, seed,
    mode and tables, so the withdrawn draw can still be replayed. Late arrivals checked in to
    play from the next round play from this number again. The same form posted twice
    withdraws once (`token`: core.submissions). Returns the session.
    """
    if not actor.has_perm(WITHDRAW_PERMISSION):
        raise PermissionDenied("Only an organiser withdraws a round.")
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        session = lock_session(round_.session_id)
        round_ = locked(Round.objects.filter(session=session)).filter(pk=round_.pk).first()
        if round_ is None:
            raise ValidationError("This round is withdrawn already.")
        session_require_open(session)
        refusal = withdraw_refusal(round_)
        if refusal:
            raise ValidationError(refusal)
        list(locked(Game.objects.filter(round=round_)).values_list("pk", flat=True))
        [tables] = _tables_of(Round.objects.filter(pk=round_.pk)) or [[]]
        late = CheckIn.objects.filter(session=session, from_round__gt=round_.number)
        late_players = sorted(late.values_list("player_id", flat=True))
        late.update(from_round=round_.number)
        audit_record(
            actor=actor,
            action=GameVerb.ROUND_WITHDRAWN,
            obj=round_,
            club=session.club,
            data={
                "session": session.pk,
                "round": round_.number,
                "seed": round_.seed,
                "mode": round_.mode,
                "drawn_at": round_.drawn_at,
                "drawn_by": round_.drawn_by_id,
                "tables": [list(table.seats) for table in tables],
                "late_arrivals": late_players,
            },
        )
        Seat.objects.filter(round=round_).delete()
        Game.objects.filter(round=round_).delete()
        round_.delete()
    return session
