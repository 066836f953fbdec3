"""Views of the club's players: the roster (organisers see links to edit each player and their
login), adding a player, changing one."""

from __future__ import annotations

from django.contrib.auth.mixins import PermissionRequiredMixin
from django.shortcuts import get_object_or_404
from django.urls import reverse_lazy
from django.views.generic import FormView
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from club import services
from club.filters import PlayerFilter
from club.forms import PlayerForm
from club.mixins import ClubMixin
from club.models import Player
from club.selectors import club_players
from club.tables import EditablePlayerTable, PlayerTable
from core.mixins import ClampedPaginator, ServiceFormMixin


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
