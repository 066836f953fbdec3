"""The scorecards offer and screen with a game marked not played or a forfeit (docs/spec.md
"A Thursday, step by step", steps 4 and 7): a game not played has no result to type, and a
forfeit is scored by the house rule, so neither is a table still to type; the screen shows them
plainly instead of score fields or a 0–0.

Terms: *round* is round 1 of a session of `club` with four checked-in players in singles (two
2-player tables, Ann v Bob and Cy v Di in some order); the organiser plays in neither.
"""

import datetime as dt

import pytest
from django.urls import reverse

from club import services as club_services
from core.submissions import TOKEN_FIELD
from games import services
from games.models import GameStatus, ResultState
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(client, club, organiser):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for name in ("Ann", "Bob", "Cy", "Di"):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club, display_name=name)
        )
    round_ = services.round_draw(session=session, actor=organiser, seed=3)
    client.force_login(organiser)
    return list(round_.games.order_by("table"))


def screen(client, game):
    return client.get(reverse("games:round_scorecards", args=[game.round_id]))


def offers(client, game) -> tuple[bool, bool]:
    """Whether the session page and the round page offer to type in round 1's scorecards."""
    session_page = client.get(reverse("web:session", args=[game.session_id])).content.decode()
    round_page = client.get(reverse("games:round", args=[game.round_id])).content.decode()
    return 'data-testid="type-scorecards-1"' in session_page, (
        'data-testid="type-scorecards"' in round_page
    )


def test_a_game_not_played_is_no_table_left_to_type(client, organiser, member, tables):
    first, second = tables
    services.game_not_played(game=first, actor=organiser)
    assert offers(client, first) == (True, True)
    draft = services.result_enter(game=second, actor=organiser, scores=[121, 95])
    services.result_confirm(result=draft, actor=member("organiser"))
    assert offers(client, first) == (False, False)
    response = screen(client, first)
    assert response.context["form"] is None
    assert "nothing is left to type" in response.content.decode()


def test_the_screen_shows_a_game_not_played_without_score_fields(client, organiser, tables):
    first, second = tables
    services.game_not_played(game=first, actor=organiser)
    response = screen(client, first)
    page = response.content.decode()
    assert f'name="table_{first.table}_side_0"' not in page
    assert f'name="table_{second.table}_side_0"' in page
    row = page[page.index(f'data-testid="scorecard-{first.table}"') :]
    assert "Not played" in row[: row.index('data-testid="scorecard-', 10)]
    token = response.context["form"][TOKEN_FIELD].value()
    data = {
        TOKEN_FIELD: token,
        f"table_{second.table}_side_0": "121",
        f"table_{second.table}_side_1": "90",
    }
    assert (
        client.post(reverse("games:round_scorecards", args=[first.round_id]), data).status_code
        == 302
    )
    first.refresh_from_db()
    assert first.status == GameStatus.NOT_PLAYED and not first.results.exists()
    assert second.results.get().state == ResultState.DRAFT


def test_the_screen_shows_a_forfeit_plainly(client, organiser, tables):
    first, _ = tables
    stayer, leaver = [seat.player for seat in first.seats.order_by("position")]
    services.game_forfeit(game=first, actor=organiser, leaving=leaver)
    page = screen(client, first).content.decode()
    row = page[page.index(f'data-testid="scorecard-{first.table}"') :]
    row = row[: row.index('data-testid="scorecard-', 10)]
    assert f"Forfeit: {stayer} wins, {leaver} left" in row
    assert "<strong>0</strong>" not in row
