"""Reads for the scoring app: the hand counter's count (the engine's score with its rarity),
open disputes, the judges' queue, a session's claims and its big hands.

Terms: a *counted hand* is the engine's `HandScore` together with `Rarity` for its total (how many
of the 12,994,800 (hand, starter) pairs count as much or more).

An *accepted big hand* is a hand or crib claim of BIG_HAND points or more (a four-card hand makes
only 24, 28 or 29 of them) that the claimant announced as counted: claimed at its true count. An
over-claim corrected down never is one, whatever a judge later rules, and neither is a count
found only by a muggins call (the claimant did not announce it). A wrong muggins call after it
(the outcome "false muggins": nothing was overlooked, ACC rule 10.4a) never costs the claimant
the count. Undisputed, it is accepted; disputed, only once a judge has ruled and the last ruling
did not take the points away (it gives the claimant's side the count or more: a ruling records
the points each side scores for the claim). With *confirmed cards*, a player of another side at
the table or a judge has also confirmed its cards (`scoring.models.CARDS_CONFIRMED`: by a
login, or by a player at the table through its link). That one
definition serves the jackpots (money.selectors.accepted_hands: a 29, 28 or 24 with confirmed
cards) and the highlights (standings.highlights: every accepted big hand, confirmed or not, since
only a session that runs the jackpot asks for the cards to be confirmed). A claim at a game
marked *not played* is never one (the game counts nowhere); a forfeit's are (its hands were
dealt, shown and counted before the player left: docs/decisions/results.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Prefetch, QuerySet

from games.models import GameStatus
from games.selectors import seats_in_order
from scoring.engine import ENGINE_VERSION, HandScore, Rarity, rarity, score_hand
from scoring.models import (
    CARDS_CONFIRMED,
    OPEN_DISPUTE_STATES,
    Claim,
    ClaimKind,
    Dispute,
    Outcome,
    Ruling,
)

BIG_HAND = 24


@dataclass(frozen=True)
class CountedHand:
    score: HandScore
    rarity: Rarity

    def as_dict(self) -> dict:
        """Plain values for JSON (the `count --json` command and the counter's JSON answer)."""
        score = self.score
        return {
            "hand": [str(card) for card in score.hand],
            "starter": str(score.starter),
            "crib": score.crib,
            "total": score.total,
            "items": [
                {"kind": item.kind, "cards": [str(c) for c in item.cards], "points": item.points}
                for item in score.items
            ],
            "combinations": [
                {"name": group.name, "cards": [str(c) for c in group.cards], "points": group.points}
                for group in score.groups
            ],
            "spoken": score.spoken(),
            "rarity": {
                "exactly": self.rarity.exactly,
                "at_least": self.rarity.at_least,
                "one_in": self.rarity.one_in,
                "text": self.rarity.describe(),
            },
            "engine_version": ENGINE_VERSION,
        }


def count_hand(hand, starter, *, crib: bool = False) -> CountedHand:
    """Count a hand; bad cards raise the engine's ScoringError, whose message names the card."""
    score = score_hand(hand, starter, crib=crib)
    return CountedHand(score=score, rarity=rarity(score.total, crib=crib))


def session_open_disputes(session) -> QuerySet[Dispute]:
    """Disputes of a session still waiting for a judge (open, or appealed): settling waits."""
    return Dispute.objects.filter(
        claim__game__session=session, state__in=OPEN_DISPUTE_STATES
    ).select_related("claim")


def outcomes_in_order() -> QuerySet[Outcome]:
    """Claims' outcomes newest first, for a prefetch of claims' outcomes: the order within each
    claim, without the rows' own order's joins to the claim's game, round and session."""
    return Outcome.objects.order_by("-version")


def judges_queue(club) -> QuerySet[Dispute]:
    """Every dispute of the club waiting for a judge, oldest first, with what the page shows."""
    return (
        Dispute.objects.filter(claim__game__session__club=club, state__in=OPEN_DISPUTE_STATES)
        .select_related(
            "claim__claimant",
            "claim__game__round",
            "claim__game__session__club",
            "opened_by",
            "named_judge",
        )
        .prefetch_related(
            Prefetch("claim__outcomes", queryset=outcomes_in_order()),
            "rulings__judge",
            "rulings__judge_player",
            Prefetch("claim__game__seats", queryset=seats_in_order()),
        )
        .order_by("opened_at", "pk")
    )


def session_claims(session) -> QuerySet[Claim]:
    """A session's claims with outcomes, disputes and rulings: the auditor's report."""
    return (
        Claim.objects.filter(game__session=session)
        .select_related(
            "claimant",
            "game__round",
            "muggins_caller",
            "dispute__opened_by",
            "dispute__named_judge",
            "cards_confirmed_by",
            "cards_confirmed_by_player",
        )
        .prefetch_related(
            Prefetch("outcomes", queryset=outcomes_in_order()),
            "dispute__rulings__judge__players",
            "dispute__rulings__judge_player",
            "game__seats__player",
            "cards_confirmed_by__players",
        )
        .order_by("game__round__number", "game__table", "filed_at", "pk")
    )


def game_claims(game) -> QuerySet[Claim]:
    """A game's claims, newest first, with their outcomes and where their disputes stand."""
    return (
        Claim.objects.filter(game=game)
        .select_related(
            "claimant",
            "muggins_caller",
            "cards_confirmed_by",
            "cards_confirmed_by_player",
            "dispute__opened_by",
        )
        .prefetch_related(
            Prefetch("outcomes", queryset=outcomes_in_order()),
            "cards_confirmed_by__players",
            "dispute__rulings__judge__players",
            "dispute__rulings__judge_player",
        )
        .order_by("-filed_at", "-pk")
    )


def big_hand_claims(
    claims: QuerySet[Claim], at_least: int = BIG_HAND, *, cards_confirmed: bool = False
) -> QuerySet[Claim]:
    """Of `claims`, those that may be accepted big hands (see the module's terms) as far as the
    claims' own rows tell: hand or crib, `at_least` points, claimed at the true count, at a game
    not marked not played, and with `cards_confirmed` only those whose cards were confirmed.
    What a ruling did is read apart (`accepted_big_hands`)."""
    claims = claims.filter(
        kind__in=[ClaimKind.HAND, ClaimKind.CRIB],
        true_points__gte=at_least,
        claimed_points=F("true_points"),
    ).exclude(game__status=GameStatus.NOT_PLAYED)
    if cards_confirmed:
        claims = claims.filter(CARDS_CONFIRMED)
    return claims


def accepted_big_hands(
    claims: QuerySet[Claim], at_least: int = BIG_HAND, *, cards_confirmed: bool = False
) -> list[Claim]:
    """Of `claims` (a session's, a club's, in the order given), the accepted big hands (see the
    module's terms; `cards_confirmed` for a jackpot), with the claimant, the game's round and
    session: two queries whatever the number (the claims, then every ruling on them, read even
    when there is none, so the count never depends on the data)."""
    claims = big_hand_claims(claims, at_least, cards_confirmed=cards_confirmed)
    # What the pages show of them: not the breakdown, the play or the parties (a club's can be
    # a hundred claims).
    found = list(
        claims.select_related("claimant", "game__round", "game__session", "dispute").defer(
            "breakdown", "plays", "parties", "spoken", "game__session__rules"
        )
    )
    last_rulings: dict[int, Ruling] = {}
    rulings = Ruling.objects.filter(dispute__claim__in=claims.values("pk"))
    for ruling in rulings.order_by("dispute_id", "level"):
        last_rulings[ruling.dispute_id] = ruling  # the highest level comes last
    return [claim for claim in found if _upheld(claim, last_rulings)]


def _upheld(claim: Claim, last_rulings: dict[int, Ruling]) -> bool:
    """Undisputed, or the judge's last ruling gives the claimant's side the count or more (a
    dispute still waiting for its first ruling is not decided yet)."""
    dispute = getattr(claim, "dispute", None)
    if dispute is None:
        return True
    ruling = last_rulings.get(dispute.pk)
    if ruling is None:
        return False
    return ruling.points.get(str(claim.claimant_side), 0) >= claim.true_points


def session_big_hands(session, at_least: int = BIG_HAND) -> list[Claim]:
    """The session's accepted big hands (see the module's terms), newest first."""
    claims = Claim.objects.filter(game__session=session).order_by("-filed_at", "-pk")
    return accepted_big_hands(claims, at_least)
