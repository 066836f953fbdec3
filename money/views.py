"""Views of the money app: settle and reopen a session, its payout sheet, the club's ledger and
a player's own money. The pages keep their /club/ addresses.

Views stay thin: check a permission, call one service, add a message, redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.generic import View

from club.models import Player
from club.web import ClubMixin, SessionMixin
from money import services
from money.forms import ReopenForm
from money.models import Pot
from money.selectors import club_ledger, current_settlement, player_money, pot_balances


class SessionSettleView(PermissionRequiredMixin, SessionMixin, View):
    permission_required = "money.settle_session"

    def post(self, request, *args, **kwargs):
        session = self.get_session()
        try:
            services.session_settle(session=session, actor=request.user)
        except ValidationError as error:
            messages.error(request, "The session cannot be settled yet:")
            for message in error.messages:
                messages.error(request, message)
            return redirect(reverse("web:session", args=[session.pk]) + "#settle")
        messages.success(request, "Session settled: the payouts are below.")
        return redirect("money:settlement", pk=session.pk)


class SettlementView(PermissionRequiredMixin, SessionMixin, View):
    permission_required = "money.view_settlement"
    template_name = "money/settlement.html"

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
            "reopen_form": ReopenForm() if request.user.has_perm("money.settle_session") else None,
            "history": session.settlements.exclude(pk=current.pk if current else None),
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


class LedgerView(PermissionRequiredMixin, ClubMixin, View):
    permission_required = "money.view_ledgerentry"

    def get(self, request):
        pots = [
            {"pot": pot, "label": label, "lines": club_ledger(self.club, pot)}
            for pot, label in Pot.choices
        ]
        balances = pot_balances(self.club)
        for pot in pots:
            pot["balance"] = balances[pot["pot"]]
        return render(request, "money/ledger.html", {"pots": pots})


class PlayerMoneyView(PermissionRequiredMixin, ClubMixin, View):
    """A player's own money: their fees, payouts and side pots (organisers see anyone's)."""

    permission_required = "club.view_player"

    def get(self, request, pk):
        player = get_object_or_404(Player, pk=pk, club=self.club)
        anyones = request.user.has_perm("money.view_ledgerentry")
        if player.user_id != request.user.pk and not anyones:
            raise PermissionDenied("This is another player's money.")
        # The ledger is the club's side (a fee is + into the pot); the player's is the opposite.
        rows = [(row, -row.amount_cents) for row in player_money(player)]
        return render(
            request,
            "money/player_money.html",
            {"player": player, "rows": rows, "total": sum(cents for _, cents in rows)},
        )
