"""Views of the club app: home, house rules, players, audit log.

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
Every object is looked up within the current club, so one club never reaches another's rows.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.views.generic import FormView, TemplateView, View
from django_filters.views import FilterView
from django_tables2 import RequestConfig, SingleTableMixin

from club import services, settlement
from club.filters import AuditFilter, PlayerFilter, SessionFilter
from club.forms import CheckInForm, HouseRulesForm, PlayerForm, ReopenForm, SessionOpenForm
from club.models import CheckIn, Club, Player, Pot, Session
from club.selectors import (
    checkin_candidates,
    club_audit_entries,
    club_ledger,
    club_players,
    club_sessions,
    current_club,
    current_settlement,
    next_session,
    next_session_date,
    player_money,
    pot_balances,
    session_checkins,
    session_fee_totals,
)
from club.tables import (
    AuditTable,
    EditablePlayerTable,
    PlayerTable,
    SafeTableExport,
    SessionTable,
)
from club.templatetags.pegboard import cents
from games.selectors import session_result_lines, session_rounds, session_standings
from games.tables import SessionResultTable, StandingTable


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
            add_service_errors(form, error)
            return self.form_invalid(form)
        if self.success_message:
            messages.success(self.request, self.success_message)
        return redirect(self.get_success_url())


MAX_PER_PAGE = 500


class ClampedPaginator(Paginator):
    """Django's paginator with the page size held to 1..MAX_PER_PAGE: django-tables2 takes
    `?per_page=` from the query string, and 0 or less (or a huge number) made the page fail."""

    def __init__(self, object_list, per_page, *args, **kwargs):
        per_page = min(max(int(per_page), 1), MAX_PER_PAGE)
        super().__init__(object_list, per_page, *args, **kwargs)


class VisitorCacheMixin:
    """A public page that anonymous visitors get from the cache (the standings after a Thursday
    are read by everyone at once). The key holds the club, its `standings_version` (bumped in
    their transaction by every service that changes what these pages show) and the full URL, so
    a cached copy is never stale; logged-in members always get a fresh render."""

    visitor_cache_seconds = 24 * 60 * 60

    def visitor_cache_key(self, request) -> str | None:
        if request.method != "GET" or request.user.is_authenticated:
            return None
        if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
            return None  # a visitor with a session may have messages waiting
        club = current_club(request)
        if club is None or not club.standings_public:
            return None
        url = hashlib.sha256(request.get_full_path().encode()).hexdigest()
        return f"pegboard:visitor:{club.pk}:{club.standings_version}:{url}"

    def dispatch(self, request, *args, **kwargs):
        key = self.visitor_cache_key(request)
        if key is not None:
            cached = cache.get(key)
            if cached is not None:
                return cached
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
    paginator_class = ClampedPaginator

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
    paginator_class = ClampedPaginator

    def get_queryset(self):
        return club_audit_entries(self.club)


class SessionListView(PublicReadMixin, ClubMixin, SingleTableMixin, FilterView):
    permission_required = "club.view_session"
    template_name = "club/session_list.html"
    filterset_class = SessionFilter
    table_class = SessionTable
    paginate_by = 50
    paginator_class = ClampedPaginator

    def get_queryset(self):
        return club_sessions(self.club)

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
        return reverse("club:session", args=[self.session.pk])


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


RESULTS_PER_PAGE = 40


class SessionPageMixin(PageMixin, PermissionRequiredMixin, ClubMixin):
    """The session page: everything about that morning on one screen. POST views that fail
    validation render it again with their bound form."""

    permission_required = "club.view_session"
    template_name = "club/session_detail.html"

    def get_session(self) -> Session:
        if not hasattr(self, "session"):
            self.session = get_object_or_404(Session, pk=self.kwargs["pk"], club=self.club)
        return self.session

    def page_context(self, **overrides) -> dict:
        session = self.get_session()
        user = self.request.user
        standings = StandingTable(session_standings(session))
        RequestConfig(self.request, paginate=False).configure(standings)
        # The rounds above show every game; the line-by-line table comes a page at a time (the
        # CSV has it whole), so a 40-player morning stays quick to load on a phone.
        results = SessionResultTable(session_result_lines(session), prefix="results-")
        paginate = {"per_page": RESULTS_PER_PAGE, "paginator_class": ClampedPaginator}
        RequestConfig(self.request, paginate=paginate).configure(results)
        context = {
            "session": session,
            "rules": session.rules,
            "checkins": session_checkins(session),
            "totals": session_fee_totals(session),
            "rounds": session_rounds(session),
            "standings": standings,
            "results": results,
            "can_manage": user.has_perm("club.add_checkin") and session.is_open,
            "show_fees": user.has_perm("club.view_checkin"),
            "can_draw": user.has_perm("games.add_round") and session.is_open,
            "next_round": session.rounds.count() + 1,
            "can_settle": user.has_perm("club.settle_session") and session.is_open,
        }
        if context["can_settle"]:
            context["blockers"] = settlement.settle_blockers(session)
        if context["can_manage"]:
            context["checkin_form"] = CheckInForm(club=self.club)
            context["candidates"] = checkin_candidates(session)
        context.update(overrides)
        return context


class SessionDetailView(PublicReadMixin, SessionPageMixin, View):
    def get(self, request, *args, **kwargs):
        return self.render_page()


class CheckInCreateView(SessionPageMixin, View):
    permission_required = "club.add_checkin"

    def post(self, request, *args, **kwargs):
        session = self.get_session()
        form = CheckInForm(request.POST, club=self.club)
        if form.is_valid():
            try:
                checkin = services.checkin_create(
                    session=session,
                    actor=request.user,
                    player=form.cleaned_data["player"],
                    new_player_name=form.cleaned_data["new_player_name"],
                )
            except ValidationError as error:
                add_service_errors(
                    form, error, field_map={"player": "name", "display_name": "name"}
                )
            else:
                late = f" (from round {checkin.from_round})" if checkin.from_round > 1 else ""
                messages.success(request, f"{checkin.player} checked in{late}.")
                return redirect(reverse("club:session", args=[session.pk]) + "#checkin")
        return self.render_page(status=400, checkin_form=form)


class CheckInActionView(SessionPageMixin, View):
    """POST-only buttons on a check-in: mark paid, undo the payment, undo the check-in."""

    permission_required = "club.change_checkin"
    action = ""

    def post(self, request, *args, **kwargs):
        checkin = get_object_or_404(
            CheckIn, pk=kwargs["checkin"], session_id=kwargs["pk"], session__club=self.club
        )
        try:
            if self.action == "paid":
                services.fee_mark_paid(checkin=checkin, actor=request.user)
                messages.success(request, f"{checkin.player} paid {cents(checkin.fee_cents)}.")
            elif self.action == "unpaid":
                services.fee_mark_unpaid(checkin=checkin, actor=request.user)
                messages.success(request, f"{checkin.player}'s payment taken back.")
            else:
                services.checkin_undo(checkin=checkin, actor=request.user)
                messages.success(request, f"{checkin.player}'s check-in undone.")
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        return redirect(reverse("club:session", args=[kwargs["pk"]]) + "#checkin")


def add_service_errors(form, error: ValidationError, field_map: dict | None = None) -> None:
    """Put a service's ValidationError on the form: on its field where the form has it."""
    field_map = field_map or {}
    if hasattr(error, "error_dict"):
        for field, field_errors in error.error_dict.items():
            field = field_map.get(field, field)
            form.add_error(field if field in form.fields else None, field_errors)
    else:
        form.add_error(None, error)


class SessionSettleView(SessionPageMixin, View):
    permission_required = "club.settle_session"

    def post(self, request, *args, **kwargs):
        session = self.get_session()
        try:
            settlement.session_settle(session=session, actor=request.user)
        except ValidationError as error:
            messages.error(request, "The session cannot be settled yet:")
            for message in error.messages:
                messages.error(request, message)
            return redirect(reverse("club:session", args=[session.pk]) + "#settle")
        messages.success(request, "Session settled: the payouts are below.")
        return redirect("club:settlement", pk=session.pk)


class SettlementView(SessionPageMixin, View):
    permission_required = "club.view_settlement"
    template_name = "club/settlement.html"

    def get(self, request, *args, **kwargs):
        session = self.get_session()
        current = current_settlement(session)
        names = dict(session.checkins.values_list("player_id", "player__display_name"))
        cuts = [
            {
                "decides": cut["decides"],
                "cards": [(names.get(pid, pid), card) for pid, card in cut["cards"]],
                "winner": names.get(cut["order"][0], ""),
            }
            for cut in (current.cuts if current else [])
        ]
        context = {
            "session": session,
            "settlement": current,
            "payouts": current.payouts.all() if current else [],
            "cuts": cuts,
            "reopen_form": ReopenForm() if request.user.has_perm("club.settle_session") else None,
            "history": session.settlements.exclude(pk=current.pk if current else None),
        }
        return render(request, self.template_name, context)


class SessionReopenView(SessionPageMixin, View):
    permission_required = "club.settle_session"

    def post(self, request, *args, **kwargs):
        session = self.get_session()
        form = ReopenForm(request.POST)
        if form.is_valid():
            try:
                settlement.session_reopen(
                    session=session, actor=request.user, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                for message in error.messages:
                    messages.error(request, message)
            else:
                messages.success(request, "Session reopened: settle it again when it is right.")
                return redirect("club:session", pk=session.pk)
        else:
            messages.error(request, "Say why the session is reopened.")
        return redirect("club:settlement", pk=session.pk)


class LedgerView(PermissionRequiredMixin, ClubMixin, View):
    permission_required = "club.view_ledgerentry"

    def get(self, request):
        pots = [
            {"pot": pot, "label": label, "lines": club_ledger(self.club, pot)}
            for pot, label in Pot.choices
        ]
        balances = pot_balances(self.club)
        for pot in pots:
            pot["balance"] = balances[pot["pot"]]
        return render(request, "club/ledger.html", {"pots": pots})


class PlayerMoneyView(PermissionRequiredMixin, ClubMixin, View):
    """A player's own money: their fees, payouts and side pots (organisers see anyone's)."""

    permission_required = "club.view_player"

    def get(self, request, pk):
        player = get_object_or_404(Player, pk=pk, club=self.club)
        if player.user_id != request.user.pk and not request.user.has_perm("club.view_ledgerentry"):
            raise PermissionDenied("This is another player's money.")
        # The ledger is the club's side (a fee is + into the pot); the player's is the opposite.
        rows = [(row, -row.amount_cents) for row in player_money(player)]
        return render(
            request,
            "club/player_money.html",
            {"player": player, "rows": rows, "total": sum(cents for _, cents in rows)},
        )


class SessionExportView(PublicReadMixin, SessionPageMixin, View):
    """The session's standings or results as CSV, the same columns and order as on the page."""

    def get(self, request, *args, **kwargs):
        session = self.get_session()
        which = request.GET.get("table", "standings")
        if which == "standings":
            table = StandingTable(session_standings(session))
            RequestConfig(request, paginate=False).configure(table)
        elif which == "results":
            table = SessionResultTable(session_result_lines(session))
        else:
            raise Http404("Export the standings or the results.")
        exporter = SafeTableExport("csv", table)
        return exporter.response(f"session-{session.date:%Y-%m-%d}-{which}.csv")
