"""Limits that keep one mistyped value from breaking the site: a session's date from 1900 to a year
ahead, a session nobody has played in can be moved or deleted (audited), the standings never 404
because of one odd session, and money amounts at most $100, checked by the forms and by the
database."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from club import services
from club.audit import ClubVerb
from club.models import MONEY_FIELDS, CheckIn, Club, Session
from core.cents import MONEY_LIMIT_CENTS
from core.models import AuditEntry
from tests.builders import house_rules_post
from tests.factories import CheckInFactory, SessionFactory

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


@pytest.mark.parametrize(
    "date", [dt.date(9999, 12, 31), dt.date(1899, 12, 31), TODAY + dt.timedelta(days=367)]
)
def test_a_session_date_out_of_range_is_refused_by_the_service(club, organiser, date):
    with pytest.raises(ValidationError) as refused:
        services.session_open(club=club, actor=organiser, date=date)
    assert "date" in refused.value.message_dict
    assert not Session.objects.exists()


def test_a_session_a_year_ahead_is_still_accepted(club, organiser):
    services.session_open(club=club, actor=organiser, date=TODAY + dt.timedelta(days=360))
    assert Session.objects.count() == 1


def test_the_open_form_says_what_to_fix(client, club, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("club:session_open"), {"date": "9999-12-31", "starts_at": "09:30"}
    )
    assert response.status_code == 200
    assert "at most a year ahead" in str(response.context["form"].errors["date"])
    assert not Session.objects.exists()


def test_the_database_refuses_a_date_no_season_can_hold(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Session.objects.create(club=club, date=dt.date(9999, 12, 31), rules={})


def test_one_session_dated_far_ahead_does_not_take_the_standings_away(client, club):
    """A session at 9999-12-31 would make the default season 9999 and every standings and
    player page a 404. The database keeps dates below 3000; a session even that far ahead
    (stored before dates were checked) leaves visitors on this season."""
    club.standings_public = True
    club.save()
    this_season = club.season_of(TODAY)
    played = SessionFactory(club=club, date=TODAY - dt.timedelta(days=7))
    player = CheckInFactory(session=played).player
    Session.objects.create(club=club, date=dt.date(2999, 12, 30), rules=played.rules)

    for url in (
        reverse("standings:season"),
        reverse("standings:all_time"),
        reverse("standings:player", args=[player.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    season_page = client.get(reverse("standings:season")).content.decode()
    assert f"Standings {this_season}</h1>" in season_page


def test_a_session_nobody_played_in_moves_to_another_date_audited(client, club, organiser):
    session = services.session_open(club=club, actor=organiser, date=TODAY)
    client.force_login(organiser)
    new_date = TODAY + dt.timedelta(days=7)

    response = client.post(
        reverse("club:session_redate", args=[session.pk]), {"date": new_date.isoformat()}
    )

    assert response.status_code == 302
    session.refresh_from_db()
    assert session.date == new_date
    entry = AuditEntry.objects.get(action=ClubVerb.SESSION_REDATED)
    assert entry.data == {"from": TODAY.isoformat(), "to": new_date.isoformat()}


def test_moving_a_session_checks_its_new_date(client, club, organiser):
    session = services.session_open(club=club, actor=organiser, date=TODAY)
    client.force_login(organiser)

    response = client.post(
        reverse("club:session_redate", args=[session.pk]), {"date": "9999-12-31"}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["date"]
    session.refresh_from_db()
    assert session.date == TODAY
    assert not AuditEntry.objects.filter(action=ClubVerb.SESSION_REDATED).exists()


def test_a_session_nobody_played_in_is_deleted_with_its_checkins_audited(client, club, organiser):
    session = services.session_open(club=club, actor=organiser, date=TODAY)
    checkin = CheckInFactory(session=session)
    services.fee_mark_paid(checkin=checkin, actor=organiser)
    client.force_login(organiser)

    response = client.post(reverse("club:session_delete", args=[session.pk]), follow=True)

    assert not Session.objects.filter(pk=session.pk).exists()
    assert not CheckIn.objects.filter(pk=checkin.pk).exists()
    entry = AuditEntry.objects.get(action=ClubVerb.SESSION_DELETED)
    assert entry.data["players"] == [checkin.player.display_name]
    assert entry.data["fees_returned_cents"] == checkin.fee_cents
    assert "Hand back the fees paid" in response.content.decode()


def test_a_drawn_session_can_be_neither_moved_nor_deleted(club, organiser):
    from games import services as game_services
    from tests.factories import PlayerFactory

    session = services.session_open(club=club, actor=organiser, date=TODAY)
    for _ in range(2):
        services.checkin_create(session=session, actor=organiser, player=PlayerFactory(club=club))
    game_services.round_draw(session=session, actor=organiser, seed=1)

    with pytest.raises(ValidationError, match="drawn"):
        services.session_redate(session=session, actor=organiser, date=TODAY + dt.timedelta(7))
    with pytest.raises(ValidationError, match="drawn"):
        services.session_delete(session=session, actor=organiser)
    session.refresh_from_db()
    assert session.date == TODAY


@pytest.mark.parametrize("field", MONEY_FIELDS)
@pytest.mark.parametrize("value", [MONEY_LIMIT_CENTS + 1, 2**31 - 1, 2**63 - 1])
def test_money_over_500_dollars_is_refused_by_the_rules_form(client, club, organiser, field, value):
    client.force_login(organiser)
    posted = house_rules_post(client) | {field: str(value)}

    response = client.post(reverse("club:rules_edit"), posted)

    assert response.status_code == 200
    assert response.context["form"].errors[field] == ["At most $500 (50000 cents)."]
    club.refresh_from_db()
    assert getattr(club, field) <= MONEY_LIMIT_CENTS


@pytest.mark.parametrize("field", MONEY_FIELDS)
def test_money_over_500_dollars_is_refused_by_the_database(club, field):
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.filter(pk=club.pk).update(**{field: MONEY_LIMIT_CENTS + 1})


def test_exactly_the_money_limit_is_accepted(club, organiser):
    services.club_update_rules(
        club=club, actor=organiser, entry_fee_cents=MONEY_LIMIT_CENTS, payout_coin_cents=100
    )
    club.refresh_from_db()
    assert club.entry_fee_cents == MONEY_LIMIT_CENTS
