"""Naming a player present as judge for one dispute, and that player's one-time link, `/j/<key>/`,
where they rule on their own phone without a login (scoring.services.dispute_name_judge,
link_dispute_rule; club.services.player_links).

Terms:
- judge panel: on the claim page, what an organiser sees of a dispute waiting for a judge: who is
  named, the "Name a judge for this dispute" form (players checked in who are not parties), and,
  in the browser that named them, the link with its QR code to hand over.
- judge link page: the claim, the engine's count with its breakdown, the statement, and the
  judge's ruling form (agree with the engine, or override with points and a reason), with the
  PIN when the session asks for table PINs. Used, its page says what was ruled (410); replaced,
  expired or its session settled, a 410 with the sentence; a key we never made, a 404. Every
  answer is never cached, like a table link's.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.generic import View

from club.models import Player, PlayerLinkPurpose
from club.services import player_link_find
from club.views.logins import never_cached
from club.views.player_links import player_link_handover, remember_player_link
from core.mixins import add_service_errors
from core.submissions import AlreadySaved
from scoring import services
from scoring.forms import LinkRulingForm, NameJudgeForm
from scoring.models import Dispute, DisputeState, RulingDecision
from scoring.views import DisputeActionMixin

JUDGE = PlayerLinkPurpose.JUDGE
LINK_NAV = [("Home", "home"), ("Hand counter", "scoring:counter")]
JUST_RULED = "pegboard_judge_link_ruled"  # the browser that just ruled sees the page once (200)
NO_SUCH_LINK = (
    "No dispute has this link. Check the address, or ask the organiser to show the code again."
)


def name_judge_form(dispute: Dispute, data=None) -> NameJudgeForm:
    candidates = [(p.pk, p.display_name) for p in services.judge_candidates(dispute)]
    return NameJudgeForm(data, candidates=candidates, auto_id="judge_%s")


def judge_panel(request, dispute: Dispute | None, *, bound: NameJudgeForm | None = None) -> dict:
    """The claim page's judge panel (see the terms) and, for a judge who may not rule, why."""
    if dispute is None or not dispute.is_open:
        return {}
    user = request.user
    context: dict = {"named_judge": dispute.named_judge}
    if not services.can_rule(dispute, user) and user.has_perm(services.JUDGE_PERMISSION):
        context["rule_refusal"] = services.rule_refusal(dispute, user)
    if services.can_name_judge(dispute, user):
        context["name_judge_form"] = bound or name_judge_form(dispute)
        if dispute.named_judge_id:
            context["judge_handover"] = player_link_handover(
                request,
                JUDGE,
                dispute.pk,
                "judge_link:page",
                f"Judge's link for {dispute.named_judge.display_name}",
            )
    return context


class DisputeNameJudgeView(DisputeActionMixin, View):
    """An organiser names a player present as judge for this dispute; the link is shown."""

    permission_required = services.ORGANISER_PERMISSION

    def post(self, request, pk):
        self.get_claim()
        dispute = self.dispute
        form = name_judge_form(dispute, request.POST)
        if form.is_valid():
            player = get_object_or_404(Player, pk=form.cleaned_data["player"], club=self.club)
            try:
                token = services.dispute_name_judge(
                    dispute=dispute,
                    actor=request.user,
                    player=player,
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect(f"{reverse('scoring:claim', args=[dispute.claim_id])}#judge")
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                remember_player_link(request, JUDGE, dispute.pk, token)
                messages.success(
                    request,
                    f"{player} is named judge for this dispute: show them the code below to "
                    "open on their phone.",
                )
                return redirect(f"{reverse('scoring:claim', args=[dispute.claim_id])}#judge")
        return self.render_page(status=400, name_judge_form=form)


def _page(request, template: str, context: dict, status: int = 200):
    context = {"nav_items": LINK_NAV, **context}
    return never_cached(render(request, template, context, status=status))


class JudgeLinkView(View):
    """The named judge's one-time link (see the terms)."""

    def dispatch(self, request, *args, **kwargs):
        self.link = player_link_find(kwargs["key"], JUDGE)
        if self.link is None:
            return _page(
                request, "scoring/judge_link_missing.html", {"sentence": NO_SUCH_LINK}, 404
            )
        self.dispute = services.judge_link_dispute(self.link)
        refusal = services.judge_link_refusal(self.link, self.dispute)
        if refusal:
            # Right after ruling, this browser reads what it ruled (200); any later open is 410.
            just_ruled = request.session.pop(JUST_RULED, None) == self.link.pk
            return self.closed(refusal, status=200 if just_ruled else 410)
        return super().dispatch(request, *args, **kwargs)

    def closed(self, refusal: str, status: int = 410):
        dispute = self.dispute
        context = {"refusal": refusal, "link": self.link, "club": self.link.session.club}
        if dispute is not None:
            context.update(
                dispute=dispute,
                claim=dispute.claim,
                game=dispute.claim.game,
                rulings=dispute.rulings.select_related("judge", "judge_player", "result"),
            )
        return _page(
            request=self.request, template="scoring/judge_link.html", context=context, status=status
        )

    def sides(self):
        game = self.dispute.claim.game
        labels = []
        for side in range(game.side_count):
            names = [
                seat.player.display_name
                for seat in game.seats.select_related("player").order_by("position")
                if seat.side == side
            ]
            labels.append((side, " & ".join(names)))
        return labels

    def forms(self, data=None, decision: str = ""):
        pin = self.link.session.house_rules.table_pins
        agree = LinkRulingForm(
            data if decision == RulingDecision.AGREE else None,
            sides=self.sides(),
            pin=pin,
            override=False,
            auto_id="agree_%s",
        )
        override = LinkRulingForm(
            data if decision == RulingDecision.OVERRIDE else None,
            sides=self.sides(),
            pin=pin,
            auto_id="override_%s",
        )
        return agree, override

    def render_form(self, agree, override, status=200):
        dispute = self.dispute
        claim = dispute.claim
        context = {
            "link": self.link,
            "club": self.link.session.club,
            "dispute": dispute,
            "claim": claim,
            "game": claim.game,
            "sides": self.sides(),
            "outcome": services.current_outcome(claim),
            "rulings": dispute.rulings.select_related("judge", "judge_player", "result"),
            "agree_form": agree,
            "override_form": override,
            "appeal": dispute.state == DisputeState.APPEALED,
        }
        return _page(self.request, "scoring/judge_link.html", context, status)

    def get(self, request, key):
        return self.render_form(*self.forms())

    def post(self, request, key):
        decision = request.POST.get("decision", "")
        agree, override = self.forms(request.POST, decision)
        form = override if decision == RulingDecision.OVERRIDE else agree
        if decision not in RulingDecision.values:
            agree, _ = self.forms(request.POST, RulingDecision.AGREE)
            agree.is_valid()
            agree.add_error(None, "Press Agree with the engine, or Override with these points.")
            return self.render_form(agree, override, 400)
        if not form.is_valid():
            return self.render_form(agree, override, 400)
        try:
            ruling = services.link_dispute_rule(
                link=self.link,
                decision=decision,
                points=form.points() if decision == RulingDecision.OVERRIDE else None,
                reason=form.cleaned_data.get("reason", ""),
                pin=form.typed_pin(),
            )
        except ValidationError as error:
            self.link.refresh_from_db()
            refusal = services.judge_link_refusal(self.link, self.dispute)
            if refusal:
                return self.closed(refusal)
            add_service_errors(form, error)
            return self.render_form(agree, override, 400)
        request.session[JUST_RULED] = self.link.pk
        messages.success(
            request,
            f"Ruled by {ruling.judge_name}: {ruling.get_decision_display().lower()}. {ruling.note}",
        )
        return redirect(reverse("judge_link:page", args=[key]))
