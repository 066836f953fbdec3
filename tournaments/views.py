"""The director's tournament pages: the club's tournaments, a new tournament, and the page the
director works from all day (entrants, qualifying rounds, the draw and close buttons, the
playoff matches being played and their forfeits).

Terms (tournaments.models): the director is an organiser (`tournaments.run_tournament`);
members read the tournament page with the session permission they already hold, and anyone
reads the list while the club publishes its standings.

Views stay thin: check a permission, validate a form, call one service, add a message,
redirect. A post the service refuses renders the tournament page again with the reason (status
400). Every lookup is within the current club: another club's tournament is a 404. The
standings and the bracket are the public pages of `tournaments.public_views`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.generic import FormView, View
from django_tables2 import SingleTableView

from club.mixins import ClubMixin, PublicReadMixin
from core.mixins import ClampedPaginator, PageMixin, ServiceFormMixin
from tournaments import services
from tournaments.director import director_day
from tournaments.forms import DrawForm, ForfeitForm, PrizeSharesForm, TournamentForm
from tournaments.models import Match, Stage, Tournament
from tournaments.prizes import PrizeError, prize_levels
from tournaments.selectors import cut_size
from tournaments.tables import TournamentTable

RUN = "tournaments.run_tournament"
READ = "club.view_session"


class TournamentListView(PublicReadMixin, ClubMixin, SingleTableView):
    """The club's tournaments, newest first; organisers see "New tournament"."""

    permission_required = READ
    template_name = "tournaments/list.html"
    table_class = TournamentTable
    paginate_by = 50
    paginator_class = ClampedPaginator

    def get_queryset(self):
        return (
            Tournament.objects.filter(club=self.club)
            .select_related("champion")
            .annotate(entrants=Count("session__checkins"))
            .order_by("-starts_on", "name")
        )

    def get_table_kwargs(self):
        # Visitors read the standings; the director's page is the members'.
        return {"members": self.request.user.has_perm(READ)}


class TournamentCreateView(PermissionRequiredMixin, ClubMixin, ServiceFormMixin, FormView):
    permission_required = RUN
    template_name = "tournaments/new.html"
    form_class = TournamentForm

    def get_form_kwargs(self):
        return super().get_form_kwargs() | {"club": self.club}

    def perform(self, form):
        self.tournament = services.tournament_create(
            club=self.club, actor=self.request.user, **form.service_values()
        )
        self.success_message = (
            f"{self.tournament.name} created: check the entrants in on its session page."
        )

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 400
        return response

    def get_success_url(self):
        return reverse("tournaments:detail", args=[self.tournament.pk])


class TournamentMixin(ClubMixin):
    """`get_tournament()`: the tournament the URL's `pk` names, within the current club."""

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "tournament"):
            self.tournament = get_object_or_404(
                Tournament.objects.select_related("session", "champion"),
                pk=self.kwargs["pk"],
                club=self.club,
            )
        return self.tournament


class DirectorPageMixin(TournamentMixin, PageMixin):
    """The tournament page's context; the posts render it again with their error."""

    template_name = "tournaments/detail.html"

    def page_context(self, **overrides) -> dict:
        tournament = self.get_tournament()
        user = self.request.user
        day = director_day(tournament)
        can_run = user.has_perm(RUN) and tournament.session.is_open
        refusal = None
        if can_run and tournament.stage == Stage.QUALIFYING:
            refusal = services.close_refusal(tournament)
        forfeit_forms = {}
        if can_run:
            bound = overrides.pop("forfeit_form", None)
            for line in day.matches:
                match = line.match
                forfeit_forms[match.pk] = (
                    bound
                    if bound is not None and bound.match_pk == match.pk
                    else forfeit_form(match)
                )
        context = {
            "tournament": tournament,
            "session": tournament.session,
            "day": day,
            "can_run": can_run,
            "can_settle": user.has_perm("money.settle_session"),
            "close_refusal": refusal,
            "draw_form": DrawForm(initial={"round_number": day.next_round}),
            "matches": [(line, forfeit_forms.get(line.match.pk)) for line in day.matches],
            "errors": [],
        }
        context.update(overrides)
        return context


def forfeit_form(match: Match, data=None) -> ForfeitForm:
    players = [(match.top_id, match.top.display_name), (match.bottom_id, match.bottom.display_name)]
    form = ForfeitForm(data, players=players, auto_id=f"id_forfeit_{match.pk}_%s")
    form.match_pk = match.pk
    return form


class TournamentDetailView(PermissionRequiredMixin, DirectorPageMixin, View):
    permission_required = READ

    def get(self, request, pk):
        return self.render_page()


class QualifyingDrawView(PermissionRequiredMixin, DirectorPageMixin, View):
    """Draw the qualifying round the button names: pressed twice, the second press draws
    nothing and says so."""

    permission_required = RUN

    def post(self, request, pk):
        tournament = self.get_tournament()
        form = DrawForm(request.POST)
        if not form.is_valid():
            return self.render_page(
                status=400, errors=["This page is out of date: reload it and draw again."]
            )
        try:
            round_ = services.qualifying_round_draw(
                tournament=tournament,
                actor=request.user,
                expected_number=form.cleaned_data["round_number"],
            )
        except ValidationError as error:
            return self.render_page(status=400, errors=error.messages)
        bye = getattr(round_, "bye", None)
        messages.success(
            request,
            f"Qualifying round {round_.number} drawn: {round_.games.count()} tables"
            + (f"; {bye.player.display_name} has the bye." if bye else "."),
        )
        return redirect("tournaments:detail", pk=tournament.pk)


class QualifyingCloseView(PermissionRequiredMixin, DirectorPageMixin, View):
    """Close qualifying: the cut, the seeds and the bracket, and the first playoff games."""

    permission_required = RUN

    def post(self, request, pk):
        tournament = self.get_tournament()
        try:
            tournament = services.qualifying_close(tournament=tournament, actor=request.user)
        except ValidationError as error:
            return self.render_page(status=400, errors=error.messages)
        messages.success(
            request,
            f"Qualifying closed: {len(tournament.seeds)} qualify. The first playoff games are "
            "seated.",
        )
        return redirect("tournaments:detail", pk=tournament.pk)


class MatchForfeitView(PermissionRequiredMixin, DirectorPageMixin, View):
    """ACC rule 13.1: the absent player of a match forfeits its current game."""

    permission_required = RUN

    def post(self, request, pk):
        match = get_object_or_404(
            Match.objects.select_related("top", "bottom", "tournament"),
            pk=pk,
            tournament__club=self.club,
        )
        self.kwargs["pk"] = match.tournament_id  # the page shown again is the tournament's
        if match.top is None or match.bottom is None:
            return self.render_page(status=400, errors=["This match has no game to forfeit."])
        form = forfeit_form(match, request.POST)
        if not form.is_valid():
            return self.render_page(
                status=400, forfeit_form=form, errors=["Choose the player who has not appeared."]
            )
        absent = match.top if form.cleaned_data["absent"] == match.top_id else match.bottom
        try:
            services.match_game_forfeit(match=match, actor=request.user, absent=absent)
        except ValidationError as error:
            return self.render_page(status=400, errors=error.messages)
        messages.success(request, f"{absent.display_name} forfeits a game (ACC rule 13.1).")
        return redirect("tournaments:detail", pk=match.tournament_id)


class PrizeSharesView(PermissionRequiredMixin, TournamentMixin, ServiceFormMixin, FormView):
    """The director's share of the prize fund for each level (the levels of the bracket once
    qualifying has closed, else of the cut as the entrants checked in now make it)."""

    permission_required = RUN
    template_name = "tournaments/prizes.html"
    form_class = PrizeSharesForm

    def levels(self):
        tournament = self.get_tournament()
        qualifiers = len(tournament.seeds) or cut_size(tournament)
        if qualifiers < 2:
            return ()
        try:
            return prize_levels(qualifiers, tournament.prize_shares or None)
        except PrizeError:  # shares set for another count of entrants: start from the default
            return prize_levels(qualifiers)

    def get_form_kwargs(self):
        return super().get_form_kwargs() | {"levels": self.levels()}

    def get_context_data(self, **kwargs):
        tournament = self.get_tournament()
        return super().get_context_data(**kwargs) | {
            "tournament": tournament,
            "closed": bool(tournament.seeds),
            "default": not tournament.prize_shares,
        }

    def perform(self, form):
        services.prize_shares_set(
            tournament=self.get_tournament(), actor=self.request.user, shares=form.shares()
        )
        self.success_message = "Prize shares saved."

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 400
        return response

    def get_success_url(self):
        return reverse("tournaments:detail", args=[self.get_tournament().pk])
