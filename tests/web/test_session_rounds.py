"""The session page's rounds: each table's line, with who plays, the scores once there is a
result, and the result's badge, written once per table (web/round_lines.py), names escaped."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from club import services as club_services
from club.models import Club
from games import services as game_services
from games.models import Game, ResultLine, ResultState
from money import services as money_services
from money.selectors import settle_blockers, skunk_coin_lines
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HOSTILE = '<i>Ann & "Co"</i>'


@pytest.fixture
def lines(client, club, organiser, member):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 12, 3))
    names = [HOSTILE, "Bob Bell", "Cy Cole", "Di Dunn", "Ed Egan", "Flo Ford"]
    for name in names:
        player = PlayerFactory(club=club, display_name=name)
        club_services.checkin_create(session=session, actor=organiser, player=player)
    game_services.round_draw(session=session, actor=organiser, seed=3)
    games = list(Game.objects.filter(session=session).order_by("table"))
    assert [game.seats.count() for game in games] == [2, 2, 2]
    confirmed, forfeited, playing = games
    result = game_services.result_enter(game=confirmed, actor=organiser, scores=[121, 97])
    game_services.result_confirm(result=result, actor=member("organiser"))
    leaving = forfeited.seats.order_by("position").last().player
    game_services.game_forfeit(game=forfeited, actor=organiser, leaving=leaving)
    client.force_login(organiser)
    html = client.get(reverse("web:session", args=[session.pk])).content.decode()
    found = re.findall(r'<li class="table-line">.*?</li>', html)
    assert len(found) == 3
    return dict(zip(("confirmed", "forfeited", "playing"), found, strict=True)), games, leaving


def test_each_line_links_its_game_and_names_its_table(lines):
    found, games, _ = lines
    for line, game in zip(found.values(), games, strict=True):
        link = f'<a href="{reverse("games:game", args=[game.pk])}" class="table-line__link">'
        assert f"{link}Table {game.table}</a>" in line


def test_a_confirmed_result_shows_the_scores_and_its_badge(lines):
    line = lines[0]["confirmed"]
    assert re.search(r"<strong>121</strong> · .*<strong>97</strong>", line)
    assert 'result-badge--confirmed"><span title="' in line


def test_a_forfeit_says_who_stayed_and_who_left(lines):
    found, _, leaving = lines
    line = found["forfeited"]
    assert "Forfeit: " in line and f"{leaving.display_name} left" in line.replace("&amp;", "&")
    assert "result-badge--" in line and ">Forfeit</span></li>" in line


def test_a_game_without_a_result_is_playing_and_lists_its_players(lines):
    line = lines[0]["playing"]
    assert " v " in line
    assert line.endswith('<span class="result-badge result-badge--none">Playing</span></li>')


def test_names_are_escaped_wherever_they_sit(lines):
    found, _, _ = lines
    rounds = "".join(found.values())
    assert "&lt;i&gt;Ann &amp; &quot;Co&quot;&lt;/i&gt;" in rounds
    assert "<i>" not in rounds


def test_the_settle_card_blocks_on_what_settling_checks(client, club, organiser, member):
    """The session page lists its settle blockers from the rounds it shows (a game's confirmed
    version read with its lines): the same list the settle service reads afresh, with a table
    confirmed, one waiting for the other side, one forfeited, one not played and one playing."""
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 12, 3))
    for _ in range(10):
        player = PlayerFactory(club=club)
        club_services.checkin_create(session=session, actor=organiser, player=player)
        club_services.fee_mark_paid(checkin=session.checkins.get(player=player), actor=organiser)
    game_services.round_draw(session=session, actor=organiser, seed=5)
    confirmed, waiting, forfeited, not_played, _playing = Game.objects.filter(
        session=session
    ).order_by("table")
    result = game_services.result_enter(game=confirmed, actor=organiser, scores=[121, 90])
    game_services.result_confirm(result=result, actor=member("organiser"))
    game_services.result_enter(game=waiting, actor=organiser, scores=[121, 100])
    leaving = forfeited.seats.order_by("position").last().player
    game_services.game_forfeit(game=forfeited, actor=organiser, leaving=leaving)
    game_services.game_not_played(game=not_played, actor=organiser, reason="A phone call.")
    client.force_login(organiser)

    shown = client.get(reverse("web:session", args=[session.pk])).context["blockers"]

    assert [(b, b.url) for b in shown] == [(b, b.url) for b in settle_blockers(session)]
    assert "Results not confirmed: round 1 table 2, round 1 table 5." in shown


def test_the_skunk_coins_are_the_ones_the_money_reads(client, club, organiser, member):
    """The session page's skunk coins come from the skunked lines its rounds read: the same
    coins, owed and paid, as money.selectors reads afresh, with one skunk confirmed and paid,
    one confirmed and owed, a double skunk, and a skunk entered and not yet confirmed."""
    Club.objects.filter(pk=club.pk).update(skunk_bank=True)
    club.refresh_from_db()
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 12, 3))
    for _ in range(8):
        player = PlayerFactory(club=club)
        club_services.checkin_create(session=session, actor=organiser, player=player)
    game_services.round_draw(session=session, actor=organiser, seed=5)
    paid, owed, double, waiting = Game.objects.filter(session=session).order_by("table")
    confirmer = member("organiser")
    for game, loser in ((paid, 80), (owed, 85), (double, 50)):
        result = game_services.result_enter(game=game, actor=organiser, scores=[121, loser])
        game_services.result_confirm(result=result, actor=confirmer)
    game_services.result_enter(game=waiting, actor=organiser, scores=[121, 70])
    skunked = ResultLine.objects.get(
        result__game=paid, result__state=ResultState.CONFIRMED, skunked=True
    )
    money_services.skunk_coin_mark_paid(
        session=session, game_id=paid.pk, player_id=skunked.player_id, actor=organiser
    )
    client.force_login(organiser)

    shown = client.get(reverse("web:session", args=[session.pk])).context["skunk_coins"]

    assert shown == skunk_coin_lines(session)
    assert [(c.table, c.owed, c.paid) for c in shown] == [
        (1, True, True),
        (2, True, False),
        (3, True, False),
    ]
