"""The ratings' upsets of a session on the live board and the session page: a win the ratings gave
the lowest chance, with the winners, the losers, the chance and where. The board shows them under
the latest results (its highlights must fit a TV)."""

import datetime as dt

import pytest
from django.urls import reverse

from standings.models import GameRating
from tests.builders import run_session
from tests.factories import PlayerFactory, UserFactory
from tests.standings.test_rating_selectors import winning
from tests.web.test_highlights import items, session_highlights_card

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)


def board_results(client, session) -> str:
    html = client.get(reverse("web:board", args=[session.pk])).content.decode()
    assert 'data-testid="upset"' not in html.split('data-testid="board-highlights">')[1]
    return html.split('data-testid="board-results">')[1].split("</section>")[0]


PAGES = {"board": board_results, "session": session_highlights_card}


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
    percent = round(100 * chance)
    if page == "board":  # as short as a skunk's line: the board must fit a TV
        assert upset == f"upset Bob over Ann, {percent}% chance R1 · T1"
    else:
        assert upset == f"upset Bob beat Ann with a {percent}% chance round 1, table 1"
