"""The view mixins that know the club: the current club, its sessions, its public pages.

Terms:
- current club: the club a request is about (`club.selectors.current_club`); every object a view
  looks up is filtered by it, so one club never reaches another's rows.
- public pages: the pages anyone may read while the club's "standings public" rule is on
  (`PublicReadMixin`); anonymous visitors get them from the cache (`ClubVisitorCacheMixin`,
  core.pages), keyed by the club's pages version.

The mixins every app's views share and that know no club: core.mixins.
"""

from __future__ import annotations

from django.contrib.auth.mixins import PermissionRequiredMixin
from django.http import Http404
from django.shortcuts import get_object_or_404

from club.models import Club, Session
from club.selectors import VisitorsClub, current_club, visitors_club
from core.pages import VisitorCacheMixin


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
            # The club the session was found in: what reads `session.club` needs no query of it.
            self.session.club = self.club
        return self.session


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


class ClubVisitorCacheMixin(VisitorCacheMixin):
    """A public page of the current club that visitors get from the cache (core.pages), keyed
    by the club's pages version; none while the club keeps its pages to its members."""

    def visitor_pages(self, request) -> VisitorsClub | None:
        # Asked for anonymous visitors only, whose club is the site's default one: read lightly,
        # since a cached copy's answer is little more than this (club.selectors.visitors_club).
        club = visitors_club()
        return club if club is not None and club.standings_public else None
