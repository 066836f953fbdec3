"""Writes for the club app: house rules, players, sessions, check-ins and fees.

Every service takes keyword arguments, validates with `full_clean()`, saves inside
`transaction.atomic`, and records one audit entry in the same transaction. `actor` is the user who
made the change (None for the system itself, e.g. a data migration).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from club.audit import ClubVerb
from club.locking import lock_session
from club.models import CheckIn, Club, Player, Session
from core.audit import audit_record, audit_record_many, plain
from core.locking import locked

PLAYER_FIELDS = ("display_name", "nickname", "user", "active", "joined")


def pages_changed(club_id: int) -> None:
    """Mark the club's public pages (standings, results, player pages) stale: visitors' cached
    copies are keyed by the club's pages version (core.pages), which this moves on. Every
    service that changes results, money, names or the rules calls it, in its transaction."""
    Club.pages_changed(club_id)


def _changes(before: dict, after: dict) -> dict:
    return {
        field: {"before": plain(before[field]), "after": plain(after[field])}
        for field in after
        if before.get(field) != after[field]
    }


def club_create(*, actor: AbstractBaseUser | None, name: str, slug: str, **rules: Any) -> Club:
    with transaction.atomic():
        club = Club(name=name, slug=slug, **rules)
        club.full_clean()
        club.save()
        audit_record(
            actor=actor,
            action=ClubVerb.CLUB_CREATED,
            obj=club,
            club=club,
            data={"house_rules": club.house_rules.snapshot()},
        )
    return club


def club_update_rules(*, club: Club, actor: AbstractBaseUser | None, **changes: Any) -> Club:
    """Change a club's house rules (and meeting details); logs before/after of what changed.

    Raises ValidationError naming the field when a value is not allowed; nothing is saved then.
    """
    unknown = set(changes) - set(Club.EDITABLE_FIELDS)
    if unknown:
        raise TypeError(f"Not a house rule: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        row = locked(Club.objects.all()).get(pk=club.pk)
        before = {field: getattr(row, field) for field in changes}
        for field, value in changes.items():
            setattr(row, field, value)
        row.full_clean()
        diff = _changes(before, {field: getattr(row, field) for field in changes})
        if diff:
            row.save(update_fields=list(diff))
            pages_changed(row.pk)
            audit_record(
                actor=actor,
                action=ClubVerb.CLUB_RULES_CHANGED,
                obj=row,
                club=row,
                data=diff,
            )
    for field in changes:
        setattr(club, field, getattr(row, field))
    return row


def player_create(
    *,
    club: Club,
    actor: AbstractBaseUser | None,
    display_name: str,
    nickname: str = "",
    user: AbstractBaseUser | None = None,
    active: bool = True,
    joined: dt.date | None = None,
) -> Player:
    """Add a player to a club. A clashing name is a ValidationError on `display_name`."""
    with transaction.atomic():
        player = Player(
            club=club,
            display_name=display_name,
            nickname=nickname,
            user=user,
            active=active,
        )
        if joined is not None:
            player.joined = joined
        player.full_clean()
        try:
            with transaction.atomic():
                player.save()
        except IntegrityError:
            # Another add of the same name (or login) committed after our check: checking again
            # now sees it and names the field; anything else is a broken invariant.
            player.full_clean()
            raise
        pages_changed(club.pk)
        audit_record(
            actor=actor,
            action=ClubVerb.PLAYER_CREATED,
            obj=player,
            club=club,
            data={field: plain(getattr(player, field)) for field in PLAYER_FIELDS},
        )
    return player


def player_update(*, player: Player, actor: AbstractBaseUser | None, **changes: Any) -> Player:
    """Change a player's details (name, nickname, login, active flag, joined date)."""
    unknown = set(changes) - set(PLAYER_FIELDS)
    if unknown:
        raise TypeError(f"Not a player field: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        row = locked(Player.objects.all()).get(pk=player.pk)
        _refuse_unlinking_oneself(row, actor, changes)
        before = {field: getattr(row, field) for field in changes}
        for field, value in changes.items():
            setattr(row, field, value)
        row.full_clean()
        diff = _changes(before, {field: getattr(row, field) for field in changes})
        if diff:
            row.save(update_fields=list(diff))
            pages_changed(row.club_id)
            audit_record(
                actor=actor,
                action=ClubVerb.PLAYER_CHANGED,
                obj=row,
                club=row.club,
                data=diff,
            )
    return row


def _refuse_unlinking_oneself(row: Player, actor, changes: dict) -> None:
    """Nobody takes their own login off their own player record: it is what makes them a member
    (and an organiser) of this club, and without it the login would belong nowhere."""
    if "user" not in changes or actor is None or row.user_id is None or row.user_id != actor.pk:
        return
    new_user = changes["user"]
    if new_user is None or new_user.pk != actor.pk:
        raise ValidationError(
            {
                "user": "This is your own login: you cannot unlink it or give your player record "
                "another one. Ask another organiser if it must change."
            }
        )


def passes(check, *args) -> bool:
    """Whether a service's own check (which raises PermissionDenied or ValidationError) passes:
    for pages deciding which buttons to show; the service still decides when it runs."""
    try:
        check(*args)
    except (PermissionDenied, ValidationError):
        return False
    return True


def session_require_open(session: Session) -> None:
    """Refuse any change to a settled session (check-ins, draws, results, claims)."""
    if not session.is_open:
        raise ValidationError(
            f"The session of {session.date:%d %b %Y} is settled: nothing in it can change "
            "unless an organiser reopens it."
        )


def session_open(
    *,
    club: Club,
    actor: AbstractBaseUser | None,
    date: dt.date,
    starts_at: dt.time | None = None,
) -> Session:
    """Open a session for `date` with a snapshot of the club's house rules (one per date)."""
    with transaction.atomic():
        # Re-read the club, locked, so the snapshot is of the rules as they stand now.
        club = locked(Club.objects.all()).get(pk=club.pk)
        if Session.objects.filter(club=club, date=date).exists():
            raise ValidationError(
                {"date": f"There is already a session on {date:%A %d %B %Y}: open that one."}
            )
        session = Session(
            club=club,
            date=date,
            starts_at=starts_at or club.session_start,
            rules=club.house_rules.snapshot(),
            opened_by=actor if actor is not None and actor.is_authenticated else None,
        )
        session.full_clean()
        try:
            with transaction.atomic():
                session.save()
        except IntegrityError:
            raise ValidationError(
                {"date": f"There is already a session on {date:%A %d %B %Y}: open that one."}
            ) from None
        audit_record(
            actor=actor,
            action=ClubVerb.SESSION_OPENED,
            obj=session,
            club=club,
            data={"date": date, "starts_at": session.starts_at, "rules": session.rules},
        )
    return session


def _lock_unplayed_session(session: Session, doing: str) -> Session:
    """The session row, locked, refused once a round is drawn (call inside a transaction)."""
    session = lock_session(session.pk)
    session_require_open(session)
    if session.rounds.exists():
        raise ValidationError(
            f"Round 1 of this session is drawn: it can no longer be {doing}. "
            "Results, standings and money depend on its date now."
        )
    return session


def session_redate(*, session: Session, actor: AbstractBaseUser | None, date: dt.date) -> Session:
    """Move a session nobody has played in yet to another date (a mistyped year, a snowed-out
    Thursday). The house rules it was opened under stay."""
    with transaction.atomic():
        session = _lock_unplayed_session(session, "moved")
        before = session.date
        if date == before:
            return session
        if Session.objects.filter(club_id=session.club_id, date=date).exists():
            raise ValidationError({"date": f"There is already a session on {date:%A %d %B %Y}."})
        session.date = date
        session.full_clean(exclude=["club", "opened_by", "rules"])
        session.save(update_fields=["date"])
        pages_changed(session.club_id)
        audit_record(
            actor=actor,
            action=ClubVerb.SESSION_REDATED,
            obj=session,
            club=session.club,
            data={"from": before.isoformat(), "to": date.isoformat()},
        )
    return session


def session_delete(*, session: Session, actor: AbstractBaseUser | None) -> dict:
    """Delete a session nobody has played in yet, with its check-ins; what it held (the players
    checked in, the fees to hand back) stays in the audit entry, which is returned."""
    with transaction.atomic():
        session = _lock_unplayed_session(session, "deleted")
        checkins = list(session.checkins.select_related("player").order_by("pk"))
        data = {
            "date": session.date.isoformat(),
            "players": [checkin.player.display_name for checkin in checkins],
            "fees_returned_cents": sum(c.owed_cents for c in checkins if c.is_paid),
        }
        audit_record(
            actor=actor, action=ClubVerb.SESSION_DELETED, obj=session, club=session.club, data=data
        )
        CheckIn.objects.filter(session=session).delete()
        club_id = session.club_id
        try:
            session.delete()
        except ProtectedError:
            raise ValidationError(
                "This session has money records (it was settled once): it cannot be deleted."
            ) from None
        pages_changed(club_id)
    return data


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
