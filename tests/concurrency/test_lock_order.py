"""Every service locks rows in the one written order (club.locking, docs/architecture.md): club,
then session, round, game, claim; a row that hangs off one of them (a check-in, a settlement, a
dispute) after its parent. Each lock is `FOR UPDATE OF` the model's own table only.

Terms: the *locks* of a call are the tables of the `SELECT ... FOR UPDATE` statements it sends,
in the order sent (PostgreSQL: SQLite sends none, so these tests skip there). A lock's *level*
is its place in the order; the levels of a call's locks never go down.
"""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club import services as club_services
from club.models import CheckIn
from games import services as game_services
from games.models import Result
from money.services import session_reopen, session_settle
from scoring import services as scoring_services
from scoring.models import RulingDecision
from tests.builders import LinkTable, make_table, run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite takes no row locks (it sends no FOR UPDATE)",
    ),
    pytest.mark.django_db,
]

LEVEL = {
    "club_club": 0,
    "club_session": 1,
    "club_checkin": 1.5,
    "money_settlement": 1.5,
    "games_round": 2,
    "games_game": 3,
    "scoring_claim": 4,
    "scoring_dispute": 4.5,
}
THURSDAY = dt.date(2026, 11, 26)
FOR_UPDATE = re.compile(r'FROM "(\w+)".* FOR (?:NO KEY )?UPDATE(?: OF (.*))?$', re.DOTALL)


def locks(call) -> list[str]:
    """The tables `call` locks, in order; each lock is of its own table only."""
    with CaptureQueriesContext(connection) as queries:
        call()
    tables = []
    for query in queries.captured_queries:
        match = FOR_UPDATE.search(query["sql"])
        if match:
            table, of = match.groups()
            assert of == f'"{table}"', f"a lock beyond its own table: {query['sql']}"
            assert "FOR NO KEY UPDATE" in query["sql"], "a lock that blocks foreign-key checks"
            tables.append(table)
    return tables


def assert_in_order(tables: list[str]) -> None:
    assert tables, "the call locked nothing"
    levels = [LEVEL[table] for table in tables]
    assert levels == sorted(levels), f"locks out of order: {tables}"


@pytest.fixture
def people():
    officials = ClubFactory(slug="officials")  # roles act through a player record
    return tuple(UserFactory(role="organisers", club=officials) for _ in range(2))


def test_settling_and_reopening_lock_the_club_first(people):
    organiser, confirmer = people
    session = run_session(ClubFactory(skunk_bank=True), organiser, confirmer, players=4, rounds=1)
    settled = locks(lambda: session_settle(session=session, actor=organiser))
    assert settled[:2] == ["club_club", "club_session"]
    assert_in_order(settled)
    reopened = locks(lambda: session_reopen(session=session, actor=organiser, reason="Typo."))
    assert reopened == ["club_club", "club_session", "money_settlement"]


def test_table_cards_lock_the_club_only(people):
    organiser, _ = people
    club = ClubFactory()
    made = locks(lambda: game_services.table_cards_make(club=club, actor=organiser, up_to=2))
    assert made == ["club_club"]
    assert locks(lambda: game_services.table_cards_renew(club=club, actor=organiser)) == [
        "club_club"
    ]


def test_check_ins_and_fees_lock_the_session_then_the_check_in(people):
    organiser, _ = people
    club = ClubFactory()
    session = club_services.session_open(club=club, actor=organiser, date=THURSDAY)
    player = PlayerFactory(club=club)
    assert locks(
        lambda: club_services.checkin_create(session=session, actor=organiser, player=player)
    ) == ["club_session"]
    checkin = CheckIn.objects.get(session=session)
    for call in (
        lambda: club_services.fee_mark_paid(checkin=checkin, actor=organiser),
        lambda: club_services.fee_mark_unpaid(checkin=checkin, actor=organiser),
        lambda: club_services.checkin_undo(checkin=checkin, actor=organiser),
    ):
        assert locks(call) == ["club_session", "club_checkin"]


def test_draws_results_and_claims_lock_session_round_game_claim(people):
    table = make_table()
    organiser, confirmer = table.organiser, people[1]
    game, players = table.game, table.players
    round_ = game.round
    assert locks(
        lambda: game_services.round_swap_seats(
            round_=round_, player_a=players[0], player_b=players[1], actor=organiser
        )
    ) == ["club_session", "games_round"]
    entered = locks(
        lambda: game_services.result_enter(game=game, actor=organiser, scores=[121, 90])
    )
    assert entered == ["club_session", "games_round", "games_game"]
    draft = Result.objects.get(game=game)
    assert_in_order(locks(lambda: game_services.result_confirm(result=draft, actor=confirmer)))
    claimed = locks(
        lambda: scoring_services.claim_file(
            game=game,
            actor=organiser,
            kind="hand",
            claimant=players[0],
            claimed_points=10,
            hand="5H 5C 6S 4D",
            starter="KH",
        )
    )
    assert claimed == ["club_session", "games_round", "games_game"]
    claim = game.claims.get()
    called = locks(
        lambda: scoring_services.muggins_call(
            claim=claim, actor=organiser, caller=players[1], points=2
        )
    )
    assert called == ["club_session", "games_round", "games_game", "scoring_claim"]
    opened = locks(
        lambda: scoring_services.dispute_open(claim=claim, actor=table.users[0], statement="No.")
    )
    assert_in_order(opened)
    judge = UserFactory(role="judges", club=ClubFactory(slug="officials"))
    dispute = claim.dispute
    ruled = locks(
        lambda: scoring_services.dispute_rule(
            dispute=dispute,
            actor=judge,
            decision=RulingDecision.OVERRIDE,
            points={0: 20, 1: 0},
            reason="Recounted at the table.",
        )
    )
    assert ruled[:5] == [
        "club_session",
        "games_round",
        "games_game",
        "scoring_claim",
        "scoring_dispute",
    ]
    # The ruling's new result version locks the same game again (already held): no new order.
    assert set(ruled[5:]) <= {"club_session", "games_round", "games_game"}
    appealed = locks(
        lambda: scoring_services.dispute_appeal(
            dispute=dispute, actor=table.users[1], statement="The judge misread it."
        )
    )
    assert appealed == [
        "club_session",
        "games_round",
        "games_game",
        "scoring_claim",
        "scoring_dispute",
    ]


def test_drawing_and_whole_rounds_lock_the_session_first(people):
    organiser, confirmer = people
    club = ClubFactory()
    session = club_services.session_open(club=club, actor=organiser, date=THURSDAY)
    for _ in range(4):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
    assert locks(lambda: game_services.round_draw(session=session, actor=organiser, seed=1)) == [
        "club_session"
    ]
    round_ = session.rounds.get()
    scores = {game.table: [121, 100] for game in round_.games.all()}
    entered = locks(
        lambda: game_services.round_results_enter(round_=round_, actor=organiser, scores=scores)
    )
    assert entered[:2] == ["club_session", "games_round"]
    assert_in_order(entered)
    confirmed = locks(lambda: game_services.round_results_confirm(round_=round_, actor=confirmer))
    assert confirmed[:2] == ["club_session", "games_round"]
    assert_in_order(confirmed)


def test_withdrawing_a_round_locks_the_session_the_round_then_its_games(people):
    """round_withdraw takes the order every change in a morning takes."""
    organiser, _ = people
    club = ClubFactory()
    session = club_services.session_open(club=club, actor=organiser, date=THURSDAY)
    for _ in range(4):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
    round_ = game_services.round_draw(session=session, actor=organiser, seed=1)
    assert locks(lambda: game_services.round_withdraw(round_=round_, actor=organiser)) == [
        "club_session",
        "games_round",
        "games_game",
    ]


def test_confirming_a_jackpot_hands_cards_locks_session_round_game_claim(people):
    """claim_confirm_cards takes the claim's locks in the order muggins_call does."""
    table = make_table()
    game, players = table.game, table.players
    scoring_services.claim_file(
        game=game,
        actor=table.organiser,
        kind="hand",
        claimant=players[0],
        claimed_points=29,
        hand="5C 5D 5S JH",
        starter="5H",
    )
    claim = game.claims.get()
    confirmed = locks(
        lambda: scoring_services.claim_confirm_cards(claim=claim, actor=table.users[1])
    )
    assert confirmed == ["club_session", "games_round", "games_game", "scoring_claim"]


def test_a_muggins_call_and_a_card_confirmation_at_the_table_lock_as_on_the_page(people):
    """table_muggins_call and table_cards_confirm (no login, the table's link) take the claim's
    locks in the order muggins_call does."""
    table = LinkTable()
    game, players = table.game, table.players
    claim = scoring_services.table_claim_file(
        game=game,
        kind="hand",
        claimant=players[0],
        claimed_points=28,
        hand="5C 5D 5S JH",
        starter="5H",
    )
    called = locks(
        lambda: scoring_services.table_muggins_call(claim=claim, caller=players[1], points=1)
    )
    assert called == ["club_session", "games_round", "games_game", "scoring_claim"]
    confirmed = locks(lambda: scoring_services.table_cards_confirm(claim=claim, player=players[1]))
    assert confirmed == ["club_session", "games_round", "games_game", "scoring_claim"]
