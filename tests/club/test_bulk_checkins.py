"""`checkins_create`: checking several players in at once (the regulars arriving together).

Terms: the *single-call services* are `checkin_create` and `fee_mark_paid`, which the bulk
service must match row for row and audit entry for audit entry; a *late arrival* is checked in
after a round of the session is drawn. Sessions are opened and drawn through the real services.
"""

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError

from club import services
from club.audit import ClubVerb
from club.models import CheckIn, Session, SessionState
from core.models import AuditEntry
from games.services import round_draw
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)


@pytest.fixture
def clubless_organiser():
    """A login in the organisers group with no player record in any club: the services take
    the actor they are given (the views check who may act), so any organiser's login does."""
    return UserFactory(role="organisers")


@pytest.fixture
def session(clubless_organiser):
    club = ClubFactory(entry_fee_cents=50)
    return services.session_open(club=club, actor=clubless_organiser, date=THURSDAY)


def players(club, count):
    return [PlayerFactory(club=club) for _ in range(count)]


def entries(action, *, exclude=()):
    return list(
        AuditEntry.objects.filter(action=action).exclude(pk__in=exclude).order_by("object_id")
    )


def entry_shape(entry, checkin):
    """What an audit entry says about a check-in, with the player's id made anonymous so the
    entries of two players can be compared."""
    data = dict(entry.data)
    assert data.pop("player") == checkin.player_id
    return (
        entry.action,
        entry.actor_id,
        entry.club_id,
        entry.content_type_id,
        entry.object_id == str(checkin.pk),
        entry.object_repr == str(checkin)[:200],
        data,
    )


# --- Checking in ----------------------------------------------------------------------------------


@pytest.mark.parametrize("paid", [False, True])
def test_everyone_is_checked_in_with_the_sessions_fee(session, clubless_organiser, paid):
    arrivals = players(session.club, 5)

    made = services.checkins_create(
        session=session, actor=clubless_organiser, players=arrivals, paid=paid
    )

    assert [checkin.player for checkin in made] == arrivals
    rows = CheckIn.objects.filter(session=session).order_by("player_id")
    assert [row.player_id for row in rows] == sorted(p.pk for p in arrivals)
    for row in rows:
        assert (row.fee_cents, row.from_round, row.checked_in_by) == (50, 1, clubless_organiser)
        assert row.checked_in_at is not None
        if paid:
            assert row.is_paid and row.paid_by == clubless_organiser and row.paid_at is not None
        else:
            assert not row.is_paid and row.paid_by is None and row.paid_at is None
    assert len(entries(ClubVerb.CHECKIN_CREATED)) == 5
    assert len(entries(ClubVerb.FEE_PAID)) == (5 if paid else 0)


def test_the_audit_entries_are_the_ones_the_single_call_services_write(session, clubless_organiser):
    single_player, *arrivals = players(session.club, 4)
    single = services.checkin_create(
        session=session, actor=clubless_organiser, player=single_player
    )
    services.fee_mark_paid(checkin=single, actor=clubless_organiser)
    [single_checkin_entry] = entries(ClubVerb.CHECKIN_CREATED)
    [single_fee_entry] = entries(ClubVerb.FEE_PAID)

    made = services.checkins_create(
        session=session, actor=clubless_organiser, players=arrivals, paid=True
    )

    by_object = {str(checkin.pk): checkin for checkin in made}
    checkin_entries = entries(ClubVerb.CHECKIN_CREATED, exclude=[single_checkin_entry.pk])
    fee_entries = entries(ClubVerb.FEE_PAID, exclude=[single_fee_entry.pk])
    assert sorted(e.object_id for e in checkin_entries) == sorted(by_object)
    assert sorted(e.object_id for e in fee_entries) == sorted(by_object)
    expected_checkin = entry_shape(single_checkin_entry, single)
    expected_fee = entry_shape(single_fee_entry, single)
    assert expected_checkin[-1] == {
        "session": session.pk,
        "fee_cents": 50,
        "owed_cents": 50,  # the fee and any jackpot contributions
        "from_round": 1,
    }
    assert expected_fee[-1] == {"fee_cents": 50, "owed_cents": 50}
    for entry in checkin_entries:
        assert entry_shape(entry, by_object[entry.object_id]) == expected_checkin
    for entry in fee_entries:
        assert entry_shape(entry, by_object[entry.object_id]) == expected_fee


def test_an_empty_list_checks_nobody_in(session, clubless_organiser):
    assert services.checkins_create(session=session, actor=clubless_organiser, players=[]) == []

    assert not CheckIn.objects.exists()
    assert not entries(ClubVerb.CHECKIN_CREATED)


def test_taking_fees_needs_a_login(session):
    with pytest.raises(PermissionDenied):
        services.checkins_create(
            session=session, actor=AnonymousUser(), players=players(session.club, 2), paid=True
        )

    assert not CheckIn.objects.exists()


# --- All or nothing -------------------------------------------------------------------------------


def _other_club(session, arrivals):
    stranger = PlayerFactory(club=ClubFactory())
    return [*arrivals, stranger], f"{stranger} is not a player of {session.club}."


def _inactive(session, arrivals):
    arrivals[1].active = False
    arrivals[1].save()
    return arrivals, f"{arrivals[1]} is marked inactive: make them active first."


def _already_in(session, arrivals):
    extra = PlayerFactory(club=session.club)
    services.checkin_create(session=session, actor=None, player=extra)
    return [*arrivals, extra], f"{extra} is already checked in."


def _twice_in_the_list(session, arrivals):
    return [*arrivals, arrivals[0]], f"{arrivals[0]} is already checked in."


def _settled(session, arrivals):
    Session.objects.filter(pk=session.pk).update(state=SessionState.SETTLED)
    return arrivals, "is settled: nothing in it can change"


@pytest.mark.parametrize(
    "spoil", [_other_club, _inactive, _already_in, _twice_in_the_list, _settled]
)
def test_one_bad_player_checks_nobody_in(session, clubless_organiser, spoil):
    arrivals = players(session.club, 3)
    listed, message = spoil(session, arrivals)
    rows_before = set(CheckIn.objects.values_list("pk", flat=True))
    audit_before = AuditEntry.objects.count()

    with pytest.raises(ValidationError) as raised:
        services.checkins_create(
            session=session, actor=clubless_organiser, players=listed, paid=True
        )

    assert message in " ".join(raised.value.messages)
    assert set(CheckIn.objects.values_list("pk", flat=True)) == rows_before
    assert AuditEntry.objects.count() == audit_before


# --- Late arrivals --------------------------------------------------------------------------------


def test_late_arrivals_join_from_the_next_round(session, clubless_organiser):
    early = players(session.club, 4)
    services.checkins_create(session=session, actor=clubless_organiser, players=early, paid=True)
    round_draw(session=session, actor=clubless_organiser, seed=1)
    round_draw(session=session, actor=clubless_organiser, seed=2)
    late = players(session.club, 2)

    made = services.checkins_create(session=session, actor=clubless_organiser, players=late)

    assert [checkin.from_round for checkin in made] == [3, 3]
    assert CheckIn.objects.get(pk=made[0].pk).from_round == 3
    audited = AuditEntry.objects.filter(
        action=ClubVerb.CHECKIN_CREATED, object_id__in=[str(c.pk) for c in made]
    )
    assert [entry.data["from_round"] for entry in audited] == [3, 3]
    third = round_draw(session=session, actor=clubless_organiser, seed=3)
    seated = set(third.seats.values_list("player_id", flat=True))
    assert seated == {p.pk for p in early + late}


def test_no_check_in_once_every_round_is_drawn(clubless_organiser):
    club = ClubFactory(rounds_per_session=1)
    session = services.session_open(club=club, actor=clubless_organiser, date=THURSDAY)
    services.checkins_create(session=session, actor=clubless_organiser, players=players(club, 2))
    round_draw(session=session, actor=clubless_organiser, seed=1)

    with pytest.raises(ValidationError, match="All 1 rounds are drawn"):
        services.checkins_create(
            session=session, actor=clubless_organiser, players=players(club, 2)
        )

    assert CheckIn.objects.filter(session=session).count() == 2
