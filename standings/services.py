"""Writes for the standings app: the ratings table (standings.models.GameRating), replayed from
the confirmed results by `standings.ratings`, never edited by hand.

- `ratings_update(session=...)`: a session's confirmed results changed; replays from it on.
  Registered with `games.hooks.register_results_changed`, so it runs inside the transaction of
  every service that confirms or corrects a result.
- `ratings_rebuild(club=..., actor=...)`: everything from scratch, with an audit entry
  (`manage.py ratings --rebuild`).
- `ratings_restore(club=...)`: after a backup is restored (ops.backup): from scratch, without
  an audit entry or a new pages version, since a restored club is its file, row for row.

Each first moves on the club's pages version (`club.services.pages_changed`): the ratings
are part of what the standings pages show, and on PostgreSQL that update holds the club row to
the end of the transaction, so two replays of one club take turns (the result services already
make the same update after their own locks, so no lock is taken out of order).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from club.models import Club, Session
from club.services import pages_changed
from core.audit import audit_record
from standings.audit import StandingsVerb
from standings.ratings import Replayed, replay_from


def ratings_update(*, session: Session) -> Replayed:
    """Replay the ratings of `session`'s club from `session` on (its results were confirmed or
    corrected), inside the caller's transaction."""
    with transaction.atomic():
        pages_changed(session.club_id)
        return replay_from(session.club_id, since=session)


def ratings_rebuild(*, club: Club, actor: AbstractBaseUser | None) -> Replayed:
    """Recompute every rating of the club from its confirmed results, and say so in the audit
    trail (games and rows replayed)."""
    with transaction.atomic():
        pages_changed(club.pk)
        replayed = replay_from(club.pk)
        audit_record(
            actor=actor,
            action=StandingsVerb.RATINGS_REBUILT,
            obj=club,
            club=club,
            data={"games": replayed.games, "rows": replayed.rows},
        )
    return replayed


def ratings_restore(*, club: Club) -> Replayed:
    """The ratings of a club whose rows were just restored from a backup, from scratch."""
    with transaction.atomic():
        return replay_from(club.pk)
