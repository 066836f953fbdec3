"""A correction proposed by a player of the game and accepted by the other side
(games.services.corrections): the proposal panel of the game page, its two posts, and the
acceptance link `/a/<key>/` a player of the other side opens on their phone without a login.

Terms:
- proposal panel: for a player of the game looking at its confirmed result, why the direct
  correction form is not theirs and the "Propose a correction" form instead; an open proposal,
  with its link and QR code in the browser that proposed it, and "Withdraw".
- acceptance page: the recorded scores and the proposed ones, the reason, who proposed it, and an
  Accept button for each player of the other side (with their PIN when the session asks for table
  PINs). A key we never made is a 404; a used, replaced or withdrawn link a 410 with the sentence.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.generic import View

from club.models import Player, PlayerLinkPurpose
from club.services import player_link_find
from club.views.logins import never_cached
from club.views.player_links import player_link_handover, remember_player_link
from core.mixins import add_service_errors
from core.submissions import AlreadySaved
from games import services
from games.forms import CorrectionForm, TableAcceptForm
from games.models import CorrectionProposal, GameStatus, ResultState
from games.views import GameMixin

ACCEPT = PlayerLinkPurpose.ACCEPT
LINK_NAV = [("Home", "home"), ("Hand counter", "scoring:counter")]
OWN_GAME = (
    "You play in this game, so you do not correct its result alone: propose a correction here. "
    "It takes effect when a player of the other side accepts it."
)


def correction_panel(request, game, current, sides, bound=None) -> dict:
    """The proposal panel of the game page (see the terms), or nothing."""
    user = request.user
    if not user.is_authenticated or current is None or current.state != ResultState.CONFIRMED:
        return {}
    if not (game.session.is_open and game.status == GameStatus.PLAYED):
        return {}
    seat = game.seats.filter(player__user=user).first()
    if seat is None:
        return {}
    proposal = services.open_proposal(game)
    context = {"correction_refusal": OWN_GAME, "proposal": proposal}
    initial = {f"side_{i}": score for i, score in enumerate(current.scores)}
    context["proposal_form"] = bound or CorrectionForm(game=game, sides=sides, initial=initial)
    if proposal is not None:
        context["proposal_mine"] = proposal.proposed_side == seat.side
        context["accept_handover"] = player_link_handover(
            request, ACCEPT, proposal.pk, "accept_link:page", f"Accept the correction of {game}"
        )
    return context


class CorrectionProposeView(GameMixin, View):
    """A player of the game proposes a correction of its confirmed result."""

    permission_required = "games.add_result"

    def post(self, request, pk):
        game = self.get_game()
        form = CorrectionForm(request.POST, game=game, sides=self.sides())
        if form.is_valid():
            try:
                proposal, token = services.correction_propose(
                    game=game,
                    actor=request.user,
                    scores=form.scores(),
                    reason=form.cleaned_data["reason"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return self.back()
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                remember_player_link(request, ACCEPT, proposal.pk, token)
                messages.success(
                    request,
                    "Correction proposed: a player of the other side accepts it with the code "
                    "below. Until then the confirmed result stands.",
                )
                return redirect(f"{reverse('games:game', args=[game.pk])}#proposal")
        return self.render_page(status=400, proposal_form=form)


class CorrectionWithdrawView(GameMixin, View):
    permission_required = "games.add_result"

    def post(self, request, pk, proposal):
        game = self.get_game()
        found = get_object_or_404(CorrectionProposal, pk=proposal, game=game)
        try:
            services.correction_withdraw(proposal=found, actor=request.user)
        except (ValidationError, PermissionDenied) as error:
            text = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
            messages.error(request, text)
        else:
            messages.success(request, "Proposed correction withdrawn: the confirmed result stands.")
        return self.back()


def _page(request, context: dict, status: int = 200):
    context = {"nav_items": LINK_NAV, **context}
    return never_cached(render(request, "games/accept_link.html", context, status=status))


class AcceptLinkView(View):
    """The acceptance link of a proposed correction (see the terms)."""

    def dispatch(self, request, *args, **kwargs):
        self.link = player_link_find(kwargs["key"], ACCEPT)
        if self.link is None:
            sentence = "No proposed correction has this link. Check the address."
            return _page(request, {"missing": sentence}, 404)
        self.proposal = services.link_proposal(self.link)
        refusal = services.accept_refusal(self.link, self.proposal)
        if refusal:
            just = request.session.pop("pegboard_accept_link_done", None) == self.link.pk
            return _page(request, self.context(refusal=refusal), 200 if just else 410)
        return super().dispatch(request, *args, **kwargs)

    def context(self, **extra) -> dict:
        proposal = self.proposal
        context = {"link": self.link, "club": self.link.session.club, "proposal": proposal}
        if proposal is not None:
            game = proposal.game
            names = [[] for _ in range(game.side_count)]
            for seat in game.seats.select_related("player").order_by("position"):
                names[seat.side].append(seat.player.display_name)
            before = dict(enumerate(proposal.base.scores))
            context.update(
                game=game,
                rows=[
                    (" & ".join(names[side]), before.get(side, "–"), proposal.scores[side])
                    for side in range(game.side_count)
                ],
            )
        context.update(extra)
        return context

    def forms(self, bound=None):
        pin = self.link.session.house_rules.table_pins
        forms = []
        for seat in services.acceptors(self.proposal):
            player = seat.player
            posted = bound is not None and bound.data.get("player") == str(player.pk)
            form = bound if posted else None
            if form is None:
                form = TableAcceptForm(
                    pin=pin,
                    name=player.display_name,
                    initial={"player": player.pk},
                    auto_id=f"accept_{player.pk}_%s",
                )
            forms.append((player, form))
        if bound is not None and not any(form is bound for _, form in forms):
            forms.insert(0, (None, bound))  # refused for someone with no button: say why
        return forms

    def get(self, request, key):
        return _page(request, self.context(accept_forms=self.forms()))

    def post(self, request, key):
        pin = self.link.session.house_rules.table_pins
        form = TableAcceptForm(request.POST, pin=pin)
        if not form.is_valid():
            return _page(request, self.context(accept_forms=self.forms(form)), 400)
        player = Player.objects.filter(
            pk=form.cleaned_data["player"], seats__game=self.proposal.game
        ).first()
        if player is None:
            form.add_error(None, "Press the Accept button under your own name.")
            return _page(request, self.context(accept_forms=self.forms(form)), 400)
        try:
            services.correction_accept(link=self.link, player=player, pin=form.typed_pin())
        except ValidationError as error:
            add_service_errors(form, error, field_map={"player": None})
            return _page(request, self.context(accept_forms=self.forms(form)), 400)
        request.session["pegboard_accept_link_done"] = self.link.pk
        messages.success(request, f"Accepted by {player}: the corrected result is confirmed.")
        return redirect(reverse("accept_link:page", args=[key]))
