"""The ratings (standings.ratings, standings.services, docs/decisions/ratings.md): every
confirmed result replayed in order through openskill's Plackett-Luce model with its defaults, a
2-player or partners game as two teams, a cut-throat game as a finishing order; replayed from a
session on whenever one of its results is confirmed or corrected.

Terms: `model` is a fresh `PlackettLuce()` of the library, called here directly, so each
expected figure is the library's own; a *row* is one GameRating as a tuple of its fields.
"""

import datetime as dt

import pytest
from openskill.models import PlackettLuce

from club import services as club_services
from games import services as game_services
from games.models import Game
from standings.models import GameRating
from standings.rating_selectors import current_ratings, player_rating_history
from standings.ratings import SideResult, replay_from, side_ranks
from standings.services import ratings_rebuild
from tests.builders import run_session
from tests.factories import ClubFactory, UserFactory

model = PlackettLuce()
THURSDAY = dt.date(2026, 3, 5)
FIELDS = [
    f.attname for f in GameRating._meta.concrete_fields if f.name != "id"
]  # everything but the id


def rows(club) -> list[tuple]:
    return list(GameRating.objects.filter(club=club).order_by("pk").values_list(*FIELDS))


def by_game(club) -> list[tuple]:
    return sorted(rows(club), key=lambda row: (row[FIELDS.index("game_id")], row))


@pytest.fixture
def people(db):
    return UserFactory(role="organisers"), UserFactory(role="organisers")


def one_game(club, people, players, scores, date=THURSDAY):
    """A session of one round whose only game ends with `scores` (per side)."""
    session = run_session(
        club, *people, players=players, rounds=1, date=date, scores=lambda game: scores
    )
    return Game.objects.get(session=session)


def seated(game) -> list[list[int]]:
    """Player ids by side, each side by player id."""
    sides: dict[int, list[int]] = {}
    for seat in game.seats.order_by("player_id"):
        sides.setdefault(seat.side, []).append(seat.player_id)
    return [sides[side] for side in sorted(sides)]


def expected(teams: list[list[int]], ranks: list[int]) -> dict[int, tuple]:
    """player -> (mu, sigma) after one game from default ratings, by the library itself."""
    ratings = [[model.rating() for _ in team] for team in teams]
    after = model.rate(ratings, ranks=ranks)
    return {
        player: (after[i][j].mu, after[i][j].sigma)
        for i, team in enumerate(teams)
        for j, player in enumerate(team)
    }


def stored(game) -> dict[int, tuple]:
    return {
        rating.player_id: (rating.mu_after, rating.sigma_after)
        for rating in GameRating.objects.filter(game=game)
    }


# --- Ranks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sides, ranks",
    [
        ([(121, True), (98, False)], [1, 2]),
        ([(60, False), (121, True)], [2, 1]),
        ([(121, True), (98, False), (80, False)], [1, 2, 3]),
        ([(80, False), (121, True), (98, False)], [3, 1, 2]),
        ([(90, False), (90, False), (121, True)], [2, 2, 1]),  # equal losers share a rank
    ],
)
def test_the_winner_ranks_first_and_the_losers_by_score(sides, ranks):
    assert side_ranks([SideResult((n,), score, won) for n, (score, won) in enumerate(sides)]) == (
        ranks
    )


# --- One game of each kind -----------------------------------------------------------------------


def test_a_two_player_game_is_two_teams_of_one(people):
    club = ClubFactory()
    game = one_game(club, people, 2, [121, 95])
    (winner,), (loser,) = seated(game)

    assert stored(game) == expected([[winner], [loser]], [1, 2])
    row = GameRating.objects.get(game=game, player_id=winner)
    assert (row.mu_before, row.sigma_before) == (25.0, 25 / 3)
    assert row.won and row.rank == 1 and row.games == 1 and row.win_chance == 0.5
    assert row.date == THURSDAY and row.round_number == 1 and row.table == game.table


@pytest.mark.parametrize(
    "scores, ranks",
    [([121, 100, 80], [1, 2, 3]), ([70, 121, 95], [3, 1, 2]), ([121, 90, 90], [1, 2, 2])],
)
def test_a_cut_throat_game_is_a_finishing_order_with_equal_scores_tied(people, scores, ranks):
    game = one_game(ClubFactory(), people, 3, scores)
    teams = seated(game)

    assert [len(team) for team in teams] == [1, 1, 1]
    assert stored(game) == expected(teams, ranks)
    assert [r.rank for r in GameRating.objects.filter(game=game).order_by("side")] == ranks
    chances = GameRating.objects.filter(game=game).values_list("win_chance", flat=True)
    assert sum(chances) == pytest.approx(1)
    if ranks == [1, 2, 2]:
        _, second, third = (stored(game)[team[0]] for team in teams)
        assert second == third


def test_a_partners_game_is_two_teams_of_two(people):
    game = one_game(ClubFactory(table_mode="partners"), people, 4, [99, 121])
    teams = seated(game)

    assert [len(team) for team in teams] == [2, 2]
    assert stored(game) == expected(teams, [2, 1])
    winners = GameRating.objects.filter(game=game, won=True).values_list("player_id", flat=True)
    assert sorted(winners) == teams[1]


def test_the_displayed_rating_is_the_librarys_ordinal(people):
    club = ClubFactory()
    run_session(club, *people, players=6, rounds=3)
    for row in current_ratings(club):
        assert row.ordinal == model.rating(mu=row.mu, sigma=row.sigma).ordinal()
    rating = GameRating.objects.filter(club=club).last()
    assert rating.ordinal == model.rating(mu=rating.mu_after, sigma=rating.sigma_after).ordinal()


# --- Order and replays ---------------------------------------------------------------------------


def independent_replay(club) -> list[tuple]:
    """(game, player, mu_before, sigma_before, mu_after, sigma_after, win_chance) for every rated
    game in the order session date, session, round, table, game: recomputed from the games'
    current confirmed results without standings.ratings."""
    games = Game.objects.filter(session__club=club, results__state="confirmed").order_by(
        "session__date", "session_id", "round__number", "table", "pk"
    )
    ratings: dict[int, tuple[float, float]] = {}
    out = []
    for game in games:
        lines = game.results.get(state="confirmed").lines.order_by("side", "player_id")
        sides: dict[int, list] = {}
        for line in lines:
            sides.setdefault(line.side, []).append(line)
        teams = [sides[side] for side in sorted(sides)]
        losers = sorted({team[0].score for team in teams if not team[0].won}, reverse=True)
        ranks = [1 if team[0].won else 2 + losers.index(team[0].score) for team in teams]
        players = [
            [model.rating(*ratings.get(line.player_id, (25, 25 / 3))) for line in team]
            for team in teams
        ]
        chances = model.predict_win(players)
        after = model.rate(players, ranks=ranks)
        for i, team in enumerate(teams):
            for j, line in enumerate(team):
                before = players[i][j]
                new = after[i][j]
                ratings[line.player_id] = (new.mu, new.sigma)
                out.append(
                    (
                        game.pk,
                        line.player_id,
                        before.mu,
                        before.sigma,
                        new.mu,
                        new.sigma,
                        chances[i],
                    )
                )
    return out


def stored_replay(club) -> list[tuple]:
    return list(
        GameRating.objects.filter(club=club)
        .order_by("date", "session_id", "round_number", "table", "game_id", "side", "player_id")
        .values_list(
            "game_id",
            "player_id",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "win_chance",
        )
    )


def test_games_are_replayed_by_session_date_round_and_table_not_by_when_entered(people):
    """The later Thursday is played first; the earlier one, played afterwards, comes first in
    the replay, and the later one's ratings are replayed after it."""
    club = ClubFactory()
    later = run_session(club, *people, players=7, rounds=2, date=THURSDAY + dt.timedelta(7))
    before = {r.player_id: r.mu_after for r in GameRating.objects.filter(session=later)}
    earlier = run_session(club, *people, players=7, rounds=2, date=THURSDAY, seed=2)

    assert stored_replay(club) == independent_replay(club)
    first = GameRating.objects.filter(club=club).order_by(
        "date", "session_id", "round_number", "table", "game_id"
    )[0]
    assert first.session_id == earlier.pk and first.games == 1
    after = {r.player_id: r.mu_after for r in GameRating.objects.filter(session=later)}
    assert after != before  # the later session was replayed from the earlier one's ratings
    assert GameRating.objects.filter(session=later).order_by("games").first().games > 1


def test_confirming_in_the_latest_session_keeps_the_rows_of_earlier_ones(people):
    club = ClubFactory()
    first = run_session(club, *people, players=6, rounds=2, date=THURSDAY)
    kept = list(GameRating.objects.filter(session=first).values_list("pk", *FIELDS))
    run_session(club, *people, players=6, rounds=2, date=THURSDAY + dt.timedelta(14), seed=5)

    assert list(GameRating.objects.filter(session=first).values_list("pk", *FIELDS)) == kept
    assert stored_replay(club) == independent_replay(club)


def test_a_correction_replays_its_session_and_every_later_one_but_not_earlier_ones(people):
    organiser, confirmer = people
    club = ClubFactory()
    dates = [THURSDAY + dt.timedelta(7 * n) for n in range(3)]
    sessions = [
        run_session(club, organiser, confirmer, players=5, rounds=2, date=day, seed=n)
        for n, day in enumerate(dates)
    ]
    first = list(GameRating.objects.filter(session=sessions[0]).values_list("pk", *FIELDS))
    later_pks = set(
        GameRating.objects.filter(session__in=sessions[1:]).values_list("pk", flat=True)
    )
    before = stored_replay(club)
    last = {
        (r.game_id, r.player_id): r.mu_after for r in GameRating.objects.filter(session=sessions[2])
    }
    game = Game.objects.filter(session=sessions[1]).order_by("round__number", "table").first()
    scores = game.results.get(state="confirmed").scores
    flipped = [121 if score != 121 else 100 for score in scores]
    if len(flipped) == 3:
        flipped[[n for n, s in enumerate(scores) if s != 121][1]] = 90

    game_services.result_correct(game=game, actor=organiser, scores=flipped, reason="Misread")

    assert list(GameRating.objects.filter(session=sessions[0]).values_list("pk", *FIELDS)) == first
    replaced = set(GameRating.objects.filter(session__in=sessions[1:]).values_list("pk", flat=True))
    assert not replaced & later_pks
    after = stored_replay(club)
    assert after != before
    assert after == independent_replay(club)
    now = {
        (r.game_id, r.player_id): r.mu_after for r in GameRating.objects.filter(session=sessions[2])
    }
    assert now.keys() == last.keys() and now != last  # the last session was replayed too


def test_the_replays_of_every_confirmation_give_the_rebuild_from_scratch_bit_for_bit(people):
    club = ClubFactory()
    for n in range(3):
        run_session(club, *people, players=9, rounds=3, date=THURSDAY + dt.timedelta(7 * n), seed=n)
    kept = by_game(club)

    replay_from(club.pk)
    assert by_game(club) == kept
    ratings_rebuild(club=club, actor=None)
    assert by_game(club) == kept


def test_a_draft_is_not_rated_until_it_is_confirmed(people):
    organiser, confirmer = people
    club = ClubFactory()
    run_session(club, organiser, confirmer, players=4, rounds=1, date=THURSDAY)
    session = club_services.session_open(
        club=club, actor=organiser, date=THURSDAY + dt.timedelta(7)
    )
    club_services.checkins_create(
        session=session, actor=organiser, players=list(club.players.filter(active=True)[:4])
    )
    round_ = game_services.round_draw(session=session, actor=organiser, seed=3)
    game = round_.games.first()
    draft = game_services.result_enter(game=game, actor=organiser, scores=[121, 60])
    assert not GameRating.objects.filter(game=game).exists()

    game_services.result_confirm(result=draft, actor=confirmer)
    assert GameRating.objects.filter(game=game).count() == 2
    assert stored_replay(club) == independent_replay(club)


# --- Provisional ---------------------------------------------------------------------------------


def test_a_rating_is_provisional_until_twelve_games(people):
    club = ClubFactory(rounds_per_session=6)
    run_session(club, *people, players=2, rounds=6, date=THURSDAY)
    assert all(row.provisional and row.games == 6 for row in current_ratings(club))
    run_session(club, *people, players=2, rounds=5, date=THURSDAY + dt.timedelta(7))
    assert all(row.provisional and row.games == 11 for row in current_ratings(club))
    run_session(club, *people, players=2, rounds=1, date=THURSDAY + dt.timedelta(14))

    table = current_ratings(club)
    assert [(row.games, row.provisional) for row in table] == [(12, False), (12, False)]
    history = player_rating_history(club, club.players.get(pk=table[0].player_id))
    assert [point.provisional for point in history] == [True] * 11 + [False]
    assert [point.games for point in history] == list(range(1, 13))
