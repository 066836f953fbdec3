"""The session page's rounds read as plain rows: each round's tables with the players' names
and scores (from the current result, else the seats) and the result's badge, in five small
queries of values, not model instances.

The page lists every table of every round (a 40-player morning: six rounds of twenty tables,
each with two or three lines); building a model object for every round, game, result, line,
seat and player of the morning took a good share of the page's time. The order: rounds by
number, tables by number, a game's current result its newest version not replaced, lines by
side then name, seats by position.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from core.addresses import ROW, addresses
from games.models import (
    BADGE_WORDS,
    STATE_WORDS,
    Game,
    GameStatus,
    Result,
    ResultLine,
    ResultState,
    Round,
    Seat,
)


@dataclass
class TableLine:
    """One table of a round: who plays and, once there is one, the current result."""

    pk: int
    url: str  # the game's page
    table: int
    status: str  # GameStatus
    status_label: str  # "Played", "Not played", "Forfeit"
    status_text: str  # "forfeit: Ann wins, Bob left"; "" unless forfeited
    players: SafeString  # "Ann <strong>121</strong> · Bob <strong>97</strong>" or "Ann v Bob"
    state: str = ""  # the current result's ResultState, "" without one
    state_words: str = ""
    badge_words: str = ""


@dataclass
class RoundLine:
    pk: int
    number: int
    seed: int
    tables: list[TableLine] = field(default_factory=list)
    # A table played without a confirmed result: its scorecards can still be typed in.
    scorecards_open: bool = False


def session_round_lines(session) -> list[RoundLine]:
    rounds = {
        pk: RoundLine(pk=pk, number=number, seed=seed)
        for pk, number, seed in Round.objects.filter(session=session)
        .order_by("number")
        .values_list("pk", "number", "seed")
    }
    if not rounds:
        return []
    games = list(
        Game.objects.filter(round__session=session)
        .order_by("round__number", "table")
        .values_list("pk", "round_id", "table", "status", "forfeit_side")
    )
    current: dict[int, tuple[int, str]] = {}  # game -> (result, state), the newest version
    for result, game, state in (
        Result.objects.filter(game__round__session=session)
        .exclude(state=ResultState.SUPERSEDED)
        .order_by("game_id", "-version")
        .values_list("pk", "game_id", "state")
    ):
        current.setdefault(game, (result, state))
    lines: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for result, name, score in (
        ResultLine.objects.filter(result_id__in=[result for result, _ in current.values()])
        .order_by("result_id", "side", "player__display_name")
        .values_list("result_id", "player__display_name", "score")
    ):
        lines[result].append((name, score))
    seats: dict[int, list[str]] = defaultdict(list)
    for game, name in (
        Seat.objects.filter(game__round__session=session)
        .exclude(game__results__state__in=[ResultState.DRAFT, ResultState.CONFIRMED])
        .order_by("game_id", "position")
        .values_list("game_id", "player__display_name")
    ):
        seats[game].append(name)
    game_url = addresses("games:game", ROW)  # every table links to its game (core.addresses)
    for pk, round_id, table, status, forfeit_side in games:
        result, state = current.get(pk, (None, ""))
        if result is not None:
            players = format_html_join(" · ", "{} <strong>{}</strong>", lines.get(result, ()))
        else:
            players = format_html_join(" v ", "{}", ((name,) for name in seats.get(pk, ())))
        status_text = ""
        if status == GameStatus.FORFEIT:  # the names of who stayed and who left (one query)
            game = Game.from_db(None, ["id", "status", "forfeit_side"], [pk, status, forfeit_side])
            status_text = game.status_text
        line = TableLine(
            pk=pk,
            url=game_url(pk),
            table=table,
            status=status,
            status_label=GameStatus(status).label,
            status_text=status_text,
            players=players,
        )
        if state:
            line.state = state
            line.state_words = STATE_WORDS.get(state, ResultState(state).label)
            line.badge_words = BADGE_WORDS.get(state, line.state_words)
        round_ = rounds[round_id]
        round_.tables.append(line)
        if status == GameStatus.PLAYED and state != ResultState.CONFIRMED:
            round_.scorecards_open = True
    return list(rounds.values())
