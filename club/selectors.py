"""Reads for the club app: which club a request is about, its next session, players, audit,
sessions and their check-ins and fees, and the wrong table PINs (a player's that count for the
next try's wait, and a session's for its organisers).

Terms: the current club is the club of the logged-in user's player record; for anyone else it is the
club named by PEGBOARD_DEFAULT_CLUB (a slug), or else the first club on the site.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    Max,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    When,
)
from django.db.models.functions import Coalesce, Lower
from django.http import HttpRequest
from django.utils import timezone

from club.backends import MEMBER_CACHE
from club.models import CheckIn, Club, LoginLink, Player, Session, SessionState, WrongPin
from club.money import owed_cents_expression
from club.names import player_name_of
from club.pin_waits import PIN_MEMORY_DAYS, wait_after
from core.compiled_reads import compiled_once
from core.models import AuditEntry
from core.plain_reads import column, first_read, quoted


def club_for_user(user) -> Club | None:
    """The club of the user's player record, or None. The record found is the login's one
    (club.backends: linked in one club at most), which its permissions then ask for: kept on
    the user object, so they do not read it again.

    Asked on every member's request: a plain statement, as `visitors_club`'s is, since the
    ORM's building of it cost several times what the database took to answer."""
    if not user.is_authenticated:
        return None
    club = first_read(Club, _member_club_sql(), [user.pk])
    setattr(user, MEMBER_CACHE, club.member_player_id if club is not None else None)
    return club


def default_club() -> Club | None:
    """The club anonymous visitors see: the one PEGBOARD_DEFAULT_CLUB names, else the first."""
    chosen = settings.PEGBOARD_DEFAULT_CLUB or ""
    return first_read(Club, _default_club_sql(f"{quoted(Club)}.*"), [chosen, chosen])


@cache
def _member_club_sql() -> str:
    """Every column of the club of a login's player record, and the record's key as
    `member_player_id`; the login's key its parameter."""
    return (  # names quoted, the value a parameter
        f"SELECT {quoted(Club)}.*, {column(Player, 'id')} AS member_player_id "
        f"FROM {quoted(Player)} INNER JOIN {quoted(Club)} "
        f"ON {column(Player, 'club')} = {column(Club, 'id')} "
        f"WHERE {column(Player, 'user')} = %s "
        # One record at most (the constraint player_one_per_login): nothing else to order.
        f"ORDER BY {column(Player, 'id')} LIMIT 1"
    )


@cache
def _default_club_sql(columns: str) -> str:
    """`columns` of the club `default_club` chooses, through both indexes (the slug's, the
    key's); the chosen slug its two parameters."""
    table, slug, key = quoted(Club), quoted(Club, "slug"), quoted(Club, "id")
    return (  # names quoted, the values parameters
        f"SELECT {columns} FROM {table} "
        f"WHERE {slug} = %s OR {key} = (SELECT MIN({key}) FROM {table}) "
        f"ORDER BY CASE WHEN {slug} = %s THEN 0 ELSE 1 END LIMIT 1"
    )


@dataclass(frozen=True)
class VisitorsClub:
    """What the visitors' cache needs of the club visitors see: the key of its pages' copies and
    whether they are public."""

    pk: int
    pages_version: int
    standings_public: bool

    pages_label = Club._meta.label_lower


def visitors_club() -> VisitorsClub | None:
    """The club anonymous visitors see (`default_club`'s choice), read in one plain query.

    Asked on every visitor's request before the cached copy is served: built by the ORM, the
    query cost several times what the database took to answer it and most of a cached page's
    time; this one reads three columns through both indexes (the slug's, the key's)."""
    columns = ", ".join(quoted(Club, name) for name in ("id", "pages_version", "standings_public"))
    chosen = settings.PEGBOARD_DEFAULT_CLUB or ""
    with connection.cursor() as cursor:
        cursor.execute(_default_club_sql(columns), [chosen, chosen])
        row = cursor.fetchone()
    return None if row is None else VisitorsClub(row[0], row[1], bool(row[2]))


def current_club(request: HttpRequest) -> Club | None:
    """The club this request is about; computed once per request."""
    if not hasattr(request, "_pegboard_club"):
        request._pegboard_club = club_for_user(request.user) or default_club()
    return request._pegboard_club


@dataclass(frozen=True)
class NextSession:
    starts: dt.datetime
    ends: dt.datetime
    in_progress: bool

    @property
    def day(self) -> dt.date:
        return self.starts.date()

    @property
    def is_today(self) -> bool:
        return self.day == timezone.localdate()


def next_session(club: Club, now: dt.datetime | None = None) -> NextSession:
    """The club's next meeting (or the one in progress), in the site's time zone."""
    now = timezone.localtime(now)
    days_ahead = (club.session_weekday - now.weekday()) % 7
    day = now.date() + dt.timedelta(days=days_ahead)
    tz = now.tzinfo
    starts = dt.datetime.combine(day, club.session_start, tzinfo=tz)
    ends = dt.datetime.combine(day, club.session_end, tzinfo=tz)
    if ends <= now:
        starts += dt.timedelta(days=7)
        ends += dt.timedelta(days=7)
    return NextSession(starts=starts, ends=ends, in_progress=starts <= now < ends)


def banner_session(club: Club, today: dt.date | None = None) -> Session | None:
    """The open session the home page's "next session" banner links to: the club's earliest
    open session dated today or later (a session moved off the club's usual day too), or None."""
    today = today or timezone.localdate()
    return (
        Session.objects.filter(club=club, state=SessionState.OPEN, date__gte=today)
        .order_by("date")
        .first()
    )


def club_players(club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).select_related("user")


def club_audit_entries(club: Club) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(club=club).select_related("actor", "content_type")


@dataclass(frozen=True)
class FeeTotals:
    collected_cents: int
    owed_cents: int
    players: int
    paid: int


def session_fee_totals(session, checkins=None) -> FeeTotals:
    """What the check-ins of a session paid (marked paid) and still owe, each the fee plus the
    jackpot contributions (`CheckIn.owed_cents`). `checkins`: the session's, when the caller
    has read them already (the session page's rows); else they are read."""
    if checkins is None:
        checkins = CheckIn.objects.filter(session=session)
    paid = [checkin.owed_cents for checkin in checkins if checkin.is_paid]
    unpaid = [checkin.owed_cents for checkin in checkins if not checkin.is_paid]
    return FeeTotals(
        collected_cents=sum(paid),
        owed_cents=sum(unpaid),
        players=len(paid) + len(unpaid),
        paid=len(paid),
    )


def session_checkins(session) -> list[CheckIn]:
    """The session's check-ins by name, with their players and who took the fee. Whether each
    player has a seat (and so can no longer be undone) the session page reads with its rounds
    (web.round_lines.seated_players)."""
    return _checkins_by_name(session.pk, session.club_id)


@compiled_once
def _checkins_by_name(session_id: int, club_id: int):
    return (
        CheckIn.objects.filter(session_id=session_id)
        .select_related("player", "paid_by")
        .annotate(paid_by_name=player_name_of("paid_by", club_id))  # "Paid to <name>"
        .order_by(Lower("player__display_name"))
    )


def checkin_candidates(session) -> list[Player]:
    """Active players of the club not yet checked in: the type-ahead's names."""
    return _not_checked_in(session.club_id, session.pk)


@compiled_once
def _not_checked_in(club_id: int, session_id: int):
    return (
        Player.objects.filter(club_id=club_id, active=True)
        .exclude(checkins__session_id=session_id)
        .order_by(Lower("display_name"))
    )


def club_sessions(club: Club) -> QuerySet[Session]:
    """The club's sessions with players, rounds and fees collected, each counted by a subquery."""
    checkins = CheckIn.objects.filter(session=OuterRef("pk")).order_by().values("session")
    paid = checkins.filter(paid_at__isnull=False)
    # With the fee per game, what was taken is the check-ins' payments less the change given
    # back (money.FeePayment rows, read by their reverse name: club sits below money).
    payments = Sum(
        Case(
            When(fee_payments__kind="change", then=-F("fee_payments__cents")),
            default=F("fee_payments__cents"),
            output_field=IntegerField(),
        )
    )
    return (
        Session.objects.filter(club=club)
        .annotate(
            players=Coalesce(Subquery(checkins.annotate(n=Count("pk")).values("n")), 0),
            collected_cents=Coalesce(
                Subquery(paid.annotate(total=Sum(owed_cents_expression())).values("total")), 0
            )
            + Coalesce(Subquery(checkins.annotate(total=payments).values("total")), 0),
            rounds_drawn=Count("rounds", distinct=True),
        )
        .order_by("-date")
    )


def next_session_date(club: Club, today: dt.date | None = None) -> dt.date:
    """The default date for a new session: the club's next meeting day (today if it is one)."""
    today = today or timezone.localdate()
    return today + dt.timedelta(days=(club.session_weekday - today.weekday()) % 7)


# --- Logins and PINs (club.services writes them) --------------------------------------------------


def login_link_live(user) -> LoginLink | None:
    """The login's live one-time link (at most one: a newer one revokes the older), or None."""
    if user is None:
        return None
    return (
        LoginLink.objects.filter(
            user=user, used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
        )
        .select_related("created_by")
        .first()
    )


def username_suggestion(display_name: str) -> str:
    """A free username made from a player's name: "Olive Ashdown" -> "olive.ashdown" (accents
    dropped, other characters left out), with 2, 3, ... added when it is taken."""
    ascii_name = unicodedata.normalize("NFKD", display_name).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_name.lower())
    base = ".".join(words)[:140] or "player"
    taken = set(
        get_user_model()
        .objects.filter(username__istartswith=base)
        .values_list(Lower("username"), flat=True)
    )
    candidate, number = base, 1
    while candidate in taken:
        number += 1
        candidate = f"{base}{number}"
    return candidate


@dataclass(frozen=True)
class PinTries:
    """A player's counted wrong PINs (club.pin_waits): how many, the last, and until when the
    next try must wait (None: it may be tried now)."""

    wrong: int
    last: dt.datetime | None
    next_try: dt.datetime | None


def pin_tries(player: Player, *, now: dt.datetime | None = None) -> PinTries:
    """The wrong PINs that count for `player` at `now`: within the last PIN_MEMORY_DAYS and
    since their PIN was set."""
    now = now or timezone.now()
    counted = WrongPin.objects.filter(
        player=player, typed_at__gt=now - dt.timedelta(days=PIN_MEMORY_DAYS)
    )
    if player.pin_set_at is not None:
        counted = counted.filter(typed_at__gte=player.pin_set_at)
    found = counted.aggregate(wrong=Count("pk"), last=Max("typed_at"))
    wrong, last = found["wrong"], found["last"]
    ends = last + dt.timedelta(seconds=wait_after(wrong)) if last is not None else None
    return PinTries(wrong=wrong, last=last, next_try=ends if ends and ends > now else None)


@dataclass(frozen=True)
class SessionWrongPins:
    """The wrong PINs typed for one player at a table in one session."""

    player: Player
    count: int
    last: dt.datetime
    new_pin_since: bool  # a PIN was set (or removed) after the last of them


@compiled_once
def _wrong_pins_by_player(session_id: int):
    return (
        WrongPin.objects.filter(session_id=session_id)
        .values("player")
        .annotate(count=Count("pk"), last=Max("typed_at"))
        .order_by("-last", "player")
    )


def session_wrong_pins(session: Session) -> list[SessionWrongPins]:
    """Each player whose PIN was typed wrong at a table in `session`, the latest first."""
    rows = _wrong_pins_by_player(session.pk)
    players = Player.objects.in_bulk([row["player"] for row in rows])
    return [
        SessionWrongPins(
            player=players[row["player"]],
            count=row["count"],
            last=row["last"],
            new_pin_since=(
                players[row["player"]].pin_set_at is not None
                and players[row["player"]].pin_set_at > row["last"]
            ),
        )
        for row in rows
    ]
