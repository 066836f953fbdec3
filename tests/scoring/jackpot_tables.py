"""A table whose session runs the hand jackpots, for the tests of confirming a jackpot hand's cards
and of the jackpot winners.

Terms: as `tests.builders.make_table` (one 2-player game of round 1, its players and users listed by
side), but the club runs the 29, 28 and 24 jackpots (docs/spec.md "The pot and payouts": side
pots) before the session opens and snapshots its rules. The 29 is hoyle.txt "Showing": "three fives
and a knave, with a five, of the same suit as the knave, turned up" (britannica-1911.txt says the
same).
"""

import datetime as dt

from club import services as club_services
from games import services as game_services
from scoring import services
from scoring.models import Claim, ClaimKind
from tests.builders import Table
from tests.factories import ClubFactory, PlayerFactory, UserFactory

HAND_29 = {"hand": "5H 5C 5S JD", "starter": "5D"}


def make_jackpot_table(*, roles=("players", "players"), muggins: bool = True) -> Table:
    """Four roles make one partners table (two against two); `players`/`users` then list the
    seats by side (two each)."""
    club = ClubFactory(
        muggins=muggins,
        jackpot_29_cents=25,
        jackpot_28_cents=10,
        jackpot_24_cents=5,
        table_mode="partners" if len(roles) == 4 else "singles",
    )
    organiser = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for role in roles:
        player = PlayerFactory(club=club, user=UserFactory(role=role))
        club_services.checkin_create(session=session, actor=organiser, player=player)
    game = game_services.round_draw(session=session, actor=organiser, seed=7).games.get()
    seats = list(game.seats.select_related("player__user").order_by("side"))
    return Table(
        club=club,
        session=session,
        organiser=organiser,
        game=game,
        players=[seat.player for seat in seats],
        users=[seat.player.user for seat in seats],
    )


def file_29(table: Table, *, claimed: int = 29, side: int = 1) -> Claim:
    """The side-`side` player's 29 hand, claimed as `claimed`, filed by himself."""
    return services.claim_file(
        game=table.game,
        actor=table.users[side],
        kind=ClaimKind.HAND,
        claimant=table.players[side],
        claimed_points=claimed,
        **HAND_29,
    )
