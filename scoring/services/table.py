"""Writes on a claim made at the table, through its link (`/t/<token>/`), by a player without a
login: an opponent's muggins call and the confirmation of a jackpot hand's cards by a player of
another side (docs/spec.md "Claims, muggins and disputes": "At the table, through its card, a
player of another side calls muggins and confirms a big hand's cards (with a PIN where the club
uses them)").

Terms:
- at the table: as games.services.table: the change names the player chosen on the shared phone;
  its audit entries have no actor and say "at the table" (club.audit.at_the_table).
- the rules: those of the claim's page (scoring.services.claims: `check_muggins_open`,
  `check_muggins_caller`, `check_muggins_points`, `check_cards_to_confirm`), read from one
  definition each; the table adds that its link works now (games.services.table_refusal).
- PIN: with the session's "table PINs" rule on, the named player's PIN is checked first
  (club.services.pin_verify, in its own transaction, so a wrong one is kept though the change is
  refused). A change refused for any other reason is refused before the PIN is read, so it costs
  no try; a form posted again once saved says so before the PIN is read too.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from club.models import Player
from club.services import pin_refusal, pin_verify
from core.locking import locked
from core.submissions import refuse_spent, spend_token
from games.services import lock_game
from scoring.models import Claim, Outcome
from scoring.services.claims import (
    CLAIMANTS_SIDE,
    _require_table_open,
    call_muggins,
    check_cards_to_confirm,
    check_muggins_caller,
    check_muggins_open,
    check_muggins_points,
    confirm_cards,
    of_the_claimants_side,
)


def _check_muggins(claim: Claim, caller: Player, points: int | None) -> None:
    _require_table_open(claim.game)
    check_muggins_open(claim)
    check_muggins_caller(claim, caller)
    check_muggins_points(points)


def _check_cards(claim: Claim, player: Player) -> None:
    _require_table_open(claim.game)
    check_cards_to_confirm(claim)
    if of_the_claimants_side(claim, player.pk):
        raise ValidationError({"player": CLAIMANTS_SIDE})
    if claim.party_side(player.pk) is None:
        raise ValidationError(
            {"player": f"{player} was not at this table when the claim was filed."}
        )


def _pin_first(claim: Claim, player: Player, pin: str, token: str, check) -> None:
    """With table PINs on: refuse what would be refused anyway (costs no try), then the PIN."""
    session = claim.game.session
    if not session.house_rules.table_pins:
        return
    refuse_spent(token)
    fresh = Claim.objects.select_related("game__session__club", "game__round").get(pk=claim.pk)
    check(fresh)
    if pin_refusal(Player.objects.get(pk=player.pk)):
        raise ValidationError(
            {
                "pin": f"{player} has no PIN yet: an organiser sets one on the player's page, "
                "or records this on the claim's page."
            }
        )
    pin_verify(session=session, player=player, pin=pin)


def table_muggins_call(
    *, claim: Claim, caller: Player, points: int, pin: str = "", token: str = ""
) -> Outcome:
    """An opponent of the claimant calls "muggins for N" at the table: a new outcome, by the
    rules of `muggins_call` (ACC rule 10.4a: the caller takes the lesser of N and the points
    overlooked; a call when nothing was overlooked gives the claimant N; ACC rule 10.3: never on
    his heels, never on a muggins score, once per claim). The caller's PIN first when the
    session asks for table PINs. The same form posted twice calls once (`token`)."""
    _pin_first(claim, caller, pin, token, lambda fresh: _check_muggins(fresh, caller, points))
    with transaction.atomic():
        spend_token(token=token, actor=None)
        game = lock_game(claim.game)
        claim = locked(Claim.objects.all()).get(pk=claim.pk)
        claim.game = game
        _check_muggins(claim, caller, points)
        return call_muggins(claim, caller=caller, points=points, actor=None)


def table_cards_confirm(*, claim: Claim, player: Player, pin: str = "", token: str = "") -> Claim:
    """A player of another side than the claimant's (at filing, `claim.parties`) has seen the
    cards of a 24, 28 or 29 hand or crib, at the table: the cards are confirmed, once, by that
    player (`Claim.cards_confirmed_by_player`). Their PIN first when the session asks for table
    PINs. The same form posted twice confirms once (`token`)."""
    _pin_first(claim, player, pin, token, lambda fresh: _check_cards(fresh, player))
    with transaction.atomic():
        spend_token(token=token, actor=None)
        game = lock_game(claim.game)
        claim = locked(Claim.objects.all()).get(pk=claim.pk)
        claim.game = game
        _check_cards(claim, player)
        return confirm_cards(claim, actor=None, player=player)
