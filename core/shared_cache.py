"""The cache every app server shares (Django's default cache: Redis when CACHE_URL names one),
read and written so that a cache that does not answer costs a page its speed, never the page.

Terms:
- cache failure: an error the cache raises because it cannot be reached or does not answer in
  time (redis-py's ConnectionError and TimeoutError, both RedisError; a socket's OSError). The
  in-process cache never raises one.
- going on without the cache: a read that fails is a miss (`default`, or nothing for
  `cache_get_many`), a write that fails did nothing. Each failure is logged as a warning on the
  `pegboard.cache` logger, with no traceback: the page is served all the same.

Only cache failures are caught: a programming error (a key Django refuses, a value that cannot
be pickled) still raises.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache

log = logging.getLogger("pegboard.cache")


def _failed(action: str, error: Exception) -> None:
    """Log a cache failure, or raise `error` again when it is none (see the module's terms)."""
    # redis-py is imported by the Redis backend when it first connects, so an error can only be
    # a RedisError once it is loaded: a site without Redis never imports it.
    redis = sys.modules.get("redis.exceptions")
    if not (isinstance(error, OSError) or (redis and isinstance(error, redis.RedisError))):
        raise error
    log.warning("The cache did not answer (%s: %s); going on without it.", action, error)


def cache_get(key: str, default: Any = None) -> Any:
    try:
        return cache.get(key, default)
    except Exception as error:
        _failed("get", error)
        return default


def cache_get_many(keys: Iterable[str]) -> dict[str, Any]:
    try:
        return cache.get_many(keys)
    except Exception as error:
        _failed("get_many", error)
        return {}


def cache_set(key: str, value: Any, timeout: int) -> None:
    try:
        cache.set(key, value, timeout)
    except Exception as error:
        _failed("set", error)


def cache_count(key: str, timeout: int) -> None:
    """Add one to the counter at `key`, made (at 1, for `timeout` seconds) when it is missing.
    `add` then `incr`, each atomic in every cache several processes share."""
    try:
        cache.add(key, 0, timeout)
        try:
            cache.incr(key)
        except ValueError:  # evicted or expired since `add`: this one starts it again
            cache.add(key, 1, timeout)
    except Exception as error:
        _failed("count", error)
