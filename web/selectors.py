"""Reads of the web app: the login lock-outs an organiser may see and lift.

Terms (django-axes keeps the failed logins, `axes.models.AccessAttempt`, one row per username,
address and browser; config/settings.py's AXES_* settings say how they count):
- failures: the failed logins of one username from one address within the cool-off
  (`AXES_COOLOFF_TIME`) of now, summed over that address's browsers, as django-axes counts them.
- lock-out: a username and an address whose failures reached `AXES_FAILURE_LIMIT`: the username
  cannot log in from that address until the cool-off has passed since its last failure
  (`ends`), or until someone lifts it (web.services.lockout_lift).
- a club's lock-outs: those of the logins linked to the club's players (`Player.user`); a
  username no player of the club is linked to is none of the club's business.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.db.models import Max, Sum
from django.utils import timezone

from club.models import Club, Player


@dataclass(frozen=True)
class Lockout:
    username: str
    player: Player | None
    addresses: int  # how many addresses the username is locked out from
    failures: int  # failed logins within the cool-off, over those addresses
    ends: dt.datetime  # when the last of those lock-outs ends by itself


def cool_off() -> dt.timedelta:
    return get_cool_off() or dt.timedelta(0)


def _locked(usernames=None, ip_address: str | None = None) -> list[dict]:
    """Per username and address: failures and last failure, for those locked out now."""
    attempts = AccessAttempt.objects.filter(attempt_time__gte=timezone.now() - cool_off())
    if usernames is not None:
        attempts = attempts.filter(username__in=list(usernames))
    if ip_address is not None:
        attempts = attempts.filter(ip_address=ip_address)
    grouped = (
        attempts.values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
        .filter(failures__gte=get_failure_limit(None, None))
        .order_by("username", "ip_address")
    )
    return list(grouped)


def lockout_ends(username: str, ip_address: str | None) -> dt.datetime | None:
    """When the lock-out of `username` from that address ends, or None if there is none."""
    rows = _locked([username], ip_address)
    if not rows:
        return None
    return max(row["last"] for row in rows) + cool_off()


def _lockouts(rows: list[dict], players: dict[str, Player]) -> list[Lockout]:
    by_username: dict[str, list[dict]] = {}
    for row in rows:
        by_username.setdefault(row["username"], []).append(row)
    return [
        Lockout(
            username=username,
            player=players.get(username),
            addresses=len(found),
            failures=sum(row["failures"] for row in found),
            ends=max(row["last"] for row in found) + cool_off(),
        )
        for username, found in by_username.items()
    ]


def club_player_for_login(club: Club, username: str) -> Player | None:
    """The club's player linked to the login called `username` (exactly), if any."""
    return Player.objects.filter(club=club, user__username=username).select_related("user").first()


def club_lockouts(club: Club) -> list[Lockout]:
    """The current lock-outs of the logins linked to the club's players, by username."""
    players = {
        player.user.get_username(): player
        for player in Player.objects.filter(club=club, user__isnull=False).select_related("user")
    }
    return _lockouts(_locked(players), players)


def login_lockout(club: Club, username: str) -> Lockout | None:
    """The current lock-out of one of the club's logins, or None."""
    player = club_player_for_login(club, username)
    if player is None:
        return None
    found = _lockouts(_locked([username]), {username: player})
    return found[0] if found else None
