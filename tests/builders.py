"""Builders that drive the real services to make whole sessions for tests.

Terms: `run_session` opens a session, checks players in (paying their fees, and with the skunk
bank on their skunk coins, unless told not to), draws rounds and enters and confirms every
result (each round's scorecards typed in and confirmed at once: `ops.demo.type_in_round`), with
scores from a seeded random source or a `scores(game)` function. `make_table` opens a session
with one logged-in player per role and draws round 1: a single 2-player game (a *table*), its
players and users listed by side. A `LinkTable` is such a game whose players
have no logins: they play through its table link. `play_session` plays a session whose winners
are scripted: at each table the player first in `order` wins, and the losers' scores say whether
that winner skunks them.
"""

import datetime as dt
import random
from dataclasses import dataclass

from django.urls import reverse

from club import services as club_services
from club.models import Player, Session
from games import services as game_services
from games.models import Game
from money.services import session_settle, skunk_coins_collect
from ops.demo import type_in_round
from tests.factories import ClubFactory, PlayerFactory, UserFactory


def _members(club, *officials):
    """Officials who are members of no club yet become (inactive) members of `club`: roles act
    only through a player record (club/backends.py)."""
    for official in officials:
        if not Player.objects.filter(user=official).exists():
            PlayerFactory(club=club, user=official, active=False, display_name=f"zz {official}")


def run_session(
    club, organiser, confirmer, *, players=13, rounds=2, date=None, seed=1, pay=True, scores=None
):
    """A whole session through the services: check-in, fees, draws, confirmed results.
    Organisers who are members of no club yet become (inactive) members of `club`: roles act
    only through a player record (club/backends.py)."""
    _members(club, organiser, confirmer)
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
        by_table = {}
        for game in round_.games.all():
            if scores is not None:
                these = scores(game)
            else:
                these = [rng.randint(40, 120) for _ in range(game.side_count)]
                these[rng.randrange(game.side_count)] = 121
            by_table[game.table] = these
        type_in_round(round_, organiser, confirmer, by_table)
    if pay and session.house_rules.skunk_bank:  # the skunked pay their coins at the table
        skunk_coins_collect(session=session, actor=organiser)
    return session


def play_session(
    club,
    people,
    day,
    order,
    *,
    rounds=3,
    skunks=(),
    double_skunks=(),
    late=(),
    ranking=None,
    settle=True,
    claims=None,
):
    """A session of the players `order` (checked in and paid), `rounds` rounds drawn and every
    result confirmed: at each table the side of the player who comes first in `ranking` (by
    default `order`, then `late`) wins; its losers score 80 when that winner is one of `skunks`
    (skunked at the default lines), 50 when one of `double_skunks`, else 100. `late` players
    check in after round 1 is drawn (they play from round 2). `claims(round_)`, when given,
    files claims while the round is in play. Settled unless told not to. `people`: the
    (organiser, confirmer) who do it."""
    organiser, confirmer = people
    _members(club, organiser, confirmer)
    session = club_services.session_open(club=club, actor=organiser, date=day)
    club_services.checkins_create(session=session, actor=organiser, players=order, paid=True)
    ranking = list(ranking or [*order, *late])
    for number in range(1, rounds + 1):
        if number == 2 and late:
            club_services.checkins_create(session=session, actor=organiser, players=late, paid=True)
        round_ = game_services.round_draw(
            session=session, actor=organiser, seed=day.toordinal() * 10 + number
        )
        if claims is not None:
            claims(round_)
        by_table = {}
        for game in round_.games.order_by("table"):
            seats = list(game.seats.order_by("side", "position"))
            winner = min(seats, key=lambda seat: ranking.index(seat.player)).player
            losing = 80 if winner in skunks else 50 if winner in double_skunks else 100
            sides = sorted({seat.side for seat in seats})
            won = next(seat.side for seat in seats if seat.player == winner)
            by_table[game.table] = [121 if side == won else losing for side in sides]
        type_in_round(round_, organiser, confirmer, by_table)
    if settle:
        session_settle(session=session, actor=organiser, seed=1)
        session.refresh_from_db()
    return session


@dataclass(frozen=True)
class Table:
    club: object
    session: Session
    organiser: object
    game: Game
    players: list  # by side
    users: list  # by side


def make_table(*, club=None, muggins: bool = True, roles=("players", "players")) -> Table:
    """Open a session of `club` (a new club with `muggins` when None; house rules snapshotted
    now), check in one player per role, draw round 1."""
    club = club or ClubFactory(muggins=muggins)
    organiser = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for role in roles:
        player = PlayerFactory(club=club, user=UserFactory(role=role))
        club_services.checkin_create(session=session, actor=organiser, player=player)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=7)
    game = round_.games.get()
    seats = list(game.seats.select_related("player__user").order_by("side"))
    assert [seat.side for seat in seats] == [0, 1]
    return Table(
        club=club,
        session=session,
        organiser=organiser,
        game=game,
        players=[seat.player for seat in seats],
        users=[seat.player.user for seat in seats],
    )


class LinkTable:
    """Round 1's first game of a new club's session, its players without logins, and the two
    writes its table link makes (games.services.table). `players` are by side; `side(i)` the
    players of side i; `rules` are the club's (by default singles for 2 players, partners for 4)."""

    def __init__(self, players=2, **rules):
        rules.setdefault("table_mode", "partners" if players == 4 else "singles")
        self.club = ClubFactory(**rules)
        self.organiser = UserFactory(role="organisers", club=self.club)
        self.session = club_services.session_open(
            club=self.club, actor=self.organiser, date=dt.date(2026, 3, 5)
        )
        for _ in range(players):
            club_services.checkin_create(
                session=self.session, actor=self.organiser, player=PlayerFactory(club=self.club)
            )
        round_ = game_services.round_draw(session=self.session, actor=self.organiser, seed=7)
        self.game = round_.games.order_by("table").first()
        self.seats = list(self.game.seats.select_related("player").order_by("position"))
        self.players = [seat.player for seat in sorted(self.seats, key=lambda s: s.side)]

    def side(self, index):
        return [seat.player for seat in self.seats if seat.side == index]

    def enter(self, player, scores=(121, 98), **kwargs):
        return game_services.table_result_enter(
            game=self.game, player=player, scores=scores, **kwargs
        )

    def accept(self, result, player, pin=""):
        return game_services.table_result_accept(result=result, player=player, pin=pin)


def house_rules_post(client) -> dict:
    """What the house rules form posts unchanged for the logged-in organiser of `client`: every
    field's current value, ticked boxes as "on" (unticked ones left out, as a browser does)."""
    form = client.get(reverse("club:rules_edit")).context["form"]
    return {
        field.name: ("on" if field.value() is True else field.value())
        for field in form
        if field.value() is not None and field.value() is not False
    }


def settle_by_page(client, session, **kwargs):
    """Settle `session` as the organiser logged in on `client` does: open the payout sheet, then
    press "Settle and lock" on it (its hidden `sheet` field). Returns the press's response."""
    preview = client.get(reverse("money:settle_preview", args=[session.pk]))
    return client.post(
        reverse("money:session_settle", args=[session.pk]),
        {"sheet": preview.context["sheet_token"]},
        **kwargs,
    )
