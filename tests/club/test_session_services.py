"""Session services: opening a session, check-ins, fees and undoing a check-in.

Terms: a *seated* player has a Seat in a drawn round of the session; *settled* is the locked
state a session reaches after the pot is paid out (set directly here, settling is not built yet).
Every test asserts the rows in the database, the audit trail and, where money moves, the cents.
"""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from club import services
from club.audit import ClubVerb
from club.models import CheckIn, Club, Player, Session, SessionState
from club.selectors import club_sessions, next_session_date, session_fee_totals
from core.models import AuditEntry
from games.models import Seat
from games.services import round_draw
from tests.factories import CheckInFactory, ClubFactory, PlayerFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)


def audits(action):
    return list(AuditEntry.objects.filter(action=action))


def clubless_organiser():
    """A login in the organisers group with no player record: the services take the actor they
    are given (the views check who may act)."""
    return UserFactory(role="organisers")


def open_session(club, actor, date=THURSDAY):
    return services.session_open(club=club, actor=actor, date=date)


def check_in(session, actor, count):
    return [
        services.checkin_create(
            session=session, actor=actor, player=PlayerFactory(club=session.club)
        )
        for _ in range(count)
    ]


def settle(session):
    Session.objects.filter(pk=session.pk).update(state=SessionState.SETTLED)
    session.refresh_from_db()


# --- Opening a session ---------------------------------------------------------------------------


def test_session_open_snapshots_the_house_rules_and_is_audited():
    club = ClubFactory()
    actor = clubless_organiser()
    rules_then = club.house_rules.snapshot()

    session = open_session(club, actor)

    session.refresh_from_db()
    assert session.rules == rules_then
    assert session.state == SessionState.OPEN
    assert session.opened_by == actor
    assert session.starts_at == club.session_start
    [entry] = audits(ClubVerb.SESSION_OPENED)
    assert (entry.actor, entry.club, entry.object_id) == (actor, club, str(session.pk))
    assert entry.data["date"] == "2026-03-05"
    assert entry.data["rules"] == rules_then


def test_later_rule_edits_do_not_change_an_opened_session():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    services.club_update_rules(
        club=club,
        actor=actor,
        game_target=61,
        skunk_line=31,
        double_skunk_line=16,
        entry_fee_cents=50,
        table_mode="partners",
        rounds_per_session=3,
    )

    session = Session.objects.get(pk=session.pk)
    assert session.rules["game_target"] == 121
    assert session.rules["skunk_line"] == 91
    assert session.rules["table_mode"] == "singles"
    assert session.rules["rounds_per_session"] == 6
    assert session.fee_cents == 25
    # ...while a session opened after the edit plays under the new rules.
    later = open_session(club, actor, date=THURSDAY + dt.timedelta(days=7))
    later.refresh_from_db()
    club.refresh_from_db()
    assert later.rules == club.house_rules.snapshot()
    assert (later.game_target, later.fee_cents) == (61, 50)


def test_second_session_on_the_same_date_is_refused_and_writes_nothing():
    club = ClubFactory()
    actor = clubless_organiser()
    first = open_session(club, actor)

    with pytest.raises(ValidationError) as caught:
        open_session(club, actor)

    assert "date" in caught.value.message_dict
    assert "already a session" in caught.value.message_dict["date"][0]
    assert list(Session.objects.filter(club=club)) == [first]
    assert len(audits(ClubVerb.SESSION_OPENED)) == 1


def test_another_club_may_meet_on_the_same_date():
    actor = clubless_organiser()
    open_session(ClubFactory(), actor)
    open_session(ClubFactory(), actor)
    assert Session.objects.filter(date=THURSDAY).count() == 2


def test_one_session_per_club_per_date_is_also_a_database_constraint():
    session = SessionFactory(date=THURSDAY)
    with pytest.raises(IntegrityError), transaction.atomic():
        Session.objects.create(club=session.club, date=THURSDAY, rules=session.rules)


@pytest.mark.parametrize(
    ("today", "expected"),
    [
        (dt.date(2026, 3, 5), dt.date(2026, 3, 5)),  # a Thursday: today
        (dt.date(2026, 3, 6), dt.date(2026, 3, 12)),  # Friday: next week
        (dt.date(2026, 3, 4), dt.date(2026, 3, 5)),  # Wednesday: tomorrow
        (dt.date(2026, 12, 28), dt.date(2026, 12, 31)),
    ],
)
def test_next_session_date_is_the_next_meeting_day(today, expected):
    assert next_session_date(ClubFactory(), today=today) == expected


# --- Checking in ---------------------------------------------------------------------------------


def test_check_in_owes_the_fee_of_the_session_snapshot():
    club = ClubFactory(entry_fee_cents=30)
    actor = clubless_organiser()
    session = open_session(club, actor)
    services.club_update_rules(club=club, actor=actor, entry_fee_cents=75)
    player = PlayerFactory(club=club)

    checkin = services.checkin_create(session=session, actor=actor, player=player)

    checkin.refresh_from_db()
    assert checkin.fee_cents == 30
    assert (checkin.from_round, checkin.checked_in_by, checkin.paid_at) == (1, actor, None)
    [entry] = audits(ClubVerb.CHECKIN_CREATED)
    assert entry.actor == actor
    assert entry.data == {
        "session": session.pk,
        "player": player.pk,
        "fee_cents": 30,
        "owed_cents": 30,  # the fee and any jackpot contributions
        "from_round": 1,
    }


def test_checking_in_twice_is_a_friendly_error_on_player_and_one_row():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    player = PlayerFactory(club=club, display_name="Gail Grant")
    services.checkin_create(session=session, actor=actor, player=player)

    with pytest.raises(ValidationError) as caught:
        services.checkin_create(session=session, actor=actor, player=player)

    assert caught.value.message_dict["player"] == ["Gail Grant is already checked in."]
    assert CheckIn.objects.filter(session=session, player=player).count() == 1
    assert len(audits(ClubVerb.CHECKIN_CREATED)) == 1


def test_one_check_in_per_player_per_session_is_a_database_constraint():
    checkin = CheckInFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        CheckIn.objects.create(session=checkin.session, player=checkin.player, fee_cents=25)
    assert CheckIn.objects.count() == 1


def test_new_player_is_added_and_checked_in_in_one_step():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)

    checkin = services.checkin_create(session=session, actor=actor, new_player_name="  Ned  Novak ")

    player = Player.objects.get(club=club)
    assert player.display_name == "Ned Novak"
    assert checkin.player == player
    assert CheckIn.objects.get(session=session).player == player
    created = AuditEntry.objects.exclude(action=ClubVerb.SESSION_OPENED)
    assert sorted(entry.action for entry in created) == [
        ClubVerb.CHECKIN_CREATED,
        ClubVerb.PLAYER_CREATED,
    ]
    assert all(entry.actor == actor for entry in created)


def test_new_player_whose_name_is_taken_writes_nothing():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    PlayerFactory(club=club, display_name="Ned Novak")

    with pytest.raises(ValidationError) as caught:
        services.checkin_create(session=session, actor=actor, new_player_name="NED NOVAK")

    assert "display_name" in caught.value.message_dict
    assert Player.objects.filter(club=club).count() == 1
    assert not CheckIn.objects.exists()
    assert AuditEntry.objects.exclude(action=ClubVerb.SESSION_OPENED).count() == 0


@pytest.mark.parametrize("kwargs", [{}, {"player": "existing", "new_player_name": "Someone"}])
def test_check_in_needs_exactly_one_of_player_or_new_name(kwargs):
    session = SessionFactory()
    if kwargs.get("player") == "existing":
        kwargs["player"] = PlayerFactory(club=session.club)
    with pytest.raises(TypeError):
        services.checkin_create(session=session, actor=None, **kwargs)
    assert not CheckIn.objects.exists()


def test_late_arrival_after_round_one_is_drawn_joins_from_round_two():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    early = check_in(session, actor, 2)
    first_round = round_draw(session=session, actor=actor, seed=1)

    late = services.checkin_create(session=session, actor=actor, player=PlayerFactory(club=club))

    assert [checkin.from_round for checkin in early] == [1, 1]
    assert late.from_round == 2
    assert CheckIn.objects.get(pk=late.pk).from_round == 2
    assert audits(ClubVerb.CHECKIN_CREATED)[0].data["from_round"] == 2
    assert not Seat.objects.filter(round=first_round, player=late.player).exists()
    second_round = round_draw(session=session, actor=actor, seed=2)
    assert Seat.objects.filter(round=second_round, player=late.player).count() == 1


@pytest.mark.parametrize("who", ["inactive", "other club"])
def test_check_in_of_an_inactive_or_foreign_player_is_refused(who):
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    if who == "inactive":
        player = PlayerFactory(club=club, active=False)
    else:
        player = PlayerFactory(club=ClubFactory())

    with pytest.raises(ValidationError) as caught:
        services.checkin_create(session=session, actor=actor, player=player)

    assert str(player) in caught.value.message_dict["player"][0]
    assert not CheckIn.objects.exists()
    assert not audits(ClubVerb.CHECKIN_CREATED)


# --- Fees ----------------------------------------------------------------------------------------


def test_mark_paid_records_who_took_the_money_and_when():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    [checkin] = check_in(session, actor, 1)
    treasurer = clubless_organiser()

    services.fee_mark_paid(checkin=checkin, actor=treasurer)

    checkin.refresh_from_db()
    assert checkin.is_paid
    assert checkin.paid_by == treasurer
    assert checkin.paid_at is not None
    [entry] = audits(ClubVerb.FEE_PAID)
    assert entry.actor == treasurer
    assert entry.object_id == str(checkin.pk)
    assert entry.data == {"fee_cents": 25, "owed_cents": 25, "player": checkin.player_id}


def test_mark_paid_twice_is_one_payment_and_one_audit_row():
    club = ClubFactory()
    first_taker, second_taker = clubless_organiser(), clubless_organiser()
    session = open_session(club, first_taker)
    [checkin] = check_in(session, first_taker, 1)
    services.fee_mark_paid(checkin=checkin, actor=first_taker)
    paid_at = CheckIn.objects.get(pk=checkin.pk).paid_at

    services.fee_mark_paid(checkin=checkin, actor=second_taker)

    checkin.refresh_from_db()
    assert (checkin.paid_by, checkin.paid_at) == (first_taker, paid_at)
    assert len(audits(ClubVerb.FEE_PAID)) == 1
    assert session_fee_totals(session).collected_cents == 25


def test_mark_unpaid_reverses_a_payment_once():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    [checkin] = check_in(session, actor, 1)
    services.fee_mark_paid(checkin=checkin, actor=actor)

    services.fee_mark_unpaid(checkin=checkin, actor=actor)
    services.fee_mark_unpaid(checkin=checkin, actor=actor)

    checkin.refresh_from_db()
    assert (checkin.paid_at, checkin.paid_by) == (None, None)
    [entry] = audits(ClubVerb.FEE_UNPAID)
    assert entry.data["fee_cents"] == 25
    assert entry.data["paid_by"] == actor.pk
    assert entry.data["paid_at"]
    totals = session_fee_totals(session)
    assert (totals.collected_cents, totals.owed_cents, totals.paid) == (0, 25, 0)


def test_mark_unpaid_of_an_unpaid_fee_writes_nothing():
    session = SessionFactory()
    checkin = CheckInFactory(session=session)
    services.fee_mark_unpaid(checkin=checkin, actor=clubless_organiser())
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(("players", "paid"), [(0, 0), (1, 0), (1, 1), (5, 2), (13, 13), (40, 7)])
def test_fee_totals_add_up_to_players_times_fee(players, paid):
    club = ClubFactory(entry_fee_cents=35)
    actor = clubless_organiser()
    session = open_session(club, actor)
    services.club_update_rules(club=club, actor=actor, entry_fee_cents=99)  # not the snapshot
    checkins = check_in(session, actor, players)
    for checkin in checkins[:paid]:
        services.fee_mark_paid(checkin=checkin, actor=actor)
    # One payment marked and taken back leaves no trace in the totals.
    if paid < players:
        services.fee_mark_paid(checkin=checkins[-1], actor=actor)
        services.fee_mark_unpaid(checkin=checkins[-1], actor=actor)

    totals = session_fee_totals(session)

    assert type(totals.collected_cents) is int and type(totals.owed_cents) is int
    assert totals.collected_cents == paid * 35
    assert totals.owed_cents == (players - paid) * 35
    assert totals.collected_cents + totals.owed_cents == players * 35
    assert (totals.players, totals.paid) == (players, paid)


def test_fee_totals_count_only_their_own_session():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    other = open_session(club, actor, date=THURSDAY + dt.timedelta(days=7))
    [mine] = check_in(session, actor, 1)
    for checkin in check_in(other, actor, 3):
        services.fee_mark_paid(checkin=checkin, actor=actor)
    totals = session_fee_totals(session)
    assert (totals.collected_cents, totals.owed_cents, totals.players) == (0, 25, 1)


def test_club_sessions_count_players_fees_and_rounds():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    empty = open_session(club, actor, date=THURSDAY + dt.timedelta(days=7))
    checkins = check_in(session, actor, 5)
    for checkin in checkins[:3]:
        services.fee_mark_paid(checkin=checkin, actor=actor)
    round_draw(session=session, actor=actor, seed=1)
    round_draw(session=session, actor=actor, seed=2)

    rows = {row.pk: row for row in club_sessions(club)}

    assert [row.pk for row in club_sessions(club)] == [empty.pk, session.pk]  # newest first
    assert (rows[session.pk].players, rows[session.pk].collected_cents) == (5, 75)
    assert rows[session.pk].rounds_drawn == 2
    assert (rows[empty.pk].players, rows[empty.pk].collected_cents) == (0, 0)
    assert rows[empty.pk].rounds_drawn == 0


# --- Undoing a check-in --------------------------------------------------------------------------


@pytest.mark.parametrize(("paid", "returned"), [(False, 0), (True, 25)])
def test_undo_before_any_game_removes_the_check_in_and_logs_the_fee(paid, returned):
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    [checkin] = check_in(session, actor, 1)
    if paid:
        services.fee_mark_paid(checkin=checkin, actor=actor)

    services.checkin_undo(checkin=checkin, actor=actor)

    assert not CheckIn.objects.filter(pk=checkin.pk).exists()
    [entry] = audits(ClubVerb.CHECKIN_UNDONE)
    assert entry.actor == actor
    assert entry.data == {
        "session": session.pk,
        "player": checkin.player_id,
        "fee_cents": 25,
        "owed_cents": 25,
        "fee_returned_cents": returned,
    }
    assert session_fee_totals(session).collected_cents == 0


def test_undo_is_refused_once_the_player_is_seated_in_a_drawn_round():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    checkins = check_in(session, actor, 2)
    round_draw(session=session, actor=actor, seed=1)

    with pytest.raises(ValidationError) as caught:
        services.checkin_undo(checkin=checkins[0], actor=actor)

    assert "already has a game" in caught.value.messages[0]
    assert CheckIn.objects.filter(session=session).count() == 2
    assert not audits(ClubVerb.CHECKIN_UNDONE)


def test_undo_of_a_late_arrival_not_yet_seated_is_allowed():
    club = ClubFactory()
    actor = clubless_organiser()
    session = open_session(club, actor)
    check_in(session, actor, 2)
    round_draw(session=session, actor=actor, seed=1)
    [late] = check_in(session, actor, 1)

    services.checkin_undo(checkin=late, actor=actor)

    assert CheckIn.objects.filter(session=session).count() == 2
    assert len(audits(ClubVerb.CHECKIN_UNDONE)) == 1


# --- A settled session is locked -----------------------------------------------------------------


@pytest.mark.parametrize("operation", ["check in", "mark paid", "mark unpaid", "undo"])
def test_settled_session_refuses_every_change(operation):
    session = SessionFactory()
    actor = clubless_organiser()
    unpaid = CheckInFactory(session=session)
    paid = CheckInFactory(session=session, paid=True)
    newcomer = PlayerFactory(club=session.club)
    settle(session)
    before = list(CheckIn.objects.values_list("pk", "paid_at", "paid_by"))

    with pytest.raises(ValidationError) as caught:
        if operation == "check in":
            services.checkin_create(session=session, actor=actor, player=newcomer)
        elif operation == "mark paid":
            services.fee_mark_paid(checkin=unpaid, actor=actor)
        elif operation == "mark unpaid":
            services.fee_mark_unpaid(checkin=paid, actor=actor)
        else:
            services.checkin_undo(checkin=unpaid, actor=actor)

    assert "settled" in caught.value.messages[0]
    assert list(CheckIn.objects.values_list("pk", "paid_at", "paid_by")) == before
    assert not AuditEntry.objects.exists()


def test_settled_session_refuses_a_new_player_in_one_step():
    session = SessionFactory(settled=True)
    with pytest.raises(ValidationError):
        services.checkin_create(
            session=session, actor=clubless_organiser(), new_player_name="Ned Novak"
        )
    assert not Player.objects.exists()
    assert not AuditEntry.objects.exists()


def test_check_in_after_the_last_round_is_drawn_is_refused():
    club = ClubFactory(rounds_per_session=1)
    organiser = UserFactory(role="organisers")
    session = services.session_open(club=club, actor=organiser, date=dt.date(2026, 12, 3))
    for _ in range(2):
        services.checkin_create(session=session, actor=organiser, player=PlayerFactory(club=club))
    round_draw(session=session, actor=organiser)
    late = PlayerFactory(club=club)
    with pytest.raises(ValidationError) as caught:
        services.checkin_create(session=session, actor=organiser, player=late)
    assert "no round left" in caught.value.message_dict["player"][0]
    assert not CheckIn.objects.filter(player=late).exists()


def test_session_open_snapshots_the_rules_as_stored_not_a_stale_copy():
    stale = ClubFactory()
    services.club_update_rules(club=Club.objects.get(pk=stale.pk), actor=None, entry_fee_cents=50)
    organiser = UserFactory(role="organisers")
    session = services.session_open(club=stale, actor=organiser, date=dt.date(2026, 12, 3))
    assert session.rules["entry_fee_cents"] == 50
