"""The check-in row's money buttons with the fee per game (money.fee_services): take what a
player owes now, take an amount ahead, record the change given back, undo the last of these.
A refusal renders the session page again (400) with the reason on that row; another club's
session or check-in is a 404.

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views import View

from club.models import CheckIn
from core.templatetags.pegboard import cents
from money import fee_services
from money.forms import FeeAmountForm
from web.views import SessionPageMixin


class CheckInFeeView(SessionPageMixin, View):
    """POST-only: "take" (what is owed now, or with `amount` an amount ahead), "change" (the
    change due was given back), "undo" (the last payment or change)."""

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
            done = self._act(request, checkin)
        except ValidationError as error:
            message = " ".join(
                m
                for ms in getattr(error, "message_dict", {"": error.messages}).values()
                for m in ms
            )
            if not self.get_session().is_open:  # no buttons on its rows: say it on top
                messages.error(request, message)
            return self.render_page(
                status=400,
                fee_error={checkin.pk: message},
                fee_typed={checkin.pk: request.POST.get("amount", "")},
            )
        messages.success(request, done or f"Nothing to record for {player}.")
        return redirect(reverse("web:session", args=[kwargs["pk"]]) + f"#checkin-{checkin.pk}")

    def _act(self, request, checkin: CheckIn) -> str:
        player, actor = checkin.player, request.user
        if self.action == "change":
            given = fee_services.fee_change_give(checkin=checkin, actor=actor)
            return given and f"{cents(given.cents)} change given back to {player}."
        if self.action == "undo":
            undone = fee_services.fee_payment_undo(checkin=checkin, actor=actor)
            return undone and f"{player}'s last {undone.get_kind_display().lower()} undone."
        if "amount" not in request.POST:
            taken = fee_services.fee_take(checkin=checkin, actor=actor)
            return taken and f"{player} paid {cents(taken.cents)}."
        form = FeeAmountForm(request.POST)
        if not form.is_valid():
            raise ValidationError([m for errors in form.errors.values() for m in errors])
        taken = fee_services.fee_take(
            checkin=checkin,
            actor=actor,
            amount_cents=form.cleaned_data["amount"],
            kept_cents=form.cleaned_data["kept"],
        )
        return f"{player} paid {cents(taken.cents)} ahead."
