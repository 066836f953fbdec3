"""The audit log reads its entries' data to people: not the ids the entries store ("player: 11",
"tables: [[16, 12], [13, 11]]", "paid by: 3") nor logins by their username, but the players,
logins, sessions, games and claims by name, in a few queries per page however many rows
(core.audit_log)."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club import services as club_services
from club.audit import ClubVerb
from core.audit import audit_record
from core.audit_log import MANY, AuditNames, register_reference
from core.models import AuditEntry
from games import services as game_services
from games.models import Seat
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

AUDIT = "/club/audit/"


@pytest.fixture
def olive(club):
    """An organiser of `club` whose login ("olive") and player ("Olive Ashdown") the log must
    tell apart."""
    user = UserFactory(role="organisers", username="olive")
    PlayerFactory(club=club, user=user, display_name="Olive Ashdown")
    return user


@pytest.fixture
def morning(club, olive):
    """Four players checked in and paid, round 1 drawn: two tables."""
    session = club_services.session_open(club=club, actor=olive, date=dt.date(2026, 11, 26))
    names = ("Ann Able", "Bob Baker", "Cy Cole", "Di Dunn")
    players = [PlayerFactory(club=club, display_name=name) for name in names]
    for player in players:
        checkin = club_services.checkin_create(session=session, actor=olive, player=player)
        club_services.fee_mark_paid(checkin=checkin, actor=olive)
    round_ = game_services.round_draw(session=session, actor=olive, seed=4)
    return session, players, round_


def test_the_log_names_players_tables_and_who_did_it_not_their_ids(client, club, olive, morning):
    session, players, round_ = morning
    ann = players[0]
    checkin = session.checkins.get(player=ann)
    club_services.fee_mark_unpaid(checkin=checkin, actor=olive)
    client.force_login(olive)
    html = client.get(AUDIT).content.decode()

    assert f"player: {ann.pk}<" not in html and "player: Ann Able<" in html
    assert "tables: [[" not in html
    for game in round_.games.order_by("table"):
        seats = Seat.objects.filter(game=game).order_by("position")
        names = " v ".join(seat.player.display_name for seat in seats)
        assert f"Table {game.table}: {names}" in html
    assert f"paid by: {olive.pk}<" not in html and "paid by: Olive Ashdown<" in html
    assert "session: Thu 26 Nov 2026" in html
    assert "mode: Singles (2-player tables" in html and "mode: singles" not in html
    assert "fee: 25¢" in html and "fee cents" not in html
    # Who: the organiser's player name, not the login's username.
    assert ">olive</td>" not in html and ">Olive Ashdown</td>" in html


def test_results_claims_and_payouts_are_named_too(club, olive, morning):
    session, players, round_ = morning
    game = round_.games.order_by("table").first()
    first, second = (seat.player for seat in Seat.objects.filter(game=game).order_by("position"))
    entries = [
        audit_record(
            actor=olive,
            action=ClubVerb.CLUB_RULES_CHANGED,
            obj=club,
            club=club,
            data={
                "game": game.pk,
                "payouts": {str(first.pk): 150, str(second.pk): 0},
                "parties": {str(first.pk): 0, str(second.pk): 1},
                "players": [second.pk, first.pk],
                "user": {"before": olive.pk, "after": None},
                "points": {"0": 10},
                "gone": 999,
            },
        )
    ]
    lines = AuditNames(club, entries).lines(entries[0].data)
    assert lines == [
        f"game: Round 1, table {game.table}, Thu 26 Nov 2026",
        f"payouts: {first} $1.50, {second} 0¢",
        f"parties: {first} (side 1), {second} (side 2)",
        f"players: {second}, {first}",
        "user: Olive Ashdown → none",
        "points: side 1: 10",
        "gone: 999",
    ]


def test_a_value_of_another_shape_is_not_read_as_an_id(club, olive):
    """A club created counts its players ("players": 16); a login given names its player
    already ("player": "Ann Able"); partners tables sit opposite seats together."""
    ann = PlayerFactory(club=club, display_name="Ann Able")
    gone = [ann.pk + 100, ann.pk + 101, ann.pk + 102]  # no player has these ids
    data = {"players": ann.pk, "player": "Ann Able", "tables": [[ann.pk, *gone]]}
    entry = audit_record(actor=None, action=ClubVerb.CLUB_CREATED, obj=club, club=club, data=data)
    assert AuditNames(club, [entry]).lines(entry.data) == [
        f"players: {ann.pk}",
        "player: Ann Able",
        f"Table 1: Ann Able & #{gone[1]} v #{gone[0]} & #{gone[2]}",
    ]


def test_another_clubs_players_are_not_named(club, other_club, olive):
    theirs = PlayerFactory(club=other_club, display_name="Secret Sam")
    entry = audit_record(
        actor=olive,
        action=ClubVerb.CHECKIN_CREATED,
        obj=club,
        club=club,
        data={"player": theirs.pk},
    )
    assert AuditNames(club, [entry]).lines(entry.data) == [f"player: #{theirs.pk}"]


def test_a_page_of_the_log_costs_the_same_queries_however_many_rows(client, club, olive, morning):
    client.force_login(olive)
    client.get(AUDIT)
    with CaptureQueriesContext(connection) as few:
        client.get(AUDIT, {"per_page": 3})
    for _ in range(3):
        extra = PlayerFactory(club=club)
        session = morning[0]
        checkin = club_services.checkin_create(session=session, actor=olive, player=extra)
        club_services.fee_mark_paid(checkin=checkin, actor=olive)
    assert AuditEntry.objects.filter(club=club).count() > 15
    with CaptureQueriesContext(connection) as many:
        html = client.get(AUDIT, {"per_page": 50}).content.decode()
    assert "player: Ann Able" in html
    assert len(many) <= len(few) + 2  # the page's kinds of rows, not its rows


def test_a_key_cannot_refer_to_two_kinds_of_row():
    with pytest.raises(ValueError, match="already refers to 'player'"):
        register_reference("login", keys={"players": MANY}, lookup=lambda club, ids: {})
