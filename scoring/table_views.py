"""The claims panel of the table page (`/t/<token>/`, games.table_views) and its forms: a claim
filed at the table, a muggins call, a jackpot hand's cards confirmed and a call for a judge, all
without a login, by the player named in the form (scoring.services.table_claim_file,
table_muggins_call, table_cards_confirm, table_dispute_open), with that player's PIN when the
session's rules ask for table PINs (muggins and cards).

Terms:
- claims panel: the table's claims (who claimed what, the true count, the outcome, disputed or
  not), registered with `games.hooks.register_table_panel` in ScoringConfig.ready, so the games
  app shows them without importing scoring.
- at the table: a claim there is a hand, a crib or his heels; a claim in the play lists the cards
  of the count in order and is filed by the organiser on the game page.
- open to muggins: a claim that takes a call now (scoring.services.can_call_muggins: the
  session's rules have muggins, no call yet, not disputed, not his heels), whether points were
  overlooked or not (a call when nothing was overlooked is false: ACC rule 10.4a). Its form
  offers the claimant's opponents at filing.
- jackpot hand: a hand or crib whose count is one of the session's jackpots
  (scoring.services.needs_card_confirmation); until its cards are confirmed, its form offers the
  players of the other sides at filing.

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
from scoring.forms import (
    TableClaimForm,
    TableConfirmCardsForm,
    TableDisputeForm,
    TableMugginsForm,
)
from scoring.models import Claim, Outcome, OutcomeKind
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
    return TableDisputeForm(data, players=parties, auto_id=f"dispute_{claim.pk}_%s")


def _other_sides(claim: Claim, names: dict[int, str]) -> list[tuple[int, str]]:
    """The claim's parties of another side than the claimant's at filing, by name."""
    return sorted(
        (
            (int(pk), names.get(int(pk), "?"))
            for pk, side in claim.party_sides().items()
            if side != claim.claimant_side
        ),
        key=lambda party: party[1],
    )


def muggins_form(claim: Claim, names: dict[int, str], data=None) -> TableMugginsForm:
    """Who may call muggins on `claim`: the claimant's opponents at filing."""
    return TableMugginsForm(
        data,
        players=_other_sides(claim, names),
        pin=claim.game.session.house_rules.table_pins,
        auto_id=f"muggins_{claim.pk}_%s",
    )


def cards_form(claim: Claim, names: dict[int, str], data=None) -> TableConfirmCardsForm:
    """Who may confirm the cards of `claim`: the players of another side at filing."""
    return TableConfirmCardsForm(
        data,
        players=_other_sides(claim, names),
        pin=claim.game.session.house_rules.table_pins,
        auto_id=f"cards_{claim.pk}_%s",
    )


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
        claim.muggins_form = None
        if services.can_call_muggins(claim):
            claim.muggins_form = _bound_or_new(bound, "muggins", claim) or muggins_form(
                claim, names
            )
        claim.cards_form = None
        if claim.jackpot_hand and not claim.cards_confirmed:
            claim.cards_form = _bound_or_new(bound, "cards", claim) or cards_form(claim, names)
        claim.refusals = _refusals(bound, claim)
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
        "muggins_open": bound.get("muggins_claim"),
        "cards_open": bound.get("cards_claim"),
    }


def _refusals(bound: dict[str, Any], claim: Claim) -> list[str]:
    """The errors of a refused post on `claim` whose form the page no longer shows (a call made,
    or cards confirmed, a moment before on another phone): said above the claim's forms."""
    refusals = []
    for name in ("muggins", "cards"):
        form = bound.get(f"{name}_form")
        if bound.get(f"{name}_claim") == claim.pk and getattr(claim, f"{name}_form") is not form:
            refusals += [error for errors in form.errors.values() for error in errors]
    return refusals


def _bound_or_new(bound: dict[str, Any], name: str, claim: Claim):
    """The refused post's `name` form when it was for `claim` (shown again with its errors)."""
    if bound.get(f"{name}_claim") == claim.pk:
        return bound[f"{name}_form"]
    return None


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


def muggins_message(claim: Claim, outcome: Outcome) -> str:
    """What the call did, in the table's words: "Muggins: Bob takes 3"."""
    caller = claim.muggins_caller
    side = str(claim.party_side(caller.pk))
    if outcome.kind == OutcomeKind.FALSE_MUGGINS:
        return (
            f"False muggins: nothing was overlooked, so {claim.claimant} is given "
            f"{claim.muggins_points} (ACC rule 10.4a)."
        )
    taken = outcome.points.get(side, 0)
    if outcome.kind == OutcomeKind.MUGGINS_OVERCALLED:
        return (
            f"Muggins: {caller} takes {taken}, the points overlooked (called for "
            f"{claim.muggins_points}; ACC rule 10.4a)."
        )
    return f"Muggins: {caller} takes {taken}."


class TableClaimPostView(TableMixin, View):
    """A post on one of the table's claims by a player named in the form: `make_form` builds the
    form, `save` calls the service and says what happened; a refusal shows the page again at
    400 with the form open under its claim."""

    name = ""

    def make_form(self, claim: Claim, data):  # pragma: no cover - each view has its own
        raise NotImplementedError

    def save(self, claim: Claim, form, player: Player) -> str:  # pragma: no cover
        raise NotImplementedError

    def done_anchor(self, claim: Claim) -> str:
        """Where the page opens once the post is saved: the claim it was about."""
        return f"#claim-{claim.pk}"

    def post(self, request, token, claim):
        game = self.game
        claim = get_object_or_404(
            Claim.objects.select_related("claimant", "muggins_caller"), pk=claim, game=game
        )
        claim.game = game
        form = self.make_form(claim, request.POST)
        if form.is_valid():
            who = form.cleaned_data[form.player_field]
            player = get_object_or_404(Player, pk=who, club=game.session.club)
            try:
                said = self.save(claim, form, player)
            except AlreadySaved as done:
                messages.info(request, done.message)
                return redirect(f"{table_url(game)}#claims")
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                messages.success(request, said)
                return redirect(f"{table_url(game)}{self.done_anchor(claim)}")
        bound = {PANEL: {f"{self.name}_form": form, f"{self.name}_claim": claim.pk}}
        return render_table_page(request, game, status=400, bound=bound)


class TableDisputeOpenView(TableClaimPostView):
    """A party to one of the table's claims calls a judge."""

    name = "dispute"

    def make_form(self, claim, data):
        return dispute_form(claim, party_names([claim]), data)

    def save(self, claim, form, player):
        services.table_dispute_open(
            claim=claim,
            player=player,
            statement=form.cleaned_data["statement"],
            token=form.submission_token(),
        )
        return (
            f"A judge is called on {claim.claimant}'s claim: a judge who is not at this table "
            "will rule."
        )

    def done_anchor(self, claim):
        return "#claims"  # the claim now shows its dispute among the table's claims


class TableMugginsCallView(TableClaimPostView):
    """An opponent of the claimant calls muggins on one of the table's claims."""

    name = "muggins"

    def make_form(self, claim, data):
        return muggins_form(claim, party_names([claim]), data)

    def save(self, claim, form, player):
        outcome = services.table_muggins_call(
            claim=claim,
            caller=player,
            points=form.cleaned_data["points"],
            pin=form.typed_pin(),
            token=form.submission_token(),
        )
        return muggins_message(outcome.claim, outcome)


class TableCardsConfirmView(TableClaimPostView):
    """A player of another side confirms the cards of one of the table's jackpot hands."""

    name = "cards"

    def make_form(self, claim, data):
        return cards_form(claim, party_names([claim]), data)

    def save(self, claim, form, player):
        claim = services.table_cards_confirm(
            claim=claim, player=player, pin=form.typed_pin(), token=form.submission_token()
        )
        return (
            f"Cards confirmed by {player}: {claim.claimant}'s {claim.true_points} "
            f"({' '.join(claim.card_list())}) can win its jackpot."
        )
