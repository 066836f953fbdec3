"""Races on PostgreSQL: two people doing the same thing at the same moment end in one consistent
state, and whoever lost the race gets a ValidationError that says why (never an IntegrityError,
which a page would show as a server error).

Terms: a *race* runs service calls in threads released together by a `threading.Barrier`. Each
thread has its own database connection, as two gunicorn workers would, opened before the barrier
so the calls overlap, and closed at the end. Each race is run ITERATIONS times on fresh rows to
shake out timing. The services serialise on row locks (`select_for_update`); SQLite has no row
locks and serialises every write instead, so these tests need PostgreSQL: on SQLite they skip with
that reason, and CI's PostgreSQL run covers them.
"""

import datetime as dt
import threading
from collections.abc import Callable
from functools import partial

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from club import services as club_services
from club.audit import ClubVerb
from club.models import CheckIn, Player, SessionState
from core.models import AuditEntry
from games import services as game_services
from games.audit import GameVerb
from games.models import Result, ResultLine, ResultState
from money.audit import MoneyVerb
from money.models import LedgerEntry, LedgerKind, Payout, Pot, Settlement
from money.services import session_settle
from tests.builders import run_session
from tests.factories import ClubFactory, PlayerFactory, UserFactory

# Every race test module's marks: PostgreSQL only, real transactions.
RACE_MARKS = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite serialises writes — CI's PostgreSQL run "
        "covers this",
    ),
    pytest.mark.django_db(transaction=True),
]
pytestmark = RACE_MARKS

ITERATIONS = 5
DATE = dt.date(2026, 11, 26)


def race(*calls: Callable[[], object]) -> list[tuple[object, Exception | None]]:
    """Run `calls` at once, one thread and connection each; (return value, error) per call."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[tuple[object, Exception | None]] = [(None, None)] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            connection.ensure_connection()
            barrier.wait(timeout=10)
            outcomes[index] = (call(), None)
        except Exception as error:
            outcomes[index] = (None, error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a racing call never finished"
    return outcomes


def one_winner(outcomes) -> tuple[object, ValidationError]:
    """The value of the one call that succeeded and the ValidationError of the one that lost."""
    errors = [error for _, error in outcomes if error is not None]
    assert len(errors) == 1, f"expected exactly one call to lose, got {errors!r}"
    assert isinstance(errors[0], ValidationError), f"the loser got {errors[0]!r}"
    (value,) = [value for value, error in outcomes if error is None]
    return value, errors[0]


def all_succeed(outcomes) -> list:
    errors = [error for _, error in outcomes if error is not None]
    assert not errors, f"expected every call to succeed, got {errors!r}"
    return [value for value, _ in outcomes]


def audits(action: str, club, **filters) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action, club=club, **filters).order_by("pk"))


def organisers(count: int) -> list:
    officials = ClubFactory(slug="officials")  # roles act through a player record
    return [UserFactory(role="organisers", club=officials) for _ in range(count)]


def drawn_session(club, organiser, *, players: int):
    """A session with `players` checked in and round 1 drawn: players // 2 two-player games."""
    session = club_services.session_open(club=club, actor=organiser, date=DATE)
    for _ in range(players):
        player = PlayerFactory(club=club)
        club_services.checkin_create(session=session, actor=organiser, player=player)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=7)
    return session, list(round_.games.order_by("table"))


def confirm(*, pk: int, actor) -> Result:
    """Confirm draft `pk` as a view does: load the result in the request, then call the service."""
    return game_services.result_confirm(result=Result.objects.get(pk=pk), actor=actor)


def assert_versions_consistent(game) -> list[Result]:
    """Versions 1..n with no gap, exactly one not superseded (the newest), each with its lines."""
    results = list(Result.objects.filter(game=game).order_by("version"))
    assert [r.version for r in results] == list(range(1, len(results) + 1))
    assert results, "the game has no result"
    assert all(r.state == ResultState.SUPERSEDED for r in results[:-1])
    assert results[-1].state != ResultState.SUPERSEDED
    for result in results:
        assert ResultLine.objects.filter(result=result).count() == game.seats.count()
    return results


# --- Results --------------------------------------------------------------------------------------


def test_two_organisers_enter_then_two_confirm_one_game_at_once():
    """Both entries stand, one after the other: the later replaces the earlier draft (as
    `result_enter` does with any unconfirmed draft). Of two confirmations, one confirms; the
    other is told the result is no longer a draft."""
    enterer_a, enterer_b, confirmer_c, confirmer_d = organisers(4)
    club = ClubFactory()
    _, games = drawn_session(club, enterer_a, players=2 * ITERATIONS)
    for game in games:
        scores = {enterer_a.pk: [121, 80], enterer_b.pk: [95, 121]}
        entered = all_succeed(
            race(
                *(
                    partial(game_services.result_enter, game=game, actor=a, scores=scores[a.pk])
                    for a in (enterer_a, enterer_b)
                )
            )
        )
        results = assert_versions_consistent(game)
        assert len(results) == 2
        assert sorted(r.pk for r in entered) == [r.pk for r in results]
        draft = results[-1]
        assert draft.state == ResultState.DRAFT
        assert draft.scores == scores[draft.entered_by_id]
        entries = audits(GameVerb.RESULT_ENTERED, club, data__game=game.pk)
        assert [e.data["version"] for e in entries] == [1, 2]
        assert [e.actor_id for e in entries] == [r.entered_by_id for r in results]

        confirmed, error = one_winner(
            race(*(partial(confirm, pk=draft.pk, actor=a) for a in (confirmer_c, confirmer_d)))
        )
        assert "not a draft waiting for confirmation" in error.messages[0]
        results = assert_versions_consistent(game)
        assert len(results) == 2
        assert results[-1].state == ResultState.CONFIRMED
        assert results[-1].confirmed_by_id == confirmed.confirmed_by_id
        (confirmation,) = audits(GameVerb.RESULT_CONFIRMED, club, data__game=game.pk)
        assert confirmation.actor_id == confirmed.confirmed_by_id
        assert confirmation.data["version"] == 2


def test_an_entry_and_a_confirmation_at_once_end_in_one_order_or_the_other():
    """Confirming the draft while the other side enters different scores: either the
    confirmation came first and the late entry is refused, or the entry replaced the draft and
    the confirmation is refused. Never a confirmed version that is also superseded."""
    enterer, reenterer, confirmer = organisers(3)
    club = ClubFactory()
    _, games = drawn_session(club, enterer, players=2 * ITERATIONS)
    for game in games:
        draft = game_services.result_enter(game=game, actor=enterer, scores=[121, 80])
        outcomes = race(
            partial(confirm, pk=draft.pk, actor=confirmer),
            partial(game_services.result_enter, game=game, actor=reenterer, scores=[100, 121]),
        )
        _, error = one_winner(outcomes)
        results = assert_versions_consistent(game)
        confirmed = audits(GameVerb.RESULT_CONFIRMED, club, data__game=game.pk)
        entered = audits(GameVerb.RESULT_ENTERED, club, data__game=game.pk)
        if outcomes[0][1] is None:  # the confirmation won
            assert "is confirmed" in error.messages[0]
            assert [(r.version, r.state) for r in results] == [(1, ResultState.CONFIRMED)]
            assert (len(confirmed), len(entered)) == (1, 1)
        else:  # the new entry won
            assert "Version 1 is superseded" in error.messages[0]
            assert [(r.version, r.state) for r in results] == [
                (1, ResultState.SUPERSEDED),
                (2, ResultState.DRAFT),
            ]
            assert results[-1].scores == [100, 121]
            assert (len(confirmed), len(entered)) == (0, 2)


def test_a_result_entered_as_its_round_is_withdrawn_ends_in_one_order_or_the_other():
    """The organiser withdraws round 1 while a result is entered at one of its tables, the game
    read before either: either the withdrawal came first and the result is refused, saying the
    round was withdrawn (never a missing row, which a page would show as a server error), or the
    result came first and the round, which it now holds, can no longer be withdrawn."""
    withdrawer, enterer = organisers(2)
    for _ in range(ITERATIONS):
        club = ClubFactory()
        _, (game,) = drawn_session(club, withdrawer, players=2)
        outcomes = race(
            partial(game_services.round_withdraw, round_=game.round, actor=withdrawer),
            partial(game_services.result_enter, game=game, actor=enterer, scores=[121, 80]),
        )
        _, error = one_winner(outcomes)
        if outcomes[0][1] is None:  # the withdrawal won
            assert error.messages == [
                "Round 1 was withdrawn a moment ago, so nothing was saved: once the round is "
                "drawn again, find the table's new game."
            ]
            assert not Result.objects.filter(game__session__club=club).exists()
            assert not audits(GameVerb.RESULT_ENTERED, club)
        else:  # the result won
            assert "round 1 can no longer be withdrawn" in error.messages[0]
            assert Result.objects.get(game=game).scores == [121, 80]
            assert not audits(GameVerb.ROUND_WITHDRAWN, club)


@pytest.mark.parametrize("same_scores", [True, False], ids=["same-scores", "different-scores"])
def test_two_corrections_of_one_result_at_once(same_scores):
    """Two organisers correcting the same confirmed result: the second correction is of the
    first (its audit's "before" is the first's "after"); the same correction twice is refused."""
    enterer, confirmer, corrector_a, corrector_b = organisers(4)
    club = ClubFactory()
    _, games = drawn_session(club, enterer, players=2 * ITERATIONS)
    for game in games:
        draft = game_services.result_enter(game=game, actor=enterer, scores=[121, 80])
        game_services.result_confirm(result=draft, actor=confirmer)
        scores = {corrector_a.pk: [121, 90], corrector_b.pk: [70, 121]}
        if same_scores:
            scores[corrector_b.pk] = scores[corrector_a.pk]
        outcomes = race(
            *(
                partial(
                    game_services.result_correct,
                    game=game,
                    actor=a,
                    scores=scores[a.pk],
                    reason="recounted",
                )
                for a in (corrector_a, corrector_b)
            )
        )
        results = assert_versions_consistent(game)
        assert results[-1].state == ResultState.CONFIRMED
        corrections = audits(GameVerb.RESULT_CORRECTED, club, data__game=game.pk)
        if same_scores:
            corrected, error = one_winner(outcomes)
            assert "already recorded" in error.messages[0]
            assert len(results) == 2
            assert results[-1].pk == corrected.pk
            assert len(corrections) == 1
        else:
            all_succeed(outcomes)
            assert len(results) == 3
            assert [c.data["version"] for c in corrections] == [2, 3]
            first, second = corrections
            assert first.data["scores"]["before"] == [121, 80]
            assert second.data["scores"]["before"] == first.data["scores"]["after"]
            assert results[-1].scores == second.data["scores"]["after"]


def test_two_organisers_confirm_through_the_page_at_once(club, member):
    """The same race through the game page: both posts redirect back to the game, one with
    "confirmed", the other with the reason it was not (no server error)."""
    enterer = member("organiser")
    confirmers = [member("organiser"), member("organiser")]
    _, games = drawn_session(club, enterer, players=2 * ITERATIONS)
    for game in games:
        clients = [Client() for _ in confirmers]  # fresh: no messages left from the last post
        for client, user in zip(clients, confirmers, strict=True):
            client.force_login(user)
        draft = game_services.result_enter(game=game, actor=enterer, scores=[121, 80])
        url = reverse("games:result_confirm", args=[game.pk, draft.pk])
        responses = all_succeed(race(*(partial(c.post, url) for c in clients)))
        assert [r.status_code for r in responses] == [302, 302]
        levels = sorted(
            message.level_tag
            for response in responses
            for message in get_messages(response.wsgi_request)
        )
        assert levels == ["error", "success"]
        draft.refresh_from_db()
        assert draft.state == ResultState.CONFIRMED
        assert len(audits(GameVerb.RESULT_CONFIRMED, club, data__game=game.pk)) == 1


# --- Check-ins and fees ---------------------------------------------------------------------------


def test_two_check_ins_of_one_player_at_once_make_one():
    door, desk = organisers(2)
    club = ClubFactory()
    session = club_services.session_open(club=club, actor=door, date=DATE)
    for _ in range(ITERATIONS):
        player = PlayerFactory(club=club)
        checkin, error = one_winner(
            race(
                *(
                    partial(club_services.checkin_create, session=session, actor=a, player=player)
                    for a in (door, desk)
                )
            )
        )
        assert error.message_dict == {"player": [f"{player} is already checked in."]}
        assert list(CheckIn.objects.filter(session=session, player=player)) == [checkin]
        (audit,) = audits(ClubVerb.CHECKIN_CREATED, club, data__player=player.pk)
        assert audit.actor_id == checkin.checked_in_by_id


def test_two_new_players_of_one_name_checked_in_at_once_make_one():
    """Player names are unique in a club (case aside), so the second "new player" of the same
    name is refused with the reason, and the organiser checks in the one that now exists."""
    door, desk = organisers(2)
    club = ClubFactory()
    session = club_services.session_open(club=club, actor=door, date=DATE)
    for number in range(ITERATIONS):
        names = {door.pk: f"Robin Lee {number}", desk.pk: f"robin lee {number}"}
        checkin, error = one_winner(
            race(
                *(
                    partial(
                        club_services.checkin_create,
                        session=session,
                        actor=a,
                        new_player_name=names[a.pk],
                    )
                    for a in (door, desk)
                )
            )
        )
        assert "is already a player of this club" in error.message_dict["display_name"][0]
        (player,) = Player.objects.filter(club=club, display_name__iexact=names[door.pk])
        assert list(CheckIn.objects.filter(session=session, player__in=[player])) == [checkin]
        assert len(audits(ClubVerb.PLAYER_CREATED, club, object_id=str(player.pk))) == 1
        assert len(audits(ClubVerb.CHECKIN_CREATED, club, data__player=player.pk)) == 1
    assert Player.objects.filter(club=club).count() == ITERATIONS


def test_two_new_players_of_one_name_added_at_once_make_one():
    """Adding a player is not tied to a session (the players page, or new players checked in
    to two sessions), so only the unique name constraint stands between two adds."""
    first, second = organisers(2)
    club = ClubFactory()
    for number in range(ITERATIONS):
        name = f"Sam Pike {number}"
        player, error = one_winner(
            race(
                *(
                    partial(club_services.player_create, club=club, actor=a, display_name=name)
                    for a in (first, second)
                )
            )
        )
        assert "is already a player of this club" in error.message_dict["display_name"][0]
        assert list(Player.objects.filter(club=club, display_name=name)) == [player]
        assert len(audits(ClubVerb.PLAYER_CREATED, club, object_id=str(player.pk))) == 1
    assert len(audits(ClubVerb.PLAYER_CREATED, club)) == ITERATIONS


def test_two_fee_payments_of_one_check_in_at_once_make_one():
    """Marking a fee paid is safe to run twice: both calls succeed, one payment is recorded."""
    door, desk = organisers(2)
    club = ClubFactory()
    session = club_services.session_open(club=club, actor=door, date=DATE)
    for _ in range(ITERATIONS):
        checkin = club_services.checkin_create(
            session=session, actor=door, player=PlayerFactory(club=club)
        )
        all_succeed(
            race(
                *(
                    partial(club_services.fee_mark_paid, checkin=checkin, actor=a)
                    for a in (door, desk)
                )
            )
        )
        checkin.refresh_from_db()
        assert checkin.is_paid
        (audit,) = audits(ClubVerb.FEE_PAID, club, object_id=str(checkin.pk))
        assert audit.actor_id == checkin.paid_by_id


# --- Settling -------------------------------------------------------------------------------------


def test_two_settles_of_one_session_at_once_make_one_settlement():
    """Settling is safe to run twice: both presses return the one settlement, whose payouts add
    up to the pot, with each fee and payout in the ledger once and one audit entry."""
    organiser, confirmer = organisers(2)
    club = ClubFactory()
    for week in range(ITERATIONS):
        session = run_session(
            club, organiser, confirmer, players=8, rounds=1, date=DATE + dt.timedelta(weeks=week)
        )
        settlements = all_succeed(
            race(*[partial(session_settle, session=session, actor=organiser)] * 2)
        )
        (settlement,) = Settlement.objects.filter(session=session)
        assert [s.pk for s in settlements] == [settlement.pk, settlement.pk]
        session.refresh_from_db()
        assert session.state == SessionState.SETTLED
        fees = CheckIn.objects.filter(session=session, paid_at__isnull=False)
        pot = fees.aggregate(total=Sum("fee_cents"))["total"]
        assert settlement.pot_cents == pot == 8 * session.fee_cents
        payouts = Payout.objects.filter(settlement=settlement)
        assert payouts.aggregate(total=Sum("amount_cents"))["total"] == pot
        ledger = LedgerEntry.objects.filter(session=session, pot=Pot.MAIN)
        assert sorted(ledger.filter(kind=LedgerKind.FEE).values_list("player_id", flat=True)) == (
            sorted(fees.values_list("player_id", flat=True))
        )
        assert ledger.filter(kind=LedgerKind.PAYOUT).count() == (
            payouts.filter(amount_cents__gt=0).count()
        )
        assert ledger.aggregate(total=Sum("amount_cents"))["total"] == 0
        assert len(audits(MoneyVerb.SESSION_SETTLED, club, object_id=str(settlement.pk))) == 1
    assert len(audits(MoneyVerb.SESSION_SETTLED, club)) == ITERATIONS


def test_a_settle_and_a_fee_taken_back_at_once_end_in_one_order_or_the_other():
    """Either the session is settled with the fee in the pot and taking it back is refused, or
    the fee is taken back first and settling is refused because a fee is unpaid."""
    organiser, confirmer = organisers(2)
    club = ClubFactory()
    for week in range(ITERATIONS):
        session = run_session(
            club, organiser, confirmer, players=4, rounds=1, date=DATE + dt.timedelta(weeks=week)
        )
        checkin = CheckIn.objects.filter(session=session).first()
        outcomes = race(
            partial(session_settle, session=session, actor=organiser),
            partial(club_services.fee_mark_unpaid, checkin=checkin, actor=confirmer),
        )
        _, error = one_winner(outcomes)
        session.refresh_from_db()
        checkin.refresh_from_db()
        if outcomes[0][1] is None:  # settled first
            assert "is settled" in error.messages[0]
            assert session.state == SessionState.SETTLED
            assert checkin.is_paid
            assert Settlement.objects.get(session=session).pot_cents == 4 * session.fee_cents
            assert not audits(ClubVerb.FEE_UNPAID, club, object_id=str(checkin.pk))
        else:  # the fee was taken back first
            assert any("Fees not paid" in message for message in error.messages)
            assert session.state == SessionState.OPEN
            assert not checkin.is_paid
            assert not Settlement.objects.filter(session=session).exists()
            assert len(audits(ClubVerb.FEE_UNPAID, club, object_id=str(checkin.pk))) == 1
