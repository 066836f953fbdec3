"""Views of the club app: home, house rules, players, audit log.

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
Every object is looked up within the current club, so one club never reaches another's rows.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse_lazy
from django.views.generic import FormView, TemplateView
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from club import services
from club.filters import AuditFilter, PlayerFilter
from club.forms import HouseRulesForm, PlayerForm
from club.models import Club, Player
from club.selectors import club_audit_entries, club_players, current_club, next_session
from club.tables import AuditTable, EditablePlayerTable, PlayerTable


class ClubMixin:
    """Gives the view `self.club`, the current club; 404 when the site has no club yet."""

    def dispatch(self, request, *args, **kwargs):
        self.club: Club | None = current_club(request)
        if self.club is None and not getattr(self, "club_optional", False):
            raise Http404("This site has no club yet: an administrator must create one.")
        return super().dispatch(request, *args, **kwargs)


class ServiceFormMixin:
    """form_valid calls `perform(form)`; a ValidationError from the service becomes form errors."""

    success_message = ""

    def perform(self, form):
        raise NotImplementedError

    def form_valid(self, form):
        try:
            self.perform(form)
        except ValidationError as error:
            if hasattr(error, "error_dict"):
                for field, field_errors in error.error_dict.items():
                    form.add_error(field if field in form.fields else None, field_errors)
            else:
                form.add_error(None, error)
            return self.form_invalid(form)
        if self.success_message:
            messages.success(self.request, self.success_message)
        return redirect(self.get_success_url())


class HomeView(ClubMixin, TemplateView):
    template_name = "club/home.html"
    club_optional = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.club is not None:
            context["next_session"] = next_session(self.club)
            context["player_count"] = self.club.players.filter(active=True).count()
        return context


class HouseRulesView(ClubMixin, TemplateView):
    template_name = "club/rules.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["paid_places_examples"] = [
            (players, self.club.paid_places(players)) for players in (8, 13, 16, 24)
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

    def get_queryset(self):
        return club_players(self.club)

    def get_table_class(self):
        if self.request.user.has_perm("club.change_player"):
            return EditablePlayerTable
        return PlayerTable


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
    permission_required = "club.view_auditentry"
    template_name = "club/audit_list.html"
    filterset_class = AuditFilter
    table_class = AuditTable
    paginate_by = 50

    def get_queryset(self):
        return club_audit_entries(self.club)
