"""A tournament's session page: entrants check in and pay there, but its rounds are drawn on the
tournament's page, so the page says so and offers no Thursday draw."""

import datetime as dt

from django.urls import reverse

from club.services import session_open
from tests.tournaments.test_tournament_services import enter, make_tournament


def page(client, organiser, session) -> str:
    client.force_login(organiser)
    return client.get(reverse("web:session", args=[session.pk])).content.decode()


def test_a_tournament_session_page_leads_to_the_tournament_and_draws_nothing(
    client, club, organiser
):
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, 5)

    html = page(client, organiser, tournament.session)

    assert "The day of the tournament" in html
    assert reverse("tournaments:detail", args=[tournament.pk]) in html
    assert reverse("games:round_draw", args=[tournament.session.pk]) not in html


def test_a_club_session_page_still_offers_the_draw(client, club, organiser):
    session = session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))

    html = page(client, organiser, session)

    assert reverse("games:round_draw", args=[session.pk]) in html
    assert "The day of the tournament" not in html
