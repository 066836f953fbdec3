"""Tournaments built through the services for the page tests and the screenshots: entrants
checked in and paid, qualifying drawn and played (the stronger, lower-id player winning every
game), closed to a bracket, and the playoffs played as far as asked.

Terms: `strength` orders the players: the one made first wins (tests.tournaments
.test_tournament_services.stronger); `loser_score` is what every loser of a qualifying game
reaches, so many winners are level on game points and spread (ties at the cut line).
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from club import services as club_services
from games import services as game_services
from games.models import GameStatus
from tests.tournaments.test_tournament_services import (
    enter,
    make_tournament,
    open_playoff_games,
    play,
    stronger,
)
from tournaments import services
from tournaments.models import Tournament


def qualifying_played(
    club, organiser, confirmer, *, entrants: int, rounds: int, loser_score: int = 100, **changes
) -> Tournament:
    """A tournament of `entrants` with `rounds` qualifying rounds drawn and every game played:
    each round's scorecards typed in by `organiser` and confirmed by `confirmer` at once."""
    changes.setdefault("qualifying_games", rounds)
    tournament = make_tournament(club, organiser, **changes)
    enter(tournament, organiser, entrants)
    for number in range(rounds):
        round_ = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=number)
        scores = {}
        for game in round_.games.filter(status=GameStatus.PLAYED).prefetch_related("seats"):
            sides = {seat.player_id: seat.side for seat in game.seats.all()}
            scores[game.table] = [loser_score] * len(set(sides.values()))
            scores[game.table][sides[stronger(game)]] = 121
        game_services.round_results_enter(round_=round_, actor=organiser, scores=scores)
        game_services.round_results_confirm(round_=round_, actor=confirmer)
    return tournament


def closed(club, organiser, confirmer, *, entrants: int, rounds: int = 1, **changes) -> Tournament:
    """A tournament whose qualifying is played and closed: the bracket is made."""
    tournament = qualifying_played(
        club, organiser, confirmer, entrants=entrants, rounds=rounds, **changes
    )
    services.qualifying_close(tournament=tournament, actor=organiser, seed=7)
    tournament.refresh_from_db()
    return tournament


def playoff_games_played(tournament: Tournament, organiser, confirmer, *, games: int) -> None:
    """Play `games` playoff games (or all, to the champion, with a large number)."""
    while games > 0 and (waiting := open_playoff_games(tournament)):
        for game in waiting[:games]:
            play(game, organiser, confirmer, stronger(game))
            games -= 1
    tournament.refresh_from_db()


def page_tournament(club, *, players=()) -> Tournament:
    """A tournament of `club` in registration, `players` checked in: the object the page tables
    (tests/web/test_pages.py, tests/security) give the tournament pages. Its session is on the
    first day from today the club has none, since a club has one session a day."""
    taken = set(club.sessions.values_list("date", flat=True))
    day = timezone.localdate()
    while day in taken:
        day += dt.timedelta(days=1)
    tournament = services.tournament_create(
        club=club,
        actor=None,
        name="Club Championship",
        starts_on=day,
        entry_fee_cents=0,
        qualifying_games=3,
    )
    for player in players:
        club_services.checkin_create(session=tournament.session, actor=None, player=player)
    return tournament
