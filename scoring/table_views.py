"""The claims panel of the table page (`/t/<token>/`, games.table_views) and its two forms: a
claim filed at the table and a call for a judge, both without a login, by the player named in the
form (scoring.services.table_claim_file, table_dispute_open).

Terms:
- claims panel: the table's claims (who claimed what, the true count, the outcome, disputed or
  not), registered with `games.hooks.register_table_panel` in ScoringConfig.ready, so the games
  app shows them without importing scoring.
- at the table: a claim there is a hand, a crib or his heels; a claim in the play lists the cards
  of the count in order and is filed by the organiser on the game page.

The posts go through `games.table_views.TableMixin`: a dead link is refused (404, 410) before
anything is read, and a claim or a player of another table is a 404 with nothing saved.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.views.generic import View

from club.models import Player
from core.mixins import add_service_errors
from core.submissions import AlreadySaved
from games.models import Game
from games.table_views import TableMixin, render_table_page, seated, table_url
from scoring import services
from scoring.forms import TableClaimForm, TableDisputeForm
from scoring.models import Claim
from scoring.selectors import game_claims

PANEL = "claims"


def claim_form(game: Game, data=None) -> TableClaimForm:
    return TableClaimForm(data, seated=seated(game), auto_id="claim_%s")


def dispute_form(claim: Claim, names: dict[int, str], data=None) -> TableDisputeForm:
    """Who may call a judge on `claim`: its parties (the players at the table when it was filed)."""
    parties = sorted(
        ((int(pk), names.get(int(pk), "?")) for pk in claim.party_sides()),
        key=lambda party: party[1],
    )
    return TableDisputeForm(data, parties=parties, auto_id=f"dispute_{claim.pk}_%s")


def party_names(claims: list[Claim]) -> dict[int, str]:
    ids = {int(pk) for claim in claims for pk in claim.party_sides()}
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))


def table_claims_panel(request, game: Game, bound: dict[str, Any]) -> dict[str, Any]:
    """The table page's claims panel; `bound` holds the refused post's form to show again."""
    claims = list(game_claims(game))
    names = party_names(claims)
    for claim in claims:
        claim.game = game  # the page's game, with its session: no query per claim
        claim.outcome = next(iter(claim.outcomes.all()), None)
        claim.disputed = getattr(claim, "dispute", None)
        claim.jackpot_hand = services.needs_card_confirmation(claim)
        claim.dispute_form = None
        if claim.disputed is None:
            if bound.get("dispute_claim") == claim.pk:
                claim.dispute_form = bound["dispute_form"]
            else:
                claim.dispute_form = dispute_form(claim, names)
    form = bound.get("claim_form")
    return {
        "claims": claims,
        "claim_form": form or claim_form(game),
        "claim_open": form is not None,
        "dispute_open": bound.get("dispute_claim"),
    }


class TableClaimFileView(TableMixin, View):
    """A claim filed at the table by the claimant (hand, crib or his heels)."""

    def post(self, request, token):
        game = self.game
        form = claim_form(game, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            claimant = self.player(data["claimant"])
            try:
                claim = services.table_claim_file(
                    game=game,
                    kind=data["kind"],
                    claimant=claimant,
                    claimed_points=data["claimed_points"],
                    hand=data["hand"],
                    starter=data["starter"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect(f"{table_url(game)}#claims")
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                outcome = services.current_outcome(claim)
                messages.success(request, f"Claim filed. {outcome.explanation}")
                if claim.impossible:
                    messages.warning(
                        request, f"{claim.claimed_points} is a count no {claim.kind} can make."
                    )
                return redirect(f"{table_url(game)}#claims")
        return render_table_page(request, game, status=400, bound={PANEL: {"claim_form": form}})


class TableDisputeOpenView(TableMixin, View):
    """A party to one of the table's claims calls a judge."""

    def post(self, request, token, claim):
        game = self.game
        claim = get_object_or_404(Claim, pk=claim, game=game)
        form = dispute_form(claim, party_names([claim]), request.POST)
        if form.is_valid():
            player = get_object_or_404(Player, pk=form.cleaned_data["player"])
            try:
                services.table_dispute_open(
                    claim=claim,
                    player=player,
                    statement=form.cleaned_data["statement"],
                    token=form.submission_token(),
                )
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect(f"{table_url(game)}#claims")
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(
                    request,
                    f"A judge is called on {claim.claimant}'s claim: a judge who is not at this "
                    "table will rule.",
                )
                return redirect(f"{table_url(game)}#claims")
        bound = {PANEL: {"dispute_form": form, "dispute_claim": claim.pk}}
        return render_table_page(request, game, status=400, bound=bound)
