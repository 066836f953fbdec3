"""How to post to the director's tournament pages, read into `hostile_world.TARGETS`: a new
tournament, its prize shares, the draw of a qualifying round, closing qualifying, and a forfeit
in the playoffs (ACC rule 13.1), each posted by an organiser. Terms as in
`tests/security/hostile_world.py`.
"""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from hypothesis import strategies as st

from club import services as club_services
from games import services as game_services
from tests.security.hostile_values import HOSTILE
from tests.security.hostile_world_base import Fields, Target, World, form_fields
from tournaments import services
from tournaments.forms import ForfeitForm, TournamentForm
from tournaments.models import Match, Tournament

DAY = dt.date(2026, 4, 4)  # a Saturday: the world's session is on a Thursday


def entered(
    w: World, entrants: int = 5, qualifying_games: int = 2, name: str = "Spring Open"
) -> Tournament:
    """A tournament of the world's club with `entrants` of its players (the spare last)."""
    tournament = services.tournament_create(
        club=w.club,
        actor=w.organiser,
        name=name,
        starts_on=DAY,
        entry_fee_cents=2000,
        qualifying_games=qualifying_games,
    )
    for player in [*w.players, w.spare][:entrants]:
        checkin = club_services.checkin_create(
            session=tournament.session, actor=w.organiser, player=player
        )
        club_services.fee_mark_paid(checkin=checkin, actor=w.organiser)
    return tournament


def tournament_new(w: World) -> Target:
    valid = {
        "name": "Club Championship",
        "starts_on": "2026-05-02",
        "entry_fee_cents": "$20",
        "qualifying_games": "7",
        "club_share_percent": "10",
        "bye_points": "2",
        "best_of_final": "5",
        "best_of_semis": "3",
        "best_of_quarters": "3",
        "best_of_earlier": "3",
    }
    two_days = valid | {"starts_on": "2026-05-09", "ends_on": "2026-05-10", "entry_fee_cents": "0"}
    fields = form_fields(TournamentForm(), w)
    return Target(reverse("tournaments:new"), w.organiser, fields, [valid, two_days])


def qualifying_draw(w: World) -> Target:
    """The button names the round it draws: 1 draws, 2 and the rest are refused."""
    tournament = entered(w)
    fields = Fields(
        {"round_number": st.one_of(st.sampled_from(("1", "2", "3", "0", "")), HOSTILE)},
        text=["round_number"],
    )
    url = reverse("tournaments:draw", args=[tournament.pk])
    return Target(url, w.organiser, fields, [{"round_number": "1"}, {}])


def played(w: World, tournament: Tournament) -> Tournament:
    """Every qualifying round drawn and its results entered and accepted: the world's first
    player wins at their table, side 0 at the others."""
    for number in range(tournament.qualifying_games):
        round_ = services.qualifying_round_draw(
            tournament=tournament, actor=w.organiser, seed=number
        )
        for game in round_.games.all():
            sides = {seat.player_id: seat.side for seat in game.seats.all()}
            scores = [100, 121] if sides.get(w.players[0].pk) == 1 else [121, 100]
            draft = game_services.result_enter(game=game, actor=w.organiser, scores=scores)
            game_services.result_confirm(result=draft, actor=w.organiser2)
    return tournament


def in_the_final(w: World, name: str = "Spring Open") -> Match:
    """Four entrants, one qualifying game: the two winners (the world's first player one of
    them) play the final."""
    tournament = played(w, entered(w, qualifying_games=1, entrants=4, name=name))
    services.qualifying_close(tournament=tournament, actor=w.organiser, seed=1)
    return Match.objects.select_related("top", "bottom").get(tournament=tournament)


def qualifying_close(w: World) -> Target:
    tournament = played(w, entered(w, qualifying_games=1, entrants=4))
    return Target(reverse("tournaments:close", args=[tournament.pk]), w.organiser)


def match_forfeit(w: World) -> Target:
    """Four entrants: two qualify, and the final is under way."""
    final = in_the_final(w)
    players = [(final.top_id, final.top.display_name), (final.bottom_id, final.bottom.display_name)]
    fields = form_fields(ForfeitForm(players=players), w)
    valid = [{"absent": str(final.bottom_id)}, {"absent": str(final.top_id)}]
    return Target(reverse("tournaments:forfeit", args=[final.pk]), w.organiser, fields, valid)


def prize_shares(w: World) -> Target:
    """Five entrants: two qualify for a final, so two levels (the champion, the runner-up)."""
    tournament = entered(w)
    percent = st.one_of(st.decimals(-5, 105, places=3).map(str), HOSTILE)
    fields = Fields(
        {"level_0": percent, "level_1": percent, "use_default": st.sampled_from(("on", ""))},
        text=["level_0", "level_1"],
    )
    valid = [{"level_0": "65", "level_1": "35"}, {"use_default": "on"}]
    return Target(reverse("tournaments:prizes", args=[tournament.pk]), w.organiser, fields, valid)


TARGETS = {
    "tournaments:new": tournament_new,
    "tournaments:prizes": prize_shares,
    "tournaments:draw": qualifying_draw,
    "tournaments:close": qualifying_close,
    "tournaments:forfeit": match_forfeit,
}
