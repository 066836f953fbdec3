"""The ratings' upsets of a session (issue 18) on the live board and the session page: a win the
ratings gave the lowest chance, with the winners, the losers, the chance and where."""

import datetime as dt

import pytest

from standings.models import GameRating
from tests.builders import run_session
from tests.factories import PlayerFactory, UserFactory
from tests.standings.test_rating_selectors import winning
from tests.web.test_highlights import PAGES, items

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)


@pytest.mark.parametrize("page", PAGES)
def test_an_underdogs_win_is_the_sessions_upset(club, client, page):
    club.standings_public = True
    club.save()
    people = UserFactory(role="organisers"), UserFactory(role="organisers")
    ann = PlayerFactory(club=club, display_name="Ann")
    bob = PlayerFactory(club=club, display_name="Bob")
    run_session(club, *people, players=2, rounds=3, date=THURSDAY, scores=winning(ann, ann, ann))
    before = run_session(
        club, *people, players=2, rounds=1, date=THURSDAY + dt.timedelta(7), scores=winning(ann)
    )
    assert not items(PAGES[page](client, before), "upset")  # the favourite won: no upset
    session = run_session(
        club,
        *people,
        players=2,
        rounds=2,
        date=THURSDAY + dt.timedelta(14),
        scores=winning(bob, ann),
    )
    chance = GameRating.objects.get(session=session, round_number=1, player=bob).win_chance
    [upset] = items(PAGES[page](client, session), "upset")
    where = "R1 · T1" if page == "board" else "round 1, table 1"
    assert upset == f"upset Bob beat Ann with a {round(100 * chance)}% chance {where}"
