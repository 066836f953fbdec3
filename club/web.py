"""The web pieces every app's views share: the current club, service errors on forms, pages
that render again with a bound form, clamped page sizes, visitors' cached copies, public reads.

Terms:
- current club: the club a request is about (`club.selectors.current_club`); every object a view
  looks up is filtered by it, so one club never reaches another's rows.
- service form: a form whose `form_valid` calls one service; the service's ValidationError
  becomes the form's errors (on the field it names, when the form has it).
- page: a view whose POST handlers, on a form error, render the page again with their bound form
  (status 400), so what was typed is kept.
- visitors' cache: public pages that anonymous visitors get from the cache; the key holds the
  club's `standings_version`, bumped by every service that changes what those pages show, and
  the values of the query parameters the page declares it reads (`visitor_cache_params`).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, QueryDict
from django.shortcuts import get_object_or_404, redirect, render

from club.models import Club, Session
from club.selectors import current_club

MAX_PER_PAGE = 500


class ClubMixin:
    """Gives the view `self.club`, the current club; 404 when the site has no club yet."""

    club_optional = False

    def dispatch(self, request, *args, **kwargs):
        self.club: Club | None = current_club(request)
        if self.club is None and not self.club_optional:
            raise Http404("This site has no club yet: an administrator must create one.")
        return super().dispatch(request, *args, **kwargs)


class SessionMixin(ClubMixin):
    """`get_session()`: the session the URL's `pk` names, within the current club (else 404)."""

    def get_session(self) -> Session:
        if not hasattr(self, "session"):
            self.session = get_object_or_404(Session, pk=self.kwargs["pk"], club=self.club)
        return self.session


def add_service_errors(form, error: ValidationError, field_map: dict | None = None) -> None:
    """Put a service's ValidationError on the form: on its field where the form has it."""
    field_map = field_map or {}
    if hasattr(error, "error_dict"):
        for field, field_errors in error.error_dict.items():
            field = field_map.get(field, field)
            form.add_error(field if field in form.fields else None, field_errors)
    else:
        form.add_error(None, error)


class ServiceFormMixin:
    """form_valid calls `perform(form)`; a ValidationError from the service becomes form errors."""

    success_message = ""
    # The service's field names that the form calls otherwise (e.g. {"user": "login"}).
    service_field_map: dict[str, str] = {}

    def perform(self, form):
        raise NotImplementedError

    def form_valid(self, form):
        try:
            self.perform(form)
        except ValidationError as error:
            add_service_errors(form, error, self.service_field_map)
            return self.form_invalid(form)
        if self.success_message:
            messages.success(self.request, self.success_message)
        return redirect(self.get_success_url())


class ClampedPaginator(Paginator):
    """Django's paginator with the page size held to 1..MAX_PER_PAGE: django-tables2 takes
    `?per_page=` from the query string, and 0 or less (or a huge number) made the page fail."""

    def __init__(self, object_list, per_page, *args, **kwargs):
        per_page = min(max(int(per_page), 1), MAX_PER_PAGE)
        super().__init__(object_list, per_page, *args, **kwargs)


class VisitorCacheMixin:
    """A public page that anonymous visitors get from the cache (the standings after a Thursday
    are read by everyone at once). The key holds the club, its `standings_version` (bumped in
    their transaction by every service that changes what these pages show), the path and the
    values of the query parameters the page reads, so a cached copy is never stale; logged-in
    members always get a fresh render.

    Each view declares the query parameters it reads in `visitor_cache_params` (its own, its
    table's sort, page and per-page fields, the export trigger `_export`). Any other parameter is
    dropped before a visitor's page is rendered: `?x=random` shares the one copy instead of
    skipping the cache, and nothing the first visitor typed ends up in everyone's copy."""

    visitor_cache_seconds = 24 * 60 * 60
    visitor_cache_params: tuple[str, ...] | None = None

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
        club = current_club(request)
        if club is None or not club.standings_public:
            return None
        address = f"{request.path}?{self.visitor_query(request).urlencode()}"
        digest = hashlib.sha256(address.encode()).hexdigest()
        return f"pegboard:visitor:{club.pk}:{club.standings_version}:{digest}"

    def dispatch(self, request, *args, **kwargs):
        query = self.visitor_query(request)  # checks the declaration on every request
        key = self.visitor_cache_key(request)
        if key is not None:
            cached = cache.get(key)
            if cached is not None:
                return cached
            # The page is rendered from what its key holds, so the copy fits every request
            # that shares the key.
            request.GET = query
        response = super().dispatch(request, *args, **kwargs)
        if key is not None and response.status_code == 200 and not response.streaming:

            def keep(rendered):
                cache.set(key, rendered, self.visitor_cache_seconds)

            if getattr(response, "is_rendered", True):
                keep(response)
            else:
                response.add_post_render_callback(keep)
        return response


class PublicReadMixin(PermissionRequiredMixin):
    """Read-only pages that anyone may read when the club's "standings public" rule is on; when
    it is off, members with the permission read them and anonymous visitors get a 404."""

    def has_permission(self):
        club = current_club(self.request)
        return super().has_permission() or bool(club and club.standings_public)

    def handle_no_permission(self):
        if not self.request.user.is_authenticated:
            raise Http404("Not found.")
        return super().handle_no_permission()


class PageMixin:
    """A page whose POST views, on a form error, render it again with their bound form:
    `page_context(**overrides)` builds the context, `render_page` renders it."""

    template_name = ""

    def page_context(self, **overrides) -> dict:
        raise NotImplementedError

    def render_page(self, status=200, **overrides):
        return render(
            self.request, self.template_name, self.page_context(**overrides), status=status
        )
