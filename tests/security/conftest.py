"""Fixtures for the hostile-input tests: `world`, the state the forms need (see
hostile_world.World), built once per test through the services; each hypothesis example rolls
back to it.
"""

from __future__ import annotations

import datetime as dt

import pytest

from club import services as club_services
from club.models import Player
from games import services as game_services
from tests.factories import CheckInFactory, ClubFactory, PlayerFactory, SessionFactory
from tests.security.hostile_checks import other_club_state
from tests.security.hostile_world_base import World


@pytest.fixture
def world(club, member) -> World:
    organiser, organiser2, judge = member("organiser"), member("organiser"), member("judge")
    users = [member("player") for _ in range(4)]
    players = [Player.objects.get(user=user) for user in users]
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for player in players:
        checkin = club_services.checkin_create(session=session, actor=organiser, player=player)
        club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=7)
    game = round_.games.get(seats__player=players[0])
    other = ClubFactory(name="Other Club", slug="other-club")
    outsider = PlayerFactory(club=other, display_name="Outsider")
    CheckInFactory(session=SessionFactory(club=other, date=dt.date(2026, 3, 5)), player=outsider)
    spare = PlayerFactory(club=club, display_name="Spare Player")
    w = World(
        club=club,
        other=other,
        organiser=organiser,
        organiser2=organiser2,
        judge=judge,
        session=session,
        game=game,
        players=players,
        users={player.pk: user for player, user in zip(players, users, strict=True)},
        spare=spare,
        outsider=outsider,
        ids=[p.pk for p in players] + [spare.pk, outsider.pk],
    )
    w.other_state = other_club_state(w)
    return w
