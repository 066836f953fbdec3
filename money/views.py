"""Views of the money app: settle and reopen a session, its payout sheet, the club's ledger and
a player's own money. The pages keep their /club/ addresses.

Views stay thin: check a permission, call one service, add a message, redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.views.generic import View
from django.views.generic.base import TemplateResponseMixin
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from club.mixins import ClubMixin, SessionMixin
from club.models import Player, SessionState
from core.export import CsvExportMixin
from core.mixins import ClampedPaginator
from core.templatetags.pegboard import cents
from money import services
from money.filters import LedgerFilter
from money.forms import ReopenForm
from money.ledger_selectors import (
    club_ledger_entries,
    ledger_total_and_rows,
    pot_balances_and_rows,
)
from money.models import Pot, SkunkCoin
from money.selectors import (
    current_settlement,
    may_see_player_money,
    player_money,
    session_cash_box,
    session_cash_box_planned,
    settle_blockers,
)
from money.tables import LedgerTable

SHEET_SALT = "pegboard.money.settle-sheet"


def _sheet_token(session, plan: services.SettlePlan) -> str:
    """The hidden field of the payout sheet's "Settle and lock": the seed it was worked out from
    and its fingerprint, signed so that nobody chooses the cut of the cards."""
    return signing.dumps(
        {"session": session.pk, "seed": plan.seed, "fp": plan.fingerprint}, salt=SHEET_SALT
    )


def _read_sheet_token(session, token: str) -> dict | None:
    try:
        data = signing.loads(token or "", salt=SHEET_SALT, max_age=SHEET_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("session") != session.pk:
        return None
    return data


# A payout sheet older than this is worked out again before settling.
SHEET_MAX_AGE = 6 * 60 * 60


def _cut_lines(cuts, names: dict) -> list[dict]:
    """The cuts of the cards, for people: what each decided, who drew what, who won it."""
    return [
        {
            "decides": cut["decides"],
            "cards": [(names.get(pid, pid), card) for pid, card in cut["cards"]],
            "winner": names.get(cut["order"][0], ""),
        }
        for cut in cuts
    ]


class SettlePreviewView(PermissionRequiredMixin, SessionMixin, View):
    """The payout sheet before settling, exactly as settling will write it (same seed, same
    inputs: money.services.settle_plan), with "Settle and lock"; or what blocks settling."""

    permission_required = "money.settle_session"
    template_name = "money/settle_preview.html"

    def get(self, request, *args, **kwargs):
        session = self.get_session()
        if session.state == SessionState.SETTLED:
            return redirect("money:settlement", pk=session.pk)
        return self.render_preview(session)

    def render_preview(self, session, status: int = 200):
        blockers = settle_blockers(session)
        context = {"session": session, "blockers": blockers}
        if not blockers:
            plan = services.settle_plan(session, services.new_settle_seed())
            players = dict(session.checkins.values_list("player_id", "player__display_name"))
            context |= {
                "plan": plan,
                "payouts": [
                    {
                        "place": p.place,
                        "name": players.get(p.player_id, ""),
                        "cents": p.amount_cents,
                    }
                    for p in plan.pot.payouts
                    if p.amount_cents
                ],
                "cuts": _cut_lines(
                    [
                        {
                            "decides": cut.decides,
                            "cards": [[card.player_id, card.card] for card in cut.cards],
                            "order": list(cut.order),
                        }
                        for cut in plan.pot.cuts
                    ],
                    players,
                ),
                "side_pots": list(plan.sheet),
                "cash_box": session_cash_box_planned(session, plan),
                "sheet_token": _sheet_token(session, plan),
            }
        return render(self.request, self.template_name, context, status=status)


class SessionSettleView(SettlePreviewView):
    """ "Settle and lock" on the payout sheet: settles exactly the sheet shown. A press without
    a sheet, or on a sheet no longer true, shows the sheet as it is now instead."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        session = self.get_session()
        if session.state == SessionState.SETTLED:  # the button pressed twice: settled once
            messages.info(request, "This session is already settled: the payouts are below.")
            return redirect("money:settlement", pk=session.pk)
        sheet = _read_sheet_token(session, request.POST.get("sheet", ""))
        if sheet is None:
            messages.info(request, "Here is the payout sheet: check it, then settle and lock.")
            return redirect("money:settle_preview", pk=session.pk)
        try:
            services.session_settle(
                session=session, actor=request.user, seed=sheet["seed"], fingerprint=sheet["fp"]
            )
        except services.SettleChanged as error:
            messages.warning(request, error.messages[0])
            return self.render_preview(session, status=409)
        except ValidationError as error:
            messages.error(request, "The session cannot be settled yet:")
            for message in error.messages:
                messages.error(request, message)
            return redirect(reverse("web:session", args=[session.pk]) + "#settle")
        messages.success(request, "Session settled and locked: the payouts are below.")
        return redirect("money:settlement", pk=session.pk)


class SkunkCoinView(PermissionRequiredMixin, SessionMixin, View):
    """POST-only buttons of the session page's skunk coins: take one, take all, hand one back.
    Whoever takes the fees takes the coins."""

    permission_required = "club.change_checkin"

    def act(self, session):  # pragma: no cover - each view says what it does
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        session = self.get_session()
        try:
            message = self.act(session)
        except ValidationError as error:
            for text in error.messages:
                messages.error(request, text)
        else:
            messages.success(request, message)
        return redirect(reverse("web:session", args=[session.pk]) + "#skunk-coins")


class SkunkCoinPaidView(SkunkCoinView):
    def act(self, session):
        player = get_object_or_404(Player, pk=self.kwargs["player"], club=self.club)
        coin = services.skunk_coin_mark_paid(
            session=session,
            game_id=self.kwargs["game"],
            player_id=player.pk,
            actor=self.request.user,
        )
        return f"{player} paid a skunk coin of {cents(coin.cents)}."


class SkunkCoinsCollectView(SkunkCoinView):
    def act(self, session):
        coins = services.skunk_coins_collect(session=session, actor=self.request.user)
        total = sum(coin.cents for coin in coins)
        return f"{len(coins)} skunk coin{pluralize(len(coins))} taken: {cents(total)}."


class SkunkCoinBackView(SkunkCoinView):
    def act(self, session):
        coin = get_object_or_404(SkunkCoin, pk=self.kwargs["coin"], session=session)
        services.skunk_coin_hand_back(coin=coin, actor=self.request.user)
        return f"{coin.player}'s skunk coin of {cents(coin.cents)} handed back."


class SettlementView(PermissionRequiredMixin, SessionMixin, View):
    permission_required = "money.view_settlement"
    template_name = "money/settlement.html"

    def get(self, request, *args, **kwargs):
        session = self.get_session()
        current = current_settlement(session)
        names = dict(session.checkins.values_list("player_id", "player__display_name"))
        cuts = _cut_lines(current.cuts if current else [], names)
        context = {
            "session": session,
            "settlement": current,
            "payouts": current.payouts.all() if current else [],
            "cuts": cuts,
            "reopen_form": ReopenForm() if request.user.has_perm("money.settle_session") else None,
            "history": session.settlements.exclude(pk=current.pk if current else None),
            "cash_box": session_cash_box(session, current) if current else None,
            "side_pots": current.side_pots if current else [],
        }
        return render(request, self.template_name, context)


class SessionReopenView(PermissionRequiredMixin, SessionMixin, View):
    permission_required = "money.settle_session"

    def post(self, request, *args, **kwargs):
        session = self.get_session()
        form = ReopenForm(request.POST)
        if form.is_valid():
            try:
                services.session_reopen(
                    session=session, actor=request.user, reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                for message in error.messages:
                    messages.error(request, message)
            else:
                messages.success(request, "Session reopened: settle it again when it is right.")
                return redirect("web:session", pk=session.pk)
        else:
            messages.error(request, "Say why the session is reopened.")
        return redirect("money:settlement", pk=session.pk)


class LedgerView(PermissionRequiredMixin, ClubMixin, CsvExportMixin, SingleTableMixin, FilterView):
    """The club's ledger: every row into (+) and out of (-) the pots, newest first, a page at a
    time, filtered by session, kind, player and pot, with each pot's balance; `?_export=csv`
    downloads the filtered rows whole."""

    permission_required = "money.view_ledgerentry"
    template_name = "money/ledger.html"
    filterset_class = LedgerFilter
    table_class = LedgerTable
    # The table pages itself (django-tables2; out-of-range pages show the last one); no
    # `paginate_by`, which would have the list view count and page the rows a second time.
    table_pagination = {"per_page": 50}
    paginator_class = ClampedPaginator
    export_name = "ledger"
    _rows_listed: int | None = None  # how many rows the table lists, when already read

    def get_queryset(self):
        return club_ledger_entries(self.club)

    def get_filterset_kwargs(self, filterset_class):
        return {**super().get_filterset_kwargs(filterset_class), "club": self.club}

    def get_table_kwargs(self):
        return {"club": self.club, "pot_totals": self.pot_totals()}

    def pot_totals(self) -> dict[str, int]:
        """Every pot's balance now: shown above the table, and where its running balances
        start from."""
        if not hasattr(self, "_pot_totals"):
            self._pot_totals, self._club_rows = pot_balances_and_rows(self.club)
        return self._pot_totals

    def filter_failed(self) -> bool:
        return self.filterset.is_bound and not self.filterset.is_valid()

    def get_table_pagination(self, table):
        # The rows listed were counted with the sums already read: the club's every row with
        # the pots' balances, a filtered set with its total.
        paginate = super().get_table_pagination(table)
        if self._rows_listed is not None:
            paginate = {**paginate, "count": self._rows_listed}
        return paginate

    def get_context_data(self, **kwargs):
        balances = self.pot_totals()
        filtered = (
            self.filterset.is_bound
            and not self.filter_failed()
            and any(self.filterset.form.cleaned_data.values())
        )
        filtered_total = None
        self._rows_listed = None
        if filtered:
            filtered_total, self._rows_listed = ledger_total_and_rows(self.object_list)
        elif not self.filter_failed():
            self._rows_listed = self._club_rows
        return super().get_context_data(
            balances=[
                {"pot": pot, "label": label, "balance": balances[pot]} for pot, label in Pot.choices
            ],
            # The rows the filter picked add up to this (the club's side: + into the pots).
            filtered_total=filtered_total,
            **kwargs,
        )

    def render_to_response(self, context, **kwargs):
        if self.filter_failed():
            # A filter that does not check out: the page with the form's errors, never a
            # download of rows the organiser did not ask for.
            return TemplateResponseMixin.render_to_response(self, context, status=400, **kwargs)
        return super().render_to_response(context, **kwargs)


class PlayerMoneyView(PermissionRequiredMixin, ClubMixin, View):
    """A player's own money: their fees, payouts and side pots (organisers see anyone's)."""

    permission_required = "club.view_player"

    def get(self, request, pk):
        player = get_object_or_404(Player, pk=pk, club=self.club)
        if not may_see_player_money(request.user, player):
            raise PermissionDenied("This is another player's money.")
        # The ledger is the club's side (a fee is + into the pot); the player's is the opposite.
        rows = [(row, -row.amount_cents) for row in player_money(player)]
        return render(
            request,
            "money/player_money.html",
            {"player": player, "rows": rows, "total": sum(cents for _, cents in rows)},
        )
