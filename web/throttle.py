"""Failed logins per address, whatever the username, beside django-axes' lock-out of one login
from one address (web.selectors).

Terms:
- address: the client's address as django-axes resolves it (`request.axes_ip_address`, from
  `client_address`): the connection's own address, or behind PEGBOARD_PROXIES trusted proxies
  the address the outermost of them saw.
- failure: a login refused after its password was checked (a wrong password, or a username
  nobody has: Django hashes the password then too, so that both take as long). A login refused
  by a lock-out or by the address limit checks no password and is no failure.
- window: PEGBOARD_ADDRESS_WINDOW (ten minutes). Failures are counted in fixed windows (9:30 to
  9:40, 9:40 to 9:50...); an address's failures "within the last window" are those of the
  current one plus those of the one before, weighted by the share of it still within the last
  window. So the limit slides with the clock: a burst at a window's edge gets no fresh thirty.
- address limit: PEGBOARD_ADDRESS_FAILURE_LIMIT (thirty). Once an address's failures within the
  last window reach it, every login from that address is refused, before any password is
  checked, until enough of them have slid out of the window (`address_refused_until`). It ends
  by itself within minutes; nobody lifts it (the address may be a venue's, shared with whoever
  is guessing).

The counters live in Django's cache, changed with `add` and `incr` (atomic in the cache backends
several processes share, Redis's included), so every app server that shares the cache counts
together. A refusal reads the cache only: it costs neither a password hash nor a query. A cache
that does not answer (core.shared_cache) counts nothing and refuses nothing: the lock-out of
one login from one address, kept in the database, still holds.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import math

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.utils import timezone

from core.shared_cache import cache_count, cache_get_many

KEY_PREFIX = "pegboard:login-failures"


def client_address(request) -> str | None:
    """The address a request comes from (django-axes' AXES_CLIENT_IP_CALLABLE). Behind
    PEGBOARD_PROXIES proxies, each of which appends the address it was reached from to
    X-Forwarded-For, the client's is that many entries from the right: entries to its left are
    the client's own to write. A header with fewer entries, or an entry that is no address,
    means the proxies are not the ones configured: the connection's address is used then."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.PEGBOARD_PROXIES
    if not proxies:
        return remote
    entries = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(entries) < proxies or not entries[-proxies]:
        return remote
    try:
        return str(ipaddress.ip_address(entries[-proxies]))
    except ValueError:
        return remote


def seconds_refused(
    *, current: int, previous: int, elapsed: float, window: float, limit: int
) -> float | None:
    """How long from now an address stays refused, None if it is not: `current` failures in the
    window that began `elapsed` seconds ago, `previous` in the one before (see the terms)."""
    still_in = 1 - elapsed / window  # the share of the window before within the last window
    if current + previous * still_in < limit:
        return None
    if current >= limit:
        # Not before this window ends; then its failures are the window before's, sliding out.
        return (window - elapsed) + window * (1 - limit / current)
    # current + previous * (1 - t / window) < limit once t passes this.
    return window * (1 - (limit - current) / previous) - elapsed


def _keys(address: str | None, now: dt.datetime) -> tuple[str, str, float, float]:
    """The cache keys of the current window's counter and the one before's, the window's
    length and how far into it `now` is (seconds)."""
    window = settings.PEGBOARD_ADDRESS_WINDOW.total_seconds()
    index, elapsed = divmod(now.timestamp(), window)
    digest = hashlib.sha256((address or "").encode()).hexdigest()[:32]
    return (
        f"{KEY_PREFIX}:{digest}:{int(index)}",
        f"{KEY_PREFIX}:{digest}:{int(index) - 1}",
        window,
        elapsed,
    )


def address_refused_until(address: str | None) -> dt.datetime | None:
    """Until when every login from `address` is refused (the first whole second at which it is
    not), or None if it is not refused now."""
    now = timezone.now()
    current_key, previous_key, window, elapsed = _keys(address, now)
    counts = cache_get_many([current_key, previous_key])
    seconds = seconds_refused(
        current=counts.get(current_key, 0),
        previous=counts.get(previous_key, 0),
        elapsed=elapsed,
        window=window,
        limit=settings.PEGBOARD_ADDRESS_FAILURE_LIMIT,
    )
    if seconds is None:
        return None
    return dt.datetime.fromtimestamp(math.floor(now.timestamp() + seconds) + 1, tz=dt.UTC)


def address_failure_add(address: str | None) -> None:
    """Count one failure of `address` in the current window."""
    key, _, window, _ = _keys(address, timezone.now())
    cache_count(key, int(2 * window) + 60)  # the window after this one still reads it


class ClubLoginHandler(AxesDatabaseHandler):
    """django-axes' database handler (failures per login and address, AXES_FAILURE_LIMIT) with
    the address limit: its `is_locked` is asked by axes' authentication backend, listed first,
    before any other backend checks a password."""

    def is_locked(self, request, credentials: dict | None = None) -> bool:
        if address_refused_until(request.axes_ip_address) is not None:
            return True
        return super().is_locked(request, credentials)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        # Refused by a lock-out or the address limit: no password was checked, nothing counts.
        refused = request is not None and request.axes_locked_out
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        if request is None or refused or self.is_whitelisted(request, credentials):
            return
        address_failure_add(request.axes_ip_address)
        if address_refused_until(request.axes_ip_address) is not None:
            # This failure reached the limit: its answer is the refusal page already, as the
            # tenth wrong password of a login is.
            request.axes_locked_out = True
            request.axes_credentials = credentials
