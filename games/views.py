"""Views of the games app: draw a round, the round page and its printable seating chart, swap
seats, and the game page where results are entered, confirmed and corrected.

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
A form that fails renders its page again with the errors (status 400). Every lookup is within the
current club.
"""

from __future__ import annotations

from datetime import MAXYEAR, MINYEAR

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.generic import TemplateView, View
from django_tables2 import SingleTableMixin
from django_tables2.export import ExportMixin

from club.models import Player, Session
from club.tables import SafeTableExport
from club.views import (
    ClubMixin,
    PageMixin,
    PublicReadMixin,
    VisitorCacheMixin,
    add_service_errors,
)
from games import services
from games.charts import Point, bar_chart_svg, line_chart_svg
from games.forms import CorrectionForm, ResultForm, SwapForm
from games.models import Game, Result, ResultState, Round
from games.selectors import (
    all_time_standings,
    club_records,
    club_seasons,
    game_history,
    player_season,
    season_standings,
)
from games.tables import SeasonStandingTable
from scoring.selectors import game_claims


class RoundDrawView(PermissionRequiredMixin, ClubMixin, View):
    permission_required = "games.add_round"

    def post(self, request, pk):
        session = get_object_or_404(Session, pk=pk, club=self.club)
        try:
            round_ = services.round_draw(session=session, actor=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect(reverse("club:session", args=[session.pk]) + "#rounds")
        messages.success(request, f"Round {round_.number} drawn: {round_.games.count()} tables.")
        return redirect("games:round", pk=round_.pk)


class RoundMixin(PermissionRequiredMixin, ClubMixin):
    permission_required = "games.view_round"

    def get_round(self) -> Round:
        if not hasattr(self, "round"):
            self.round = get_object_or_404(
                Round.objects.select_related("session"),
                pk=self.kwargs["pk"],
                session__club=self.club,
            )
        return self.round

    def seated(self) -> list[tuple[int, str]]:
        return [
            (seat.player_id, seat.player.display_name)
            for seat in self.get_round()
            .seats.select_related("player")
            .order_by("player__display_name")
        ]

    def page_context(self, **overrides) -> dict:
        round_ = self.get_round()
        games = round_.games.prefetch_related("seats__player")
        can_swap = (
            self.request.user.has_perm("games.change_round")
            and round_.session.is_open
            and not Result.objects.filter(game__round=round_).exists()
        )
        context = {
            "round": round_,
            "session": round_.session,
            "games": games,
            "can_swap": can_swap,
        }
        if can_swap:
            context["swap_form"] = SwapForm(round_=round_, seated=self.seated())
        context.update(overrides)
        return context


class RoundView(RoundMixin, View):
    template_name = "games/round.html"

    def get(self, request, pk):
        return render(request, self.template_name, self.page_context())


class RoundPrintView(RoundView):
    template_name = "games/round_print.html"


class RoundSwapView(RoundMixin, View):
    permission_required = "games.change_round"

    def post(self, request, pk):
        round_ = self.get_round()
        form = SwapForm(request.POST, round_=round_, seated=self.seated())
        if form.is_valid():
            players = {
                field: get_object_or_404(Player, pk=form.cleaned_data[field], club=self.club)
                for field in ("player_a", "player_b")
            }
            try:
                services.round_swap_seats(round_=round_, actor=request.user, **players)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request, f"Swapped {players['player_a']} and {players['player_b']}."
                )
                return redirect("games:round", pk=round_.pk)
        context = self.page_context(swap_form=form)
        return render(request, "games/round.html", context, status=400)


class GameMixin(PageMixin, PermissionRequiredMixin, ClubMixin):
    permission_required = "games.view_game"
    template_name = "games/game.html"

    def get_game(self) -> Game:
        if not hasattr(self, "game"):
            self.game = get_object_or_404(
                Game.objects.select_related("session", "round"),
                pk=self.kwargs["pk"],
                session__club=self.club,
            )
        return self.game

    def sides(self) -> list[list[str]]:
        game = self.get_game()
        sides: list[list[str]] = [[] for _ in range(game.side_count)]
        for seat in game.seats.select_related("player").order_by("position"):
            sides[seat.side].append(seat.player.display_name)
        return sides

    def page_context(self, **overrides) -> dict:
        game = self.get_game()
        user = self.request.user
        history = list(game_history(game))
        current = next((r for r in history if r.state != ResultState.SUPERSEDED), None)
        seated = game.seats.filter(player__user=user).exists() if user.is_authenticated else False
        organiser = user.has_perm(services.CORRECT_PERMISSION)
        open_ = game.session.is_open
        context = {
            "game": game,
            "session": game.session,
            "seats": game.seats.select_related("player").order_by("position"),
            "history": history,
            "current": current,
            "sides": self.sides(),
            "claims": game_claims(game),
            "can_claim": open_ and (seated or organiser) and user.has_perm("scoring.add_claim"),
        }
        confirmed = current is not None and current.state == ResultState.CONFIRMED
        if open_ and not confirmed and (seated or organiser) and user.has_perm("games.add_result"):
            initial = {}
            if current is not None:
                initial = {f"side_{i}": score for i, score in enumerate(current.scores)}
            context["result_form"] = ResultForm(game=game, sides=self.sides(), initial=initial)
        if open_ and current is not None and current.state == ResultState.DRAFT:
            context["can_confirm"] = user.has_perm("games.confirm_result") and services.can_confirm(
                current, user
            )
        if open_ and confirmed and organiser:
            initial = {f"side_{i}": score for i, score in enumerate(current.scores)}
            context["correction_form"] = CorrectionForm(
                game=game, sides=self.sides(), initial=initial
            )
        context.update(overrides)
        return context

    def back(self):
        return redirect("games:game", pk=self.get_game().pk)


class GameView(GameMixin, View):
    def get(self, request, pk):
        return self.render_page()


class ResultEnterView(GameMixin, View):
    permission_required = "games.add_result"

    def post(self, request, pk):
        game = self.get_game()
        form = ResultForm(request.POST, game=game, sides=self.sides())
        if form.is_valid():
            try:
                services.result_enter(game=game, actor=request.user, scores=form.scores())
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, "Result entered: the other side confirms it.")
                return self.back()
        return self.render_page(status=400, result_form=form)


class ResultConfirmView(GameMixin, View):
    permission_required = "games.confirm_result"

    def post(self, request, pk, result):
        game = self.get_game()
        draft = get_object_or_404(Result, pk=result, game=game)
        try:
            services.result_confirm(result=draft, actor=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            messages.success(request, f"Table {game.table}'s result confirmed.")
        return self.back()


class ResultCorrectView(GameMixin, View):
    permission_required = services.CORRECT_PERMISSION

    def post(self, request, pk):
        game = self.get_game()
        form = CorrectionForm(request.POST, game=game, sides=self.sides())
        if form.is_valid():
            try:
                services.result_correct(
                    game=game,
                    actor=request.user,
                    scores=form.scores(),
                    reason=form.cleaned_data["reason"],
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, "Result corrected; the earlier version is kept below.")
                return self.back()
        return self.render_page(status=400, correction_form=form)


class SeasonMixin(PublicReadMixin, ClubMixin):
    """Standings pages: public when the club publishes them; `?season=` picks the season."""

    permission_required = "club.view_session"

    def seasons(self) -> list[int]:
        if not hasattr(self, "_seasons"):
            self._seasons = club_seasons(self.club)
        return self._seasons

    def season(self) -> int:
        seasons = self.seasons()
        default = seasons[0] if seasons else self.club.season_of(timezone.localdate())
        try:
            season = int(self.request.GET.get("season", default))
        except ValueError:
            raise Http404("Pick a season from the list.") from None
        # Before the first session no season is listed: a year no date can have is still a 404.
        if (seasons and season not in seasons) or not MINYEAR <= season < MAXYEAR:
            raise Http404("The club has no such season.")
        return season


class StandingsView(VisitorCacheMixin, SeasonMixin, ExportMixin, SingleTableMixin, TemplateView):
    template_name = "games/standings.html"
    table_class = SeasonStandingTable
    table_pagination = False
    export_formats = ("csv",)
    export_class = SafeTableExport

    def get_export_filename(self, export_format):
        return f"standings-{self.season()}.{export_format}"

    def get_table_data(self):
        return season_standings(self.club, self.season())

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            season=self.season(), seasons=self.seasons(), best=self.club.best_sessions, **kwargs
        )


class AllTimeView(VisitorCacheMixin, SeasonMixin, ExportMixin, SingleTableMixin, TemplateView):
    template_name = "games/all_time.html"
    table_class = SeasonStandingTable
    table_pagination = False
    export_formats = ("csv",)
    export_class = SafeTableExport
    export_name = "all-time"

    def get_table_data(self):
        if not hasattr(self, "standings"):
            self.standings = all_time_standings(self.club)
        return self.standings

    def get_context_data(self, **kwargs):
        records = club_records(self.club, standings=self.get_table_data())
        return super().get_context_data(records=records, **kwargs)


class PlayerPageView(VisitorCacheMixin, SeasonMixin, TemplateView):
    template_name = "games/player.html"

    def get_context_data(self, **kwargs):
        player = get_object_or_404(Player, pk=self.kwargs["pk"], club=self.club)
        season = self.season()
        data = player_season(self.club, player, season)
        points = [
            Point(label=f"{day:%-d %b}", value=value) for day, value in data.points_by_session
        ]
        ranks = [Point(label=f"{day:%-d %b}", value=rank) for day, rank in data.rank_by_session]
        return super().get_context_data(
            player=player,
            season=season,
            seasons=self.seasons(),
            data=data,
            points_chart=mark_safe(  # noqa: S308 - games.charts escapes every text it draws
                bar_chart_svg(
                    points=points,
                    title=f"{player.display_name}: game points per session, {season}",
                    y_label="Game points",
                )
            ),
            rank_chart=mark_safe(  # noqa: S308 - games.charts escapes every text it draws
                line_chart_svg(
                    points=ranks,
                    title=f"{player.display_name}: rank in the season after each session",
                    y_label="Rank",
                    invert_y=True,
                    y_min=1,
                    y_max=max(data.players, 2),
                )
            ),
            **kwargs,
        )
