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
                f"{checkin.player} already has a game this session: the check-in stays."
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
    """The check-in row, locked after its session, in an open session (call inside a
    transaction)."""
    lock_session(checkin.session_id)
    checkin = locked(CheckIn.objects.select_related("session")).get(pk=checkin.pk)
    session_require_open(checkin.session)
    return checkin


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
