"""The check-in card with the fee per game (docs/spec.md "A Thursday, step by step", step 2
and step 7: with the fee per game a player owes only the games they were seated in; "The pot and
payouts"): each row says owed ("50¢, 2 games"), paid and what is left to pay or to give back;
an organiser takes what is owed, an amount ahead, records the change given back and undoes the
last payment. Every other role is refused; another club's session is a 404; a bad amount, one
over the morning or a settled session is a 400 with the reason on the row."""

import datetime as dt

import pytest
from django.urls import reverse

from club import services as club_services
from games import services as game_services
from money.fee_services import fee_take
from money.models import FeePayment
from money.services import session_settle
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def per_game(club):
    """A per-game session of 3 rounds, 2 players checked in, round 1 drawn and played."""
    club.fee_per = "game"
    club.rounds_per_session = 3
    club.save()
    organiser = UserFactory(role="organisers", club=club)
    confirmer = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    checkins = [
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club, display_name=name)
        )
        for name in ("Ann", "Bob")
    ]
    round_ = game_services.round_draw(session=session, actor=organiser, seed=1)
    game = round_.games.get()
    draft = game_services.result_enter(game=game, actor=organiser, scores=[121, 100])
    game_services.result_confirm(result=draft, actor=confirmer)
    return session, organiser, checkins


def url(name, checkin):
    return reverse(f"web:checkin_fee_{name}", args=[checkin.session_id, checkin.pk])


def row(page: str, name: str) -> str:
    start = page.index(f'data-player="{name}"')
    return page[start : page.index("</tr>", start)]


def test_the_row_says_owed_paid_and_take(client, per_game):
    session, organiser, (ann, _) = per_game
    client.force_login(organiser)
    page = client.get(reverse("web:session", args=[session.pk])).content.decode()
    ann_row = row(page, "Ann")
    assert "25¢, 1 game" in ann_row
    assert "25¢ to pay" in ann_row
    assert "Take 25¢" in ann_row
    assert "Pays ahead" in ann_row and 'value="75"' in ann_row  # the whole morning: 3 × 25¢


def test_an_organiser_takes_what_is_owed_then_the_row_is_square(client, per_game):
    session, organiser, (ann, _) = per_game
    client.force_login(organiser)
    response = client.post(url("take", ann))
    assert response.status_code == 302
    assert response.url.endswith(f"#checkin-{ann.pk}")
    assert list(FeePayment.objects.values_list("cents", "taken_by")) == [(25, organiser.pk)]
    ann_row = row(client.get(reverse("web:session", args=[session.pk])).content.decode(), "Ann")
    assert "Paid 25¢" in ann_row and "to pay" not in ann_row and "Take 25¢" not in ann_row


def test_pays_ahead_then_change_given_then_undo(client, per_game):
    session, organiser, (ann, _) = per_game
    client.force_login(organiser)
    assert client.post(url("take", ann), {"amount": "$0.75", "kept": "0"}).status_code == 302
    club_services.checkin_leaves_after(checkin=ann, actor=organiser, round_number=1)
    page = client.get(reverse("web:session", args=[session.pk])).content.decode()
    assert "change 50¢ to give back" in row(page, "Ann")
    assert "Change given" in row(page, "Ann")
    assert client.post(url("change", ann)).status_code == 302
    page = client.get(reverse("web:session", args=[session.pk])).content.decode()
    assert "Paid 75¢" in row(page, "Ann") and "(50¢ change given back)" in row(page, "Ann")
    assert client.post(url("undo", ann)).status_code == 302
    assert list(FeePayment.objects.values_list("kind", "cents")) == [("payment", 75)]


def test_the_settle_card_names_the_pot_less_the_change_given_back(client, per_game):
    """The pot is what was kept: Ann paid 75¢ for one game and was given 50¢ back, Bob paid 25¢,
    so 50¢ is paid out, as the payout sheet says, not the 100¢ taken."""
    session, organiser, (ann, bob) = per_game
    fee_take(checkin=ann, actor=organiser, amount_cents=75)
    club_services.checkin_leaves_after(checkin=ann, actor=organiser, round_number=1)
    client.force_login(organiser)
    assert client.post(url("change", ann)).status_code == 302
    fee_take(checkin=bob, actor=organiser)
    page = client.get(reverse("web:session", args=[session.pk])).content.decode()
    assert "the pot of 50¢ can be paid out" in page
    preview = client.get(reverse("money:settle_preview", args=[session.pk])).content.decode()
    assert "= 50¢" in preview


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("abc", "Write the amount in whole cents, such as 75, or as $1.50."),
        ("-25", "Write an amount above 0, in whole cents."),
        ("0", "Write an amount above 0, in whole cents."),
        ("76", "At most 75¢: that pays for the whole morning"),
    ],
)
def test_a_bad_amount_is_refused_on_its_row(client, per_game, amount, message):
    session, organiser, (ann, _) = per_game
    client.force_login(organiser)
    response = client.post(url("take", ann), {"amount": amount, "kept": "0"})
    assert response.status_code == 400
    ann_row = row(response.content.decode(), "Ann")
    assert message in ann_row
    assert f'value="{amount}"' in ann_row  # what was typed, to correct
    assert not FeePayment.objects.exists()


def test_a_settled_session_refuses_with_the_reason(client, per_game):
    session, organiser, (ann, bob) = per_game
    for checkin in (ann, bob):
        fee_take(checkin=checkin, actor=organiser)
    session_settle(session=session, actor=organiser, seed=1)
    client.force_login(organiser)
    response = client.post(url("undo", ann))
    assert response.status_code == 400
    assert "is settled" in response.content.decode()
    assert FeePayment.objects.count() == 2


@pytest.mark.parametrize("action", ["take", "change", "undo"])
@pytest.mark.parametrize(
    ("role", "status"), [("public", 302), ("player", 403), ("judge", 403), ("organiser", 302)]
)
def test_each_role_posting(client, member, per_game, action, role, status):
    session, _, (ann, _) = per_game
    if role != "public":
        client.force_login(member(role))
    response = client.post(url(action, ann))
    assert response.status_code == status
    if role == "public":
        assert "/login/" in response.url
    assert FeePayment.objects.exists() == (role == "organiser" and action == "take")


@pytest.mark.parametrize("action", ["take", "change", "undo"])
def test_another_clubs_organiser_gets_a_404(client, stranger, per_game, action):
    _, _, (ann, _) = per_game
    client.force_login(stranger("organiser"))
    assert client.post(url(action, ann)).status_code == 404
    assert not FeePayment.objects.exists()
