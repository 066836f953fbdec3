"""The session page's rounds read as plain rows: each round's tables with the players' names
and scores (from the current result, else the seats) and the result's badge, in two queries of
values, not model instances: the rounds with their games and seats, and the games' results
with their lines.

The page lists every table of every round (a 40-player morning: six rounds of twenty tables,
each with two or three lines); building a model object for every round, game, result, line,
seat and player of the morning took a good share of the page's time. The order: rounds by
number, tables by number, a game's current result its newest version not replaced, lines by
side then name, seats by position.

The same rows say which games have a confirmed result, for the page's settle card
(`games_to_settle`), which then reads no game of its own, who has a seat, for the check-in rows
(`seated_players`), and who was skunked, for the skunk coins (`skunked_lines`).

Each table's line is written here as one piece of HTML (`TableLine.html`), and a round's lines
together (`RoundLine.tables_html`): the page prints about a hundred and twenty of them, and the
template engine's lookups and escapes for each of their ten parts, and its loop over them, cost
more than the rest of the rounds' card.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

from core.addresses import ROW, addresses
from core.compiled_reads import compiled_once
from games.models import (
    BADGE_WORDS,
    STATE_WORDS,
    GameStatus,
    ResultLine,
    ResultState,
    Round,
    forfeit_text,
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
    confirmed: bool = False  # a version of its result is confirmed (settling asks)

    @property
    def html(self) -> SafeString:
        """The table's line of the session page's rounds: its link, who plays (with the scores
        once there is a result) and the result's badge."""
        if self.status == GameStatus.FORFEIT:
            players = escape(capfirst(self.status_text))
        else:
            players = self.players  # written escaped by session_round_lines
        if self.status != GameStatus.PLAYED:
            badge = escape(self.status_label)
        elif self.state:
            badge = f'<span title="{escape(self.state_words)}">{escape(self.badge_words)}</span>'
        else:
            badge = "Playing"
        return mark_safe(  # every value escaped above; the url is the site's own, made by reverse
            f'<li class="table-line"><a href="{escape(self.url)}" class="table-line__link">'
            f"Table {self.table}</a> "
            f'<span class="table-line__players">{players}</span> '
            f'<span class="result-badge result-badge--{self.state or "none"}">{badge}</span></li>'
        )


@dataclass
class RoundLine:
    pk: int
    number: int
    seed: int
    tables: list[TableLine] = field(default_factory=list)
    # A table played without a confirmed result: its scorecards can still be typed in.
    scorecards_open: bool = False
    seated: set[int] = field(default_factory=set)  # the ids of the players with a seat
    # The skunked lines of its confirmed results: (game, player id, round number, table, name).
    skunked: list[tuple[int, int, int, int, str]] = field(default_factory=list)

    @property
    def tables_html(self) -> SafeString:
        """Its tables' lines, one after the other (`TableLine.html`)."""
        return mark_safe("".join(line.html for line in self.tables))  # each line escaped


@compiled_once
def _seat_rows(session_id: int):
    """Every round of the session with its games and their seats, by number, table and
    position."""
    return (
        Round.objects.filter(session_id=session_id)
        .order_by("number", "games__table", "games__seats__position")
        .values_list(
            "pk",
            "number",
            "seed",
            "games__pk",
            "games__table",
            "games__status",
            "games__forfeit_side",
            "games__seats__side",
            "games__seats__player_id",
            "games__seats__player__display_name",
        )
    )


@compiled_once
def _line_rows(session_id: int):
    """The lines of every version of the session's results not replaced, a game's newest
    version first."""
    return (
        ResultLine.objects.filter(result__game__round__session_id=session_id)
        .exclude(result__state=ResultState.SUPERSEDED)
        .order_by("result__game_id", "-result__version", "side", "player__display_name")
        .values_list(
            "result__game_id",
            "result_id",
            "result__state",
            "player_id",
            "player__display_name",
            "score",
            "skunked",
        )
    )


def session_round_lines(session) -> list[RoundLine]:
    rounds: dict[int, RoundLine] = {}
    games: dict[int, tuple[int, int, str, int | None]] = {}  # pk -> (round, table, status, side)
    seats: dict[int, list[tuple[int, str]]] = defaultdict(list)  # game -> (side, name)
    seat_rows = _seat_rows(session.pk)  # every round with its games and their seats
    for round_id, number, seed, game, table, status, forfeit_side, side, player, name in seat_rows:
        if round_id not in rounds:
            rounds[round_id] = RoundLine(pk=round_id, number=number, seed=seed)
        if game is not None:
            games.setdefault(game, (round_id, table, status, forfeit_side))
            if name is not None:
                seats[game].append((side, name))
                rounds[round_id].seated.add(player)
    # Each game's current result (its newest version not replaced) with its lines.
    current: dict[int, tuple[int, str]] = {}  # game -> (result, state)
    lines: dict[int, list[tuple[str, int]]] = defaultdict(list)
    confirmed: set[int] = set()  # games with a confirmed version
    skunked: dict[int, list[tuple[int, str]]] = defaultdict(list)  # game -> (player, name)
    for game, result, state, player, name, score, skunk in _line_rows(session.pk):
        if current.setdefault(game, (result, state))[0] == result:
            lines[result].append((name, score))
        if state == ResultState.CONFIRMED:
            confirmed.add(game)
            if skunk:
                skunked[game].append((player, name))
    game_url = addresses("games:game", ROW)  # every table links to its game (core.addresses)
    for pk, (round_id, table, status, forfeit_side) in games.items():
        result, state = current.get(pk, (None, ""))
        # As format_html_join would write them (names escaped, scores whole numbers), without a
        # format_html call for each name of the morning.
        if result is not None:
            players = " · ".join(
                f"{escape(name)} <strong>{score}</strong>" for name, score in lines[result]
            )
        else:
            players = " v ".join(escape(name) for _, name in seats[pk])
        status_text = ""
        if status == GameStatus.FORFEIT:  # the names of who stayed and who left
            status_text = forfeit_text(seats[pk], forfeit_side)
        line = TableLine(
            pk=pk,
            url=game_url(pk),
            table=table,
            status=status,
            status_label=GameStatus(status).label,
            status_text=status_text,
            players=mark_safe(players),  # every name escaped above
            confirmed=pk in confirmed,
        )
        if state:
            line.state = state
            line.state_words = STATE_WORDS.get(state, ResultState(state).label)
            line.badge_words = BADGE_WORDS.get(state, line.state_words)
        round_ = rounds[round_id]
        round_.tables.append(line)
        round_.skunked += [(pk, player, round_.number, table, name) for player, name in skunked[pk]]
        if status == GameStatus.PLAYED and state != ResultState.CONFIRMED:
            round_.scorecards_open = True
    return list(rounds.values())


def games_to_settle(rounds: list[RoundLine]) -> list[tuple[int, int, int, bool]]:
    """The games of `rounds` played or forfeited, as money.selectors.settle_blockers takes
    them: (round id, round number, table, whether a version of its result is confirmed)."""
    return [
        (round_.pk, round_.number, line.table, line.confirmed)
        for round_ in rounds
        for line in round_.tables
        if line.status != GameStatus.NOT_PLAYED
    ]


def seated_players(rounds: list[RoundLine]) -> set[int]:
    """The ids of the players with a seat in any of `rounds` (a check-in that can no longer be
    undone): from the session's own rounds, not from every seat the players ever had."""
    return set().union(*(round_.seated for round_ in rounds))


def skunked_lines(rounds: list[RoundLine]) -> list[tuple[int, int, int, int, str]]:
    """The skunked lines of the confirmed results of `rounds`, as money.selectors'
    skunk_coin_lines takes them: (game id, player id, round number, table, name)."""
    return [line for round_ in rounds for line in round_.skunked]
