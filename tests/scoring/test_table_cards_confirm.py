"""A jackpot hand's cards confirmed at the table, through its link, without a login
(scoring.services.table_cards_confirm, scoring.table_views.TableCardsConfirmView; docs/spec.md
"Claims, muggins and disputes": "A hand or crib claim wins a 29, 28 or 24 jackpot only once a
player of another side at the table (or a judge) has confirmed the cards" and "At the table,
through its card, a player of another side ... confirms a big hand's cards (with a PIN where the
club uses them)"). The hand 5H 5C 5S JD with the 5D turned counts 29 (hoyle.txt "Showing").

Terms: `at_table` and `pinned` (tests/scoring/conftest.py): Ann (side 0) against Bob (side 1) at
round 1's first table, no logins, in a session that runs the 29, 28 and 24 jackpots; with
`pinned` the session asks for table PINs and Bob's is 2468.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from club import services as club_services
from club.audit import AT_THE_TABLE
from club.models import Club, WrongPin
from core.models import AuditEntry
from core.submissions import AlreadySaved, new_token
from games import services as game_services
from money.models import LedgerEntry, LedgerKind, Pot
from money.selectors import accepted_hands
from money.services import session_settle
from ops.backup_claims import recount_problem
from scoring import services
from scoring.audit import ScoringVerb
from scoring.models import CARDS_CONFIRMED, Claim
from scoring.selectors import accepted_big_hands
from tests.factories import UserFactory
from tests.ops.backup_support import empty_the_database, export_text
from tests.scoring.jackpot_tables import HAND_29

pytestmark = pytest.mark.django_db


def file_29(table, claimant=None, claimed=29):
    return services.table_claim_file(
        game=table.game,
        kind="hand",
        claimant=claimant or table.players[0],
        claimed_points=claimed,
        **HAND_29,
    )


def confirm(table, claim, player=None, **kwargs):
    return services.table_cards_confirm(claim=claim, player=player or table.players[1], **kwargs)


def state():
    return Claim.objects.filter(CARDS_CONFIRMED).count(), AuditEntry.objects.count()


def refused(table, claim, message, **kwargs):
    before = state()
    with pytest.raises(ValidationError) as error:
        confirm(table, claim, **kwargs)
    assert message in " ".join(error.value.messages)
    assert state() == before


# --- The service ----------------------------------------------------------------------------------


def test_a_player_of_the_other_side_confirms_the_cards_at_the_table(at_table):
    bob = at_table.players[1]
    claim = confirm(at_table, file_29(at_table))
    claim.refresh_from_db()
    assert (claim.cards_confirmed_by_player, claim.cards_confirmed_by) == (bob, None)
    assert claim.cards_confirmed and claim.cards_confirmed_at is not None
    assert claim.cards_confirmer_name == "Bob Ray at the table"
    entry = AuditEntry.objects.get(action=ScoringVerb.CARDS_CONFIRMED)
    assert entry.actor is None
    assert (entry.data["via"], entry.data["by_player_id"]) == (AT_THE_TABLE, bob.pk)
    assert entry.data["cards"] == ["5H", "5C", "5S", "JD", "5D"]


def test_the_claimants_own_side_does_not_confirm(at_table):
    refused(
        at_table,
        file_29(at_table),
        "The claimant's own side does not confirm its cards.",
        player=at_table.players[0],
    )


def test_a_player_of_another_table_does_not_confirm(at_table):
    stranger = at_table.other.seats.select_related("player").first().player
    refused(
        at_table,
        file_29(at_table),
        "was not at this table when the claim was filed",
        player=stranger,
    )


def test_only_a_24_28_or_29_has_its_cards_confirmed(at_table):
    claim = services.table_claim_file(
        game=at_table.game,
        kind="hand",
        claimant=at_table.players[0],
        claimed_points=12,
        hand="2C 3S 4C QH",
        starter="2D",
    )
    refused(at_table, claim, "Only the cards of a 24, 28 or 29 hand or crib are confirmed.")


def test_cards_are_confirmed_once_by_a_login_or_at_the_table(at_table):
    claim = file_29(at_table)
    confirm(at_table, claim)
    refused(at_table, claim, "The cards of this claim are already confirmed.")
    other = file_29(at_table)
    services.claim_confirm_cards(claim=other, actor=UserFactory(role="judges", club=at_table.club))
    refused(at_table, other, "The cards of this claim are already confirmed.")
    with pytest.raises(ValidationError):
        services.claim_confirm_cards(
            claim=Claim.objects.get(pk=claim.pk),
            actor=UserFactory(role="judges", club=at_table.club),
        )


def test_a_later_round_closes_the_confirmation(at_table):
    claim = file_29(at_table)
    game_services.round_draw(session=at_table.session, actor=at_table.organiser, seed=8)
    refused(at_table, claim, "Round 1 is over (round 2 is drawn)")


def test_links_off_close_the_confirmation(at_table):
    claim = file_29(at_table)
    Club.objects.filter(pk=at_table.club.pk).update(table_links=False)
    refused(at_table, claim, "does not use table links")


def test_a_confirmation_posted_twice_is_made_once(at_table):
    claim = file_29(at_table)
    token = new_token()
    confirm(at_table, claim, token=token)
    before = state()
    with pytest.raises(AlreadySaved):
        confirm(at_table, claim, token=token)
    assert state() == before


# --- PINs -----------------------------------------------------------------------------------------


def test_with_pins_the_right_pin_confirms(pinned):
    claim = confirm(pinned, file_29(pinned), pin="2468")
    assert claim.cards_confirmed_by_player == pinned.players[1]
    assert not WrongPin.objects.exists()


@pytest.mark.parametrize("pin", ["1111", ""])
def test_with_pins_a_wrong_or_missing_pin_is_kept_and_refused(pinned, pin):
    claim = file_29(pinned)
    with pytest.raises(ValidationError) as error:
        confirm(pinned, claim, pin=pin)
    assert "Wrong PIN for Bob Ray" in error.value.message_dict["pin"][0]
    assert WrongPin.objects.get().player == pinned.players[1]
    claim.refresh_from_db()
    assert not claim.cards_confirmed


def test_with_pins_the_claimants_side_is_refused_before_the_pin(pinned):
    claim = file_29(pinned, claimant=pinned.players[1])
    with pytest.raises(ValidationError) as error:
        confirm(pinned, claim, player=pinned.players[1], pin="0000")
    assert "The claimant's own side does not confirm its cards." in " ".join(error.value.messages)
    assert not WrongPin.objects.exists()


def test_with_pins_the_wait_after_wrong_pins_refuses_even_the_right_one(pinned, clock):
    claim = file_29(pinned)
    for _ in range(4):
        with pytest.raises(ValidationError):
            confirm(pinned, claim, pin="0000")
    clock.advance(1)
    with pytest.raises(ValidationError) as error:
        confirm(pinned, claim, pin="2468")
    assert "Too many wrong PINs for Bob Ray" in error.value.message_dict["pin"][0]
    assert WrongPin.objects.count() == 4
    clock.advance(10)
    assert confirm(pinned, claim, pin="2468").cards_confirmed


# --- The jackpot is paid only from confirmed cards ------------------------------------------------


def test_the_jackpot_is_won_only_once_the_cards_are_confirmed_at_the_table(at_table):
    """docs/spec.md: a 29 wins its jackpot only once a player of another side has confirmed
    the cards; the records list it either way."""
    ann = at_table.players[0]
    claim = file_29(at_table)
    claims = Claim.objects.filter(game__session=at_table.session)
    assert accepted_hands(at_table.session, 29) == []
    assert accepted_big_hands(claims) == [claim]  # the highlights do not wait for the cards
    confirm(at_table, claim)
    assert accepted_hands(at_table.session, 29) == [ann.pk]
    assert accepted_big_hands(claims, cards_confirmed=True) == [claim]


def test_settling_pays_the_jackpot_of_a_hand_confirmed_at_the_table(at_table):
    ann = at_table.players[0]
    confirm(at_table, file_29(at_table))
    organiser2 = UserFactory(role="organisers", club=at_table.club)
    for checkin in at_table.session.checkins.all():
        club_services.fee_mark_paid(checkin=checkin, actor=at_table.organiser)
    for game in at_table.game.round.games.all():
        draft = game_services.result_enter(game=game, actor=at_table.organiser, scores=[121, 90])
        game_services.result_confirm(result=draft, actor=organiser2)
    session_settle(session=at_table.session, actor=at_table.organiser, seed=1)
    won = LedgerEntry.objects.filter(kind=LedgerKind.JACKPOT_WIN, pot=Pot.JACKPOT_29)
    assert list(won.values_list("player_id", "amount_cents")) == [(ann.pk, -100)]


# --- Backups --------------------------------------------------------------------------------------


def test_a_table_confirmation_survives_a_backup_round_trip(at_table, tmp_path):
    claim = confirm(at_table, file_29(at_table))
    bob, slug = at_table.players[1], at_table.club.slug
    path = tmp_path / "club.json"
    path.write_text(export_text(slug), encoding="utf-8")
    empty_the_database()
    call_command("import_club", str(path), stdout=io.StringIO())
    restored = Claim.objects.get(pk=claim.pk)
    assert (restored.cards_confirmed_by_player_id, restored.cards_confirmed_by_id) == (bob.pk, None)
    assert restored.cards_confirmed
    assert accepted_hands(restored.game.session, 29) == [restored.claimant_id]


def test_a_backup_naming_the_claimants_side_as_table_confirmer_is_refused(at_table):
    claim = confirm(at_table, file_29(at_table))
    outcomes = list(claim.outcomes.all())
    assert recount_problem(claim, outcomes, muggins=True, seat_sides={}) is None
    claim.cards_confirmed_by_player_id = claim.claimant_id
    row, message = recount_problem(claim, outcomes, muggins=True, seat_sides={})
    assert row == claim
    assert "who was not a player of another side than the claimant's" in message


# --- The table page -------------------------------------------------------------------------------


def form_of(html: str, claim: Claim) -> str:
    return re.search(rf'data-testid="cards-form-{claim.pk}".*?</form>', html, re.S)[0]


def post(client, table, claim, **data):
    return client.post(f"{table.page}claims/{claim.pk}/cards/", data)


def test_the_page_offers_the_cards_to_the_other_side(client, at_table):
    claim = file_29(at_table)
    html = client.get(at_table.page).content.decode()
    form = form_of(html, claim)
    assert "Who has seen the cards?" in form and "I have seen these cards" in form
    assert "Bob Ray" in form and "Ann Lee" not in form
    assert 'aria-label="five of hearts"' in form.lower() or "pcard" in form
    assert 'name="pin"' not in form
    assert "confirms the cards on the game page" not in html


def test_no_confirmation_is_offered_where_no_jackpot_hangs_on_it(client, at_table):
    claim = services.table_claim_file(
        game=at_table.game,
        kind="hand",
        claimant=at_table.players[0],
        claimed_points=12,
        hand="2C 3S 4C QH",
        starter="2D",
    )
    assert f"cards-form-{claim.pk}" not in client.get(at_table.page).content.decode()


def test_the_page_asks_for_the_pin_when_the_session_does(client, pinned):
    claim = file_29(pinned)
    assert 'name="pin"' in form_of(client.get(pinned.page).content.decode(), claim)


def test_confirming_on_the_page_says_so_and_the_form_goes(client, at_table):
    claim = file_29(at_table)
    response = post(client, at_table, claim, player=at_table.players[1].pk, seen="on")
    assert response.status_code == 302
    html = client.get(at_table.page).content.decode()
    assert (
        "Cards confirmed by Bob Ray: Ann Lee&#x27;s 29 (5H 5C 5S JD 5D) can win its jackpot."
        in (html)
    )
    assert "Cards confirmed by Bob Ray at the table." in html
    assert f"cards-form-{claim.pk}" not in html


def test_a_confirmation_needs_the_tick_and_a_player(client, at_table):
    claim = file_29(at_table)
    response = post(client, at_table, claim)
    assert response.status_code == 400
    form = form_of(response.content.decode(), claim)
    assert "Choose who has seen the cards." in form
    assert "I have seen these cards” once you have seen them." in form
    response = post(client, at_table, claim, player=at_table.players[0].pk, seen="on")
    assert response.status_code == 400
    assert "the claimant&#x27;s own side does not confirm its cards" in (
        form_of(response.content.decode(), claim)
    )
    claim.refresh_from_db()
    assert not claim.cards_confirmed


def test_a_wrong_pin_on_the_page_confirms_nothing(client, pinned):
    claim = file_29(pinned)
    response = post(client, pinned, claim, player=pinned.players[1].pk, seen="on", pin="9999")
    assert response.status_code == 400
    assert "Wrong PIN for Bob Ray" in form_of(response.content.decode(), claim)
    claim.refresh_from_db()
    assert not claim.cards_confirmed


def test_a_claim_of_another_table_is_not_found(client, at_table):
    seats = list(at_table.other.seats.select_related("player").order_by("side"))
    elsewhere = services.table_claim_file(
        game=at_table.other, kind="hand", claimant=seats[0].player, claimed_points=29, **HAND_29
    )
    response = post(client, at_table, elsewhere, player=seats[1].player.pk, seen="on")
    assert response.status_code == 404
    elsewhere.refresh_from_db()
    assert not elsewhere.cards_confirmed


def test_a_settled_session_refuses_the_confirmation(client, at_table):
    claim = file_29(at_table)
    organiser2 = UserFactory(role="organisers", club=at_table.club)
    for checkin in at_table.session.checkins.all():
        club_services.fee_mark_paid(checkin=checkin, actor=at_table.organiser)
    for game in at_table.game.round.games.all():
        draft = game_services.result_enter(game=game, actor=at_table.organiser, scores=[121, 90])
        game_services.result_confirm(result=draft, actor=organiser2)
    session_settle(session=at_table.session, actor=at_table.organiser, seed=1)
    response = post(client, at_table, claim, player=at_table.players[1].pk, seen="on")
    assert response.status_code == 410
    claim.refresh_from_db()
    assert not claim.cards_confirmed


def test_the_claim_and_game_pages_name_the_player_who_confirmed_at_the_table(client, at_table):
    claim = confirm(at_table, file_29(at_table))
    client.force_login(at_table.organiser)
    page = client.get(f"/scoring/claims/{claim.pk}/").content.decode()
    assert "Cards confirmed by Bob Ray at the table," in page
    assert "I have seen the cards: confirm" not in page
    game = client.get(f"/games/{at_table.game.pk}/").content.decode()
    assert "cards confirmed by Bob Ray at the table." in game
