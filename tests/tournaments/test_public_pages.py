"""The tournament's public pages: the qualifying standings with the cut line, and the bracket.

The ACC's rules: http://cribbage.org/rules/rule13.asp (13.2.b one in four entrants qualify,
rounded up; 13.2.c the seeded chart; 13.2.d first-round byes to the highest qualifiers) and the
chart, http://cribbage.org/rules/playoffbracket.asp.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from club.models import Club
from tests.tournaments.builders import closed, playoff_games_played, qualifying_played
from tests.tournaments.test_tournament_services import enter, make_tournament
from tournaments import services
from tournaments.chart import TWO_SHEETS, chart
from tournaments.selectors import bracket, qualifying_standings

PAGES = ("tournaments:standings", "tournaments:bracket")


@pytest.fixture
def confirmer(member):
    return member("organiser")


def page(client, name: str, tournament) -> str:
    response = client.get(reverse(name, args=[tournament.pk]))
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


def body_rows(html: str) -> list[str]:
    """The rows of the qualifying table's body, each as its HTML."""
    tbody = html.split('data-testid="qualifying-standings"')[1].split("<tbody")[1]
    return re.findall(r"<tr.*?</tr>", tbody.split("</tbody>")[0], re.DOTALL)


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize(
    ("who", "published", "status"),
    [
        ("public", True, 200),
        ("public", False, 404),
        ("player", False, 200),
        ("organiser", False, 200),
        ("other_organiser", True, 404),
        ("other_organiser", False, 404),
    ],
)
def test_who_may_read_the_pages(
    name, who, published, status, club, organiser, client, member, stranger
):
    """Public while the club publishes its standings, else its members'; another club's
    organiser finds no such tournament."""
    Club.objects.filter(pk=club.pk).update(standings_public=published)
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, 6)
    if who == "other_organiser":
        client.force_login(stranger("organiser"))
    elif who != "public":
        client.force_login(member(who))

    assert client.get(reverse(name, args=[tournament.pk])).status_code == status


def test_live_standings_draw_the_cut_line_after_the_tenth_of_37(club, organiser, confirmer, client):
    """ACC rule 13.2.b: 37 entrants, the best ten (one in four, rounded up) qualify."""
    client.force_login(organiser)
    tournament = qualifying_played(
        club, organiser, confirmer, entrants=37, rounds=2, qualifying_games=7, loser_score=90
    )
    services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=99)

    html = page(client, "tournaments:standings", tournament)

    assert "The cut:</strong> the best 10 of 37 qualify (one in four, rounded up" in html
    assert "Live standings" in html and "3 of the 7 rounds drawn, 2 with every result" in html
    rows = body_rows(html)
    assert len(rows) == 38  # 37 entrants and the cut line
    assert [index for index, row in enumerate(rows) if "cut-line" in row] == [10]
    assert all('class="qualifier"' in row for row in rows[:10])
    assert all('class="out"' in row for row in rows[11:])


def test_a_tie_across_the_cut_line_is_named_then_decided_and_seeded(
    club, organiser, confirmer, client
):
    """8 entrants, one round: four winners level (2 game points, won 1, spread +21) across a
    cut of 2 (13.2.b); a cut of the cards decides them when qualifying closes."""
    client.force_login(organiser)
    tournament = qualifying_played(club, organiser, confirmer, entrants=8, rounds=1)

    html = page(client, "tournaments:standings", tournament)
    assert (
        "Places 1 to 4 are level across the cut line: a cut of the cards will decide when "
        "qualifying closes." in html
    )
    assert [row.count("T-1") for row in body_rows(html)[:5]] == [1, 1, 0, 1, 1]

    services.qualifying_close(tournament=tournament, actor=organiser, seed=3)
    tournament.refresh_from_db()
    html = page(client, "tournaments:standings", tournament)

    assert "level across the cut line: a cut" not in html
    assert tournament.cut_steps[0] in html.replace("&#x27;", "'")
    rows = body_rows(html)
    assert [index for index, row in enumerate(rows) if "cut-line" in row] == [2]
    seeded = [re.findall(r'<td class="numeric">(\d*)</td>\s*</tr>', row) for row in rows]
    assert seeded[:2] == [["1"], ["2"]] and seeded[3:] == [[""]] * 6
    listed = [row.player_id for row in response_rows(client, tournament)]
    assert listed[:2] == tournament.seeds  # the cut's winners first, in seed order


def response_rows(client, tournament) -> list:
    response = client.get(reverse("tournaments:standings", args=[tournament.pk]))
    return list(response.context["rows"])


def test_the_bracket_of_ten_gives_the_byes_to_seeds_one_to_six_in_chart_order(
    club, organiser, confirmer, client
):
    """13.2.c and d: ten qualifiers play a bracket of 16; seeds 1 to 6 have byes, 7 plays 10 and
    8 plays 9, in the chart's order 1, 9-8, 5, 4, 3, 6, 7-10, 2."""
    client.force_login(organiser)
    tournament = closed(club, organiser, confirmer, entrants=37)

    response = client.get(reverse("tournaments:bracket", args=[tournament.pk]))

    (half,) = response.context["halves"]
    assert [column.name for column in half] == [
        "Round of 16",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    first = [(cell.top.seed, cell.bottom.seed) for cell in half[0].cells]
    assert first == [
        (1, None),
        (9, 8),
        (5, None),
        (None, 4),
        (3, None),
        (None, 6),
        (7, 10),
        (None, 2),
    ]
    html = response.content.decode()
    first_round = html.split('data-round="1"')[1].split('data-round="2"')[0]
    assert first_round.count(">bye<") == 6
    assert first_round.count(">through<") == 6
    seeds = re.findall(r'match__seed">\((\d+)\)', first_round)
    assert seeds == ["1", "9", "8", "5", "4", "3", "6", "7", "10", "2"]
    assert re.search(r'table \d+<span class="match__playing">, playing', html)


def test_the_champion_is_above_the_bracket_and_the_winner_marked(
    club, organiser, confirmer, client
):
    """8 entrants qualify 2 (13.2.b), who play the final, best of 3."""
    client.force_login(organiser)
    tournament = closed(club, organiser, confirmer, entrants=8, match_lengths=[3])
    playoff_games_played(tournament, organiser, confirmer, games=1)

    html = page(client, "tournaments:bracket", tournament)
    assert 'data-testid="champion"' not in html
    assert ">1–0<" in html and "playing" in html

    playoff_games_played(tournament, organiser, confirmer, games=10)
    html = page(client, "tournaments:bracket", tournament)

    champion = tournament.champion.display_name
    assert f"Champion:</span> {champion}</p>" in html
    assert html.index('data-testid="champion"') < html.index('data-testid="bracket"')
    winner = re.search(r'match__side--winner">(.*?)</p>', html, re.DOTALL).group(1)
    assert champion in winner and ">won<" in winner
    assert ">2–0<" in html and "playing" not in html


def test_before_qualifying_closes_the_bracket_page_says_what_it_will_be(club, organiser, client):
    """37 entrants: 10 qualify, a bracket of 16 with 6 byes (13.2.b, d)."""
    client.force_login(organiser)
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, 37)

    html = page(client, "tournaments:bracket", tournament)

    assert "The bracket is made when qualifying closes." in html
    assert "With 37 entrants as now, 10 qualify" in html
    assert "a bracket of 16, with 6 byes into the second round for the top 6 seeds" in html


def test_a_bracket_of_128_is_drawn_in_two_halves_the_final_in_the_second(
    club, organiser, confirmer
):
    """Printed on two sheets: the top half's matches, then the bottom half's and the final."""
    tournament = closed(club, organiser, confirmer, entrants=260)  # 65 qualify: 128 places
    rounds = bracket(tournament)
    assert len(rounds[1]) * 2 == TWO_SHEETS

    top, bottom = chart(rounds, {})

    assert [len(column.cells) for column in top] == [32, 16, 8, 4, 2, 1]
    assert [len(column.cells) for column in bottom] == [32, 16, 8, 4, 2, 1, 1]
    assert top[0].cells[0].top.seed == 1 and bottom[0].cells[-1].bottom.seed == 2
    assert bottom[-1].name == "Final"


# The login (its session and user), the club, the member's groups and permissions (one query),
# the tournament; then the standings (three queries) and the qualifying's progress, or the
# bracket's matches and their games won.
QUERIES = {"tournaments:standings": 8, "tournaments:bracket": 7}


@pytest.mark.parametrize("entrants", [37, 150])
def test_a_page_asks_the_same_number_of_queries_whatever_the_size(
    entrants, club, organiser, confirmer, client, django_assert_num_queries
):
    tournament = closed(club, organiser, confirmer, entrants=entrants)
    playoff_games_played(tournament, organiser, confirmer, games=3)
    client.force_login(organiser)

    for name in PAGES:
        with django_assert_num_queries(QUERIES[name]):
            assert client.get(reverse(name, args=[tournament.pk])).status_code == 200, name


def test_a_bye_is_a_game_won_but_neither_played_nor_lost(club, organiser, confirmer, client):
    """5 entrants, one round: one bye (a game won worth the bye points), two games played."""
    client.force_login(organiser)
    tournament = qualifying_played(club, organiser, confirmer, entrants=5, rounds=1)

    rows = qualifying_standings(tournament)

    assert sorted((row.played, row.won, row.lost, row.byes) for row in rows) == [
        (0, 1, 0, 1),
        (1, 0, 1, 0),
        (1, 0, 1, 0),
        (1, 1, 0, 0),
        (1, 1, 0, 0),
    ]
    html = page(client, "tournaments:standings", tournament)
    assert ">-1<" not in html
