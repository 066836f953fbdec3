"""Views of the club's sessions: the list of mornings, opening a session, moving or deleting
one nobody has played in yet. The session page itself, which puts check-in, rounds, standings
and settling together, is web's."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import FormView, View
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from club import services
from club.filters import SessionFilter
from club.forms import SessionOpenForm, SessionRedateForm
from club.mixins import ClubMixin, PublicReadMixin, SessionMixin
from club.selectors import club_sessions, next_session_date
from club.tables import SessionTable
from core.mixins import ClampedPaginator, ServiceFormMixin


class SessionListView(PublicReadMixin, ClubMixin, SingleTableMixin, FilterView):
    permission_required = "club.view_session"
    template_name = "club/session_list.html"
    filterset_class = SessionFilter
    table_class = SessionTable
    paginate_by = 50
    paginator_class = ClampedPaginator

    def get_queryset(self):
        return club_sessions(self.club)

    def get_filterset_kwargs(self, filterset_class):
        return {**super().get_filterset_kwargs(filterset_class), "club": self.club}

    def get_table_kwargs(self):
        # Money collected is for the organisers; the public list shows the mornings only.
        if self.request.user.has_perm("club.view_checkin"):
            return {}
        return {"exclude": ("collected_cents",)}


class SessionOpenView(PermissionRequiredMixin, ClubMixin, ServiceFormMixin, FormView):
    permission_required = "club.add_session"
    template_name = "club/session_open.html"
    form_class = SessionOpenForm

    def get_initial(self):
        return {"date": next_session_date(self.club), "starts_at": self.club.session_start}

    def perform(self, form):
        self.session = services.session_open(
            club=self.club, actor=self.request.user, **form.cleaned_data
        )
        self.success_message = f"Session of {self.session.date:%A %d %B} opened."

    def get_success_url(self):
        return reverse("web:session", args=[self.session.pk])


class SessionRedateView(PermissionRequiredMixin, SessionMixin, ServiceFormMixin, FormView):
    """Move (or, with its second button, delete) a session nobody has played in yet: a
    mistyped year is put right here instead of breaking the standings."""

    permission_required = "club.add_session"
    template_name = "club/session_redate.html"
    form_class = SessionRedateForm

    def get_initial(self):
        return {"date": self.get_session().date}

    def get_context_data(self, **kwargs):
        session = self.get_session()
        return super().get_context_data(session=session, played=session.rounds.exists(), **kwargs)

    def perform(self, form):
        session = services.session_redate(
            session=self.get_session(), actor=self.request.user, date=form.cleaned_data["date"]
        )
        self.success_message = f"The session is now on {session.date:%A %d %B %Y}."

    def get_success_url(self):
        return reverse("web:session", args=[self.get_session().pk])


class SessionDeleteView(PermissionRequiredMixin, SessionMixin, View):
    permission_required = "club.add_session"

    def post(self, request, *args, **kwargs):
        session = self.get_session()
        try:
            gone = services.session_delete(session=session, actor=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect("club:session_redate", pk=session.pk)
        returned = gone["fees_returned_cents"]
        note = f" Hand back the fees paid: {returned}¢ in all." if returned else ""
        messages.success(request, f"The session of {session.date:%d %B %Y} is deleted.{note}")
        return redirect("club:sessions")
