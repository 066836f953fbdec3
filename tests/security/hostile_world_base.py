"""The state the site's forms need, and what a target is: shared by `hostile_world` (the targets of
the club's pages) and `hostile_links` (those of a table's link and of logins). Terms as in
`tests/security/hostile_world.py`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django import forms

from club.models import Club, Player, Session
from games import services as game_services
from games.models import Game
from scoring import services as scoring_services
from scoring.models import Claim, Dispute
from tests.security.hostile_values import field_strategy

# --- The state the forms need ---------------------------------------------------------------------


@dataclass
class World:
    club: Club
    other: Club  # another club on the same site: nothing of it may change
    organiser: object
    organiser2: object
    judge: object
    session: Session
    game: Game  # round 1's game at which players[0] sits
    players: list  # the four checked-in, seated players (each with a login)
    users: dict  # player pk -> user
    spare: Player  # a player of the club not checked in
    outsider: Player  # a player of the other club
    ids: list[int] = field(default_factory=list)
    other_state: tuple = ()  # other_club_state() as the fixture left it

    def seat_users(self) -> list:
        seats = self.game.seats.select_related("player").order_by("side")
        return [self.users[seat.player_id] for seat in seats]

    def seat_players(self) -> list[Player]:
        return [seat.player for seat in self.game.seats.select_related("player").order_by("side")]


def confirm_all(w: World, scores=(121, 100)) -> None:
    for game in w.session.games.all():
        draft = game_services.result_enter(game=game, actor=w.organiser, scores=list(scores))
        game_services.result_confirm(result=draft, actor=w.organiser2)


def file_claim(w: World) -> Claim:
    """A hand claim of 28 for what counts 29 (an under-claim: muggins is open)."""
    claimant = w.seat_players()[0]
    return scoring_services.claim_file(
        game=w.game,
        actor=w.users[claimant.pk],
        kind="hand",
        claimant=claimant,
        claimed_points=28,
        hand="5H 5C 5S JD",
        starter="5D",
    )


def open_dispute(w: World) -> Dispute:
    return scoring_services.dispute_open(
        claim=file_claim(w), actor=w.seat_users()[1], statement="That is 29."
    )


class Fields(dict):
    """A strategy by field name; `text` names the free-text fields, where a value can be stored
    as typed (each is also posted with every one of `SWEEP`)."""

    def __init__(self, strategies=(), *, text=()):
        super().__init__(strategies)
        self.text = set(text)


@dataclass
class Target:
    url: str
    user: object | None
    fields: Fields = field(default_factory=Fields)  # every field the view reads
    valid: list[dict] = field(default_factory=lambda: [{}])  # posts the view accepts


def form_fields(form: forms.Form, w: World, **overrides) -> Fields:
    """A strategy for each field of `form` (the unbound form the view validates)."""
    text = [name for name, f in form.fields.items() if isinstance(f, forms.CharField)]
    strategies = Fields(
        {name: field_strategy(f, w.ids) for name, f in form.fields.items()},
        text=[*text, *overrides],
    )
    strategies.update(overrides)
    return strategies


def as_post(value) -> str:
    if isinstance(value, dt.time):
        return value.strftime("%H:%M")
    return "" if value is None else str(value)


def side_names(w: World) -> list[list[str]]:
    return [[p.display_name] for p in w.seat_players()]
