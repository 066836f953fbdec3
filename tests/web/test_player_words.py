"""Pages a player or a visitor reads speak the game's words, not the site's internals: no draw
seeds, result versions or states by their stored names, no engine version; organisers and judges
still see the seed, the versions and the engine (docs/spec.md "People and what they do")."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from games import services as game_services
from games.models import ResultState
from money.services import session_settle
from scoring import services as scoring_services
from tests.builders import run_session
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

INTERNAL = ("Seed", "seed ", "Draft", "Superseded", "Counted by engine", "version 1", "Version 1")


@pytest.fixture
def played(club, organiser):
    confirmer = UserFactory(role="organisers", club=club)
    session = run_session(
        club, organiser, confirmer, players=6, rounds=1, date=dt.date(2026, 12, 3)
    )
    game = session.games.order_by("table").first()
    current = game.results.get(state=ResultState.CONFIRMED)
    corrected = [121 if score == 121 else score - 1 for score in current.scores]
    game_services.result_correct(game=game, actor=confirmer, scores=corrected, reason="Recount")
    seat = game.seats.first()
    claim = scoring_services.claim_file(
        game=game,
        actor=organiser,
        kind="heels",
        claimant=seat.player,
        claimed_points=2,
        starter="JH",
    )
    return session, game, claim


def pages(session, game, claim):
    return [
        reverse("home"),
        reverse("web:session", args=[session.pk]),
        reverse("games:round", args=[game.round_id]),
        reverse("games:game", args=[game.pk]),
        reverse("scoring:claim", args=[claim.pk]),
        reverse("web:board", args=[session.pk]),
    ]


@pytest.mark.parametrize("who", ["player", "public"])
def test_a_player_and_a_visitor_read_no_internal_words(client, member, played, who):
    session, game, claim = played
    if who == "player":
        client.force_login(member("player"))
    for url in pages(session, game, claim):
        response = client.get(url)
        if response.status_code in (302, 404) and who == "public":  # members-only pages
            continue
        assert response.status_code == 200, url
        html = response.content.decode()
        for word in INTERNAL:
            assert word not in html, (url, word)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    if "Replaced" in html:
        assert "Replaced by the correction of" in html


def test_an_organiser_still_sees_the_seed_and_the_versions(played, organiser):
    session, game, claim = played
    client = Client()
    client.force_login(organiser)
    assert (
        f"seed {game.round.seed}"
        in client.get(reverse("web:session", args=[session.pk])).content.decode()
    )
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "version 2" in html and "Replaced by the correction of" in html
    assert (
        "Counted by engine"
        in client.get(reverse("scoring:claim", args=[claim.pk])).content.decode()
    )


def test_a_settled_sessions_pages_keep_the_settlement_seed_for_organisers(
    client, club, member, played, organiser
):
    session, game, claim = played
    settlement = session_settle(session=session, actor=organiser, seed=2761486335947665)
    club.standings_public = True
    club.save()
    sheet = reverse("money:settlement", args=[session.pk])
    urls = [*pages(session, game, claim), sheet]
    for who in ("public", "player"):
        if who == "player":
            client.force_login(member("player"))
        for url in urls:
            response = client.get(url)
            if response.status_code in (302, 404) and who == "public":
                continue
            assert response.status_code == 200, (who, url)
            html = response.content.decode()
            for word in (*INTERNAL, "settlement 1", str(settlement.seed)):
                assert word not in html, (who, url, word)
    client.force_login(organiser)
    assert f"seed {settlement.seed}" in client.get(sheet).content.decode()
