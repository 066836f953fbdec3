"""The director's tournament pages: the list, a new tournament, the tournament page the director
works from all day, and its posts (draw a qualifying round, close qualifying, a forfeit), for
each role; the form's errors; the page's queries stay fixed whatever the number of entrants.

The ACC's rules: http://cribbage.org/rules/rule13.asp (13.1 a qualifier who has not appeared
forfeits a game after five minutes, another every fifteen; 13.2.b one in four qualify).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.models import Club
from core.models import AuditEntry
from games.models import Round
from tests.tournaments.test_tournament_services import (
    DAY,
    enter,
    make_tournament,
    open_playoff_games,
    play,
    play_qualifying,
    stronger,
)
from tournaments import services
from tournaments.models import Match, Stage, Tournament

pytestmark = pytest.mark.django_db

VALID = {
    "name": "Club Championship",
    "starts_on": "2026-12-05",
    "ends_on": "",
    "entry_fee_cents": "$20",
    "qualifying_games": "9",
    "club_share_percent": "10",
    "bye_points": "2",
    "best_of_final": "5",
    "best_of_semis": "5",
    "best_of_quarters": "3",
    "best_of_earlier": "3",
}


@pytest.fixture
def confirmer(member):
    return member("organiser")


def in_the_final(club, organiser, confirmer) -> Match:
    """Eight entrants, one qualifying game: two qualify and the final (best of 3) is on."""
    tournament = make_tournament(club, organiser, qualifying_games=1, match_lengths=[3])
    enter(tournament, organiser, 8)
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    return Match.objects.select_related("top", "bottom").get(tournament=tournament)


def as_role(role: str, client, member, stranger):
    if role == "b_organiser":
        client.force_login(stranger("organiser"))
    elif role != "public":
        client.force_login(member(role))
    return client


# (url name, method, statuses for public, player, judge, organiser, another club's organiser)
ROLE_TABLE = [
    ("tournaments:list", "get", (404, 200, 200, 200, 200)),
    ("tournaments:new", "get", ("login", 403, 403, 200, 200)),  # theirs: their own club's
    ("tournaments:detail", "get", ("login", 200, 200, 200, 404)),
    ("tournaments:draw", "post", ("login", 403, 403, 302, 404)),
    ("tournaments:close", "post", ("login", 403, 403, 400, 404)),
    ("tournaments:forfeit", "post", ("login", 403, 403, 302, 404)),
]
ROLES = ("public", "player", "judge", "organiser", "b_organiser")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "method", "statuses"), ROLE_TABLE)
def test_each_role_on_each_page(
    name, method, statuses, role, club, organiser, confirmer, client, member, stranger
):
    """The club keeps its pages to its members here: a visitor gets nothing, a player and a
    judge read, only the club's organisers run it; another club's organiser finds nothing."""
    Club.objects.filter(pk=club.pk).update(standings_public=False)
    data = {}
    if name == "tournaments:forfeit":
        match = in_the_final(club, organiser, confirmer)
        args, data = [match.pk], {"absent": match.bottom_id}
    elif name in ("tournaments:list", "tournaments:new"):
        args = []
    else:
        fresh = make_tournament(club, organiser, name="Spring Open", starts_on=DAY)
        enter(fresh, organiser, 4)
        args = [fresh.pk]
    url = reverse(name, args=args)
    before = AuditEntry.objects.count()

    response = getattr(as_role(role, client, member, stranger), method)(url, data)

    expected = statuses[ROLES.index(role)]
    if expected == "login":
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    else:
        assert response.status_code == expected
    wrote = AuditEntry.objects.count() > before
    assert wrote == (expected == 302), "only the organiser's accepted posts write"


def test_the_list_shows_the_clubs_tournaments_and_new_tournament_to_organisers(
    club, organiser, other_club, client_for
):
    make_tournament(club, organiser)
    make_tournament(other_club, organiser, name="Their Open")

    player_page = client_for("player").get(reverse("tournaments:list")).content.decode()
    assert "Club Championship" in player_page and "Their Open" not in player_page
    assert "New tournament" not in player_page
    organiser_page = client_for("organiser").get(reverse("tournaments:list")).content.decode()
    assert "New tournament" in organiser_page


def test_a_visitor_reads_the_list_while_the_club_publishes_its_standings(club, organiser, client):
    make_tournament(club, organiser)

    page = client.get(reverse("tournaments:list"))

    assert page.status_code == 200
    assert reverse("tournaments:standings", args=[Tournament.objects.get().pk]) in page.text


def test_an_organiser_creates_a_tournament_through_the_form(club, client_for):
    response = client_for("organiser").post(reverse("tournaments:new"), VALID)

    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("tournaments:detail", args=[tournament.pk])
    assert tournament.entry_fee_cents == 2000 and tournament.qualifying_games == 9
    assert tournament.club_share_percent == 10 and tournament.bye_points == 2
    # Final-first, every round of the biggest bracket filled with "earlier rounds".
    assert tournament.match_lengths == [5, 5, 3, 3, 3, 3, 3, 3]
    assert tournament.session.club == club


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"entry_fee_cents": "$500.01"}, "entry_fee_cents", "At most $500"),
        ({"entry_fee_cents": "twenty"}, "entry_fee_cents", "Write the amount"),
        ({"best_of_final": "4"}, "best_of_final", "Select a valid choice"),
        ({"best_of_earlier": "1"}, "best_of_earlier", "Select a valid choice"),
        ({"qualifying_games": "31"}, "qualifying_games", "Select a valid choice"),
        ({"club_share_percent": "60"}, "club_share_percent", "less than or equal to 50"),
        ({"ends_on": "2026-12-01"}, "ends_on", "before the first day"),
    ],
)
def test_the_forms_errors_show_on_the_page_and_nothing_is_saved(
    changes, field, message, club, client_for
):
    response = client_for("organiser").post(reverse("tournaments:new"), VALID | changes)

    assert response.status_code == 400
    form = response.context["form"]
    errors = form.errors.get(field) if field else form.errors.as_text()
    assert errors and message.lower() in str(errors).lower()
    assert not Tournament.objects.exists() and not club.sessions.exists()


def test_the_director_draws_qualifying_rounds_and_a_second_press_draws_nothing(
    club, organiser, client_for
):
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, 5)
    client = client_for("organiser")
    url = reverse("tournaments:draw", args=[tournament.pk])

    response = client.post(url, {"round_number": "1"}, follow=True)

    (round_,) = Round.objects.filter(session=tournament.session)
    assert round_.games.count() == 2
    page = response.content.decode()
    assert "Qualifying round 1 drawn: 2 tables;" in page and "has the bye" in page
    assert reverse("games:round", args=[round_.pk]) in page
    assert "Draw qualifying round 2" in page
    again = client.post(url, {"round_number": "1"})
    assert again.status_code == 400
    assert "Qualifying round 1 is already drawn" in again.content.decode()
    assert Round.objects.filter(session=tournament.session).count() == 1
    assert client.post(url, {"round_number": "x"}).status_code == 400


def test_close_is_refused_with_the_reason_until_every_result_is_in(
    club, organiser, confirmer, client_for
):
    tournament = make_tournament(club, organiser, qualifying_games=1)
    enter(tournament, organiser, 8)
    round_ = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=2)
    client = client_for("organiser")
    detail = reverse("tournaments:detail", args=[tournament.pk])
    close = reverse("tournaments:close", args=[tournament.pk])

    assert "have no confirmed result yet" in client.get(detail).content.decode()
    refused = client.post(close)
    assert refused.status_code == 400 and "have no confirmed result yet" in refused.text
    for game in round_.games.all():
        play(game, organiser, confirmer, stronger(game))
    response = client.post(close, follow=True)

    tournament.refresh_from_db()
    assert tournament.stage == Stage.PLAYOFFS and len(tournament.seeds) == 2
    page = response.content.decode()
    assert "Qualifying closed: 2 qualify." in page
    assert "Final" in page and "Forfeit a game" in page
    assert "forfeits a game after five minutes and another every fifteen" in page


def test_the_director_records_forfeits_until_the_match_is_decided(
    club, organiser, confirmer, client_for
):
    """ACC rule 13.1: each forfeit is one game; two decide a best of 3."""
    final = in_the_final(club, organiser, confirmer)
    client = client_for("organiser")
    url = reverse("tournaments:forfeit", args=[final.pk])

    first = client.post(url, {"absent": final.bottom_id}, follow=True)
    assert f"{final.bottom.display_name} forfeits a game" in first.content.decode()
    client.post(url, {"absent": final.bottom_id})

    final.refresh_from_db()
    assert final.winner_id == final.top_id
    assert final.match_games.count() == 2
    assert AuditEntry.objects.filter(action="tournament.game_forfeited").count() == 2
    page = client.get(reverse("tournaments:detail", args=[final.tournament_id])).content.decode()
    assert 'data-testid="champion"' in page and final.top.display_name in page
    decided = client.post(url, {"absent": final.bottom_id})
    assert decided.status_code == 400 and "nothing to forfeit" in decided.content.decode()


def test_a_forfeit_of_someone_not_in_the_match_is_refused(club, organiser, confirmer, client_for):
    final = in_the_final(club, organiser, confirmer)
    before = AuditEntry.objects.count()

    response = client_for("organiser").post(
        reverse("tournaments:forfeit", args=[final.pk]), {"absent": organiser.pk + 999}
    )

    assert response.status_code == 400
    assert "Choose the player who has not appeared" in response.content.decode()
    assert AuditEntry.objects.count() == before
    assert len(open_playoff_games(final.tournament)) == 1, "the first game is still on"


def test_a_player_sees_the_tournament_page_without_the_directors_buttons(
    club, organiser, client_for
):
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, 5)
    services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=1)

    page = client_for("player").get(reverse("tournaments:detail", args=[tournament.pk])).text

    assert "Qualifying round 1" in page and "5</strong> checked in" in page
    assert "Draw qualifying round" not in page and "Close qualifying" not in page
    assert reverse("money:settle_preview", args=[tournament.session_id]) not in page


@pytest.mark.parametrize("entrants", [9, 37])
def test_the_tournament_page_is_a_fixed_number_of_queries(
    entrants, club, organiser, confirmer, client_for, django_assert_num_queries
):
    """Mid-qualifying: two rounds drawn, the first with its results in, whatever the size."""
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, entrants)
    first = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=1)
    for game in first.games.all():
        play(game, organiser, confirmer, stronger(game))
    services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=2)
    client = client_for("organiser")
    url = reverse("tournaments:detail", args=[tournament.pk])

    with django_assert_num_queries(9):
        response = client.get(url)

    assert response.status_code == 200
    assert f"{entrants}</strong> checked in" in response.text
