"""Views of the scoring app: the public hand counter and discard advisor; claims, muggins calls,
disputes, rulings and appeals; the judges' queue and a session's disputes report.

The counter and the advisor answer a plain GET form (works without JavaScript); with JavaScript
the page asks for just the result fragment (header `X-Requested-With: fetch`) and swaps it in
without a reload.
"""

from django.contrib import messages
from django.contrib.auth.mixins import PermissionRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.generic import TemplateView, View

from club.mixins import ClubMixin
from club.models import Player, Session
from core.mixins import PageMixin, add_service_errors
from core.submissions import AlreadySaved
from games.models import Game
from scoring import services
from scoring.forms import (
    ClaimForm,
    ConfirmCardsForm,
    DiscardForm,
    HandCounterForm,
    MugginsForm,
    RulingForm,
    StatementForm,
)
from scoring.models import Claim, Dispute, DisputeState, RulingDecision
from scoring.selectors import game_claims, judges_queue, session_claims

FRAGMENT_HEADER = "fetch"


class CardToolView(TemplateView):
    """A public page that answers a GET form about cards (the hand counter, the discard advisor):
    the whole page without JavaScript; just the answer's fragment for the page's script (header
    `X-Requested-With: fetch`). Subclasses name the form, which GET field asks the question and
    what of the valid form is the answer."""

    form_class: type
    asks: tuple[str, ...]
    answer_name: str
    fragment_template_name: str

    def is_fragment(self) -> bool:
        return self.request.headers.get("X-Requested-With") == FRAGMENT_HEADER

    def get_template_names(self):
        return [self.fragment_template_name if self.is_fragment() else self.template_name]

    def answer(self, form):
        raise NotImplementedError

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        asked = any(name in self.request.GET for name in self.asks)
        form = self.form_class(self.request.GET if asked else None)
        context["form"] = form
        context["fragment"] = self.is_fragment()
        context[self.answer_name] = self.answer(form) if asked and form.is_valid() else None
        return context


class HandCounterView(CardToolView):
    template_name = "scoring/counter.html"
    fragment_template_name = "scoring/includes/count_result.html"
    form_class = HandCounterForm
    asks = ("hand", "starter")
    answer_name = "counted"

    def answer(self, form):
        return form.counted


class DiscardAdvisorView(CardToolView):
    """The discard advisor: every lay-away of a dealt hand, best first."""

    template_name = "scoring/discard.html"
    fragment_template_name = "scoring/includes/discard_result.html"
    form_class = DiscardForm
    asks = ("cards",)
    answer_name = "advice"

    def answer(self, form):
        return form.advice


def game_claims_panel(request, game: Game) -> dict:
    """The game page's claims panel (registered with games.hooks in ScoringConfig.ready)."""
    user = request.user
    seated = user.is_authenticated and game.seats.filter(player__user=user).exists()
    organiser = user.has_perm(services.ORGANISER_PERMISSION)
    claims = list(game_claims(game))
    for claim in claims:
        claim.game = game  # the panel's game, with its session: no query per claim
        claim.disputed = getattr(claim, "dispute", None)
        claim.jackpot_hand = services.needs_card_confirmation(claim)
        claim.can_confirm = claim.jackpot_hand and services.can_confirm_cards(claim, user)
        claim.confirm_form = ConfirmCardsForm() if claim.can_confirm else None
    return {
        "claims": claims,
        "can_claim": game.session.is_open
        and (seated or organiser)
        and user.has_perm("scoring.add_claim"),
    }


class GameClaimMixin(PermissionRequiredMixin, ClubMixin):
    """Claims live on a game of the current club; the pages name sides by their players."""

    def seated(self, game: Game) -> list[tuple[int, str]]:
        return [
            (seat.player_id, seat.player.display_name)
            for seat in game.seats.select_related("player").order_by("position")
        ]

    def side_labels(self, game: Game) -> list[tuple[int, str]]:
        names: dict[int, list[str]] = {}
        for seat in game.seats.select_related("player").order_by("position"):
            names.setdefault(seat.side, []).append(seat.player.display_name)
        return [(side, " & ".join(members)) for side, members in sorted(names.items())]


class ClaimCreateView(GameClaimMixin, View):
    permission_required = "scoring.add_claim"
    template_name = "scoring/claim_form.html"

    def get_game(self) -> Game:
        game = get_object_or_404(
            Game.objects.select_related("session", "round"),
            pk=self.kwargs["pk"],
            session__club=self.club,
        )
        user = self.request.user
        seated = game.seats.filter(player__user=user).exists()
        if not seated and not user.has_perm(services.ORGANISER_PERMISSION):
            raise PermissionDenied("Only the players at this table or an organiser file claims.")
        return game

    def render_form(self, game, form, status=200):
        context = {"game": game, "session": game.session, "form": form}
        return render(self.request, self.template_name, context, status=status)

    def get(self, request, pk):
        game = self.get_game()
        seated = self.seated(game)
        mine = next(
            (
                pid
                for pid, _ in seated
                if game.seats.filter(player__user=request.user, player_id=pid).exists()
            ),
            None,
        )
        return self.render_form(game, ClaimForm(seated=seated, initial={"claimant": mine}))

    def post(self, request, pk):
        game = self.get_game()
        form = ClaimForm(request.POST, seated=self.seated(game))
        if form.is_valid():
            data = form.cleaned_data
            try:
                claim = services.claim_file(
                    game=game,
                    actor=request.user,
                    kind=data["kind"],
                    claimant=get_object_or_404(Player, pk=data["claimant"], club=self.club),
                    claimed_points=data["claimed_points"],
                    hand=data["hand"],
                    starter=data["starter"],
                    plays=data["plays"],
                    deal=data["deal"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                claim_pk = done.made_pk(Claim)
                if claim_pk:
                    return redirect("scoring:claim", pk=claim_pk)
                return redirect("games:game", pk=game.pk)
            except ValidationError as error:
                add_service_errors(form, error, field_map={"plays": None})
            else:
                outcome = services.current_outcome(claim)
                messages.success(request, outcome.explanation)
                if claim.impossible:
                    messages.warning(
                        request, f"{claim.claimed_points} is a count no {claim.kind} can make."
                    )
                return redirect("scoring:claim", pk=claim.pk)
        return self.render_form(game, form, status=400)


class ClaimMixin(PageMixin, GameClaimMixin):
    permission_required = "scoring.view_claim"
    template_name = "scoring/claim_detail.html"

    def get_claim(self) -> Claim:
        if not hasattr(self, "claim"):
            self.claim = get_object_or_404(
                Claim.objects.select_related(
                    "game__session",
                    "game__round",
                    "claimant",
                    "muggins_caller",
                    "cards_confirmed_by",
                    "cards_confirmed_by_player",
                ),
                pk=self.kwargs["pk"],
                game__session__club=self.club,
            )
        return self.claim

    def page_context(self, **overrides) -> dict:
        claim = self.get_claim()
        game = claim.game
        user = self.request.user
        organiser = user.has_perm(services.ORGANISER_PERMISSION)
        open_session = game.session.is_open
        dispute = Dispute.objects.filter(claim=claim).first()
        sides = self.side_labels(game)
        context = {
            "claim": claim,
            "game": game,
            "session": game.session,
            "sides": sides,
            "outcomes": claim.outcomes.all(),
            "outcome": services.current_outcome(claim),
            "dispute": dispute,
            "rulings": (
                dispute.rulings.select_related("judge", "judge_player", "result").prefetch_related(
                    "judge__players"
                )
                if dispute
                else []
            ),
        }
        # Who is a party is fixed when the claim is filed (claim.parties), not read from the seats.
        me = Player.objects.filter(user_id=user.pk).values_list("pk", flat=True).first()
        my_side = claim.party_side(me) if user.is_authenticated else None
        muggins_open = services.can_call_muggins(claim) and (
            organiser or (my_side is not None and my_side != claim.claimant_side)
        )
        if muggins_open:
            opponents = [
                (player.pk, player.display_name)
                for player in Player.objects.filter(pk__in=claim.opponent_ids)
                if organiser or claim.party_side(player.pk) == my_side
            ]
            context["muggins_form"] = MugginsForm(opponents=opponents)
        context["jackpot_hand"] = services.needs_card_confirmation(claim)
        if context["jackpot_hand"] and services.can_confirm_cards(claim, user):
            context["confirm_form"] = ConfirmCardsForm()
        if open_session and my_side is not None and dispute is None:
            context["dispute_form"] = StatementForm()
        if dispute is not None and open_session:
            if my_side is not None and dispute.state == DisputeState.RULED:
                context["appeal_form"] = StatementForm()
            if services.can_rule(dispute, user):
                context["ruling_form"] = RulingForm(sides=sides)
            from scoring.judge_views import judge_panel  # it builds on this module's views

            context.update(
                judge_panel(self.request, dispute, bound=overrides.get("name_judge_form"))
            )
        context.update(overrides)
        return context

    def back(self):
        return redirect("scoring:claim", pk=self.get_claim().pk)


class ClaimDetailView(ClaimMixin, View):
    def get(self, request, pk):
        return self.render_page()


class MugginsView(ClaimMixin, View):
    permission_required = "scoring.add_claim"

    def post(self, request, pk):
        claim = self.get_claim()
        opponents = [
            (player.pk, player.display_name)
            for player in Player.objects.filter(pk__in=claim.opponent_ids)
        ]
        form = MugginsForm(request.POST, opponents=opponents)
        if form.is_valid():
            try:
                outcome = services.muggins_call(
                    claim=claim,
                    actor=request.user,
                    caller=get_object_or_404(
                        Player, pk=form.cleaned_data["caller"], club=self.club
                    ),
                    points=form.cleaned_data["points"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return self.back()
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, outcome.explanation)
                return self.back()
        return self.render_page(status=400, muggins_form=form)


class ClaimConfirmCardsView(ClaimMixin, View):
    """A player of another side (or a judge who is not a party) has seen a jackpot hand's cards."""

    permission_required = "scoring.view_claim"

    def post(self, request, pk):
        claim = self.get_claim()
        form = ConfirmCardsForm(request.POST)
        back = redirect(f"{reverse('games:game', args=[claim.game_id])}#claims")
        if not form.is_valid():
            messages.error(request, " ".join(form.non_field_errors()))
            return back
        try:
            services.claim_confirm_cards(
                claim=claim, actor=request.user, token=form.submission_token()
            )
        except AlreadySaved as done:
            messages.info(request, done.message)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, f"Cards confirmed: {' '.join(claim.card_list())}.")
        return back


class DisputeOpenView(ClaimMixin, View):
    permission_required = "scoring.add_dispute"

    def post(self, request, pk):
        form = StatementForm(request.POST)
        if form.is_valid():
            try:
                services.dispute_open(
                    claim=self.get_claim(),
                    actor=request.user,
                    statement=form.cleaned_data["statement"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return self.back()
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, "Disputed: a judge who is not at this table will rule.")
                return self.back()
        return self.render_page(status=400, dispute_form=form)


class DisputeActionMixin(ClaimMixin):
    def get_claim(self) -> Claim:
        if not hasattr(self, "claim"):
            self.dispute = get_object_or_404(
                Dispute, pk=self.kwargs["pk"], claim__game__session__club=self.club
            )
            self.kwargs["pk"] = self.dispute.claim_id
            self.claim = super().get_claim()
        return self.claim


class DisputeRuleView(DisputeActionMixin, View):
    permission_required = services.JUDGE_PERMISSION

    def post(self, request, pk):
        claim = self.get_claim()
        decision = request.POST.get("decision", "")
        form = RulingForm(request.POST, sides=self.side_labels(claim.game))
        valid = form.is_valid()
        # The reason is kept whatever the decision, so it always passes the form's checks (a NUL
        # character, which PostgreSQL cannot store, is a form error, not a 500).
        if form.has_error("reason") or (decision == RulingDecision.OVERRIDE and not valid):
            return self.render_page(status=400, ruling_form=form)
        points = form.points() if decision == RulingDecision.OVERRIDE else None
        try:
            ruling = services.dispute_rule(
                dispute=self.dispute,
                actor=request.user,
                decision=decision,
                points=points,
                reason=form.cleaned_data.get("reason", ""),
                token=form.submission_token(),
            )
        except AlreadySaved as done:
            messages.info(request, done.message)
            return self.back()
        except ValidationError as error:
            add_service_errors(form, error)
            return self.render_page(status=400, ruling_form=form)
        final = " This ruling is final." if ruling.level == 2 else ""
        messages.success(
            request, f"Ruled: {ruling.get_decision_display().lower()}. {ruling.note}{final}"
        )
        return self.back()


class DisputeAppealView(DisputeActionMixin, View):
    permission_required = "scoring.add_dispute"

    def post(self, request, pk):
        claim = self.get_claim()
        form = StatementForm(request.POST)
        if form.is_valid():
            try:
                services.dispute_appeal(
                    dispute=self.dispute,
                    actor=request.user,
                    statement=form.cleaned_data["statement"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect("scoring:claim", pk=claim.pk)
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, "Appealed: a different judge gives the final ruling.")
                return redirect("scoring:claim", pk=claim.pk)
        return self.render_page(status=400, appeal_form=form)


class JudgesQueueView(PermissionRequiredMixin, ClubMixin, View):
    permission_required = services.JUDGE_PERMISSION

    def get(self, request):
        disputes = list(judges_queue(self.club))
        for dispute in disputes:
            dispute.refusal = services.rule_refusal(dispute, request.user)
            dispute.can_rule = dispute.refusal is None
            dispute.can_name = services.can_name_judge(dispute, request.user)
        return render(request, "scoring/queue.html", {"disputes": disputes})


class SessionDisputesReportView(PermissionRequiredMixin, ClubMixin, View):
    permission_required = "scoring.view_ruling"

    def get(self, request, pk):
        session = get_object_or_404(Session, pk=pk, club=self.club)
        claims = list(session_claims(session))
        return render(
            request,
            "scoring/session_report.html",
            {
                "session": session,
                "claims": claims,
                "disputed": [claim for claim in claims if hasattr(claim, "dispute")],
                "can_name": request.user.has_perm(services.ORGANISER_PERMISSION),
            },
        )
