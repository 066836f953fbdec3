"""The per-(session, player) totals the standings pages read (games.models.SessionTotal).

Terms:
- line: one player's confirmed result line, in round order within its session.
- run: games won in a row. A session's `first_run` counts from its first game, `last_run` up to
  its last, `best_run` anywhere in it; `streak` joins them across sessions in date order.

`refresh_session_totals` recounts one session from its confirmed lines; every service that
confirms, corrects or supersedes a confirmed result calls it inside its own transaction, so the
totals never disagree with the lines they count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from club.services import pages_changed
from games.models import ResultLine, ResultSource, ResultState, SessionTotal


@dataclass
class _Tally:
    played: int = 0
    won: int = 0
    points: int = 0
    spread: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    first_run: int = 0
    last_run: int = 0
    best_run: int = 0


def tally_lines(
    lines: Iterable[
        tuple[int, bool, int, int, int, bool] | tuple[int, bool, int, int, int, bool, str]
    ],
) -> dict[int, _Tally]:
    """Totals per player from (player_id, won, game_points, spread, skunks_given, skunked[,
    source]) lines given in round order. A forfeit's line (source FORFEIT) counts as a game
    with its win and points, but it is not a game won at the table: it ends a run of wins,
    so it never makes a streak or a grand slam (docs/decisions/results.md)."""
    tallies: dict[int, _Tally] = {}
    for player_id, won, points, spread, skunks_given, skunked, *source in lines:
        tally = tallies.setdefault(player_id, _Tally())
        ran = won and source[:1] != [ResultSource.FORFEIT]
        if ran and tally.first_run == tally.played:
            tally.first_run += 1
        tally.played += 1
        tally.won += won
        tally.points += points
        tally.spread += spread
        tally.skunks_given += skunks_given
        tally.skunks_taken += skunked
        tally.last_run = tally.last_run + 1 if ran else 0
        tally.best_run = max(tally.best_run, tally.last_run)
    return tallies


def streak(sessions: Iterable[tuple[int, int, int, int]]) -> int:
    """The longest run of wins over sessions given in date order as
    (played, first_run, last_run, best_run)."""
    best = current = 0
    for played, first_run, last_run, best_run in sessions:
        if first_run == played:  # won every game: the run goes on through the session
            current += played
        else:
            best = max(best, current + first_run, best_run)
            current = last_run
        best = max(best, current)
    return best


def write_session_totals(session, *, lines_model, totals_model) -> None:
    """Replace a session's totals with a recount of its confirmed lines. The models are passed in
    so the data migration can use its historical ones; the services use `refresh_session_totals`.
    """
    lines = (
        lines_model.objects.filter(
            result__game__session_id=session.pk, result__state=ResultState.CONFIRMED
        )
        .order_by("result__game__round__number", "result__game__table", "pk")
        .values_list(
            "player_id", "won", "game_points", "spread", "skunks_given", "skunked", "result__source"
        )
    )
    tallies = tally_lines(lines)
    totals_model.objects.filter(session_id=session.pk).delete()
    totals_model.objects.bulk_create(
        totals_model(
            session_id=session.pk,
            player_id=player_id,
            club_id=session.club_id,
            date=session.date,
            **vars(tally),
        )
        for player_id, tally in tallies.items()
    )


def refresh_session_totals(session) -> None:
    """Recount a session's totals from its confirmed lines (call inside the writing transaction),
    and mark the club's standings pages stale. A tournament's session keeps none: the season and
    all-time tables, the records and the highlights are the club mornings' (a tournament ranks
    its entrants in its own standings); its games still count in the ratings."""
    if session.is_tournament:
        SessionTotal.objects.filter(session_id=session.pk).delete()
    else:
        write_session_totals(session, lines_model=ResultLine, totals_model=SessionTotal)
    pages_changed(session.club_id)
