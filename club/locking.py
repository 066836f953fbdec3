"""The club's rows locked, first of all locks in the one written order (core.locking): the
club row, for anything club-wide, then the session, for anything inside a morning."""

from __future__ import annotations

from club.models import Club, Session
from core.locking import locked


def lock_club(club_id: int) -> Club:
    """The club row, locked: first of all locks, for anything club-wide (the side pots)."""
    return locked(Club.objects.all()).get(pk=club_id)


def lock_session(session_id: int) -> Session:
    """The session row, locked (with its club, not locked): what every change inside a morning
    takes before its own rows, so settling waits for it and it waits for settling."""
    return locked(Session.objects.select_related("club")).get(pk=session_id)
