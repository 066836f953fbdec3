"""Reads of the ratings (standings.models.GameRating) for the pages and `manage.py ratings`.

Terms (standings.models, standings.ratings): a player's current rating is their row of their
last rated game; `ordinal` is the displayed rating (mu − 3·sigma); `provisional` means fewer than
PROVISIONAL_GAMES rated games. A player with no rated game has no rating and is left out.

- `current_ratings(club, season=None)`: the club's table, best ordinal first (as a season
  ended, with a season).
- `player_rating_history(club, player, season=None)`: one point per rated game of the player,
  in order; `player_rating_now(club, player)`: the last of them.
- `session_upsets(session, limit=3)`: the session's wins by a side the model did not favour,
  the least likely first.
- `expected_vs_actual(club, player, season=None)`: the wins the model expected of the player
  (the sum of their sides' win chances) against the wins they had.
- `ratings_pending_from(club)`: the date from which the club's ratings are still being replayed
  (standings.services: a correction's replay runs in steps), None when they are up to date.
  The pages say so over the figures rather than pass half-replayed ones off as final.

Each is one query, whatever the length of the club's history.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, OuterRef, Q, Subquery, Sum

from club.models import Club, Player, Session
from club.seasons import in_season
from standings.models import GAME_ORDER, GameRating, RatingsStale, is_provisional, ordinal

LATEST_FIRST = ("-date", "-session_id", "-round_number", "-table", "-game_id")


@dataclass(frozen=True)
class PlayerRating:
    player_id: int
    player: str
    games: int
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)


def current_ratings(club: Club, season: int | None = None) -> list[PlayerRating]:
    """Every rated player of the club with their rating after their last game: the highest
    ordinal first (then by name). Provisional players are in it, marked. With a `season`
    (club.seasons): the players of that season, each after their last game in it."""
    games = GameRating.objects.filter(player_id=OuterRef("pk"))
    if season is not None:
        games = games.filter(in_season(club, season))
    last = games.order_by(*LATEST_FIRST).values("pk")[:1]
    latest = Player.objects.filter(club=club).values(last=Subquery(last))
    rows = [
        PlayerRating(player_id, name, games, mu, sigma)
        for player_id, name, games, mu, sigma in GameRating.objects.filter(
            pk__in=latest
        ).values_list("player_id", "player__display_name", "games", "mu_after", "sigma_after")
    ]
    return sorted(rows, key=lambda row: (-row.ordinal, row.player, row.player_id))


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating around one rated game."""

    game_id: int
    session_id: int
    date: dt.date
    round_number: int
    table: int
    won: bool
    rank: int
    games: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    win_chance: float

    @property
    def ordinal_before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)


POINT_FIELDS = (
    "game_id",
    "session_id",
    "date",
    "round_number",
    "table",
    "won",
    "rank",
    "games",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "win_chance",
)


def player_rating_history(
    club: Club, player: Player, season: int | None = None
) -> list[RatingPoint]:
    """The player's rating game by game, in the replay order (empty: no rated game), of every
    season or of one (club.seasons)."""
    rows = GameRating.objects.filter(club=club, player=player)
    if season is not None:
        rows = rows.filter(in_season(club, season))
    return [RatingPoint(*row) for row in rows.order_by(*GAME_ORDER).values_list(*POINT_FIELDS)]


def player_rating_now(club: Club, player: Player) -> RatingPoint | None:
    """The player's current rating: their point of their last rated game (None: no rated
    game), read from the end of the replay order rather than through their whole history."""
    row = (
        GameRating.objects.filter(club=club, player=player)
        .order_by(*(f"-{field}" for field in GAME_ORDER))
        .values_list(*POINT_FIELDS)
        .first()
    )
    return RatingPoint(*row) if row else None


@dataclass(frozen=True)
class Upset:
    """A win by a side the model did not favour before the game."""

    game_id: int
    round_number: int
    table: int
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    win_chance: float  # the winners' chance before the game
    favourite_chance: float  # the best chance of another side

    @property
    def chance_text(self) -> str:
        """The winners' chance as the pages say it: "23%" ("under 1%" for the least)."""
        percent = round(100 * self.win_chance)
        return f"{percent}%" if percent >= 1 else "under 1%"


def session_upsets(session: Session, limit: int = 3) -> list[Upset]:
    """The session's upsets, the least likely win first (then round and table): games won by a
    side whose chance before the game was below another side's."""
    rows = (
        GameRating.objects.filter(session=session)
        .order_by("round_number", "table", "side", "player__display_name")
        .values_list(
            "game_id", "round_number", "table", "side", "won", "win_chance", "player__display_name"
        )
    )
    games: dict[int, dict] = {}
    for game_id, number, table, side, won, chance, name in rows:
        game = games.setdefault(
            game_id, {"round": number, "table": table, "sides": {}, "winner": None}
        )
        names, _ = game["sides"].setdefault(side, ([], chance))
        names.append(name)
        if won:
            game["winner"] = side
    upsets = []
    for game_id, game in games.items():
        winner = game["winner"]
        names, chance = game["sides"][winner]
        others = [entry for side, entry in game["sides"].items() if side != winner]
        favourite = max(other_chance for _, other_chance in others)
        if chance < favourite:
            upsets.append(
                Upset(
                    game_id=game_id,
                    round_number=game["round"],
                    table=game["table"],
                    winners=tuple(names),
                    losers=tuple(name for other, _ in others for name in other),
                    win_chance=chance,
                    favourite_chance=favourite,
                )
            )
    upsets.sort(key=lambda upset: (upset.win_chance, upset.round_number, upset.table))
    return upsets[:limit]


@dataclass(frozen=True)
class ExpectedActual:
    games: int
    wins: int
    expected_wins: float  # the sum of the player's sides' win chances before each game

    @property
    def surplus(self) -> float:
        """Wins beyond what the model expected (negative: fewer)."""
        return self.wins - self.expected_wins


def expected_vs_actual(club: Club, player: Player, season: int | None = None) -> ExpectedActual:
    """The player's rated games, wins and expected wins, all time or in one season
    (club.seasons)."""
    rows = GameRating.objects.filter(club=club, player=player)
    if season is not None:
        rows = rows.filter(in_season(club, season))
    # Counted over `won` (never null) rather than the id, so that every column read is in the
    # index rating_player_luck and the database reads the index alone.
    figures = rows.aggregate(
        games=Count("won"), wins=Count("won", filter=Q(won=True)), expected=Sum("win_chance")
    )
    return ExpectedActual(
        games=figures["games"], wins=figures["wins"], expected_wins=figures["expected"] or 0.0
    )


def ratings_pending_from(club: Club) -> dt.date | None:
    """The date of the first session whose ratings are not replayed yet (None: all are)."""
    return RatingsStale.objects.filter(club=club).values_list("date", flat=True).first()
