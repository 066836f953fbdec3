"""Reads of a tournament: the qualifying standings with the cut line, and the bracket.

Terms:
- qualifying standings: every entrant (checked in to the tournament's session) with the game
  points, games won and spread of their confirmed qualifying games, a bye counting as a game
  won worth the tournament's `bye_points` (no spread), ranked by `games.ranking` (game points,
  then games won, then spread: the ACC's order).
- cut line: after the `qualifier_count` best (one in four, rounded up: ACC rule 13.2.b). Before
  qualifying closes, `in_cut` says who is inside it now; ties across it are decided by the cut
  of the cards when qualifying closes (services.qualifying_close).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Case, Count, IntegerField, Sum, Value, When
from django.db.models.functions import Coalesce

from club.models import CheckIn
from games.models import Game, GameStatus, ResultLine, ResultState, Round
from games.ranking import rank
from tournaments.bracket import qualifier_count
from tournaments.models import Bye, Match, MatchGame, Tournament

QUALIFYING = "qualifying"
PLAYOFF = "playoff"


@dataclass(frozen=True)
class QualifyingRow:
    rank: int
    tied: bool
    player_id: int
    player: str
    played: int
    won: int
    game_points: int
    spread: int
    byes: int
    in_cut: bool
    lost: int = 0  # games played and lost (a bye is neither played nor lost)
    seed: int | None = None  # once qualifying has closed, a qualifier's place in the bracket

    @property
    def rank_label(self) -> str:
        return f"T-{self.rank}" if self.tied else str(self.rank)

    @property
    def spread_text(self) -> str:
        """The spread as the tables write it: +12, -7, 0."""
        return f"{self.spread:+d}" if self.spread else "0"


def entrant_count(tournament: Tournament) -> int:
    return CheckIn.objects.filter(session_id=tournament.session_id).count()


def cut_size(tournament: Tournament) -> int:
    """How many qualify: one in four entrants, rounded up (at least the two of a final)."""
    entrants = entrant_count(tournament)
    return qualifier_count(entrants) if entrants >= 2 else 0


def qualifying_standings(tournament: Tournament) -> list[QualifyingRow]:
    """Every entrant's qualifying standing, best first, in three queries whatever the size."""
    session_id = tournament.session_id
    totals = {
        row["player_id"]: row
        for row in ResultLine.objects.filter(
            result__state=ResultState.CONFIRMED,
            result__game__session_id=session_id,
            result__game__round__mode=QUALIFYING,
        )
        .exclude(result__game__status=GameStatus.NOT_PLAYED)
        .values("player_id")
        .annotate(
            played=Count("pk"),
            won=Coalesce(
                Sum(Case(When(won=True, then=Value(1)), default=Value(0))),
                Value(0),
                output_field=IntegerField(),
            ),
            game_points=Coalesce(Sum("game_points"), Value(0)),
            spread=Coalesce(Sum("spread"), Value(0)),
        )
    }
    byes = dict(
        Bye.objects.filter(tournament=tournament)
        .values("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    bye_wins = 1 if tournament.bye_points > 0 else 0
    rows = []
    for player_id, name in CheckIn.objects.filter(session_id=session_id).values_list(
        "player_id", "player__display_name"
    ):
        line = totals.get(player_id, {})
        had = byes.get(player_id, 0)
        rows.append(
            {
                "player_id": player_id,
                "player": name,
                "played": line.get("played", 0),
                "won": line.get("won", 0) + had * bye_wins,
                "lost": line.get("played", 0) - line.get("won", 0),
                "game_points": line.get("game_points", 0) + had * tournament.bye_points,
                "spread": line.get("spread", 0),
                "byes": had,
            }
        )
    cut = qualifier_count(len(rows)) if len(rows) >= 2 else 0
    seeds = {player_id: seed for seed, player_id in enumerate(tournament.seeds, start=1)}
    standings = []
    for position, ranked in enumerate(rank(rows, name=lambda row: row["player"])):
        row = ranked.row
        in_cut = row["player_id"] in seeds if seeds else position < cut
        standings.append(QualifyingRow(rank=ranked.rank, tied=ranked.tied, in_cut=in_cut, **row))
    return standings


def bracket(tournament: Tournament) -> dict[int, list[Match]]:
    """The matches by playoff round, each top to bottom, with their players (one query)."""
    rounds: dict[int, list[Match]] = {}
    matches = Match.objects.filter(tournament=tournament).select_related("top", "bottom", "winner")
    for match in matches.order_by("round_number", "position"):
        rounds.setdefault(match.round_number, []).append(match)
    return rounds


def match_scores(tournament_id: int) -> dict[int, dict[int, int]]:
    """Every match's games won so far, by player: match id -> {player id: games won} (one
    query, whatever the size of the bracket)."""
    scores: dict[int, dict[int, int]] = {}
    rows = (
        ResultLine.objects.filter(
            result__state=ResultState.CONFIRMED,
            result__game__match_game__match__tournament_id=tournament_id,
            won=True,
        )
        .values_list("result__game__match_game__match_id", "player_id")
        .annotate(wins=Count("pk"))
    )
    for match_id, player_id, wins in rows:
        scores.setdefault(match_id, {})[player_id] = wins
    return scores


def games_waiting(tournament: Tournament) -> dict[int, int]:
    """Per match id, its games still being played (no confirmed result; one query)."""
    return dict(
        MatchGame.objects.filter(match__tournament=tournament, game__status=GameStatus.PLAYED)
        .exclude(game__results__state=ResultState.CONFIRMED)
        .values("match_id")
        .annotate(waiting=Count("pk"))
        .values_list("match_id", "waiting")
    )


def qualifying_progress(tournament: Tournament) -> tuple[int, int]:
    """How many qualifying rounds are drawn, and how many of them are entered (every game played
    there has a confirmed result): two queries whatever the size."""
    rounds = Round.objects.filter(session_id=tournament.session_id, mode=QUALIFYING)
    drawn = rounds.count()
    waiting = (
        Game.objects.filter(round__in=rounds, status=GameStatus.PLAYED)
        .exclude(results__state=ResultState.CONFIRMED)
        .values("round_id")
        .distinct()
        .count()
    )
    return drawn, drawn - waiting


def bracket_scores(matches: Iterable[Match]) -> dict[int, tuple[int, int]]:
    """The games won by the top and the bottom player of each of `matches` (one tournament's),
    by match id: `match_scores` read for a bracket's pages."""
    matches = list(matches)
    if not matches:
        return {}
    wins = match_scores(matches[0].tournament_id)
    return {
        match.pk: (
            wins.get(match.pk, {}).get(match.top_id, 0),
            wins.get(match.pk, {}).get(match.bottom_id, 0),
        )
        for match in matches
    }
