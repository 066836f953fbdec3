"""Views of the club app: house rules, players, the audit log, the sessions list and opening a
session.

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
Every object is looked up within the current club, so one club never reaches another's rows. The
session page itself, which puts check-in, rounds, standings and settling together, is web's.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse, reverse_lazy
from django.views.generic import FormView, TemplateView, View
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from club import services
from club.filters import AuditFilter, PlayerFilter, SessionFilter
from club.forms import HouseRulesForm, PlayerForm, SessionOpenForm, SessionRedateForm
from club.mixins import ClubMixin, PublicReadMixin, SessionMixin
from club.models import Club, Player
from club.selectors import club_audit_entries, club_players, club_sessions, next_session_date
from club.tables import AuditTable, EditablePlayerTable, PlayerTable, SessionTable
from core.mixins import ClampedPaginator, ServiceFormMixin


class HouseRulesView(ClubMixin, TemplateView):
    template_name = "club/rules.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["paid_places_examples"] = [
            (players, self.club.house_rules.paid_places(players)) for players in (8, 13, 16, 24)
        ]
        return context


class HouseRulesEditView(PermissionRequiredMixin, ClubMixin, ServiceFormMixin, FormView):
    permission_required = "club.change_club"
    template_name = "club/rules_form.html"
    form_class = HouseRulesForm
    success_message = "House rules saved."
    success_url = reverse_lazy("club:rules")

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        # The form validates a copy; the service writes the real row.
        kwargs["instance"] = Club.objects.get(pk=self.club.pk)
        return kwargs

    def perform(self, form):
        changes = {field: form.cleaned_data[field] for field in form.Meta.fields}
        services.club_update_rules(club=self.club, actor=self.request.user, **changes)


class PlayerListView(PermissionRequiredMixin, ClubMixin, SingleTableMixin, FilterView):
    permission_required = "club.view_player"
    template_name = "club/player_list.html"
    filterset_class = PlayerFilter
    paginate_by = 50
    paginator_class = ClampedPaginator

    def get_queryset(self):
        return club_players(self.club)

    def get_table_class(self):
        if self.request.user.has_perm("club.change_player"):
            return EditablePlayerTable
        return PlayerTable

    def get_table_kwargs(self):
        # A name links to the player's page for those who may read it (standings.views).
        pages = self.club.standings_public or self.request.user.has_perm("club.view_session")
        return {"player_pages": pages}


class PlayerCreateView(PermissionRequiredMixin, ClubMixin, ServiceFormMixin, FormView):
    permission_required = "club.add_player"
    template_name = "club/player_form.html"
    form_class = PlayerForm
    success_url = reverse_lazy("club:players")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "club": self.club}

    def perform(self, form):
        self.player = services.player_create(
            club=self.club, actor=self.request.user, **form.service_values()
        )
        self.success_message = f"{self.player.display_name} added."


class PlayerUpdateView(PermissionRequiredMixin, ClubMixin, ServiceFormMixin, FormView):
    permission_required = "club.change_player"
    template_name = "club/player_form.html"
    form_class = PlayerForm
    success_url = reverse_lazy("club:players")

    def get_player(self) -> Player:
        if not hasattr(self, "player"):
            self.player = get_object_or_404(Player, pk=self.kwargs["pk"], club=self.club)
        return self.player

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "club": self.club, "player": self.get_player()}

    def get_context_data(self, **kwargs):
        return super().get_context_data(player=self.get_player(), **kwargs)

    def perform(self, form):
        player = services.player_update(
            player=self.get_player(), actor=self.request.user, **form.service_values()
        )
        self.success_message = f"{player.display_name} saved."


class AuditLogView(PermissionRequiredMixin, ClubMixin, SingleTableMixin, FilterView):
    permission_required = "core.view_auditentry"
    template_name = "club/audit_list.html"
    filterset_class = AuditFilter
    table_class = AuditTable
    paginate_by = 50
    paginator_class = ClampedPaginator

    def get_queryset(self):
        return club_audit_entries(self.club)

    def get_table_kwargs(self):
        return {"club": self.club}


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
