"""Builders that drive the real services to make whole sessions for tests.

Terms: `run_session` opens a session, checks players in (paying their fees unless told not to),
draws rounds and enters and confirms every result, with scores from a seeded random source or a
`scores(game)` function.
"""

import datetime as dt
import random

from club import services as club_services
from games import services as game_services
from tests.factories import PlayerFactory


def run_session(
    club, organiser, confirmer, *, players=13, rounds=2, date=None, seed=1, pay=True, scores=None
):
    """A whole session through the services: check-in, fees, draws, confirmed results."""
    session = club_services.session_open(
        club=club, actor=organiser, date=date or dt.date(2026, 11, 26)
    )
    roster = list(club.players.filter(active=True)[:players])
    while len(roster) < players:
        roster.append(PlayerFactory(club=club))
    for player in roster:
        checkin = club_services.checkin_create(session=session, actor=organiser, player=player)
        if pay:
            club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    rng = random.Random(seed)
    for _ in range(rounds):
        round_ = game_services.round_draw(
            session=session, actor=organiser, seed=rng.randrange(10**6)
        )
        for game in round_.games.all():
            if scores is not None:
                these = scores(game)
            else:
                these = [rng.randint(40, 120) for _ in range(game.side_count)]
                these[rng.randrange(game.side_count)] = 121
            draft = game_services.result_enter(game=game, actor=organiser, scores=these)
            game_services.result_confirm(result=draft, actor=confirmer)
    return session
