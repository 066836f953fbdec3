"""Public pages that anonymous visitors get from the cache, and the version that keys the copies.

Terms:
- pages version: a counter on the row that owns a set of public pages (`PagesVersioned`: the
  club, for its standings, results and player pages), moved on by `pages_changed(pk)` inside
  the transaction of every service that changes what those pages show. Every cached copy's key
  holds it, so a copy is never stale: a change makes new keys, and the old copies expire unread.
  It starts at a number drawn at random from 2**62 (`new_pages_version`), for a new row and for
  a restored one alike (a backup does not carry it): the cache may outlive the database (a
  shared Redis, a database restored from a file or made anew), and a row that started again at
  an old number would meet the copies of the database that counted there before it.
- visitors' cache: `VisitorCacheMixin` serves a page to anonymous visitors from the cache (the
  standings after a Thursday are read by everyone at once). The key holds the owner of the
  pages (`visitor_pages`, which the app that owns them fills in), its pages version, the path
  and the values of the query parameters the page declares it reads (`visitor_cache_params`).
  The cache is the one every app server shares (core.shared_cache): a copy one server made is
  served by all, and a cache that does not answer means a fresh render, never an error.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.http import QueryDict

from core.shared_cache import cache_get, cache_set

PAGES_VERSION_BITS = 62  # a bigint's 63 bits, less room to count on from the first


def new_pages_version() -> int:
    """The first pages version of a new or restored row (see the terms)."""
    return secrets.randbits(PAGES_VERSION_BITS)


class PagesVersioned(models.Model):
    """A row that owns public pages, with the version of what they show (see the terms)."""

    pages_version = models.PositiveBigIntegerField(
        default=new_pages_version,
        editable=False,
        help_text="Moved on by every service that changes what this row's public pages show; "
        "the key of their cached copies.",
    )

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        # A full save of a row read earlier must not put back an older version: only
        # `pages_changed` moves it.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "pages_version"
            ]
        super().save(*args, **kwargs)

    @property
    def pages_label(self) -> str:
        """The kind of row, in the keys of its pages' copies."""
        return self._meta.label_lower

    @classmethod
    def pages_changed(cls, pk: int) -> None:
        """Mark the row's pages stale: their cached copies are keyed by the version this moves
        on. Call it inside the transaction of the change."""
        cls.objects.filter(pk=pk).update(pages_version=models.F("pages_version") + 1)


def kept_under_version(owner: PagesVersioned, what: str, count, seconds: int):
    """What `count()` returns, kept in the shared cache under `owner`'s pages version: a change
    of what it counts moves the version on, so a kept copy is never stale. The version is the
    one `owner` was read with, read before the count, so a copy is never older than its key."""
    key = f"pegboard:{what}:{owner.pk}:{owner.pages_version}"
    found = cache_get(key)
    if found is None:
        found = count()
        cache_set(key, found, seconds)
    return found


class VisitorCacheMixin:
    """A public page that anonymous visitors get from the cache (see the module's terms);
    logged-in members always get a fresh render.

    The app that owns the pages says whose they are in `visitor_pages(request)`, asked for
    anonymous visitors only: the `PagesVersioned` row whose version keys the copy (or a lighter
    record of it with the row's `pages_label`, `pk` and `pages_version`), or None for no cached
    copy (pages that are not public now). Each view declares the query parameters it reads in
    `visitor_cache_params` (its own, its table's sort, page and per-page fields, the export
    trigger `_export`). Any other parameter is dropped before a visitor's page is rendered:
    `?x=random` shares the one copy instead of skipping the cache, and nothing the first visitor
    typed ends up in everyone's copy."""

    visitor_cache_seconds = 24 * 60 * 60
    visitor_cache_params: tuple[str, ...] | None = None

    def visitor_pages(self, request) -> PagesVersioned | None:
        raise NotImplementedError(f"{type(self).__name__} must say whose pages it shows.")

    def visitor_query(self, request) -> QueryDict:
        """The query string with the declared parameters only, in the declared order."""
        if self.visitor_cache_params is None:
            raise ImproperlyConfigured(
                f"{type(self).__name__} must declare the query parameters it reads in "
                "visitor_cache_params (an empty tuple when it reads none)."
            )
        query = QueryDict(mutable=True)
        for name in self.visitor_cache_params:
            if name in request.GET:
                query.setlist(name, request.GET.getlist(name))
        return QueryDict(query.urlencode())  # read-only, like request.GET

    def visitor_cache_key(self, request) -> str | None:
        if request.method != "GET" or request.user.is_authenticated:
            return None
        if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
            return None  # a visitor with a session may have messages waiting
        owner = self.visitor_pages(request)
        if owner is None:
            return None
        address = f"{request.path}?{self.visitor_query(request).urlencode()}"
        digest = hashlib.sha256(address.encode()).hexdigest()
        return f"pegboard:visitor:{owner.pages_label}:{owner.pk}:{owner.pages_version}:{digest}"

    def dispatch(self, request, *args, **kwargs):
        query = self.visitor_query(request)  # checks the declaration on every request
        key = self.visitor_cache_key(request)
        if key is not None:
            cached = cache_get(key)
            if cached is not None:
                return cached
            # The page is rendered from what its key holds, so the copy fits every request
            # that shares the key.
            request.GET = query
        response = super().dispatch(request, *args, **kwargs)
        if key is not None and response.status_code == 200 and not response.streaming:

            def keep(rendered):
                cache_set(key, rendered, self.visitor_cache_seconds)

            if getattr(response, "is_rendered", True):
                keep(response)
            else:
                response.add_post_render_callback(keep)
        return response
