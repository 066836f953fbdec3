"""A tournament through its services: created with its own session, qualifying drawn with byes,
the cut and the seeded bracket, playoff games seated and decided as results are confirmed, a
forfeit by ACC rule 13.1, the champion.

The ACC's rules: http://cribbage.org/rules/rule13.asp (13.1 forfeits during playoffs; 13.2.b one
in four entrants qualify, rounded up; 13.2.d first-round byes to the highest qualifiers).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from club import services as club_services
from club.models import SessionKind
from core.models import AuditEntry
from games import services as game_services
from games.models import Game, GameStatus, ResultState, Seat, SessionTotal
from standings.models import GameRating
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Bye, Match, Stage, Tournament
from tournaments.selectors import QualifyingRow, qualifying_standings

DAY = dt.date(2026, 11, 28)


@pytest.fixture
def confirmer(member):
    return member("organiser")


def make_tournament(club, organiser, **changes) -> Tournament:
    values = dict(
        name="Club Championship",
        starts_on=DAY,
        entry_fee_cents=2000,
        qualifying_games=7,
        match_lengths=[5],
    )
    return services.tournament_create(club=club, actor=organiser, **(values | changes))


def enter(tournament, organiser, count: int) -> list:
    players = [PlayerFactory(club=tournament.club) for _ in range(count)]
    for player in players:
        checkin = club_services.checkin_create(
            session=tournament.session, actor=organiser, player=player
        )
        club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    return players


def play(game: Game, organiser, confirmer, winner_id: int, loser_score: int = 100) -> None:
    """Enter and accept the game's result: `winner_id` reaches 121."""
    sides = {seat.player_id: seat.side for seat in game.seats.all()}
    scores = [loser_score, loser_score]
    scores[sides[winner_id]] = 121
    draft = game_services.result_enter(game=game, actor=organiser, scores=scores)
    game_services.result_confirm(result=draft, actor=confirmer)


def stronger(game: Game) -> int:
    """The player who wins at this table: the one made first (the lower id)."""
    return min(seat.player_id for seat in game.seats.all())


def play_qualifying(tournament, organiser, confirmer) -> None:
    for number in range(tournament.qualifying_games):
        round_ = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=number)
        for game in round_.games.all():
            play(game, organiser, confirmer, stronger(game))


def open_playoff_games(tournament) -> list[Game]:
    return list(
        Game.objects.filter(match_game__match__tournament=tournament, status=GameStatus.PLAYED)
        .exclude(results__state=ResultState.CONFIRMED)
        .order_by("table")
    )


def test_a_tournament_plays_in_a_session_of_its_own_with_its_entry_fee(club, organiser):
    tournament = make_tournament(club, organiser)

    session = tournament.session
    assert session.kind == SessionKind.TOURNAMENT and session.date == DAY
    assert session.house_rules.entry_fee_cents == 2000
    assert session.house_rules.rounds_per_session == 7
    assert session.house_rules.table_mode == "singles"
    assert tournament.stage == Stage.REGISTRATION
    assert AuditEntry.objects.filter(action="tournament.created").count() == 1


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"entry_fee_cents": 50_001}, "entry_fee_cents"),
        ({"qualifying_games": 0}, "qualifying_games"),
        ({"match_lengths": [4]}, "match_lengths"),
        ({"club_share_percent": 80}, "club_share_percent"),
        ({"prize_shares": [5000, 4000]}, "prize_shares"),  # basis points: 10000 in all
        ({"prize_shares": [10000, 0]}, "prize_shares"),  # every level is paid (ACC rule 13.1)
        ({"name": "  "}, "name"),
    ],
)
def test_a_tournament_with_bad_settings_is_refused_and_nothing_is_saved(
    club, organiser, changes, field
):
    with pytest.raises(ValidationError) as refused:
        make_tournament(club, organiser, **changes)

    assert field in refused.value.message_dict
    assert not Tournament.objects.exists()
    assert not club.sessions.exists()


def test_a_thursday_draw_is_refused_in_a_tournament_session(club, organiser):
    tournament = make_tournament(club, organiser)
    enter(tournament, organiser, 4)

    with pytest.raises(ValidationError, match="tournament's page"):
        game_services.round_draw(session=tournament.session, actor=organiser)


def test_qualifying_with_an_odd_number_gives_one_bye_a_round_never_twice_and_no_repeats(
    club, organiser
):
    tournament = make_tournament(club, organiser)
    players = enter(tournament, organiser, 37)

    for number in range(7):
        round_ = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=number)
        assert round_.games.count() == 18
        assert all(game.seats.count() == 2 for game in round_.games.all())

    byes = list(Bye.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    assert len(byes) == 7 and len(set(byes)) == 7
    assert set(byes) <= {player.pk for player in players}
    pairs = {}
    for seat in Seat.objects.filter(round__session=tournament.session):
        pairs.setdefault(seat.game_id, []).append(seat.player_id)
    met = [tuple(sorted(pair)) for pair in pairs.values()]
    assert len(met) == len(set(met)), "no two entrants meet twice in qualifying"
    tournament.refresh_from_db()
    assert tournament.stage == Stage.QUALIFYING
    with pytest.raises(ValidationError, match="All 7 qualifying rounds are drawn"):
        services.qualifying_round_draw(tournament=tournament, actor=organiser)


def test_qualifying_closes_only_when_every_round_is_drawn_and_every_result_accepted(
    club, organiser, confirmer
):
    tournament = make_tournament(club, organiser, qualifying_games=2)
    enter(tournament, organiser, 8)
    round_ = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=1)

    with pytest.raises(ValidationError, match="Only 1 of the 2 qualifying rounds"):
        services.qualifying_close(tournament=tournament, actor=organiser)
    for game in round_.games.all():
        play(game, organiser, confirmer, stronger(game))
    second = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=2)
    first_game, *others = second.games.order_by("table")
    draft = game_services.result_enter(game=first_game, actor=organiser, scores=[121, 90])
    for game in others:
        play(game, organiser, confirmer, stronger(game))

    with pytest.raises(ValidationError, match=f"round 2 table {first_game.table}"):
        services.qualifying_close(tournament=tournament, actor=organiser)
    game_services.result_confirm(result=draft, actor=confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=5)
    tournament.refresh_from_db()
    assert tournament.stage == Stage.PLAYOFFS
    assert len(tournament.seeds) == 2  # 8 entrants: 2 qualify (ACC rule 13.2.b)


def test_a_bye_scores_a_win_of_the_tournaments_bye_points(club, organiser, confirmer):
    tournament = make_tournament(club, organiser, qualifying_games=1)
    enter(tournament, organiser, 5)
    round_ = services.qualifying_round_draw(tournament=tournament, actor=organiser, seed=3)
    for game in round_.games.all():
        play(game, organiser, confirmer, stronger(game), loser_score=80)  # skunks: 3 points

    rows = {row.player_id: row for row in qualifying_standings(tournament)}
    bye = Bye.objects.get(tournament=tournament).player_id
    assert (rows[bye].game_points, rows[bye].won, rows[bye].spread, rows[bye].played) == (
        2,
        1,
        0,
        0,
    )
    winners = [row for row in rows.values() if row.played and row.won]
    assert {row.game_points for row in winners} == {3}
    assert {row.spread for row in winners} == {41}


def row(player_id: int, points: int, won: int, spread: int) -> QualifyingRow:
    return QualifyingRow(
        rank=0,
        tied=False,
        player_id=player_id,
        player=f"P{player_id}",
        played=7,
        won=won,
        game_points=points,
        spread=spread,
        byes=0,
        in_cut=False,
    )


def test_a_tie_across_the_cut_line_is_decided_by_a_recorded_cut_of_the_cards():
    standings = [row(1, 14, 7, 90), row(2, 12, 6, 40), row(3, 10, 5, 5), row(4, 10, 5, 5)]
    standings += [row(5, 10, 5, 5), row(6, 4, 2, -60)]

    seeds, steps = services.seeds_decide(standings, 3, seed=11)

    assert seeds[:2] == [1, 2]
    assert len(seeds) == 3 and seeds[2] in {3, 4, 5}
    assert len(steps) == 1
    assert "Places 3 to 5 are level" in steps[0] and "across the cut line" in steps[0]
    assert services.seeds_decide(standings, 3, seed=11) == (seeds, steps)


def test_a_tournament_of_37_plays_qualifying_the_cut_and_the_bracket_to_a_champion(
    club, organiser, confirmer
):
    tournament = make_tournament(club, organiser, match_lengths=[5, 3])
    players = enter(tournament, organiser, 37)
    play_qualifying(tournament, organiser, confirmer)

    services.qualifying_close(tournament=tournament, actor=organiser, seed=7)

    tournament.refresh_from_db()
    assert len(tournament.seeds) == 10  # ceil(37 / 4)
    standings = qualifying_standings(tournament)
    assert [r.player_id for r in standings if r.in_cut] == sorted(
        tournament.seeds, key=[r.player_id for r in standings].index
    )
    first = Match.objects.filter(tournament=tournament, round_number=1)
    assert first.count() == 8  # a bracket of 16
    byes = first.filter(is_bye=True)
    assert sorted(m.top_seed or m.bottom_seed for m in byes) == [1, 2, 3, 4, 5, 6]  # 16 - 10
    assert all(match.winner_id == (match.top_id or match.bottom_id) for match in byes)
    # Seeds 7 to 10 play round 1; 4-5 and 3-6, both through on byes, start round 2 at once.
    first_games = open_playoff_games(tournament)
    assert [game.match_game.match.round_number for game in first_games] == [1, 1, 2, 2]

    plays = 0
    while (games := open_playoff_games(tournament)) and plays < 200:
        for game in games:
            play(game, organiser, confirmer, stronger(game))
            plays += 1
    tournament.refresh_from_db()
    assert tournament.stage == Stage.FINISHED
    assert tournament.champion_id == players[0].pk  # the strongest wins every game
    final = Match.objects.get(tournament=tournament, round_number=4)
    assert final.best_of == 5 and final.match_games.count() == 3
    semi = Match.objects.filter(tournament=tournament, round_number=3).first()
    assert semi.best_of == 3 and semi.match_games.count() == 2
    tables = Game.objects.filter(match_game__match__round_number=1).values_list("table", flat=True)
    assert len(set(tables)) == 2


def test_a_qualifier_who_does_not_appear_forfeits_game_by_game(club, organiser, confirmer):
    """ACC rule 13.1: a game forfeited after five minutes, another every fifteen."""
    tournament = make_tournament(club, organiser, qualifying_games=1, match_lengths=[3])
    enter(tournament, organiser, 8)
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    final = Match.objects.get(tournament=tournament, round_number=1)
    absent = final.bottom

    services.match_game_forfeit(match=final, actor=organiser, absent=absent)
    assert final.match_games.count() == 2
    services.match_game_forfeit(match=final, actor=organiser, absent=absent)

    final.refresh_from_db()
    tournament.refresh_from_db()
    assert final.winner_id == final.top_id
    assert tournament.stage == Stage.FINISHED and tournament.champion_id == final.top_id
    assert AuditEntry.objects.filter(action="tournament.game_forfeited").count() == 2


def test_a_correction_that_would_undo_a_decided_match_is_refused(club, organiser, confirmer):
    tournament = make_tournament(club, organiser, qualifying_games=1, match_lengths=[3, 3])
    enter(tournament, organiser, 12)  # 3 qualifiers: one bye, one semi-final
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    (game,) = open_playoff_games(tournament)
    play(game, organiser, confirmer, stronger(game))
    (second,) = open_playoff_games(tournament)
    play(second, organiser, confirmer, stronger(second))
    semi = Match.objects.get(tournament=tournament, round_number=1, is_bye=False)
    assert semi.winner_id is not None

    sides = {seat.player_id: seat.side for seat in second.seats.all()}
    scores = [121, 121]
    scores[sides[stronger(second)]] = 100
    with pytest.raises(ValidationError, match="plays on"):
        game_services.result_correct(
            game=second, actor=organiser, scores=scores, reason="Scores swapped"
        )


def test_tournament_games_count_in_the_ratings_and_not_in_the_season_tables(
    club, organiser, confirmer
):
    tournament = make_tournament(club, organiser, qualifying_games=2, match_lengths=[3])
    enter(tournament, organiser, 8)
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    for game in open_playoff_games(tournament):
        play(game, organiser, confirmer, stronger(game))

    played = Game.objects.filter(
        session=tournament.session, results__state=ResultState.CONFIRMED
    ).count()
    assert played == 8 + 1  # two qualifying rounds of 4 tables, and the final's first game
    assert GameRating.objects.filter(session=tournament.session).count() == 2 * played
    assert not SessionTotal.objects.filter(session=tournament.session).exists()


def test_a_table_card_leads_to_the_game_seated_last_at_its_table(club, organiser, confirmer):
    """A best of 3 that ends by forfeits frees its table for a match of the next playoff round,
    seated in a round that was drawn before its own second game: the card follows the table,
    not the round's number, and the old game's link forwards there."""
    tournament = make_tournament(club, organiser, match_lengths=[3], starts_on=dt.date.today())
    enter(tournament, organiser, 37)
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=7)
    match = Match.objects.get(tournament=tournament, round_number=1, table=1)
    first_game = match.match_games.get().game
    services.match_game_forfeit(match=match, actor=organiser, absent=match.bottom)
    services.match_game_forfeit(match=match, actor=organiser, absent=match.bottom)

    card = game_services.table_cards_make(club=club, actor=organiser, up_to=1)[0]
    now = game_services.card_now(card).game
    following = Match.objects.get(tournament=tournament, round_number=2, table=1)
    assert now == following.match_games.get().game
    assert now.round.number < match.match_games.get(number=2).game.round.number
    assert game_services.table_forward(first_game).game == now
