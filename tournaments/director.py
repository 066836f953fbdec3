"""Reads of the director's page: what the director of a tournament works from all day.

Terms (tournaments.models):
- entrants: the check-ins of the tournament's session; paid: those whose entry fee is taken.
- qualifying round line: one qualifying round drawn, with its tables, how many of them are
  settled (a confirmed result, or a game not played), and who has the bye.
- match line: a playoff match being played (both players known, no winner yet), with the name
  of its round ("Semi-finals"), the games each player has won and how many it takes.

Every read here is a fixed number of queries, whatever the number of entrants or matches.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from club.models import CheckIn
from games.models import GameStatus, ResultState, Round
from tournaments.bracket import bracket_size, qualifier_count, round_name
from tournaments.models import Match, Stage, Tournament
from tournaments.selectors import QUALIFYING, bracket_scores


@dataclass(frozen=True)
class QualifyingRoundLine:
    round: Round
    number: int  # the qualifying round's number, 1 first
    tables: int
    settled: int
    bye: str  # the name of who has the bye, or ""

    @property
    def complete(self) -> bool:
        return self.settled == self.tables


@dataclass(frozen=True)
class MatchLine:
    match: Match
    round_name: str
    top_wins: int
    bottom_wins: int


@dataclass(frozen=True)
class DirectorDay:
    entrants: int
    paid: int
    rounds: list[QualifyingRoundLine]
    next_round: int | None  # the qualifying round the draw button draws; None: no more
    matches: list[MatchLine]

    @property
    def qualifiers(self) -> int:
        """How many qualify with the entrants checked in now (ACC rule 13.2.b)."""
        return qualifier_count(self.entrants) if self.entrants >= 2 else 0


def qualifying_rounds(tournament: Tournament) -> list[QualifyingRoundLine]:
    settled = Q(games__results__state=ResultState.CONFIRMED) | ~Q(games__status=GameStatus.PLAYED)
    rounds = (
        Round.objects.filter(session_id=tournament.session_id, mode=QUALIFYING)
        .select_related("bye__player")
        .annotate(
            table_count=Count("games", distinct=True),
            settled_count=Count("games", filter=settled, distinct=True),
        )
        .order_by("number")
    )
    lines = []
    for number, round_ in enumerate(rounds, start=1):
        bye = getattr(round_, "bye", None)
        lines.append(
            QualifyingRoundLine(
                round=round_,
                number=number,
                tables=round_.table_count,
                settled=round_.settled_count,
                bye=bye.player.display_name if bye else "",
            )
        )
    return lines


def matches_in_play(tournament: Tournament) -> list[MatchLine]:
    """The playoff matches being played, round by round, top to bottom, with their scores."""
    if tournament.stage != Stage.PLAYOFFS or len(tournament.seeds) < 2:
        return []
    matches = list(
        Match.objects.filter(
            tournament=tournament,
            winner__isnull=True,
            top__isnull=False,
            bottom__isnull=False,
            is_bye=False,
        )
        .select_related("top", "bottom")
        .order_by("round_number", "position")
    )
    scores = bracket_scores(matches)
    size = bracket_size(len(tournament.seeds))
    return [
        MatchLine(
            match=match,
            round_name=round_name(match.round_number, size),
            top_wins=scores[match.pk][0],
            bottom_wins=scores[match.pk][1],
        )
        for match in matches
    ]


def director_day(tournament: Tournament) -> DirectorDay:
    counts = CheckIn.objects.filter(session_id=tournament.session_id).aggregate(
        entrants=Count("pk"), paid=Count("pk", filter=Q(paid_at__isnull=False))
    )
    rounds = qualifying_rounds(tournament)
    drawing = tournament.stage in (Stage.REGISTRATION, Stage.QUALIFYING)
    next_round = len(rounds) + 1
    return DirectorDay(
        entrants=counts["entrants"],
        paid=counts["paid"],
        rounds=rounds,
        next_round=next_round if drawing and next_round <= tournament.qualifying_games else None,
        matches=matches_in_play(tournament),
    )
