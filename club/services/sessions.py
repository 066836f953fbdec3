"""Writes for the club's sessions: opening one with a snapshot of the house rules, moving or
deleting one nobody has played in yet; and the check every app's services make of a session
(`session_require_open`)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from club.audit import ClubVerb
from club.locking import lock_session
from club.models import CheckIn, Club, Session, SessionKind
from club.rules import HouseRules
from club.services.clubs import pages_changed
from core.audit import audit_record
from core.locking import locked


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
    kind: str = SessionKind.CLUB,
    rules: HouseRules | None = None,
) -> Session:
    """Open a session for `date` with a snapshot of the club's house rules (one per date); a
    tournament's session (`kind`) is opened by its app with the `rules` it is played under."""
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
            kind=kind,
            rules=(rules or club.house_rules).snapshot(),
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
            data={
                "date": date,
                "starts_at": session.starts_at,
                "rules": session.rules,
                **({"kind": kind} if kind != SessionKind.CLUB else {}),
            },
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
