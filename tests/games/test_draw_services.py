"""The draw services: round_draw and round_swap_seats around the pure games.draw module.

Terms: *tables* of a stored round are, table by table in number order, the player ids in seat
order (the shape games.draw returns). The pure algorithm has its own tests (tests/games/draw/);
these check what the services store, audit and refuse, and that they feed the draw its history.
"""

import datetime as dt
from collections import Counter
from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from club import services as club_services
from club.models import Session, SessionState
from core.models import AuditEntry
from games import services
from games.audit import GameVerb
from games.draw import draw_round
from games.models import Game, Round, Seat, TableKind
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)
SIZE = {TableKind.TWO: 2, TableKind.THREE: 3, TableKind.PARTNERS: 4}
# The table sizes docs/spec.md asks for (sorted, largest first).
EXPECTED_SIZES = {
    ("singles", 2): [2],
    ("singles", 3): [3],
    ("singles", 4): [2, 2],
    ("singles", 5): [3, 2],
    ("singles", 13): [3] + [2] * 5,
    ("singles", 40): [2] * 20,
    ("partners", 2): [2],
    ("partners", 3): [3],
    ("partners", 4): [4],
    ("partners", 5): [3, 2],
    ("partners", 13): [4, 4, 3, 2],
    ("partners", 40): [4] * 10,
}


def setup_session(players, *, mode="singles", **rules):
    """An open session with `players` checked in; the rules are set before opening."""
    club = ClubFactory(table_mode=mode, **rules)
    actor = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=actor, date=THURSDAY)
    for _ in range(players):
        club_services.checkin_create(session=session, actor=actor, player=PlayerFactory(club=club))
    return session, actor


def checked_in(session):
    return sorted(session.checkins.values_list("player_id", flat=True))


def stored_tables(round_):
    tables: dict[int, list[tuple[int, int]]] = {}
    for table, position, player in Seat.objects.filter(round=round_).values_list(
        "game__table", "position", "player_id"
    ):
        tables.setdefault(table, []).append((position, player))
    return [tuple(player for _, player in sorted(tables[number])) for number in sorted(tables)]


def opponents(round_):
    """Opponent pairs of a round (players on different sides of one table)."""
    pairs = set()
    for game in Game.objects.filter(round=round_).prefetch_related("seats"):
        for a, b in combinations(game.seats.all(), 2):
            if a.side != b.side:
                pairs.add(frozenset((a.player_id, b.player_id)))
    return pairs


# --- Drawing -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["singles", "partners"])
@pytest.mark.parametrize(
    ("players", "message"),
    [(0, "No players are checked in"), (1, "Only 1 player is checked in")],
)
def test_too_few_players_is_a_clear_error_and_no_round(mode, players, message):
    session, actor = setup_session(players, mode=mode)

    with pytest.raises(ValidationError) as caught:
        services.round_draw(session=session, actor=actor)

    assert message in caught.value.messages[0]
    assert not Round.objects.exists()
    assert not Game.objects.exists()
    assert not Seat.objects.exists()
    assert not AuditEntry.objects.filter(action=GameVerb.ROUND_DRAWN).exists()


@pytest.mark.parametrize("mode", ["singles", "partners"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 13, 40])
def test_draw_seats_everyone_once_at_tables_of_the_right_kind(mode, players):
    session, actor = setup_session(players, mode=mode)

    round_ = services.round_draw(session=session, actor=actor)

    round_.refresh_from_db()
    assert (round_.session, round_.number, round_.mode, round_.drawn_by) == (
        session,
        1,
        mode,
        actor,
    )
    seats = list(Seat.objects.filter(round=round_))
    assert sorted(seat.player_id for seat in seats) == checked_in(session)
    games = list(Game.objects.filter(round=round_).prefetch_related("seats"))
    assert [game.table for game in games] == list(range(1, len(games) + 1))
    assert all(game.session == session for game in games)
    for game in games:
        positions = sorted((seat.position, seat.side) for seat in game.seats.all())
        assert len(positions) == SIZE[game.kind]
        if game.kind == TableKind.PARTNERS:
            assert positions == [(0, 0), (1, 1), (2, 0), (3, 1)]  # partners sit opposite
        else:
            assert positions == [(index, index) for index in range(SIZE[game.kind])]
    assert (
        sorted((SIZE[game.kind] for game in games), reverse=True) == EXPECTED_SIZES[(mode, players)]
    )

    [entry] = AuditEntry.objects.filter(action=GameVerb.ROUND_DRAWN)
    assert (entry.actor, entry.club, entry.object_id) == (actor, session.club, str(round_.pk))
    assert entry.data["seed"] == round_.seed
    assert entry.data["round"] == 1
    assert entry.data["mode"] == mode
    assert [tuple(table) for table in entry.data["tables"]] == stored_tables(round_)


def test_the_given_seed_is_stored():
    session, actor = setup_session(6)
    round_ = services.round_draw(session=session, actor=actor, seed=987654321)
    assert Round.objects.get(pk=round_.pk).seed == 987654321


def test_draw_uses_the_session_snapshot_not_the_current_house_rules():
    session, actor = setup_session(4, mode="singles", rounds_per_session=2)
    club_services.club_update_rules(
        club=session.club, actor=actor, table_mode="partners", rounds_per_session=6
    )

    first = services.round_draw(session=session, actor=actor)
    services.round_draw(session=session, actor=actor)

    assert set(Game.objects.filter(round=first).values_list("kind", flat=True)) == {TableKind.TWO}
    with pytest.raises(ValidationError):
        services.round_draw(session=session, actor=actor)


def test_drawing_more_rounds_than_the_session_plays_is_refused():
    session, actor = setup_session(4, rounds_per_session=2)
    services.round_draw(session=session, actor=actor, seed=1)
    services.round_draw(session=session, actor=actor, seed=2)

    with pytest.raises(ValidationError) as caught:
        services.round_draw(session=session, actor=actor, seed=3)

    assert "All 2 rounds" in caught.value.messages[0]
    assert list(Round.objects.values_list("number", flat=True)) == [1, 2]
    assert AuditEntry.objects.filter(action=GameVerb.ROUND_DRAWN).count() == 2


def test_a_settled_session_refuses_a_draw():
    session, actor = setup_session(4)
    Session.objects.filter(pk=session.pk).update(state=SessionState.SETTLED)
    with pytest.raises(ValidationError, match="settled"):
        services.round_draw(session=session, actor=actor)
    assert not Round.objects.exists()


def test_a_checked_in_player_made_inactive_is_not_drawn():
    session, actor = setup_session(5)
    gone = session.checkins.first().player
    club_services.player_update(player=gone, actor=actor, active=False)
    round_ = services.round_draw(session=session, actor=actor)
    assert not Seat.objects.filter(round=round_, player=gone).exists()
    assert Seat.objects.filter(round=round_).count() == 4


# --- Replaying a draw from its seed --------------------------------------------------------------


@pytest.mark.parametrize(("mode", "players"), [("singles", 13), ("partners", 13), ("singles", 6)])
def test_stored_rounds_replay_from_seed_entrants_and_history(mode, players):
    session, actor = setup_session(players, mode=mode)
    planned = session.house_rules.rounds_per_session
    for number in (1, 2, 3):
        entrants = services.round_entrants(session, number)
        history = services.draw_history(session)

        round_ = services.round_draw(session=session, actor=actor)

        replay = draw_round(
            entrants=entrants,
            mode=mode,
            seed=round_.seed,
            history=history,
            rounds_remaining=planned - number + 1,
        )
        assert [table.seats for table in replay.tables] == stored_tables(round_)


def test_same_seed_and_same_players_give_the_same_tables_in_two_sessions():
    club = ClubFactory()
    actor = UserFactory(role="organisers", club=club)
    players = [PlayerFactory(club=club) for _ in range(13)]
    rounds = []
    # Different years, so neither session is in the other's season history.
    for date, order in ((dt.date(2026, 3, 5), players), (dt.date(2025, 3, 6), players[::-1])):
        session = club_services.session_open(club=club, actor=actor, date=date)
        for player in order:
            club_services.checkin_create(session=session, actor=actor, player=player)
        rounds.append(services.round_draw(session=session, actor=actor, seed=20260305))
    assert stored_tables(rounds[0]) == stored_tables(rounds[1])


# --- The services feed the draw its history ------------------------------------------------------


def test_four_players_over_three_rounds_meet_everyone_once():
    session, actor = setup_session(4, rounds_per_session=3)
    rounds = [services.round_draw(session=session, actor=actor, seed=seed) for seed in (1, 2, 3)]
    met = Counter(pair for round_ in rounds for pair in opponents(round_))
    assert sorted(met.values()) == [1] * 6


def test_nobody_sits_at_the_three_player_table_twice_while_others_have_not():
    session, actor = setup_session(5, rounds_per_session=4)
    three_counts = Counter()
    for seed in (11, 12, 13, 14):
        round_ = services.round_draw(session=session, actor=actor, seed=seed)
        at_three = set(
            Seat.objects.filter(round=round_, game__kind=TableKind.THREE).values_list(
                "player_id", flat=True
            )
        )
        others = set(checked_in(session)) - at_three
        assert max(three_counts[p] for p in at_three) <= min(three_counts[p] for p in others)
        three_counts.update(at_three)


def test_the_first_round_avoids_pairs_that_met_earlier_in_the_season():
    club = ClubFactory()
    actor = UserFactory(role="organisers", club=club)
    players = [PlayerFactory(club=club) for _ in range(4)]
    pairs = []
    for date in (dt.date(2026, 3, 5), dt.date(2026, 3, 12)):
        session = club_services.session_open(club=club, actor=actor, date=date)
        for player in players:
            club_services.checkin_create(session=session, actor=actor, player=player)
        pairs.append(opponents(services.round_draw(session=session, actor=actor, seed=7)))
    assert len(pairs[1]) == 2
    assert not pairs[0] & pairs[1]


# --- Swapping seats by hand ----------------------------------------------------------------------


def seat_of(round_, player):
    seat = Seat.objects.get(round=round_, player=player)
    return (seat.game_id, seat.position, seat.side)


def test_swap_before_any_result_exchanges_the_seats_and_is_audited():
    session, actor = setup_session(5)
    round_ = services.round_draw(session=session, actor=actor, seed=5)
    games = list(Game.objects.filter(round=round_))
    a = games[0].seats.get(position=0).player
    b = games[1].seats.get(position=2).player  # the 3-player table is the last one
    where_a, where_b = seat_of(round_, a), seat_of(round_, b)

    services.round_swap_seats(round_=round_, player_a=a, player_b=b, actor=actor)

    assert seat_of(round_, a) == where_b
    assert seat_of(round_, b) == where_a
    assert sorted(Seat.objects.filter(round=round_).values_list("player_id", flat=True)) == (
        checked_in(session)
    )
    [entry] = AuditEntry.objects.filter(action=GameVerb.SEATS_SWAPPED)
    assert entry.actor == actor
    assert entry.data["players"] == [a.pk, b.pk]
    assert entry.data["before"]["a"] == {
        "player": a.pk,
        "game": where_a[0],
        "position": where_a[1],
    }


def test_swap_between_partners_tables_keeps_sides_with_the_seat():
    session, actor = setup_session(8, mode="partners")
    round_ = services.round_draw(session=session, actor=actor, seed=5)
    first, second = Game.objects.filter(round=round_)
    a = first.seats.get(position=1).player
    b = second.seats.get(position=2).player

    services.round_swap_seats(round_=round_, player_a=a, player_b=b, actor=actor)

    assert seat_of(round_, a) == (second.pk, 2, 0)
    assert seat_of(round_, b) == (first.pk, 1, 1)


def test_swap_after_a_result_of_the_round_is_entered_is_refused():
    session, actor = setup_session(4)
    round_ = services.round_draw(session=session, actor=actor, seed=5)
    first, second = Game.objects.filter(round=round_)
    services.result_enter(game=first, actor=actor, scores=[121, 100])
    a, b = (seat.player for seat in second.seats.all())
    before = stored_tables(round_)

    with pytest.raises(ValidationError) as caught:
        services.round_swap_seats(round_=round_, player_a=a, player_b=b, actor=actor)

    assert "already entered" in caught.value.messages[0]
    assert stored_tables(round_) == before
    assert not AuditEntry.objects.filter(action=GameVerb.SEATS_SWAPPED).exists()


def test_a_result_of_an_earlier_round_does_not_block_swaps_in_the_next():
    session, actor = setup_session(4)
    first_round = services.round_draw(session=session, actor=actor, seed=5)
    services.result_enter(
        game=Game.objects.filter(round=first_round).first(), actor=actor, scores=[121, 100]
    )
    second_round = services.round_draw(session=session, actor=actor, seed=6)
    first, second = Game.objects.filter(round=second_round)
    a, b = first.seats.first().player, second.seats.first().player

    services.round_swap_seats(round_=second_round, player_a=a, player_b=b, actor=actor)

    assert seat_of(second_round, a)[0] == second.pk


@pytest.mark.parametrize("who", ["late arrival", "not checked in", "same player"])
def test_swapping_a_player_who_is_not_seated_is_refused(who):
    session, actor = setup_session(4)
    round_ = services.round_draw(session=session, actor=actor, seed=5)
    seated = Seat.objects.filter(round=round_).first().player
    if who == "late arrival":
        other = club_services.checkin_create(
            session=session, actor=actor, player=PlayerFactory(club=session.club)
        ).player
    elif who == "not checked in":
        other = PlayerFactory(club=session.club)
    else:
        other = seated
    before = stored_tables(round_)

    with pytest.raises(ValidationError) as caught:
        services.round_swap_seats(round_=round_, player_a=seated, player_b=other, actor=actor)

    assert "player_b" in caught.value.message_dict
    assert stored_tables(round_) == before
    assert not AuditEntry.objects.filter(action=GameVerb.SEATS_SWAPPED).exists()


def test_a_settled_session_refuses_a_swap():
    session, actor = setup_session(4)
    round_ = services.round_draw(session=session, actor=actor, seed=5)
    a, b = (seat.player for seat in Seat.objects.filter(round=round_)[:2])
    Session.objects.filter(pk=session.pk).update(state=SessionState.SETTLED)
    before = stored_tables(round_)
    with pytest.raises(ValidationError, match="settled"):
        services.round_swap_seats(round_=round_, player_a=a, player_b=b, actor=actor)
    assert stored_tables(round_) == before
