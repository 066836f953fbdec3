"""Writes for check-ins and fees: checking players in (one, a new one, or several at once),
undoing a check-in, marking what a check-in owes paid or unpaid.

Terms: owed: the session's entry fee plus each jackpot's contribution, copied from the session's
rules at check-in (`CheckIn.owed_cents`). A player who arrives after rounds were drawn joins from
the next round (`CheckIn.from_round`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from club.audit import ClubVerb
from club.locking import lock_session
from club.models import CheckIn, Player, Session
from club.services.players import player_create
from club.services.sessions import session_require_open
from core.audit import audit_record, audit_record_many
from core.locking import locked


def _owed_data(checkin: CheckIn) -> dict:
    """What a check-in owes, for its audit entries: the fee, the jackpots' parts, the whole."""
    data = {"fee_cents": checkin.fee_cents, "owed_cents": checkin.owed_cents}
    if checkin.contributions:
        data["jackpots_cents"] = {str(hand): c for hand, c in checkin.contributions.items()}
    return data


def _check_may_check_in(session: Session, player: Player) -> None:
    if player.club_id != session.club_id:
        raise ValidationError({"player": f"{player} is not a player of {session.club}."})
    if not player.active:
        raise ValidationError({"player": f"{player} is marked inactive: make them active first."})


def _rounds_left_to_join(session: Session) -> int:
    """The rounds already drawn; refused when none is left for a newcomer to play in."""
    drawn = session.rounds.count()
    if drawn >= session.house_rules.rounds_per_session:
        raise ValidationError(
            {"player": f"All {drawn} rounds are drawn: there is no round left to play in."}
        )
    return drawn


def checkin_create(
    *,
    session: Session,
    actor: AbstractBaseUser | None,
    player: Player | None = None,
    new_player_name: str = "",
) -> CheckIn:
    """Check a player in (or add a new player and check them in, in one step).

    The fee owed comes from the session's rules. A player who arrives after rounds were drawn
    joins from the next round. Checking a player in twice is a ValidationError on `player`.
    """
    if (player is None) == (not new_player_name):
        raise TypeError("Give either an existing player or a new player's name.")
    with transaction.atomic():
        session = lock_session(session.pk)
        session_require_open(session)
        if player is None:
            player = player_create(club=session.club, actor=actor, display_name=new_player_name)
        else:
            _check_may_check_in(session, player)
        if CheckIn.objects.filter(session=session, player=player).exists():
            raise ValidationError({"player": f"{player} is already checked in."})
        drawn = _rounds_left_to_join(session)
        checkin = CheckIn(
            session=session,
            player=player,
            from_round=drawn + 1,
            checked_in_by=actor if actor is not None and actor.is_authenticated else None,
        )
        checkin.copy_owed(session.house_rules)
        checkin.full_clean(validate_constraints=False)
        try:
            with transaction.atomic():
                checkin.save()
        except IntegrityError:
            raise ValidationError({"player": f"{player} is already checked in."}) from None
        audit_record(
            actor=actor,
            action=ClubVerb.CHECKIN_CREATED,
            obj=checkin,
            club=session.club,
            data={
                "session": session.pk,
                "player": player.pk,
                **_owed_data(checkin),
                "from_round": checkin.from_round,
            },
        )
    return checkin


def checkins_create(
    *,
    session: Session,
    actor: AbstractBaseUser,
    players: Sequence[Player],
    paid: bool = False,
) -> list[CheckIn]:
    """Check several existing players in at once (the regulars arriving together), and with
    `paid` mark their fees taken by `actor`. All or nothing: a player of another club, an
    inactive player or one already checked in is a ValidationError naming them, and nothing is
    saved. The audit entries are the ones `checkin_create` and `fee_mark_paid` write one by one.
    """
    if paid and not (actor is not None and actor.is_authenticated):
        raise PermissionDenied("Log in to take fees.")
    with transaction.atomic():
        session = lock_session(session.pk)
        session_require_open(session)
        if paid:
            _refuse_fee_per_game(session)
        present = set(session.checkins.values_list("player_id", flat=True))
        for player in players:
            _check_may_check_in(session, player)
            if player.pk in present:
                raise ValidationError({"player": f"{player} is already checked in."})
            present.add(player.pk)
        drawn = _rounds_left_to_join(session)
        now = timezone.now()
        taker = actor if actor is not None and actor.is_authenticated else None
        checkins = [
            CheckIn(
                session=session,
                player=player,
                from_round=drawn + 1,
                checked_in_at=now,
                checked_in_by=taker,
                paid_at=now if paid else None,
                paid_by=taker if paid else None,
            )
            for player in players
        ]
        for checkin in checkins:
            checkin.copy_owed(session.house_rules)
        try:
            with transaction.atomic():
                checkins = CheckIn.objects.bulk_create(checkins)
        except IntegrityError:  # checked in by someone else meanwhile
            raise ValidationError(
                {"player": "Someone was checked in meanwhile: try again."}
            ) from None
        audit_record_many(
            actor=actor,
            action=ClubVerb.CHECKIN_CREATED,
            club=session.club,
            entries=[
                (
                    checkin,
                    {
                        "session": session.pk,
                        "player": checkin.player_id,
                        **_owed_data(checkin),
                        "from_round": checkin.from_round,
                    },
                )
                for checkin in checkins
            ],
        )
        if paid:
            audit_record_many(
                actor=actor,
                action=ClubVerb.FEE_PAID,
                club=session.club,
                entries=[
                    (checkin, {**_owed_data(checkin), "player": checkin.player_id})
                    for checkin in checkins
                ],
            )
    return checkins


def checkin_undo(*, checkin: CheckIn, actor: AbstractBaseUser | None) -> None:
    """Take back a check-in, allowed only while the player has no game in the session.

    A paid fee is recorded in the audit entry as handed back.
    """
    with transaction.atomic():
        lock_session(checkin.session_id)
        checkin = locked(CheckIn.objects.select_related("session", "player")).get(pk=checkin.pk)
        session_require_open(checkin.session)
        if checkin.player.seats.filter(game__session=checkin.session).exists():
            raise ValidationError(
                f"{checkin.player} already has a game this session: the check-in stays. If they "
                'are going home, choose "Leaves after round" on their row instead.'
            )
        # The fee per game's payments (money.models.FeePayment) name the check-in.
        if checkin.fee_payments.exists():
            raise ValidationError(
                f"{checkin.player} has paid toward the fees: undo the payments (hand the money "
                "back) first, then undo the check-in."
            )
        data = {
            "session": checkin.session_id,
            "player": checkin.player_id,
            **_owed_data(checkin),
            "fee_returned_cents": checkin.owed_cents if checkin.is_paid else 0,
        }
        audit_record(
            actor=actor,
            action=ClubVerb.CHECKIN_UNDONE,
            obj=checkin,
            club=checkin.session.club,
            data=data,
        )
        checkin.delete()


def _lock_checkin(checkin: CheckIn) -> CheckIn:
    """The check-in row, locked after its session, in an open session whose fee is per session
    (call inside a transaction); with the fee per game, money.fee_services takes payments."""
    lock_session(checkin.session_id)
    checkin = locked(CheckIn.objects.select_related("session")).get(pk=checkin.pk)
    session_require_open(checkin.session)
    _refuse_fee_per_game(checkin.session)
    return checkin


def _refuse_fee_per_game(session: Session) -> None:
    if session.house_rules.fee_per_game:
        raise ValidationError(
            "This session's fee is per game: take each player's money on their row (what they "
            "owe now, or an amount ahead)."
        )


def fee_mark_paid(*, checkin: CheckIn, actor: AbstractBaseUser) -> CheckIn:
    """Record that the whole amount owed (the fee and the jackpot contributions) was paid, who
    took it and when. Safe to run twice."""
    with transaction.atomic():
        checkin = _lock_checkin(checkin)
        if checkin.is_paid:
            return checkin
        checkin.paid_at = timezone.now()
        checkin.paid_by = actor
        checkin.save(update_fields=["paid_at", "paid_by"])
        audit_record(
            actor=actor,
            action=ClubVerb.FEE_PAID,
            obj=checkin,
            club=checkin.session.club,
            data={**_owed_data(checkin), "player": checkin.player_id},
        )
    return checkin


def fee_mark_unpaid(*, checkin: CheckIn, actor: AbstractBaseUser) -> CheckIn:
    """Undo a payment marked by mistake (the money handed back). Safe to run twice."""
    with transaction.atomic():
        checkin = _lock_checkin(checkin)
        if not checkin.is_paid:
            return checkin
        before = {"paid_at": checkin.paid_at, "paid_by": checkin.paid_by_id}
        checkin.paid_at = None
        checkin.paid_by = None
        checkin.save(update_fields=["paid_at", "paid_by"])
        audit_record(
            actor=actor,
            action=ClubVerb.FEE_UNPAID,
            obj=checkin,
            club=checkin.session.club,
            data={**_owed_data(checkin), "player": checkin.player_id, **before},
        )
    return checkin


# --- Leaving early and sitting out (docs/spec.md "A Thursday, step by step", step 7) ------------


def _drawn_count(session: Session) -> int:
    return session.rounds.count()


def _last_seated_round(checkin: CheckIn) -> int:
    """The latest round drawn with this player seated in it (0: none)."""
    numbers = checkin.player.seats.filter(game__session_id=checkin.session_id).values_list(
        "game__round__number", flat=True
    )
    return max(numbers, default=0)


def _absence_data(checkin: CheckIn) -> dict:
    return {
        "session": checkin.session_id,
        "player": checkin.player_id,
        "last_round": checkin.last_round,
        "sits_out": sorted(checkin.sits_out),
    }


def _lock_checkin_row(checkin: CheckIn) -> CheckIn:
    """The check-in (with its session and player), locked after its session, in an open
    session, as checkin_undo takes it."""
    lock_session(checkin.session_id)
    checkin = locked(CheckIn.objects.select_related("session__club", "player")).get(pk=checkin.pk)
    session_require_open(checkin.session)
    return checkin


def checkin_leaves_after(
    *, checkin: CheckIn, actor: AbstractBaseUser, round_number: int
) -> CheckIn:
    """Record that the player leaves after round `round_number`: no later round's draw seats
    him. The round may be one not drawn yet ("leaves after round 4", said at the door); it
    cannot be before a round he is already seated in (mark that game not played or a forfeit
    instead), before his first round, nor the session's last round (he plays them all)."""
    with transaction.atomic():
        checkin = _lock_checkin_row(checkin)
        planned = checkin.session.house_rules.rounds_per_session
        player = checkin.player
        if round_number < checkin.from_round:
            raise ValidationError(
                {
                    "round_number": f"{player} plays from round {checkin.from_round}: choose that "
                    "round or a later one, or undo the check-in."
                }
            )
        seated = _last_seated_round(checkin)
        if round_number < seated:
            raise ValidationError(
                {
                    "round_number": f"{player} is seated in round {seated}: he leaves after round "
                    f"{seated} at the earliest (a game he cannot finish is marked not played or "
                    "a forfeit on its game page)."
                }
            )
        if round_number >= planned:
            raise ValidationError(
                {
                    "round_number": f"Round {planned} is the session's last: {player} plays every "
                    "round. Choose an earlier round."
                }
            )
        before = checkin.last_round
        if before == round_number:
            return checkin
        checkin.last_round = round_number
        checkin.sits_out = [n for n in checkin.sits_out if n <= round_number]
        checkin.save(update_fields=["last_round", "sits_out"])
        audit_record(
            actor=actor,
            action=ClubVerb.CHECKIN_LEAVES,
            obj=checkin,
            club=checkin.session.club,
            data={**_absence_data(checkin), "before": before},
        )
    return checkin


def checkin_leaves_undo(*, checkin: CheckIn, actor: AbstractBaseUser) -> CheckIn:
    """Take back "leaves after round N" while the session is open: the next draw seats the
    player again; rounds already drawn without him stay as they are. Safe to run twice."""
    with transaction.atomic():
        checkin = _lock_checkin_row(checkin)
        if checkin.last_round is None:
            return checkin
        before = checkin.last_round
        checkin.last_round = None
        checkin.save(update_fields=["last_round"])
        audit_record(
            actor=actor,
            action=ClubVerb.CHECKIN_LEAVES_UNDONE,
            obj=checkin,
            club=checkin.session.club,
            data={**_absence_data(checkin), "before": before},
        )
    return checkin


def checkin_sits_out(*, checkin: CheckIn, actor: AbstractBaseUser, round_number: int) -> CheckIn:
    """Record that the player sits out round `round_number`, a round not drawn yet: its draw
    does not seat him, the next one does again. Several rounds may be sat out."""
    with transaction.atomic():
        checkin = _lock_checkin_row(checkin)
        session, player = checkin.session, checkin.player
        drawn = _drawn_count(session)
        planned = session.house_rules.rounds_per_session
        if round_number <= drawn:
            raise ValidationError(
                {
                    "round_number": f"Round {round_number} is already drawn: choose round "
                    f"{drawn + 1} or later (a game he cannot play is marked not played on its "
                    "game page)."
                }
            )
        if round_number > planned:
            raise ValidationError(
                {"round_number": f"The session has {planned} rounds: choose one of them."}
            )
        if round_number < checkin.from_round:
            raise ValidationError(
                {"round_number": f"{player} plays from round {checkin.from_round} anyway."}
            )
        if checkin.last_round is not None and round_number > checkin.last_round:
            raise ValidationError(
                {
                    "round_number": f"{player} leaves after round {checkin.last_round}: "
                    f"he is not drawn in round {round_number} anyway."
                }
            )
        if round_number in checkin.sits_out:
            return checkin
        checkin.sits_out = sorted([*checkin.sits_out, round_number])
        checkin.save(update_fields=["sits_out"])
        audit_record(
            actor=actor,
            action=ClubVerb.CHECKIN_SITS_OUT,
            obj=checkin,
            club=session.club,
            data={**_absence_data(checkin), "round": round_number},
        )
    return checkin


def checkin_sits_out_undo(
    *, checkin: CheckIn, actor: AbstractBaseUser, round_number: int
) -> CheckIn:
    """Take back "sits out round N" before that round is drawn. Safe to run twice."""
    with transaction.atomic():
        checkin = _lock_checkin_row(checkin)
        if round_number not in checkin.sits_out:
            return checkin
        if round_number <= _drawn_count(checkin.session):
            raise ValidationError(
                {
                    "round_number": f"Round {round_number} is already drawn without "
                    f"{checkin.player}: it stays so."
                }
            )
        checkin.sits_out = [n for n in checkin.sits_out if n != round_number]
        checkin.save(update_fields=["sits_out"])
        audit_record(
            actor=actor,
            action=ClubVerb.CHECKIN_SITS_OUT_UNDONE,
            obj=checkin,
            club=checkin.session.club,
            data={**_absence_data(checkin), "round": round_number},
        )
    return checkin
