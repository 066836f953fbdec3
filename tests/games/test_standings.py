"""games.selectors.session_standings: a session's ranking from its confirmed results.

Terms: *key* is the ranking key (game points, games won, spread), best first; *play* a game is
to enter its scores as the player in seat 0 and confirm them as the player in seat 1 (the other
side at every kind of table). Sessions are built through the real services.
"""

import datetime as dt
import random
from collections import defaultdict

import pytest

from club import services as club_services
from games import services
from games.models import Game, ResultLine, ResultState
from games.ranking import rank
from games.selectors import Standing, session_standings
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def open_session(players, *, club=None, date=dt.date(2026, 3, 5), **rules):
    """An open session with `players` players (who have logins) checked in."""
    club = club or ClubFactory(**rules)
    organiser = UserFactory(role="organisers")
    session = club_services.session_open(club=club, actor=organiser, date=date)
    for _ in range(players):
        player = PlayerFactory(club=club, user=UserFactory(role="players"))
        club_services.checkin_create(session=session, actor=organiser, player=player)
    return session, organiser


def draw(session, organiser, seed):
    round_ = services.round_draw(session=session, actor=organiser, seed=seed)
    return list(Game.objects.filter(round=round_).prefetch_related("seats__player__user"))


def seat_players(game):
    return [seat.player for seat in sorted(game.seats.all(), key=lambda seat: seat.position)]


def play(game, scores, *, confirm=True):
    first, second = seat_players(game)[:2]
    result = services.result_enter(game=game, actor=first.user, scores=scores)
    if confirm:
        services.result_confirm(result=result, actor=second.user)
    return result


def figures(standing: Standing):
    return (
        standing.played,
        standing.game_points,
        standing.won,
        standing.lost,
        standing.spread,
        standing.skunks_given,
        standing.skunks_taken,
    )


def by_player(standings):
    return {standing.player_id: standing for standing in standings}


# --- Ranking -------------------------------------------------------------------------------------


def test_ranked_by_game_points_then_games_won_then_spread():
    # A win is worth 1 game point and a skunk win 3, so points, wins and spread all disagree.
    session, organiser = open_session(
        4, rounds_per_session=3, points_win=1, points_skunk_win=3, points_double_skunk_win=3
    )
    rounds = [draw(session, organiser, seed) for seed in (1, 2, 3)]
    a, b, c, d = sorted(session.checkins.values_list("player_id", flat=True))
    # winner, loser, loser's score (the winner has 121)
    results = {
        frozenset((a, b)): (a, 120),
        frozenset((a, c)): (a, 120),
        frozenset((a, d)): (a, 120),
        frozenset((b, d)): (b, 61),  # a skunk: 3 game points
        frozenset((b, c)): (c, 119),
        frozenset((c, d)): (c, 92),  # just not a skunk
    }
    games = [game for games in rounds for game in games]
    met = [frozenset(player.pk for player in seat_players(game)) for game in games]
    assert sorted(map(sorted, met)) == sorted(map(sorted, results)), "expected a round robin"
    for game, pair in zip(games, met, strict=True):
        winner, loser_score = results[pair]
        play(game, [121 if p.pk == winner else loser_score for p in seat_players(game)])

    standings = session_standings(session)

    assert [s.player_id for s in standings] == [a, b, c, d]
    assert [(s.rank, s.rank_label) for s in standings] == [(1, "1"), (2, "2"), (3, "3"), (4, "4")]
    assert {s.player_id: figures(s) for s in standings} == {
        # played, points, won, lost, spread, skunks given, skunks taken
        a: (3, 3, 3, 0, 3, 0, 0),
        b: (3, 3, 1, 2, 57, 1, 0),
        c: (3, 2, 2, 1, 30, 0, 0),
        d: (3, 0, 0, 3, -90, 0, 1),
    }
    assert sum(s.spread for s in standings) == 0


def test_spread_breaks_ties_and_level_players_share_a_rank():
    session, organiser = open_session(8)
    games = draw(session, organiser, seed=4)
    loser_scores = [91, 100, 111, 111]
    for game, loser_score in zip(games, loser_scores, strict=True):
        play(game, [121, loser_score])
    late = club_services.checkin_create(
        session=session, actor=organiser, new_player_name="Late Larry"
    ).player
    winners = [seat_players(game)[0].pk for game in games]
    losers = [seat_players(game)[1].pk for game in games]

    standings = by_player(session_standings(session))

    expected = {
        winners[0]: ("1", (1, 2, 1, 0, 30, 0, 0)),
        winners[1]: ("2", (1, 2, 1, 0, 21, 0, 0)),
        winners[2]: ("T-3", (1, 2, 1, 0, 10, 0, 0)),
        winners[3]: ("T-3", (1, 2, 1, 0, 10, 0, 0)),
        late.pk: ("5", (0, 0, 0, 0, 0, 0, 0)),
        losers[2]: ("T-6", (1, 0, 0, 1, -10, 0, 0)),
        losers[3]: ("T-6", (1, 0, 0, 1, -10, 0, 0)),
        losers[1]: ("8", (1, 0, 0, 1, -21, 0, 0)),
        losers[0]: ("9", (1, 0, 0, 1, -30, 0, 0)),
    }
    assert {pk: (s.rank_label, figures(s)) for pk, s in standings.items()} == expected
    assert standings[winners[2]].tied and standings[winners[2]].rank == 3
    assert not standings[winners[1]].tied
    assert standings[late.pk].player == "Late Larry"


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        ([], []),
        ([5], [(1, False)]),
        ([5, 5], [(1, True), (1, True)]),
        ([9, 7, 7, 4], [(1, False), (2, True), (2, True), (4, False)]),
        ([9, 8, 7, 7, 7, 1, 1], [(1, False), (2, False)] + [(3, True)] * 3 + [(6, True)] * 2),
    ],
)
def test_rank_shares_ranks_and_skips_the_next(keys, expected):
    rows = [{"game_points": key, "won": 0, "spread": 0} for key in keys]
    assert [(ranked.rank, ranked.tied) for ranked in rank(rows)] == expected


@pytest.mark.parametrize(("rank", "tied", "label"), [(3, True, "T-3"), (3, False, "3")])
def test_rank_label(rank, tied, label):
    standing = Standing(rank, tied, 1, "Ann", 0, 0, 0, 0, 0, 0, 0)
    assert standing.rank_label == label


# --- What counts ---------------------------------------------------------------------------------


def test_only_confirmed_results_count():
    session, organiser = open_session(4)
    first, second = draw(session, organiser, seed=1)
    play(first, [121, 100])
    before = [(s.player_id, s.rank_label, figures(s)) for s in session_standings(session)]

    draft = play(second, [121, 60], confirm=False)

    assert [(s.player_id, s.rank_label, figures(s)) for s in session_standings(session)] == before
    for player in seat_players(second):
        assert figures(by_player(session_standings(session))[player.pk]) == (0,) * 7
    # Confirming it makes it count.
    services.result_confirm(result=draft, actor=seat_players(second)[1].user)
    winner = by_player(session_standings(session))[seat_players(second)[0].pk]
    assert figures(winner) == (1, 3, 1, 0, 61, 1, 0)


def test_a_corrected_result_counts_once_with_its_new_figures():
    session, organiser = open_session(2)
    [game] = draw(session, organiser, seed=1)
    play(game, [121, 85])
    services.result_correct(game=game, actor=organiser, scores=[100, 121], reason="Wrong way round")
    first, second = seat_players(game)

    standings = by_player(session_standings(session))

    assert figures(standings[first.pk]) == (1, 0, 0, 1, -21, 0, 0)
    assert figures(standings[second.pk]) == (1, 2, 1, 0, 21, 0, 0)


def test_results_of_another_session_do_not_count():
    club = ClubFactory()
    session, organiser = open_session(2, club=club)
    [game] = draw(session, organiser, seed=1)
    play(game, [121, 85])
    later = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 12))
    for checkin in session.checkins.all():
        club_services.checkin_create(session=later, actor=organiser, player=checkin.player)

    standings = session_standings(later)

    assert [figures(s) for s in standings] == [(0,) * 7, (0,) * 7]
    assert [s.rank_label for s in standings] == ["T-1", "T-1"]


def test_an_empty_session_has_no_standings():
    session, _ = open_session(0)
    assert session_standings(session) == []


# --- A whole random session against a naive recount ----------------------------------------------


def random_scores(rng, sides, target=121):
    winner = rng.randrange(sides)
    return [target if side == winner else rng.randint(0, target - 1) for side in range(sides)]


def naive_standings(session):
    """Everything recounted in Python from the confirmed ResultLine rows of the session."""
    totals = {pk: defaultdict(int) for pk in session.checkins.values_list("player_id", flat=True)}
    for line in ResultLine.objects.filter(
        result__game__session=session, result__state=ResultState.CONFIRMED
    ):
        row = totals[line.player_id]
        row["played"] += 1
        row["points"] += line.game_points
        row["won"] += line.won
        row["lost"] += not line.won
        row["spread"] += line.spread
        row["given"] += line.skunks_given
        row["taken"] += line.skunked
    keys = {pk: (row["points"], row["won"], row["spread"]) for pk, row in totals.items()}
    expected = {}
    for pk, row in totals.items():
        better = sum(other > keys[pk] for other in keys.values())
        level = sum(other == keys[pk] for other in keys.values())
        label = f"T-{better + 1}" if level > 1 else str(better + 1)
        figures_ = tuple(row[k] for k in ("played", "points", "won", "lost", "spread"))
        expected[pk] = (*figures_, row["given"], row["taken"], label)
    return expected, keys


@pytest.mark.parametrize("mode", ["singles", "partners"])
def test_a_random_session_matches_a_naive_recount(mode):
    rng = random.Random(f"pegboard-{mode}")
    session, organiser = open_session(13, table_mode=mode)
    for seed in (101, 102, 103):
        for game in draw(session, organiser, seed):
            play(game, random_scores(rng, game.side_count))
    # One confirmed result corrected: only the new version may count.
    game = rng.choice(list(Game.objects.filter(session=session)))
    old_scores = game.results.get(state=ResultState.CONFIRMED).scores
    new_scores = old_scores
    while new_scores == old_scores:
        new_scores = random_scores(rng, game.side_count)
    services.result_correct(game=game, actor=organiser, scores=new_scores, reason="Recount")

    standings = session_standings(session)
    expected, keys = naive_standings(session)

    assert {s.player_id: (*figures(s), s.rank_label) for s in standings} == expected
    ordered = [keys[s.player_id] for s in standings]
    assert ordered == sorted(ordered, reverse=True)
    assert sum(s.spread for s in standings) == 0
    assert sum(s.played for s in standings) == 13 * 3  # everyone plays every round
    assert sum(s.skunks_given for s in standings) == sum(s.skunks_taken for s in standings)


def test_partners_skunks_given_and_taken_count_per_player():
    session, organiser = open_session(4, table_mode="partners")
    [game] = draw(session, organiser, seed=1)
    play(game, [121, 80])
    p0, p1, p2, p3 = seat_players(game)

    standings = by_player(session_standings(session))

    for winner in (p0, p2):
        assert figures(standings[winner.pk]) == (1, 3, 1, 0, 41, 1, 0)
        assert standings[winner.pk].rank_label == "T-1"
    for loser in (p1, p3):
        assert figures(standings[loser.pk]) == (1, 0, 0, 1, -41, 0, 1)
        assert standings[loser.pk].rank_label == "T-3"


# --- A fixed number of queries -------------------------------------------------------------------


def full_session(club, players, date):
    session, organiser = open_session(players, club=club, date=date)
    rng = random.Random(players)
    for seed in (1, 2):
        for game in draw(session, organiser, seed):
            play(game, random_scores(rng, game.side_count))
    return session


def test_standings_take_one_query_whatever_the_size(django_assert_num_queries):
    club = ClubFactory()
    small = full_session(club, 4, dt.date(2026, 3, 5))
    large = full_session(club, 40, dt.date(2026, 3, 12))

    with django_assert_num_queries(1):
        small_standings = session_standings(small)
    with django_assert_num_queries(1):
        large_standings = session_standings(large)

    assert [len(small_standings), len(large_standings)] == [4, 40]
    assert sum(s.played for s in large_standings) == 40 * 2
    assert all(s.played == 2 for s in small_standings)
