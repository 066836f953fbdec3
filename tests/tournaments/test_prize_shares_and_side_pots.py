"""What the director sets beyond the format: each prize level's share of the fund (kept in
basis points; every level paid, a deeper level's players never paid less, ACC rule 13.1) and
the tournament's own side pots (the jackpots an accepted 29, 28 or 24 wins, as on a club night).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from core.models import AuditEntry
from tests.tournaments.test_director_pages import VALID
from tests.tournaments.test_tournament_services import enter, make_tournament
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_shares_are_checked_against_the_levels_the_entrants_make(club, organiser):
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, 13)  # 4 qualify: champion, runner-up, two semi-finalists

    services.prize_shares_set(tournament=tournament, actor=organiser, shares=[4000, 3000, 3000])

    tournament.refresh_from_db()
    assert tournament.prize_shares == [4000, 3000, 3000]
    assert AuditEntry.objects.filter(action="tournament.prize_shares_set").count() == 1
    with pytest.raises(ValidationError, match="one share per level"):
        services.prize_shares_set(tournament=tournament, actor=organiser, shares=[6000, 4000])
    with pytest.raises(ValidationError, match="adding up to 10000"):
        services.prize_shares_set(tournament=tournament, actor=organiser, shares=[5000, 3000, 1000])
    with pytest.raises(ValidationError):  # each semi-finalist would get more than the runner-up
        services.prize_shares_set(tournament=tournament, actor=organiser, shares=[3000, 1000, 6000])
    tournament.refresh_from_db()
    assert tournament.prize_shares == [4000, 3000, 3000]
    services.prize_shares_set(tournament=tournament, actor=organiser, shares=[])
    tournament.refresh_from_db()
    assert tournament.prize_shares == []


def test_the_director_sets_the_shares_in_percent_on_their_page(client, club, organiser):
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, 13)
    client.force_login(organiser)
    url = reverse("tournaments:prizes", args=[tournament.pk])

    html = client.get(url).content.decode()
    assert "Champion (1 player)" in html and "Semi-finalists (2 players)" in html

    refused = client.post(url, {"level_0": "50", "level_1": "30", "level_2": "30"})
    assert refused.status_code == 400
    assert "10000" in refused.content.decode()
    saved = client.post(url, {"level_0": "40.5", "level_1": "29.5", "level_2": "30"})
    assert saved.status_code == 302
    tournament.refresh_from_db()
    assert tournament.prize_shares == [4050, 2950, 3000]
    client.post(url, {"use_default": "on"})
    tournament.refresh_from_db()
    assert tournament.prize_shares == []


def test_a_player_may_not_set_the_shares(client, club, organiser, member):
    tournament = make_tournament(club, organiser)
    client.force_login(member("player"))

    response = client.post(
        reverse("tournaments:prizes", args=[tournament.pk]), {"use_default": "on"}
    )

    assert response.status_code == 403


def test_a_tournament_runs_its_own_jackpots(client, club, organiser):
    client.force_login(organiser)

    response = client.post(
        reverse("tournaments:new"),
        VALID | {"jackpot_29_cents": "$1", "jackpot_28_cents": "50", "jackpot_24_cents": ""},
    )

    assert response.status_code == 302
    rules = Tournament.objects.get().session.house_rules
    assert rules.jackpots == {29: 100, 28: 50}


def test_a_jackpot_over_the_money_limit_is_refused_on_the_form(client, club, organiser):
    client.force_login(organiser)

    response = client.post(reverse("tournaments:new"), VALID | {"jackpot_29_cents": "$600"})

    assert response.status_code == 400
    assert not Tournament.objects.exists()
