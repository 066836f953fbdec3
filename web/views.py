"""Views of the web app: the home page (with a member's table in their current round), and the
session page that puts one morning together (check-in, rounds, settling, standings, highlights
and results from the apps below), with the check-in actions that render it again on an error and
its CSV downloads.

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
"""

from __future__ import annotations

from functools import cache

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.backends.utils import csrf_input
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.generic import TemplateView, View
from django_tables2 import RequestConfig

from club import services
from club.backends import member_player_id
from club.forms import CheckInForm
from club.mixins import ClubMixin, PublicReadMixin, SessionMixin
from club.models import CheckIn
from club.pin_waits import FREE_WRONG_PINS, LONGEST_WAIT, wait_text
from club.selectors import (
    banner_session,
    checkin_candidates,
    next_session,
    session_checkins,
    session_fee_totals,
    session_wrong_pins,
)
from club.services.logins import ORGANISER_PERMISSION
from core.export import csv_response, requested_format
from core.mixins import ClampedPaginator, PageMixin, add_service_errors
from core.templatetags.pegboard import cents
from games.selectors import member_table, session_result_lines, session_standings
from games.tables import SessionResultTable, StandingTable
from money.fee_selectors import checkins_with_fees
from money.selectors import (
    current_settlement,
    session_cash_box,
    settle_blockers,
    skunk_coin_lines,
)
from scoring.selectors import judges_queue
from scoring.services import JUDGE_PERMISSION
from standings.highlights import session_highlights_cached
from web.checkin_rows import (
    RowPage,
    add_row_notes,
    add_row_urls,
    checkin_rows_html,
    coin_rows,
    leaves_options,
    sits_options,
)
from web.round_lines import (
    games_to_settle,
    seated_players,
    session_round_lines,
    skunked_lines,
)


class HomeView(ClubMixin, TemplateView):
    template_name = "web/home.html"
    club_optional = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.club is not None:
            user = self.request.user
            context["next_session"] = next_session(self.club)
            # The banner links to the session open for it (web:session), for those who read it.
            if self.club.standings_public or user.has_perm("club.view_session"):
                session = banner_session(self.club)
                context["banner_session"] = session
                # Moved off the club's usual day: the banner shows the session's own date.
                moved = session is not None and session.date != context["next_session"].day
                context["banner_moved"] = moved
            context["player_count"] = self.club.players.filter(active=True).count()
            # "Find your table": the member's seat in their current round (games.selectors).
            player_id = member_player_id(user)
            context["your_table"] = member_table(self.club, player_id)
            # A member's own money page (money.selectors.may_see_player_money: their own).
            context["money_player_id"] = player_id if user.has_perm("club.view_player") else None
            if user.has_perm(JUDGE_PERMISSION):  # judges and organisers: the disputes queue
                context["disputes_waiting"] = judges_queue(self.club).count()
            context["today"] = timezone.localdate()
        return context


RESULTS_PER_PAGE = 40


class SessionPageMixin(PageMixin, PermissionRequiredMixin, SessionMixin):
    """The session page: everything about that morning on one screen. POST views that fail
    validation render it again with their bound form."""

    permission_required = "club.view_session"
    template_name = "web/session.html"

    def page_context(self, **overrides) -> dict:
        session = self.get_session()
        user = self.request.user
        standings = StandingTable(session_standings(session))
        RequestConfig(self.request, paginate=False).configure(standings)
        # The rounds above show every game; the line-by-line table comes a page at a time (the
        # CSV has it whole), so a 40-player morning stays quick to load on a phone.
        rounds = session_round_lines(session)  # every table of every round (web/round_lines.py)
        results = SessionResultTable(session_result_lines(session), prefix="results-")
        paginate = {"per_page": RESULTS_PER_PAGE, "paginator_class": ClampedPaginator}
        RequestConfig(self.request, paginate=paginate).configure(results)
        checkins = list(session_checkins(session))  # read once: rows, totals, cash box
        seated = seated_players(rounds)  # a check-in with a seat can no longer be undone
        for checkin in checkins:
            checkin.seated = checkin.player_id in seated
        context = {
            "session": session,
            "rules": session.house_rules,
            "checkins": checkins,
            "totals": session_fee_totals(session, checkins),
            "rounds": rounds,
            "standings": standings,
            "results": results,
            "highlights": session_highlights_cached(session),
            "can_manage": user.has_perm("club.add_checkin") and session.is_open,
            "show_fees": user.has_perm("club.view_checkin"),
            "can_draw": user.has_perm("games.add_round") and session.is_open,
            "next_round": len(rounds) + 1,
            "can_settle": user.has_perm("money.settle_session") and session.is_open,
        }
        if session.is_open and user.has_perm("games.correct_result"):
            # The rounds whose scorecards can still be typed in: a table played, without a
            # confirmed result (games:round_scorecards; a game not played has none to type).
            context["scorecard_rounds"] = {r.pk for r in rounds if r.scorecards_open}
        if context["show_fees"] and session.house_rules.fee_per_game:
            # Owed and paid per game (the check-in rows of web/session.html).
            context["checkins"], context["totals"] = checkins_with_fees(
                session, context["checkins"]
            )
            context["fee_error"] = {}
        settlement = current_settlement(session) if not session.is_open else None
        if settlement is not None:
            # The payout sheet as clubs pin it on the wall: places, names and amounts, and who
            # won a side pot; whoever reads the session page reads it (docs/decisions/money.md).
            context["wall_payouts"] = [p for p in settlement.payouts.all() if p.amount_cents]
            context["wall_side_pots"] = [pot for pot in settlement.side_pots if pot["winners"]]
        if context["show_fees"]:
            context["skunk_coins"] = coins = skunk_coin_lines(
                session, skunked=skunked_lines(rounds)
            )
            context["skunk_coin_rows"] = coin_rows(session, coins)  # with their addresses
            context["cash_box"] = session_cash_box(
                session, settlement, checkins=checkins, coins=coins
            )
            context["side_pots"] = settlement.side_pots if settlement else []
            context["can_collect"] = user.has_perm("club.change_checkin") and session.is_open
        if context["can_settle"]:
            context["blockers"] = settle_blockers(
                session,
                coins=context.get("skunk_coins"),
                checkins=checkins,
                games=games_to_settle(rounds),
            )
        if user.has_perm(ORGANISER_PERMISSION):  # who sets others' PINs
            context["wrong_pins"] = session_wrong_pins(session)
            context["pin_free_wrong"] = FREE_WRONG_PINS
            context["pin_longest_wait"] = wait_text(LONGEST_WAIT)
        if context["can_manage"]:
            # Blank, its name box focused when someone was just checked in (written once).
            just_checked_in = self.request.GET.get("then") == "checkin"
            context["checkin_form_html"] = blank_checkin_form_html(just_checked_in)
            context["candidates"] = checkin_candidates(session)
            # The rounds a player may leave after or sit out (the check-in rows, web/session.html).
            round_numbers = range(1, session.house_rules.rounds_per_session + 1)
            context["rounds_drawn"] = len(rounds)
            # Built once for every row (web/checkin_rows.py): the buttons' addresses and the
            # rounds' options.
            add_row_urls(session, context["checkins"])
            context["leaves_options"] = leaves_options(round_numbers, len(rounds))
            context["sits_options"] = sits_options(
                round_numbers, len(rounds), context["next_round"]
            )
        if context["can_manage"] or context.get("can_collect"):
            context["csrf_input"] = csrf_input(self.request)  # the rows' forms' token, made once
        context.update(overrides)
        if "checkin_form" in overrides:  # a name refused: the form as typed, with what to fix
            form = {"form": overrides["checkin_form"]}
            context["checkin_form_html"] = render_to_string("includes/form.html", form)
        add_row_notes(context["checkins"], context)  # with the overrides' refusals
        # The check-in table's rows, written once (web/checkin_rows.py).
        context["checkin_rows"] = checkin_rows_html(
            context["checkins"],
            RowPage(
                show_fees=context["show_fees"],
                can_manage=context["can_manage"],
                csrf_input=context.get("csrf_input", ""),
                leaves_options=context.get("leaves_options", ""),
                sits_options=context.get("sits_options", ""),
                rounds_drawn=len(rounds),
                rounds_per_session=session.house_rules.rounds_per_session,
                fee_refused=bool(context.get("fee_error")),
            ),
        )
        return context


@cache
def blank_checkin_form_html(autofocus: bool) -> str:
    """The check-in form's fields before anything is typed, written once per process: the same
    for every session and every request (its name box focused or not), and rendering a form's
    fields through their widgets' templates costs the session page more than anything else in
    its check-in card."""
    form = CheckInForm(club=None)
    if autofocus:
        form.fields["name"].widget.attrs["autofocus"] = True
    return render_to_string("includes/form.html", {"form": form})


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
                # Back at the name box, focused (autofocus, which also scrolls to it; browsers
                # skip autofocus when the address has a #fragment), for the next at the door.
                return redirect(reverse("web:session", args=[session.pk]) + "?then=checkin")
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
                messages.success(request, f"{checkin.player} paid {cents(checkin.owed_cents)}.")
            elif self.action == "unpaid":
                services.fee_mark_unpaid(checkin=checkin, actor=request.user)
                messages.success(request, f"{checkin.player}'s payment taken back.")
            else:
                services.checkin_undo(checkin=checkin, actor=request.user)
                messages.success(request, f"{checkin.player}'s check-in undone.")
        except ValidationError as error:
            # The refusal is shown on the row pressed (the page again, 400, as a form's errors).
            return self.render_page(status=400, row_errors={checkin.pk: " ".join(error.messages)})
        # Back at the row just changed (a check-in undone has no row: the card's top).
        anchor = "#checkin" if self.action == "undo" else f"#checkin-{checkin.pk}"
        return redirect(reverse("web:session", args=[kwargs["pk"]]) + anchor)


class CheckInAbsenceView(SessionPageMixin, View):
    """POST-only forms on a check-in for the rounds a player is not drawn in: leaves after round
    N (and its undo), sits out round N (and its undo). A refusal renders the page again (400)
    with the reason on that row."""

    permission_required = "club.change_checkin"
    action = ""

    def post(self, request, *args, **kwargs):
        checkin = get_object_or_404(
            CheckIn.objects.select_related("player"),
            pk=kwargs["checkin"],
            session_id=kwargs["pk"],
            session__club=self.club,
        )
        player = checkin.player
        try:
            number = self._round_number(request)
            if self.action == "leaves":
                services.checkin_leaves_after(
                    checkin=checkin, actor=request.user, round_number=number
                )
                done = f"{player} leaves after round {number}: later draws leave him out."
            elif self.action == "leaves_undo":
                services.checkin_leaves_undo(checkin=checkin, actor=request.user)
                done = f"{player} stays: the next draw seats him again."
            elif self.action == "sits_out":
                services.checkin_sits_out(checkin=checkin, actor=request.user, round_number=number)
                done = f"{player} sits out round {number}."
            else:
                services.checkin_sits_out_undo(
                    checkin=checkin, actor=request.user, round_number=number
                )
                done = f"{player} plays in round {number} again."
        except ValidationError as error:
            return self.render_page(
                status=400, absence_error={checkin.pk: " ".join(error.messages)}
            )
        messages.success(request, done)
        return redirect(reverse("web:session", args=[kwargs["pk"]]) + f"#checkin-{checkin.pk}")

    def _round_number(self, request) -> int:
        if self.action == "leaves_undo":
            return 0
        try:
            return int(request.POST.get("round", ""))
        except ValueError:
            raise ValidationError("Choose a round.") from None


class SessionExportView(PublicReadMixin, SessionPageMixin, View):
    """The session's standings or results as CSV, the same columns and order as on the page
    (CSV only, like every download: `?_export=` with another value is a 400)."""

    def get(self, request, *args, **kwargs):
        requested_format(request)
        session = self.get_session()
        which = request.GET.get("table", "standings")
        if which == "standings":
            table = StandingTable(session_standings(session))
            RequestConfig(request, paginate=False).configure(table)
        elif which == "results":
            table = SessionResultTable(session_result_lines(session))
        else:
            raise Http404("Export the standings or the results.")
        return csv_response(table, f"session-{session.date:%Y-%m-%d}-{which}.csv")
