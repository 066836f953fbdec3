"""A game that cannot be finished: marked not played or a forfeit, and back to playing
(docs/spec.md "A Thursday, step by step", step 7; "The club's house rules": what a forfeit
scores, by default a win of 2 game points and no spread for the side that stays, never a skunk or
a highlight)."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from club import services as club_services
from core.models import AuditEntry
from games import services
from games.audit import GameVerb
from games.models import GameStatus, Result, ResultSource, ResultState, SessionTotal, TableKind
from games.selectors import session_standings
from money.selectors import settle_blockers
from money.services import session_settle
from standings.highlights import grand_slams, skunks
from standings.models import GameRating
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def morning(players=4, **rules):
    club = ClubFactory(**rules)
    organiser = UserFactory(role="organisers", club=club)
    other = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for _ in range(players):
        checkin = club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
        club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    round_ = services.round_draw(session=session, actor=organiser, seed=7)
    return session, organiser, other, list(round_.games.order_by("table"))


def play(game, organiser, other, scores=(121, 100)):
    draft = services.result_enter(game=game, actor=organiser, scores=list(scores))
    return services.result_confirm(result=draft, actor=other)


def seats(game):
    return list(game.seats.order_by("position"))


def test_a_game_not_played_counts_nowhere_and_does_not_block_settling():
    session, organiser, other, (first, second) = morning()
    services.result_enter(game=first, actor=organiser, scores=[121, 80])
    services.game_not_played(game=first, actor=organiser, reason="Ann taken ill")
    play(second, organiser, other)
    first.refresh_from_db()
    assert first.status == GameStatus.NOT_PLAYED and first.status_text == "not played"
    assert not first.results.exclude(state=ResultState.SUPERSEDED).exists()  # draft superseded
    assert first.results.count() == 1
    players = {seat.player_id for seat in seats(first)}
    assert not SessionTotal.objects.filter(session=session, player_id__in=players).exists()
    standing = {row.player_id: row for row in session_standings(session)}
    assert all(standing[p].played == 0 and standing[p].game_points == 0 for p in players)
    assert settle_blockers(session) == []
    session_settle(session=session, actor=organiser)
    entry = AuditEntry.objects.get(action=GameVerb.GAME_NOT_PLAYED)
    assert entry.data["superseded"] == [1] and entry.data["reason"] == "Ann taken ill"


def test_a_forfeit_scores_the_house_rule_with_no_spread_skunk_or_rating():
    session, organiser, other, (first, second) = morning()
    stayer, leaver = seats(first)
    result = services.game_forfeit(game=first, actor=organiser, leaving=leaver.player)
    assert result.source == ResultSource.FORFEIT and result.state == ResultState.CONFIRMED
    lines = {line.player_id: line for line in result.lines.all()}
    assert (lines[stayer.player_id].won, lines[stayer.player_id].game_points) == (True, 2)
    assert (lines[leaver.player_id].won, lines[leaver.player_id].game_points) == (False, 0)
    assert all(line.spread == 0 and not line.skunked for line in lines.values())
    assert all(line.skunks_given == 0 for line in lines.values())
    first.refresh_from_db()
    assert first.status_text == (
        f"forfeit: {stayer.player.display_name} wins, {leaver.player.display_name} left"
    )
    total = SessionTotal.objects.get(session=session, player=stayer.player)
    assert (total.played, total.won, total.points, total.spread) == (1, 1, 2, 0)
    assert total.first_run == 0 and total.best_run == 0  # never a streak
    assert skunks(session) == []
    play(second, organiser, other)
    rated = set(GameRating.objects.values_list("game_id", flat=True))
    assert second.pk in rated and first.pk not in rated
    assert settle_blockers(session) == []
    assert AuditEntry.objects.get(action=GameVerb.GAME_FORFEIT).data["player"] == leaver.player_id


@pytest.mark.parametrize("points", [0, 1])
def test_the_forfeit_rule_other_values(points):
    session, organiser, _, (first, _second) = morning(forfeit_points=points)
    stayer, leaver = seats(first)
    services.game_forfeit(game=first, actor=organiser, leaving=leaver.player)
    total = SessionTotal.objects.get(session=session, player=stayer.player)
    assert (total.won, total.points) == (1, points)


def test_a_forfeit_never_makes_a_grand_slam():
    session, organiser, other, (first, second) = morning(rounds_per_session=1)
    _, leaver = seats(first)
    services.game_forfeit(game=first, actor=organiser, leaving=leaver.player)
    play(second, organiser, other)
    session_settle(session=session, actor=organiser)
    slams = {slam.player_id for slam in grand_slams(session.club, session=session)}
    assert seats(first)[0].player_id not in slams


def test_a_cut_throat_forfeit_is_refused_with_what_to_do():
    session, organiser, _, games = morning(players=3)
    [game] = games
    assert game.kind == TableKind.THREE
    with pytest.raises(ValidationError, match="Mark it not played instead"):
        services.game_forfeit(game=game, actor=organiser, leaving=seats(game)[0].player)
    assert not Result.objects.exists()


def test_a_confirmed_result_is_corrected_not_marked():
    _, organiser, other, (first, _) = morning()
    play(first, organiser, other)
    with pytest.raises(ValidationError, match="corrects it"):
        services.game_not_played(game=first, actor=organiser)
    with pytest.raises(ValidationError, match="corrects it"):
        services.game_forfeit(game=first, actor=organiser, leaving=seats(first)[0].player)


def test_back_to_playing_takes_a_forfeit_back_and_results_are_entered_again():
    session, organiser, other, (first, _) = morning()
    stayer, leaver = seats(first)
    services.game_forfeit(game=first, actor=organiser, leaving=leaver.player)
    with pytest.raises(ValidationError, match="is a forfeit"):
        services.result_enter(game=first, actor=organiser, scores=[121, 90])
    services.game_back_to_playing(game=first, actor=organiser)
    first.refresh_from_db()
    assert first.status == GameStatus.PLAYED and first.forfeit_side is None
    assert not SessionTotal.objects.filter(session=session).exists()
    play(first, organiser, other)
    assert SessionTotal.objects.get(session=session, player=stayer.player).won == 1
    entry = AuditEntry.objects.get(action=GameVerb.GAME_BACK_TO_PLAYING)
    assert entry.data["before"] == GameStatus.FORFEIT and entry.data["superseded"] == [1]


def test_only_an_organiser_who_does_not_play_there_marks_it():
    session, organiser, _, (first, _) = morning()
    player_login = UserFactory(role="players", club=session.club)
    with pytest.raises(PermissionDenied):
        services.game_not_played(game=first, actor=player_login)
    seated = seats(first)[0].player
    seated.user = UserFactory(role="organisers")
    seated.save()
    with pytest.raises(ValidationError, match="You play in this game"):
        services.game_not_played(game=first, actor=seated.user)


def test_nothing_is_marked_once_the_session_is_settled():
    session, organiser, other, (first, second) = morning()
    play(first, organiser, other)
    play(second, organiser, other)
    session_settle(session=session, actor=organiser)
    with pytest.raises(ValidationError):
        services.game_not_played(game=first, actor=organiser)
