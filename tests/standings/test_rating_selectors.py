"""What the pages read of the ratings (standings.rating_selectors): a player's history, a
session's upsets, expected against actual wins; each one query at any length of history.

Terms: *Ann* and *Bob* play each other alone, so who wins each game is chosen by the test; the
*naive* figures are recounted from an independent replay (tests/standings/test_ratings.py).
"""

import datetime as dt

import pytest
from openskill.models import PlackettLuce

from standings.models import GameRating
from standings.rating_selectors import (
    current_ratings,
    expected_vs_actual,
    player_rating_history,
    player_rating_now,
    session_upsets,
)
from tests.builders import run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.standings.test_ratings import independent_replay
from tests.standings.test_ratings_command import run

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)


@pytest.fixture
def people():
    return UserFactory(role="organisers"), UserFactory(role="organisers")


@pytest.fixture
def pair():
    club = ClubFactory()
    return (
        club,
        PlayerFactory(club=club, display_name="Ann"),
        PlayerFactory(club=club, display_name="Bob"),
    )


def winning(*winners):
    """Scores for game after game: the named player wins the n-th game of a session."""
    games = iter(winners)

    def scores(game):
        winner = next(games)
        side = game.seats.get(player=winner).side
        return [121 if n == side else 90 for n in range(game.side_count)]

    return scores


def test_an_underdogs_win_is_the_sessions_upset(people, pair):
    club, ann, bob = pair
    run_session(club, *people, players=2, rounds=3, date=THURSDAY, scores=winning(ann, ann, ann))
    later = THURSDAY + dt.timedelta(7)
    session = run_session(club, *people, players=2, rounds=2, date=later, scores=winning(bob, ann))

    [upset] = session_upsets(session)
    bobs = GameRating.objects.get(session=session, round_number=1, player=bob)
    assert (upset.round_number, upset.winners, upset.losers) == (1, ("Bob",), ("Ann",))
    assert upset.win_chance == bobs.win_chance < 0.5
    assert upset.favourite_chance == pytest.approx(1 - bobs.win_chance)
    assert upset.game_id == bobs.game_id


def test_the_upsets_are_the_least_likely_wins_first(people):
    club = ClubFactory()
    sessions = [
        run_session(club, *people, players=7, rounds=4, date=THURSDAY + dt.timedelta(7 * n), seed=n)
        for n in range(3)
    ]
    replayed = independent_replay(club)
    won = dict(GameRating.objects.filter(club=club).values_list("pk", "won"))
    assert won  # the figures below come from the independent replay, not the rows
    chances: dict[int, dict[int, float]] = {}
    winners: dict[int, float] = {}
    for game_id, player_id, *_, chance in replayed:
        line = GameRating.objects.get(game_id=game_id, player_id=player_id)
        chances.setdefault(game_id, {})[line.side] = chance
        if line.won:
            winners[game_id] = chance
    for session in sessions:
        games = set(GameRating.objects.filter(session=session).values_list("game_id", flat=True))
        naive = sorted(
            (chance, game_id)
            for game_id, chance in winners.items()
            if game_id in games and chance < max(chances[game_id].values())
        )
        upsets = session_upsets(session, limit=10)
        assert [(u.win_chance, u.game_id) for u in upsets] == naive[:10]
        assert session_upsets(session) == upsets[:3]
    assert any(session_upsets(session) for session in sessions)


def test_expected_against_actual_wins(people, pair):
    club, ann, bob = pair
    run_session(
        club, *people, players=2, rounds=2, date=dt.date(2025, 12, 4), scores=winning(ann, bob)
    )
    run_session(club, *people, players=2, rounds=3, date=THURSDAY, scores=winning(ann, ann, bob))

    model = PlackettLuce()
    mine, theirs = model.rating(), model.rating()
    expected = {2025: 0.0, 2026: 0.0}
    for day, ann_won in ((2025, True), (2025, False), (2026, True), (2026, True), (2026, False)):
        chance = model.predict_win([[mine], [theirs]])[0]
        expected[day] += chance
        [[mine], [theirs]] = model.rate([[mine], [theirs]], ranks=[1, 2] if ann_won else [2, 1])

    figures = expected_vs_actual(club, ann)
    assert (figures.games, figures.wins) == (5, 3)
    assert figures.expected_wins == pytest.approx(expected[2025] + expected[2026], abs=1e-12)
    assert figures.surplus == pytest.approx(3 - figures.expected_wins)
    season = expected_vs_actual(club, ann, season=2026)
    assert (season.games, season.wins) == (3, 2)
    assert season.expected_wins == pytest.approx(expected[2026], abs=1e-12)
    nobody = expected_vs_actual(club, PlayerFactory(club=club))
    assert (nobody.games, nobody.wins, nobody.expected_wins) == (0, 0, 0.0)


def test_a_players_history_follows_the_replay(people, pair):
    club, ann, bob = pair
    run_session(club, *people, players=2, rounds=3, date=THURSDAY, scores=winning(ann, bob, ann))

    history = player_rating_history(club, ann)
    assert [point.won for point in history] == [True, False, True]
    assert [point.round_number for point in history] == [1, 2, 3]
    for earlier, later in zip(history, history[1:], strict=False):
        assert (later.mu_before, later.sigma_before) == (earlier.mu, earlier.sigma)
    assert history[0].ordinal_before == 25 - 3 * 25 / 3
    current = {row.player_id: row for row in current_ratings(club)}
    assert (history[-1].mu, history[-1].games) == (current[ann.pk].mu, current[ann.pk].games)
    assert player_rating_history(club, PlayerFactory(club=club)) == []


def test_a_seasons_points_and_the_rating_now(people, pair):
    """The player page charts one season's points and shows the rating after the last game of
    all, whichever season is picked."""
    club, ann, bob = pair
    run_session(
        club, *people, players=2, rounds=2, date=dt.date(2025, 12, 4), scores=winning(ann, bob)
    )
    run_session(club, *people, players=2, rounds=3, date=THURSDAY, scores=winning(bob, ann, ann))

    history = player_rating_history(club, ann)
    assert [point.date.year for point in history] == [2025, 2025, 2026, 2026, 2026]
    assert player_rating_history(club, ann, season=2025) == history[:2]
    assert player_rating_history(club, ann, season=2026) == history[2:]
    assert player_rating_history(club, ann, season=2024) == []
    assert player_rating_now(club, ann) == history[-1]
    assert player_rating_now(club, PlayerFactory(club=club)) is None


def test_each_read_is_one_query(people, pair, django_assert_num_queries):
    club, ann, _ = pair
    session = run_session(club, *people, players=2, rounds=2, date=THURSDAY)
    for read in (
        lambda: current_ratings(club),
        lambda: player_rating_history(club, ann),
        lambda: player_rating_history(club, ann, season=2026),
        lambda: player_rating_now(club, ann),
        lambda: session_upsets(session),
        lambda: expected_vs_actual(club, ann),
    ):
        with django_assert_num_queries(1):
            read()


def test_the_command_on_a_site_without_a_club_is_exit_code_2(db):
    code, _, err = run("--json")
    assert code == 2 and "There is no club yet (clubs here: none)." in err
