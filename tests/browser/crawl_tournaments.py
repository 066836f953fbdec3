"""The tournaments of the page crawl's world (tests/browser/crawl_world.py): the demo club's
spring open mid-qualifying (thirteen entrants, one not yet paid, round 1 drawn with a bye, some
of its results in) and a small cup in its final, with the page patterns of both.

Terms: as in tests/browser/crawl_world.py; a tournament's session is on a day of its own, the
first free day after today (the demo's club nights keep theirs).
"""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import Club, Session
from games import services as game_services
from tournaments import services
from tournaments.models import Tournament


def free_day(club: Club) -> dt.date:
    day = timezone.localdate() + dt.timedelta(days=1)
    while Session.objects.filter(club=club, date=day).exists():
        day += dt.timedelta(days=1)
    return day


def enter(tournament: Tournament, organiser, players, unpaid: int = 0) -> None:
    for n, player in enumerate(players):
        checkin = club_services.checkin_create(
            session=tournament.session, actor=organiser, player=player
        )
        if n < len(players) - unpaid:
            club_services.fee_mark_paid(checkin=checkin, actor=organiser)


def confirm(game, organiser, confirmer) -> None:
    draft = game_services.result_enter(game=game, actor=organiser, scores=[121, 97])
    game_services.result_confirm(result=draft, actor=confirmer)


def mid_qualifying(club: Club, organiser, confirmer) -> Tournament:
    tournament = services.tournament_create(
        club=club,
        actor=organiser,
        name="Spring Open",
        starts_on=free_day(club),
        entry_fee_cents=2500,
        qualifying_games=7,
        match_lengths=[5, 3],
        club_share_percent=10,
    )
    players = list(club.players.filter(active=True).order_by("display_name")[:13])
    enter(tournament, organiser, players, unpaid=1)
    round_ = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=3)
    for game in round_.games.order_by("table")[:4]:
        confirm(game, organiser, confirmer)
    return tournament


def in_the_final(club: Club, organiser, confirmer) -> Tournament:
    """Four entrants, one qualifying game: two qualify, the final is being played."""
    tournament = services.tournament_create(
        club=club,
        actor=organiser,
        name="Winter Cup",
        starts_on=free_day(club),
        entry_fee_cents=1000,
        qualifying_games=1,
        match_lengths=[3],
    )
    players = list(club.players.filter(active=True).order_by("-display_name")[:4])
    enter(tournament, organiser, players)
    round_ = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=1)
    for game in round_.games.all():
        confirm(game, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    return tournament


def tournament_pages(club: Club, organiser, confirmer) -> dict[str, str]:
    spring = mid_qualifying(club, organiser, confirmer)
    cup = in_the_final(club, organiser, confirmer)
    return {
        "tournaments:list": reverse("tournaments:list"),
        "tournaments:new": reverse("tournaments:new"),
        "tournaments:prizes": reverse("tournaments:prizes", args=[cup.pk]),
        "tournaments:detail@qualifying": reverse("tournaments:detail", args=[spring.pk]),
        "tournaments:detail@final": reverse("tournaments:detail", args=[cup.pk]),
        "tournaments:standings": reverse("tournaments:standings", args=[spring.pk]),
        "tournaments:bracket": reverse("tournaments:bracket", args=[cup.pk]),
    }
