"""A club tournament by the ACC's format: qualifying, the cut, a seeded playoff bracket.

Terms (docs/tournaments.md):
- tournament: a club's big day, one object a director creates. It plays in a session of its own
  (`club.Session` of kind TOURNAMENT): entrants check in and pay there as on a Thursday, its
  rounds and games are games' rounds and games, its money is settled there.
- stage: registration (check-in open, nothing drawn), qualifying (rounds drawn one by one),
  playoffs (the bracket made from the qualifying standings), finished (a champion).
- qualifying round: a games round of two-player tables; with an odd number of entrants one has a
  bye (`Bye`), which scores what the tournament says (`bye_points`).
- qualifier: one of the best quarter of the entrants (ACC rule 13.2.b), in seed order in
  `Tournament.seeds` (player ids); how ties were decided is in `cut_steps`.
- match: one pairing of the bracket, best of `best_of` games; a match whose one side is empty is
  a bye (its player goes through without playing). Its games are games' games (`MatchGame`),
  each in a round of its own, so every table keeps its own pace.
- match lengths: best of 3 or 5 per playoff round, counted from the final (`match_lengths[0]` is
  the final's, `[1]` the semi-finals'...); a round not set plays best of 3.
- prize shares: each prize level's part of the prize fund in basis points (tournaments.prizes),
  the champion's first; empty: the default shares. The prize fund is the entry fees paid less
  the club's share (`club_share_percent`, rounded down to whole cents), paid when the session is
  settled (tournaments.prize_fund).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from club.models import Club, Player, Session
from core.cents import money_validators
from games.models import Game, Round

MAX_QUALIFYING_GAMES = 30
BEST_OF = (3, 5)
DEFAULT_BEST_OF = 3


class Stage(models.TextChoices):
    REGISTRATION = "registration", "Registration"
    QUALIFYING = "qualifying", "Qualifying"
    PLAYOFFS = "playoffs", "Playoffs"
    FINISHED = "finished", "Finished"


class Tournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    session = models.OneToOneField(Session, on_delete=models.PROTECT, related_name="tournament")
    name = models.CharField(max_length=120)
    starts_on = models.DateField()
    ends_on = models.DateField()
    entry_fee_cents = models.PositiveIntegerField(validators=money_validators())
    qualifying_games = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(MAX_QUALIFYING_GAMES)],
        help_text="How many qualifying games every entrant plays (7, 9, 12, 14, 16, 18, 21 or "
        "22 are usual).",
    )
    match_lengths = models.JSONField(
        default=list,
        blank=True,
        help_text="Best of 3 or 5 per playoff round, the final first; a round not set: 3.",
    )
    club_share_percent = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(50)],
        help_text="The part of the entry fees the club keeps, in whole percent (0: none).",
    )
    prize_shares = models.JSONField(
        default=list,
        blank=True,
        help_text="Each prize level's share of the fund in basis points (hundredths of a "
        "percent, 10000 in all), the champion first (empty: the default shares).",
    )
    bye_points = models.PositiveSmallIntegerField(
        default=2,
        validators=[MaxValueValidator(3)],
        help_text="What a qualifying bye scores in game points (2: a win).",
    )
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.REGISTRATION)
    cut_seed = models.BigIntegerField(
        null=True, blank=True, help_text="Seeds the cut of the cards that breaks ties at the cut."
    )
    seeds = models.JSONField(
        default=list, blank=True, help_text="The qualifiers' player ids, seed 1 first."
    )
    cut_steps = models.JSONField(
        default=list, blank=True, help_text="How the cut and the seeds were decided, in words."
    )
    champion = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="tournament_ends_after_it_starts",
            ),
            models.CheckConstraint(
                condition=models.Q(club_share_percent__lte=50), name="tournament_club_share_range"
            ),
        ]
        indexes = [models.Index(fields=["club", "starts_on"])]
        permissions = [("run_tournament", "Can run a tournament")]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_on:%d %b %Y})"

    def best_of(self, round_number: int, rounds: int) -> int:
        """How many games decide a match of playoff round `round_number` of `rounds`."""
        from_final = rounds - round_number
        if 0 <= from_final < len(self.match_lengths):
            return int(self.match_lengths[from_final])
        return DEFAULT_BEST_OF


class Bye(models.Model):
    """A qualifying round in which `player` had no opponent (an odd number of entrants)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="byes")
    round = models.OneToOneField(Round, on_delete=models.PROTECT, related_name="bye")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["round__number"]

    def __str__(self) -> str:
        return f"{self.player} has the bye in round {self.round.number}"


class Match(models.Model):
    """One match of the bracket: `top` and `bottom` in the chart's order (either empty until
    an earlier match is decided; `bottom` empty for good: a bye)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="matches")
    round_number = models.PositiveSmallIntegerField(help_text="1: the first playoff round.")
    position = models.PositiveSmallIntegerField(help_text="0: the top of the bracket.")
    top = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bottom = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    top_seed = models.PositiveSmallIntegerField(null=True, blank=True)
    bottom_seed = models.PositiveSmallIntegerField(null=True, blank=True)
    is_bye = models.BooleanField(default=False)
    best_of = models.PositiveSmallIntegerField(default=DEFAULT_BEST_OF)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round_number", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number", "position"], name="match_one_per_place"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: round {self.round_number}, match {self.position + 1}"

    @property
    def wins_needed(self) -> int:
        return self.best_of // 2 + 1


class MatchGame(models.Model):
    """Game `number` of a match: a games game (two seats, top on side 0), played at the match's
    table and entered there like any game."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="match_games")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="match_game")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_game_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match}, game {self.number}"
