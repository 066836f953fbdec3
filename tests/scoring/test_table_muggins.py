"""A muggins call made at the table, through its link, without a login
(scoring.services.table_muggins_call, scoring.table_views.TableMugginsCallView; docs/spec.md
"Claims, muggins and disputes": "At the table, through its card, a player of another side calls
muggins ... (with a PIN where the club uses them)").

Rules cited: ACC rule 10.4a (the caller scores the lesser of N and the points overlooked; only when
nothing was overlooked is the call false, and then the claimant is given N as a penalty) and ACC
rule 10.3 (no muggins on his heels, on a penalty, or on a muggins score). The hand 5H 5C 5S JD with
the 5D turned counts 29 (hoyle.txt "Showing").

Terms: `at_table` and `pinned` (tests/scoring/conftest.py): Ann (side 0) against Bob (side 1) at
round 1's first table, no logins; with `pinned` the session asks for table PINs and Bob's is 2468.
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError

from club.audit import AT_THE_TABLE
from club.models import Club, WrongPin
from core.models import AuditEntry
from core.submissions import AlreadySaved, new_token
from games import services as game_services
from scoring import services
from scoring.audit import ScoringVerb
from scoring.models import Claim, Outcome, OutcomeKind
from tests.scoring.jackpot_tables import HAND_29

pytestmark = pytest.mark.django_db


def file(table, claimed=28, claimant=None, **cards):
    return services.table_claim_file(
        game=table.game,
        kind="hand",
        claimant=claimant or table.players[0],
        claimed_points=claimed,
        **(cards or HAND_29),
    )


def call(table, claim, points=1, caller=None, **kwargs):
    return services.table_muggins_call(
        claim=claim, caller=caller or table.players[1], points=points, **kwargs
    )


def state():
    return (
        Outcome.objects.count(),
        Claim.objects.filter(muggins_caller__isnull=False).count(),
        AuditEntry.objects.count(),
    )


def refused(table, claim, message, **kwargs):
    before = state()
    with pytest.raises(ValidationError) as error:
        call(table, claim, **kwargs)
    assert message in " ".join(error.value.messages)
    assert state() == before


# --- The service ----------------------------------------------------------------------------------


def test_an_opponent_calls_muggins_at_the_table_and_takes_the_point(at_table):
    """ACC rule 10.4a: 28 claimed for a 29, muggins for 1: the caller takes 1."""
    ann, bob = at_table.players
    claim = file(at_table)
    outcome = call(at_table, claim, points=1)
    assert (outcome.kind, outcome.points, outcome.version) == (
        OutcomeKind.MUGGINS,
        {"0": 28, "1": 1},
        2,
    )
    claim.refresh_from_db()
    assert (claim.muggins_caller, claim.muggins_points) == (bob, 1)
    entries = AuditEntry.objects.filter(
        action__in=[ScoringVerb.MUGGINS_CALLED, ScoringVerb.OUTCOME_COMPUTED]
    ).order_by("pk")
    called, computed = list(entries)[-2:]
    assert called.action == ScoringVerb.MUGGINS_CALLED
    assert called.data["caller"] == bob.pk and called.data["points"] == 1
    for entry in (called, computed):
        assert entry.actor is None
        assert (entry.data["via"], entry.data["by_player_id"]) == (AT_THE_TABLE, bob.pk)


def test_a_call_for_more_than_was_overlooked_takes_what_was_overlooked(at_table):
    """ACC rule 10.4a: the lesser of N and the points overlooked; no penalty."""
    claim = file(at_table, claimed=27)
    outcome = call(at_table, claim, points=5)
    assert (outcome.kind, outcome.points) == (OutcomeKind.MUGGINS_OVERCALLED, {"0": 27, "1": 2})


def test_a_call_when_nothing_was_overlooked_gives_the_claimant_the_points(at_table):
    """ACC rule 10.4a: the call is false: the claimant is given N as a penalty."""
    claim = file(at_table, claimed=29)
    outcome = call(at_table, claim, points=3)
    assert (outcome.kind, outcome.points) == (OutcomeKind.FALSE_MUGGINS, {"0": 32, "1": 0})


def test_no_muggins_on_his_heels(at_table):
    """ACC rule 10.3: no muggins on his heels."""
    claim = services.table_claim_file(
        game=at_table.game,
        kind="heels",
        claimant=at_table.players[0],
        claimed_points=0,
        starter="JH",
    )
    refused(at_table, claim, "There is no muggins on his heels (ACC rule 10.3)")


def test_no_muggins_on_a_muggins_score_one_call_per_claim(at_table):
    """ACC rule 10.3: no muggins on a muggins score or a penalty: once per claim."""
    claim = file(at_table)
    call(at_table, claim, points=1)
    refused(at_table, claim, "already called muggins on this claim", points=2)


def test_no_muggins_when_the_session_plays_without_it(at_table):
    session = at_table.session
    session.rules = {**session.rules, "muggins": False}
    session.save(update_fields=["rules"])
    claim = file(at_table)
    refused(at_table, claim, "This session is played without muggins.")


def test_a_disputed_claim_is_the_judges(at_table):
    claim = file(at_table)
    services.table_dispute_open(claim=claim, player=at_table.players[0], statement="I said 29.")
    refused(at_table, claim, "This claim is disputed: the judge's ruling decides it.")


@pytest.mark.parametrize("who", ["claimant", "stranger"])
def test_muggins_is_called_by_an_opponent_of_the_claimant(at_table, who):
    claim = file(at_table)
    caller = (
        at_table.players[0]
        if who == "claimant"
        else at_table.other.seats.select_related("player").first().player
    )
    refused(at_table, claim, "Muggins is called by an opponent of the claimant.", caller=caller)


def test_a_call_is_for_one_point_or_more(at_table):
    refused(at_table, file(at_table), "Call muggins for 1 point or more.", points=0)


def test_a_later_round_closes_the_call(at_table):
    claim = file(at_table)
    game_services.round_draw(session=at_table.session, actor=at_table.organiser, seed=8)
    refused(at_table, claim, "Round 1 is over (round 2 is drawn)")


def test_links_off_close_the_call(at_table):
    claim = file(at_table)
    Club.objects.filter(pk=at_table.club.pk).update(table_links=False)
    refused(at_table, claim, "does not use table links")


def test_a_call_posted_twice_is_made_once(at_table):
    claim = file(at_table)
    token = new_token()
    call(at_table, claim, token=token)
    before = state()
    with pytest.raises(AlreadySaved):
        call(at_table, claim, points=2, token=token)
    assert state() == before


# --- PINs -----------------------------------------------------------------------------------------


def test_with_pins_the_right_pin_calls(pinned):
    claim = file(pinned)
    outcome = call(pinned, claim, pin="2468")
    assert outcome.kind == OutcomeKind.MUGGINS
    assert not WrongPin.objects.exists()


@pytest.mark.parametrize("pin", ["1111", ""])
def test_with_pins_a_wrong_or_missing_pin_is_kept_and_refused(pinned, pin):
    claim = file(pinned)
    with pytest.raises(ValidationError) as error:
        call(pinned, claim, pin=pin)
    assert "Wrong PIN for Bob Ray" in error.value.message_dict["pin"][0]
    assert WrongPin.objects.get().player == pinned.players[1]  # kept though the call is refused
    claim.refresh_from_db()
    assert claim.muggins_caller is None and claim.outcomes.count() == 1


def test_with_pins_a_refusal_for_another_reason_costs_no_try(pinned):
    claim = file(pinned)
    call(pinned, claim, pin="2468")
    with pytest.raises(ValidationError) as error:
        call(pinned, claim, pin="0000", points=2)
    assert "already called muggins" in " ".join(error.value.messages)
    assert not WrongPin.objects.exists()


def test_with_pins_a_player_without_one_is_told_who_sets_it(pinned):
    claim = file(pinned, claimant=pinned.players[1])
    with pytest.raises(ValidationError) as error:
        call(pinned, claim, caller=pinned.players[0], pin="1234")
    assert "Ann Lee has no PIN yet" in error.value.message_dict["pin"][0]
    assert not WrongPin.objects.exists()


def test_with_pins_the_wait_after_wrong_pins_refuses_even_the_right_one(pinned, clock):
    claim = file(pinned)
    for _ in range(4):
        with pytest.raises(ValidationError):
            call(pinned, claim, pin="0000")
    clock.advance(1)
    with pytest.raises(ValidationError) as error:
        call(pinned, claim, pin="2468")
    assert "Too many wrong PINs for Bob Ray: the next try in" in error.value.message_dict["pin"][0]
    assert WrongPin.objects.count() == 4  # the try during the wait is not counted
    clock.advance(10)
    assert call(pinned, claim, pin="2468").kind == OutcomeKind.MUGGINS


def test_with_pins_a_second_post_of_a_saved_call_says_it_was_saved(pinned):
    claim = file(pinned)
    token = new_token()
    call(pinned, claim, pin="2468", token=token)
    with pytest.raises(AlreadySaved):
        call(pinned, claim, pin="2468", token=token)
    assert not WrongPin.objects.exists()


# --- The table page -------------------------------------------------------------------------------


def token_of(html: str, claim: Claim) -> str:
    form = re.search(rf'data-testid="muggins-form-{claim.pk}".*?</form>', html, re.S)[0]
    return re.search(r'name="submission_token" value="([^"]+)"', form)[1]


def claim_block(html: str, claim: Claim) -> str:
    """The part of the table page under `claim`, up to the next claim."""
    return re.search(
        rf'data-testid="table-claim-{claim.pk}".*?(?=class="table-claim"|class="table-claim-new")',
        html,
        re.S,
    )[0]


def post(client, table, claim, **data):
    return client.post(f"{table.page}claims/{claim.pk}/muggins/", data)


def test_the_page_offers_muggins_to_the_claimants_opponents(client, at_table):
    claim = file(at_table)
    html = client.get(at_table.page).content.decode()
    form = re.search(rf'data-testid="muggins-form-{claim.pk}".*?</form>', html, re.S)[0]
    assert "Who calls muggins?" in form
    assert "Bob Ray" in form and "Ann Lee" not in form
    assert 'name="pin"' not in form  # the session does not ask for PINs
    assert "3 overlooked" not in html and "1 overlooked, open to a muggins call" in html


def test_the_page_asks_for_the_pin_when_the_session_does(client, pinned):
    claim = file(pinned)
    html = client.get(pinned.page).content.decode()
    form = re.search(rf'data-testid="muggins-form-{claim.pk}".*?</form>', html, re.S)[0]
    assert 'name="pin"' in form


def test_no_call_is_offered_on_his_heels_nor_after_a_call(client, at_table):
    heels = services.table_claim_file(
        game=at_table.game,
        kind="heels",
        claimant=at_table.players[0],
        claimed_points=0,
        starter="JH",
    )
    claim = file(at_table)
    call(at_table, claim)
    html = client.get(at_table.page).content.decode()
    assert f"muggins-form-{heels.pk}" not in html and f"muggins-form-{claim.pk}" not in html
    assert "Muggins for 1 called by Bob Ray." in html


def test_a_call_on_the_page_says_what_it_did(client, at_table):
    claim = file(at_table, claimed=26)
    token = token_of(client.get(at_table.page).content.decode(), claim)
    response = post(
        client, at_table, claim, caller=at_table.players[1].pk, points=3, submission_token=token
    )
    assert response.status_code == 302
    assert response.url == f"{at_table.page}#claim-{claim.pk}"
    html = client.get(at_table.page).content.decode()
    assert "Muggins: Bob Ray takes 3." in html
    again = post(
        client, at_table, claim, caller=at_table.players[1].pk, points=3, submission_token=token
    )
    assert again.status_code == 302
    assert "This was already saved." in client.get(at_table.page).content.decode()
    assert Outcome.objects.filter(claim=claim).count() == 2


def test_a_false_call_on_the_page_says_the_claimant_is_given_the_points(client, at_table):
    claim = file(at_table, claimed=29)
    post(client, at_table, claim, caller=at_table.players[1].pk, points=2)
    html = client.get(at_table.page).content.decode()
    assert "False muggins: nothing was overlooked, so Ann Lee is given 2 (ACC rule 10.4a)." in html


def test_a_refused_call_shows_its_errors_under_its_own_claim(client, at_table):
    first = file(at_table)
    claim = file(at_table, claimed=27)
    response = post(client, at_table, claim, points=0)
    assert response.status_code == 400
    html = response.content.decode()
    block = claim_block(html, claim)
    assert "Choose who calls muggins." in block
    assert "Call muggins for 1 point or more." in block
    assert '<details class="table-muggins" open>' in block
    other = claim_block(html, first)
    assert 'role="alert"' not in other
    assert Outcome.objects.count() == 2  # the two claims' first outcomes, nothing more


def test_a_service_refusal_is_shown_at_400(client, at_table):
    claim = file(at_table)
    response = post(client, at_table, claim, caller=at_table.players[0].pk, points=1)
    assert response.status_code == 400  # the claimant is no choice of this form
    call(at_table, claim)
    # The claim is called already: the form is gone, the page says why.
    response = post(client, at_table, claim, caller=at_table.players[1].pk, points=2)
    assert response.status_code == 400
    assert "already called muggins" in response.content.decode()


def test_a_wrong_pin_on_the_page_says_so_and_calls_nothing(client, pinned):
    claim = file(pinned)
    response = post(client, pinned, claim, caller=pinned.players[1].pk, points=1, pin="1111")
    assert response.status_code == 400
    assert "Wrong PIN for Bob Ray" in response.content.decode()
    response = post(client, pinned, claim, caller=pinned.players[1].pk, points=1, pin="")
    assert response.status_code == 400
    assert "Type your 4-digit PIN." in response.content.decode()
    assert WrongPin.objects.count() == 1  # the empty one is a typing slip, no try
    assert (
        post(client, pinned, claim, caller=pinned.players[1].pk, points=1, pin="2468").status_code
        == 302
    )
    claim.refresh_from_db()
    assert claim.muggins_caller == pinned.players[1]


def test_a_claim_of_another_table_is_not_found(client, at_table):
    seats = list(at_table.other.seats.select_related("player").order_by("side"))
    elsewhere = services.table_claim_file(
        game=at_table.other, kind="hand", claimant=seats[0].player, claimed_points=28, **HAND_29
    )
    response = post(client, at_table, elsewhere, caller=seats[1].player.pk, points=1)
    assert response.status_code == 404
    elsewhere.refresh_from_db()
    assert elsewhere.muggins_caller is None


def test_a_closed_round_refuses_the_call(client, at_table):
    claim = file(at_table)
    game_services.round_draw(session=at_table.session, actor=at_table.organiser, seed=8)
    response = post(client, at_table, claim, caller=at_table.players[1].pk, points=1)
    assert response.status_code == 410
    claim.refresh_from_db()
    assert claim.muggins_caller is None
