"""The ratings the standings pages show: one row per player and rated game
(docs/decisions/ratings.md).

Terms:
- rated game: a game whose current result is confirmed. Games are replayed in the replay order:
  session date, session, round number, table number, game.
- rating: the `openskill` Plackett-Luce model's belief about a player's skill, a mean `mu` and a
  spread `sigma`; a player's first game starts from the model's default rating.
- ordinal: the displayed rating, the library's `ordinal()`: mu − 3·sigma.
- win chance: the model's `predict_win` for the player's side, from the ratings just before the
  game; on a winner's row it is the winner's predicted chance (the lower, the bigger the upset).
- provisional: a player with fewer than PROVISIONAL_GAMES rated games.

Rows are derived: written only by `standings.ratings` (through the services in
`standings.services`), deleted and replayed from a session onward whenever a result of that
session is confirmed or corrected, never edited by hand.
"""

from __future__ import annotations

from django.db import models

from club.models import Club, Player, Session
from games.models import Game

PROVISIONAL_GAMES = 12
# The order games are rated in (the replay order): by day, session, round, table and game; a
# game's rows then by side and player.
GAME_ORDER = ("date", "session_id", "round_number", "table", "game_id")
REPLAY_ORDER = (*GAME_ORDER, "side", "player_id")


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: the library's ordinal, mu − 3·sigma."""
    return mu - 3 * sigma


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


class GameRating(models.Model):
    """One player's rating before and after one rated game."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ratings")
    # The replay order, kept on the row so "the ratings as they stood before a session" is one
    # index scan per player: the session's date, the round's number, the table.
    date = models.DateField()
    round_number = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField(help_text="1 for the winner; the others by score.")
    won = models.BooleanField()
    games = models.PositiveIntegerField(help_text="The player's rated games, this one included.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    win_chance = models.FloatField(
        help_text="The model's chance, before the game, that the player's side wins it."
    )

    class Meta:
        ordering = list(REPLAY_ORDER)
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_one_per_player_game"),
            models.CheckConstraint(
                condition=models.Q(sigma_before__gt=0, sigma_after__gt=0),
                name="rating_sigma_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(win_chance__gte=0, win_chance__lte=1),
                name="rating_win_chance_a_probability",
            ),
            models.CheckConstraint(condition=models.Q(rank__gte=1), name="rating_rank_positive"),
        ]
        indexes = [
            models.Index(
                fields=["player", "date", "session", "round_number", "table", "game"],
                name="rating_player_order",
            ),
            models.Index(fields=["club", "date", "session"], name="rating_club_order"),
            # A player's expected and actual wins, of a season or of every game: the sums
            # read from the index alone.
            models.Index(
                fields=["club", "player", "date", "won", "win_chance"], name="rating_player_luck"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.game}: {self.ordinal:.2f}"

    @property
    def ordinal(self) -> float:
        """The displayed rating after the game (the library's ordinal: mu − 3·sigma)."""
        return ordinal(self.mu_after, self.sigma_after)

    @property
    def ordinal_before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)


class RatingsStale(models.Model):
    """A club's ratings from one point of the replay order on are not replayed yet: a result
    there was confirmed or corrected, and the replay of it and of everything after it runs in
    short steps (standings.services). Rows before the point are right; rows from it on are as
    they stood and are replaced step by step. Written in the transaction of the change that
    needs the replay, so it outlives a process that dies before the replay is done; gone when
    the replay reaches the end."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, primary_key=True, related_name="+")
    # The first session not replayed yet, as its place in the replay order: a plain id, not a
    # foreign key, since a session with no result (deleted meanwhile) may hold the place.
    date = models.DateField()
    session_number = models.PositiveBigIntegerField(help_text="The session's id.")
    marked_at = models.DateTimeField(help_text="When the replay was first asked for.")
    advanced_at = models.DateTimeField(
        help_text="When a step last moved the replay on (or it was asked for)."
    )

    class Meta:
        ordering = ["club_id"]
        verbose_name_plural = "ratings stale"

    def __str__(self) -> str:
        return f"Ratings of club {self.club_id} stale from {self.date}"
