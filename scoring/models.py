"""Claims, outcomes, disputes and rulings (docs/spec.md, "Claims, muggins and disputes").

Terms:
- claim: what a player announced at a game: a hand, a crib, his heels or a play (the points for
  the last card laid in the current count), the cards, and the points claimed. The engine's true
  count, its itemised breakdown, the count read aloud and the engine's version are stored with
  it, so a later rule fix never silently changes an old ruling.
- muggins call: an opponent's "muggins for N" on a claim, when the club plays muggins (never on
  his heels, ACC rule 10.3).
- parties: the players seated at the game when the claim was filed, each with their side then
  (`parties`); who may call muggins, dispute, appeal, confirm the cards or rule reads them, never
  the seats as they are later.
- cards confirmed: a player of another side (or a judge who is not a party) has seen the cards of
  a hand or crib claim; a jackpot hand wins its jackpot only then (docs/spec.md, "Claims, muggins
  and disputes"). Confirmed by a login (`cards_confirmed_by`: a player or a judge on the claim's
  page) or by a player at the table, through its link (`cards_confirmed_by_player`), never both;
  `CARDS_CONFIRMED` is that one definition for a query, `Claim.cards_confirmed` for a row.
- outcome: the points each side scores for a claim, worked out by the service from the claim,
  the true count and the house rules. A muggins call makes a new outcome; the latest is current.
- side: the side index of the game's seats (games.Seat.side); `points` maps side -> points.
- dispute: opened by a player of the game who does not accept the current outcome. A judge who is
  not a party rules (level 1); one appeal goes to a different judge whose ruling is final (level 2).
- named judge: a player present at the session, not a party, whom an organiser names to rule on
  one dispute through a one-time link (club.PlayerLink), without a login: their ruling has
  `judge_player` set and no `judge` login.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from club.models import Player
from club.names import person_name
from games.models import Game, Result, Seat

# A claim whose cards are confirmed, by a login or at the table (see the module's terms).
CARDS_CONFIRMED = models.Q(cards_confirmed_by__isnull=False) | models.Q(
    cards_confirmed_by_player__isnull=False
)


class ClaimKind(models.TextChoices):
    HAND = "hand", "Hand"
    CRIB = "crib", "Crib"
    HEELS = "heels", "His heels"
    PLAY = "play", "Play (pegging)"


class Claim(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="claims")
    deal = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=8, choices=ClaimKind.choices)
    claimant = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="claims")
    claimant_side = models.PositiveSmallIntegerField()
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The login that filed it; empty when it was filed at the table (its link).",
    )
    filed_at_table = models.BooleanField(
        default=False,
        help_text="Filed on the table's link by the claimant, without a login.",
    )
    filed_at = models.DateTimeField(default=timezone.now)
    cards = models.CharField(max_length=60, blank=True, help_text="Hand or crib cards, canonical.")
    starter = models.CharField(max_length=4, blank=True)
    plays = models.JSONField(
        default=list, blank=True, help_text="A play's count: [[player id, card], ...] in order."
    )
    claimed_points = models.PositiveSmallIntegerField()
    true_points = models.PositiveSmallIntegerField()
    breakdown = models.JSONField(
        blank=True, help_text="The engine's items: [{label, cards, points}, ...]; empty for 0."
    )
    spoken = models.CharField(max_length=400)
    engine_version = models.CharField(max_length=20)
    impossible = models.BooleanField(
        default=False, help_text="No hand (or play) can make the count claimed."
    )
    muggins_caller = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="muggins_calls"
    )
    muggins_points = models.PositiveSmallIntegerField(null=True, blank=True)
    muggins_called_at = models.DateTimeField(null=True, blank=True)
    parties = models.JSONField(
        default=dict,
        blank=True,
        help_text="Player id (as text) -> side, of every player seated at the game at filing.",
    )
    cards_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who saw and confirmed the cards: a player of another side, or a judge.",
    )
    cards_confirmed_by_player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The player of another side who confirmed the cards at the table (its link, "
        "no login).",
    )
    cards_confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "filed_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(muggins_caller__isnull=True)
                | models.Q(muggins_points__isnull=False),
                name="claim_muggins_call_has_points",
            ),
            models.CheckConstraint(
                condition=models.Q(filed_by__isnull=False) | models.Q(filed_at_table=True),
                name="claim_filed_by_a_login_or_at_the_table",
            ),
            models.CheckConstraint(
                condition=models.Q(cards_confirmed_by__isnull=True)
                | models.Q(cards_confirmed_by_player__isnull=True),
                name="claim_cards_confirmed_once",
                violation_error_message="Its cards are confirmed by a login or at the table by a "
                "player, never both.",
            ),
        ]
        # The records list the 28s and 29s: found by their count, not by reading every claim.
        indexes = [models.Index(fields=["true_points"])]

    def __str__(self) -> str:
        return f"{self.claimant} claims {self.claimed_points} for {self.get_kind_display().lower()}"

    @property
    def overlooked(self) -> int:
        return max(0, self.true_points - self.claimed_points)

    def party_sides(self) -> dict[str, int]:
        """`parties`; for a claim without them (restored from a backup made before claims recorded
        them), the game's seats as they are, as scoring's migration 0005 filled older claims."""
        if not self.parties and self.game_id:
            return {
                str(player_id): side
                for player_id, side in Seat.objects.filter(game_id=self.game_id).values_list(
                    "player_id", "side"
                )
            }
        return self.parties

    def party_side(self, player_id: int | None) -> int | None:
        """The side `player_id` played for when the claim was filed (None: not a party)."""
        if player_id is None:
            return None
        return self.party_sides().get(str(player_id))

    @property
    def opponent_ids(self) -> list[int]:
        """The players seated on another side than the claimant's at filing."""
        return sorted(
            int(pk) for pk, side in self.party_sides().items() if side != self.claimant_side
        )

    @property
    def cards_confirmed(self) -> bool:
        """Whether the cards are confirmed (the module's terms; `CARDS_CONFIRMED` in a query)."""
        return (
            self.cards_confirmed_by_id is not None or self.cards_confirmed_by_player_id is not None
        )

    @property
    def cards_confirmer_name(self) -> str:
        """Who confirmed the cards, by their player's name (a judge without one: login name); at
        the table, the player named there, "at the table"."""
        if self.cards_confirmed_by_player_id:
            return f"{self.cards_confirmed_by_player.display_name} at the table"
        return person_name(self.cards_confirmed_by)

    def card_list(self) -> list[str]:
        if self.kind == ClaimKind.PLAY:
            return [card for _, card in self.plays]
        return self.cards.split() + ([self.starter] if self.starter else [])


class OutcomeKind(models.TextChoices):
    EXACT = "exact", "Accepted: the count is right"
    OVER = "over", "Over-claim: corrected to the true count"
    UNDER_LOST = (
        "under_lost",
        "Under-claim: the overlooked points are lost (muggins off, or his heels)",
    )
    UNDER = "under", "Under-claim: the overlooked points stand open to a muggins call"
    MUGGINS = "muggins", "Muggins: the caller takes the points called"
    MUGGINS_OVERCALLED = (
        "muggins_overcalled",
        "Muggins for more than was overlooked: the caller takes the overlooked points",
    )
    FALSE_MUGGINS = (
        "false_muggins",
        "False muggins: nothing was overlooked, the claimant is given the call as a penalty",
    )


class Outcome(models.Model):
    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="outcomes")
    version = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, choices=OutcomeKind.choices)
    points = models.JSONField(help_text="Side index (as text) -> points that side scores.")
    explanation = models.CharField(max_length=400)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["claim", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["claim", "version"], name="outcome_version_unique"),
        ]

    def __str__(self) -> str:
        # {"0": 10} as people count sides: "side 1: 10" (this text is kept in the audit log).
        points = ", ".join(
            f"side {int(side) + 1 if str(side).isdigit() else side}: {pts}"
            for side, pts in (self.points or {}).items()
        )
        return f"{self.get_kind_display()} ({points})"


class DisputeState(models.TextChoices):
    OPEN = "open", "Open: waiting for a judge"
    RULED = "ruled", "Ruled (may be appealed once)"
    APPEALED = "appealed", "Appealed: waiting for a second judge"
    FINAL = "final", "Final"


OPEN_DISPUTE_STATES = (DisputeState.OPEN, DisputeState.APPEALED)


class Dispute(models.Model):
    claim = models.OneToOneField(Claim, on_delete=models.PROTECT, related_name="dispute")
    opened_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="disputes_opened")
    statement = models.CharField(max_length=500)
    opened_at = models.DateTimeField(default=timezone.now)
    state = models.CharField(max_length=10, choices=DisputeState.choices, default=DisputeState.OPEN)
    appealed_by = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="appeals"
    )
    appeal_statement = models.CharField(max_length=500, blank=True)
    appealed_at = models.DateTimeField(null=True, blank=True)
    named_judge = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes_to_judge",
        help_text="A player present, not a party, named by an organiser to rule on this dispute "
        "through a one-time link (changeable until they rule).",
    )
    named_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    named_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["opened_at", "pk"]
        permissions = [("rule_dispute", "Can rule on a dispute (as a judge)")]
        # The judges' queue reads the few disputes still waiting, not every one ever opened.
        indexes = [models.Index(fields=["state"])]

    def __str__(self) -> str:
        return f"Dispute over {self.claim}"

    @property
    def is_open(self) -> bool:
        return self.state in OPEN_DISPUTE_STATES

    @property
    def status(self) -> str:
        """Where the dispute stands, for the claim lists: "Disputed: waiting for a judge",
        "Ruled by Jo Lee: agrees with the engine (may be appealed once)", "Ruled on appeal by
        ... (final)". Reads `rulings` (prefetch them, with `judge__players`, for a list)."""
        if self.state == DisputeState.OPEN:
            return "Disputed: waiting for a judge"
        if self.state == DisputeState.APPEALED:
            return "Appealed: waiting for a second judge"
        ruling = max(self.rulings.all(), key=lambda r: r.level, default=None)
        if ruling is None:  # pragma: no cover - a ruled dispute has its ruling
            return self.get_state_display()
        decision = ruling.get_decision_display().lower()
        judge = ruling.judge_name
        if self.state == DisputeState.FINAL:
            return f"Ruled on appeal by {judge}: {decision} (final)"
        return f"Ruled by {judge}: {decision} (may be appealed once)"


class RulingDecision(models.TextChoices):
    AGREE = "agree", "Agrees with the engine"
    OVERRIDE = "override", "Overrides the engine"


class Ruling(models.Model):
    dispute = models.ForeignKey(Dispute, on_delete=models.PROTECT, related_name="rulings")
    level = models.PositiveSmallIntegerField(help_text="1: the first judge; 2: the appeal (final).")
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The judge's login; empty when a player named for this dispute ruled.",
    )
    judge_player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rulings",
        help_text="The player named judge for this dispute who ruled through their one-time link.",
    )
    decision = models.CharField(max_length=10, choices=RulingDecision.choices)
    points = models.JSONField(help_text="Side index (as text) -> points that side scores.")
    reason = models.TextField(blank=True)
    ruled_at = models.DateTimeField(default=timezone.now)
    result = models.ForeignKey(
        Result,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The result version this ruling made, when it changed a recorded score.",
    )
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["dispute", "level"]
        constraints = [
            models.UniqueConstraint(fields=["dispute", "level"], name="ruling_one_per_level"),
            models.CheckConstraint(
                condition=models.Q(decision="agree") | ~models.Q(reason=""),
                name="ruling_override_has_reason",
            ),
            models.CheckConstraint(
                condition=models.Q(judge__isnull=False, judge_player__isnull=True)
                | models.Q(judge__isnull=True, judge_player__isnull=False),
                name="ruling_by_a_login_or_a_named_player",
            ),
        ]

    def __str__(self) -> str:
        return f"Ruling {self.level} on {self.dispute.claim}: {self.get_decision_display()}"

    @property
    def judge_name(self) -> str:
        """Who ruled, for people: the login's player's name, or the named player's."""
        if self.judge_player_id:
            return self.judge_player.display_name
        return person_name(self.judge)
