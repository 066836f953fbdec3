"""Writes of a tournament: creating it, drawing its qualifying rounds, closing qualifying (the
cut and the bracket), and the playoffs moving on by themselves as results are confirmed.

A package: `setup` (tournament_create, prize_shares_set), `qualifying` (qualifying_round_draw,
close_refusal, seeds_decide, qualifying_close), `playoffs` (playoffs_advance, match_game_forfeit).

Terms (tournaments.models): the bridge between the models and the pure modules (the pairing,
`tournaments.pairing`; the bracket, `tournaments.bracket`; the cut of the cards that breaks a tie,
`money.payout.cut_cards`).

Locks: a tournament's own changes lock its session (club.locking), then the tournament row;
`playoffs_advance`, called from games.hooks' results-changed inside the service that confirmed a
result (which holds that game's lock), locks the tournament row only: two tables confirming at
once take turns, so each new playoff game is seated once.
"""

from tournaments.services.playoffs import match_game_forfeit, playoffs_advance
from tournaments.services.qualifying import (
    close_refusal,
    qualifying_close,
    qualifying_round_draw,
    seeds_decide,
)
from tournaments.services.setup import prize_shares_set, tournament_create

__all__ = [
    "close_refusal",
    "match_game_forfeit",
    "playoffs_advance",
    "prize_shares_set",
    "qualifying_close",
    "qualifying_round_draw",
    "seeds_decide",
    "tournament_create",
]
