"""Backups carry the fee per game (docs/spec.md "The pot and payouts": the cash box and the
ledger agree to the cent): the rule, each payment and change given back (`FeePayment` rows) and
the refunds in the ledger go out and come back, and the import's money checks compare what the
check-ins paid with the fees and refunds the ledger booked, refusing an edited amount."""

import datetime as dt
import io
import json

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from club import services as club_services
from club.models import Club
from games import services as game_services
from money.fee_services import fee_change_give, fee_take
from money.models import FeePayment, LedgerEntry, LedgerKind
from money.services import session_settle
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.ops.backup_support import empty_the_database, export_text, refused, rows, write

pytestmark = pytest.mark.django_db

SLUG = "per-game"


@pytest.fixture(autouse=True)
def _fresh_content_types():
    ContentType.objects.clear_cache()
    yield
    ContentType.objects.clear_cache()


def per_game_morning():
    """A settled per-game morning of 2 rounds: Ann pays ahead for 3 and gets 25¢ back."""
    club = ClubFactory(slug=SLUG, fee_per="game", rounds_per_session=3)
    organiser = UserFactory(role="organisers", club=club)
    confirmer = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    checkins = [
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club, display_name=name)
        )
        for name in ("Ann", "Bob", "Cat", "Dan")
    ]
    fee_take(checkin=checkins[0], actor=organiser, amount_cents=75)
    for number in (1, 2):
        round_ = game_services.round_draw(session=session, actor=organiser, seed=number)
        for game in round_.games.all():
            draft = game_services.result_enter(game=game, actor=organiser, scores=[121, 100])
            game_services.result_confirm(result=draft, actor=confirmer)
    for checkin in checkins:
        fee_take(checkin=checkin, actor=organiser)
    fee_change_give(checkin=checkins[0], actor=organiser)
    session_settle(session=session, actor=organiser, seed=1)
    return club


def money_rows():
    return {
        "payments": sorted(
            FeePayment.objects.values_list("checkin__player__display_name", "kind", "cents")
        ),
        "ledger": sorted(
            LedgerEntry.objects.values_list("player__display_name", "kind", "amount_cents")
        ),
    }


def test_the_round_trip_keeps_the_payments_the_change_and_the_refunds(tmp_path):
    per_game_morning()
    before = money_rows()
    assert ("Ann", "change", 25) in before["payments"]
    assert ("Ann", LedgerKind.REFUND, -25) in before["ledger"]
    path = tmp_path / "club.json"
    path.write_text(export_text(SLUG), encoding="utf-8")
    empty_the_database()
    call_command("import_club", str(path), stdout=io.StringIO())
    assert Club.objects.get(slug=SLUG).house_rules.fee_per_game
    assert money_rows() == before


@pytest.mark.parametrize("kind", ["payment", "change"])
def test_an_edited_payment_is_refused_naming_the_settlement(monkeypatch, capsys, tmp_path, kind):
    per_game_morning()
    document = json.loads(export_text(SLUG))
    empty_the_database()
    payment = next(
        row for row in rows(document, "money.feepayment") if row["fields"]["kind"] == kind
    )
    payment["fields"]["cents"] += 25
    err = refused(monkeypatch, capsys, write(document, tmp_path / "edited.json"))
    paid = 225 if kind == "payment" else 175
    assert f"its pot is 200¢ but its session's check-ins paid {paid}¢" in err
