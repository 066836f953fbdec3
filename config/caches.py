"""The CACHES setting, read from the environment.

Terms:
- cache URL: CACHE_URL, or REDIS_URL when CACHE_URL is not set (hosting platforms that offer a
  Redis set REDIS_URL). A redis:// (plain TCP), rediss:// (TLS) or unix:// (a socket file) URL
  makes Django's own Redis backend the default cache, which every app server shares: the
  visitors' cached pages and the per-address login counters (web.throttle) are then the same on
  every server behind the load balancer. A database number is the URL's path
  (redis://host:6379/2).
- no cache URL: the in-process cache (LocMemCache), enough for one server. Each process keeps
  its own copy then, so the per-address counters count per gunicorn worker.
- key prefix: CACHE_KEY_PREFIX, put before every key, so two sites (or a site and its tests)
  can share one Redis database without reading each other's keys.

Anything else in the variable stops the site at startup with a message that says what to write,
as every other setting Pegboard reads does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

REDIS_SCHEMES = ("redis", "rediss", "unix")
REDIS_BACKEND = "django.core.cache.backends.redis.RedisCache"
LOCAL_BACKEND = "django.core.cache.backends.locmem.LocMemCache"
# A Redis that stops answering costs a request at most this long per cache call instead of a
# worker held until the operating system gives up (core.pages and web.throttle then go on
# without the cache).
SOCKET_TIMEOUT_SECONDS = 2


def cache_url(environ: Mapping[str, str]) -> tuple[str, str]:
    """(the name of the variable that gives the cache URL, its value), or ("", "")."""
    for name in ("CACHE_URL", "REDIS_URL"):
        value = environ.get(name, "").strip()
        if value:
            return name, value
    return "", ""


def url_problem(url: str) -> str | None:
    """What is wrong with a cache URL, or None when Redis can be reached by it."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is no number raises here
    except ValueError as error:
        return f"it is not a URL ({error})"
    if parts.scheme not in REDIS_SCHEMES:
        return "give a redis://, rediss:// or unix:// URL (Redis is the only shared cache)"
    if parts.scheme == "unix":
        return None if parts.path else "a unix:// URL names the socket file: unix:///path"
    if not parts.hostname:
        return "name the Redis host: redis://host:6379/0"
    database = parts.path.strip("/")
    if database and not database.isdigit():
        return f"the path is the Redis database number (0, 1, ...), not {database!r}"
    return None


def caches_from_env(environ: Mapping[str, str]) -> dict:
    """The CACHES setting (see the module's terms)."""
    name, url = cache_url(environ)
    prefix = environ.get("CACHE_KEY_PREFIX", "").strip()
    if not url:
        return {"default": {"BACKEND": LOCAL_BACKEND, "KEY_PREFIX": prefix}}
    problem = url_problem(url)
    if problem:
        shown = re.sub(r"//[^/@]*@", "//…@", url)  # never print a password
        raise ImproperlyConfigured(f"{name}={shown!r}: {problem}.")
    return {
        "default": {
            "BACKEND": REDIS_BACKEND,
            "LOCATION": url,
            "KEY_PREFIX": prefix,
            "OPTIONS": {
                "socket_connect_timeout": SOCKET_TIMEOUT_SECONDS,
                "socket_timeout": SOCKET_TIMEOUT_SECONDS,
            },
        }
    }
