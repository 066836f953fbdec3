"""The game page's "cannot be finished" form and "Back to playing" (docs/spec.md "A Thursday,
step by step", step 7), and how the session, round and board pages show it."""

import datetime as dt

import pytest
from django.urls import reverse

from club import services as club_services
from club.models import CheckIn
from games import services
from games.models import GameStatus, ResultLine, score_text_expression
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(client, club, organiser):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for name in ("Ann", "Bob", "Cy", "Di"):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club, display_name=name)
        )
    round_ = services.round_draw(session=session, actor=organiser, seed=3)
    client.force_login(organiser)
    return round_.games.order_by("table").first()


def post(client, game, **data):
    return client.post(reverse("games:game_unfinished", args=[game.pk]), data, follow=True)


def test_a_forfeit_with_leaving_in_one_step_is_shown_everywhere(client, game):
    stayer, leaver = [seat.player for seat in game.seats.order_by("position")]
    response = post(client, game, outcome="forfeit", leaving=leaver.pk, leaves="on")
    text = f"Forfeit: {stayer} wins, {leaver} left"
    assert text in response.content.decode()
    assert CheckIn.objects.get(player=leaver).last_round == 1
    session_page = client.get(reverse("web:session", args=[game.session_id])).content.decode()
    assert text in session_page and "(leaves after round 1)" in session_page
    assert text in client.get(reverse("games:round", args=[game.round_id])).content.decode()
    board = client.get(reverse("web:board", args=[game.session_id])).content.decode()
    assert 'data-state="forfeit"' in board


def test_not_played_and_back_to_playing(client, game):
    post(client, game, outcome="not_played", reason="Taken ill")
    game.refresh_from_db()
    assert game.status == GameStatus.NOT_PLAYED
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Not played" in page and "Back to playing" in page and "Enter result" not in page
    client.post(reverse("games:game_back_to_playing", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYED


def test_a_forfeit_without_the_player_who_leaves_is_a_form_error(client, game):
    response = client.post(reverse("games:game_unfinished", args=[game.pk]), {"outcome": "forfeit"})
    assert response.status_code == 400
    assert "Choose the player who leaves." in response.content.decode()
    game.refresh_from_db()
    assert game.status == GameStatus.PLAYED


def test_a_confirmed_game_is_refused_with_what_to_do(client, game, organiser, member):
    other = member("organiser")
    draft = services.result_enter(game=game, actor=organiser, scores=[121, 99])
    services.result_confirm(result=draft, actor=other)
    response = client.post(
        reverse("games:game_unfinished", args=[game.pk]), {"outcome": "not_played"}
    )
    assert response.status_code == 400
    assert "corrects it" in response.content.decode()


def test_every_list_of_result_lines_says_forfeit_instead_of_scores(client, game):
    """A forfeit's lines carry no score (docs/spec.md "A Thursday, step by step", step 7: a
    forfeit is scored by the house rule, never a made-up result): the session's results table
    and its CSV and the game page say who won and lost by forfeit, never 0–0."""
    stayer, leaver = [seat.player for seat in game.seats.order_by("position")]
    post(client, game, outcome="forfeit", leaving=leaver.pk)
    session_page = client.get(reverse("web:session", args=[game.session_id])).content.decode()
    results = session_page[session_page.index('id="results"') :]
    assert "won by forfeit" in results and "lost by forfeit" in results
    export = reverse("web:session_export", args=[game.session_id])
    csv_text = client.get(export, {"table": "results"}).content.decode()
    rows = [row.split(",") for row in csv_text.strip().splitlines()[1:]]
    assert {(row[2], row[3]) for row in rows} == {
        (stayer.display_name, "won by forfeit"),
        (leaver.display_name, "lost by forfeit"),
    }
    game_page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert game_page.count("won by forfeit") == 2  # the current result and its history
    assert game_page.count("lost by forfeit") == 2


def test_result_lines_read_as_values_say_what_their_objects_say(client, game, organiser, member):
    """The session's results are read as values (games.selectors.session_result_lines): the
    database's score text is the lines' own, for a forfeit and for a game played out."""
    post(client, game, outcome="forfeit", leaving=game.seats.order_by("position")[0].player.pk)
    played = game.round.games.exclude(pk=game.pk).first()
    draft = services.result_enter(game=played, actor=organiser, scores=[121, 99])
    services.result_confirm(result=draft, actor=member("organiser"))
    lines = ResultLine.objects.filter(result__game__round=game.round).select_related("result")
    assert len(lines) == 4
    texts = dict(lines.annotate(text=score_text_expression()).values_list("pk", "text"))
    assert texts == {line.pk: line.score_text for line in lines}
    assert sorted(texts.values()) == ["121", "99", "lost by forfeit", "won by forfeit"]
