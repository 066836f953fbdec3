"""Views of the club's house rules: reading them, and an organiser's page to change them (and
the meeting details)."""

from __future__ import annotations

from django.contrib.auth.mixins import PermissionRequiredMixin
from django.urls import reverse_lazy
from django.views.generic import FormView, TemplateView

from club import services
from club.forms import HouseRulesForm
from club.mixins import ClubMixin
from club.models import Club
from core.mixins import ServiceFormMixin


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
