"""Settling shows the payout sheet first (docs/spec.md "A Thursday, step by step", step 6: "The
payout sheet is shown first exactly as it will be; then settling ... locks the session").

Terms: the *sheet* is the preview page (money:settle_preview); its "Settle and lock" posts the
signed seed and fingerprint of the plan it shows (money.services.SettlePlan)."""

import datetime as dt

import pytest
from django.core import signing
from django.urls import reverse

from club.models import SessionState
from games import services as game_services
from games.models import ResultState
from money.models import Settlement
from money.views import SHEET_SALT
from tests.builders import run_session
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirmer(club):
    return UserFactory(role="organisers", club=club)


@pytest.fixture
def played(club, organiser, confirmer):
    return run_session(club, organiser, confirmer, players=9, rounds=2, date=dt.date(2026, 12, 3))


def preview(client, session):
    return client.get(reverse("money:settle_preview", args=[session.pk]))


def press(client, session, token):
    return client.post(reverse("money:session_settle", args=[session.pk]), {"sheet": token})


def test_the_sheet_shown_is_exactly_what_settling_writes(client, organiser, played):
    client.force_login(organiser)
    sheet = preview(client, played)
    assert sheet.status_code == 200
    html = sheet.content.decode()
    assert "Settle and lock" in html and "Nothing is paid out or locked" in html
    plan = sheet.context["plan"]
    assert not Settlement.objects.exists()  # looking settles nothing
    played.refresh_from_db()
    assert played.state == SessionState.OPEN

    response = press(client, played, sheet.context["sheet_token"])
    assert response.status_code == 302
    assert response.url == reverse("money:settlement", args=[played.pk])
    settlement = Settlement.objects.get(session=played)
    assert settlement.seed == plan.seed
    assert settlement.pot_cents == plan.pot.pot_cents == 9 * 25
    written = sorted((p.player_id, p.place, p.amount_cents) for p in settlement.payouts.all())
    shown = sorted((p.player_id, p.place, p.amount_cents) for p in plan.pot.payouts)
    assert written == shown
    assert sum(p.amount_cents for p in settlement.payouts.all()) == settlement.pot_cents
    assert settlement.steps == list(plan.steps)


def test_a_result_corrected_after_the_sheet_was_shown_shows_the_new_sheet_instead(
    client, organiser, confirmer, played
):
    client.force_login(organiser)
    token = preview(client, played).context["sheet_token"]
    # A game is corrected while the organiser reads the sheet: the ranking changes.
    game = played.games.order_by("round__number", "table").first()
    current = game.results.get(state=ResultState.CONFIRMED)
    scores = current.scores
    winner = scores.index(121)
    turned = [
        121 if side != winner and side == (winner + 1) % len(scores) else 60
        for side in range(len(scores))
    ]
    game_services.result_correct(game=game, actor=confirmer, scores=turned, reason="Recount")

    response = press(client, played, token)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Something changed since the payout sheet was shown" in html
    assert "Settle and lock" in html  # the new sheet, to check and press
    assert not Settlement.objects.exists()
    response = press(client, played, response.context["sheet_token"])
    assert response.status_code == 302
    assert Settlement.objects.filter(session=played).count() == 1


def test_a_press_without_a_sheet_or_with_a_forged_one_settles_nothing(client, organiser, played):
    client.force_login(organiser)
    for token in ("", "made-up", signing.dumps({"session": played.pk, "seed": 1, "fp": "x"})):
        response = press(client, played, token)
        assert response.status_code == 302
        assert response.url == reverse("money:settle_preview", args=[played.pk])
    # Signed for another session: not this sheet.
    other = signing.dumps({"session": played.pk + 1, "seed": 1, "fp": "x"}, salt=SHEET_SALT)
    assert press(client, played, other).url == reverse("money:settle_preview", args=[played.pk])
    # Signed for this session, with a fingerprint that is not the plan's: the new sheet.
    stale = signing.dumps({"session": played.pk, "seed": 1, "fp": "x"}, salt=SHEET_SALT)
    assert press(client, played, stale).status_code == 409
    assert not Settlement.objects.exists()


def test_a_session_that_cannot_be_settled_shows_what_blocks_it_and_no_button(
    client, club, organiser, confirmer
):
    unpaid = run_session(
        club, organiser, confirmer, players=4, rounds=1, date=dt.date(2026, 12, 10), pay=False
    )
    client.force_login(organiser)
    html = preview(client, unpaid).content.decode()
    assert "It cannot be settled yet" in html and "Fees not paid" in html
    assert "Settle and lock" not in html


def test_the_sheet_of_a_settled_session_is_its_settlement(client, organiser, played):
    client.force_login(organiser)
    press(client, played, preview(client, played).context["sheet_token"])
    again = preview(client, played)
    assert again.status_code == 302
    assert again.url == reverse("money:settlement", args=[played.pk])


def test_the_session_page_links_to_the_sheet_instead_of_settling_at_once(client, organiser, played):
    client.force_login(organiser)
    html = client.get(reverse("web:session", args=[played.pk])).content.decode()
    assert reverse("money:settle_preview", args=[played.pk]) in html
    assert f'action="{reverse("money:session_settle", args=[played.pk])}"' not in html
