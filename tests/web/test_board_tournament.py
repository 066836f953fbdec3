"""The live board of a tournament's session: while qualifying, the qualifiers and the next few
with the cut line (ACC rule 13.2.b: one in four qualify, rounded up,
http://cribbage.org/rules/rule13.asp); in the playoffs, the bracket from the round being
played, the winners marked; an ordinary session's board has no tournament part."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.builders import closed, playoff_games_played, qualifying_played
from web.board import BELOW_THE_CUT


@pytest.fixture
def confirmer(member):
    return member("organiser")


def board(client, tournament) -> str:
    response = client.get(reverse("web:board", args=[tournament.session_id]))
    assert response.status_code == 200
    return response.content.decode()


def tournament_part(html: str) -> str:
    return html.split('data-testid="board-tournament"')[1].split("</section>")[0]


def test_while_qualifying_the_board_shows_the_cut_line_after_the_qualifiers(
    club, organiser, confirmer, client
):
    client.force_login(organiser)
    tournament = qualifying_played(club, organiser, confirmer, entrants=21, rounds=1)

    html = board(client, tournament)

    assert ">Qualifying</h2>" in html
    part = tournament_part(html)
    assert "the best 6 of 21 qualify" in part
    rows = re.findall(r"<tr.*?</tr>", part.split("<tbody>")[1], re.DOTALL)
    assert len(rows) == 6 + 1 + BELOW_THE_CUT
    assert "The cut line" in rows[6]


def test_in_the_playoffs_the_board_shows_the_bracket_from_the_round_being_played(
    club, organiser, confirmer, client
):
    client.force_login(organiser)
    tournament = closed(club, organiser, confirmer, entrants=37, match_lengths=[3])
    playoff_games_played(tournament, organiser, confirmer, games=4)

    part = tournament_part(board(client, tournament))

    assert "Round of 16" in part and "Final" in part
    assert "(7) " in part and "(10) " in part  # the round of 16's two matches
    assert "table " in part
    playoff_games_played(tournament, organiser, confirmer, games=100)
    html = board(client, tournament)
    part = tournament_part(html)
    assert f"Champion: {tournament.champion.display_name}" in part
    assert ">The bracket</h2>" in html


def test_an_ordinary_session_has_no_tournament_part(table, client):
    session = table.game.round.session
    client.force_login(table.users[0])
    html = client.get(reverse("web:board", args=[session.pk])).content.decode()
    assert 'data-testid="board-tournament"' not in html
