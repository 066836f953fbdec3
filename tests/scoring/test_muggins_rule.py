"""Muggins through the services and pages, against ACC rule 10.4a and 10.3 as docs/claims.md ("ACC
rule 10.4a and 10.3") gives them: "the caller scores the lesser of N and the points actually
overlooked; only when nothing was overlooked (the claim was exact or over) is the call false, and
then the claimant is given N as a penalty. ACC rule 10.3: no muggins on his heels, on a penalty, or
on a muggins score." And hoyle.txt "Muggins": the opponent "may say 'Muggins' and himself score the
points overlooked".

Terms: a *table* is `tests.builders.make_table` (side 0 and side 1, one player each, muggins on);
the claimant is the side-1 player, the caller the side-0 player, so an outcome's points read
{"0": caller, "1": claimant}. The hands: 8-7-7-6-2 counts 16 (club-thursday-rules.md
"Combinations"), 9-6-5-4-4 counts 14 (hoyle.txt "Showing"); a jack starter is his heels, 2.
"""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import services
from scoring.models import ClaimKind, OutcomeKind

pytestmark = pytest.mark.django_db

HAND_16 = {"hand": "8S 7H 7D 6C", "starter": "2H"}
HAND_14 = {"hand": "9S 6D 5C 4H", "starter": "4D"}


def file(table, kind, claimed, **cards):
    return services.claim_file(
        game=table.game,
        actor=table.users[1],
        kind=kind,
        claimant=table.players[1],
        claimed_points=claimed,
        **cards,
    )


def call(table, claim, points):
    return services.muggins_call(
        claim=claim, actor=table.users[0], caller=table.players[0], points=points
    )


def test_claimed_12_of_16_and_muggins_for_6_scores_the_4_overlooked(table):
    """ACC rule 10.4a: claimed 12 of a true 16 and "muggins for 6": the caller scores the lesser
    of 6 and the 4 overlooked, 4; points were overlooked, so the call is not false and the
    claimant keeps his 12 (not 14: the penalty is for a false call only)."""
    claim = file(table, ClaimKind.HAND, 12, **HAND_16)

    outcome = call(table, claim, 6)

    assert outcome.points == {"0": 4, "1": 12}
    assert outcome.kind == OutcomeKind.MUGGINS_OVERCALLED
    assert "ACC rule 10.4a" in outcome.explanation


def test_a_call_for_the_points_overlooked_takes_them_all(table):
    """hoyle.txt "Muggins" and ACC rule 10.4a: muggins for 4 of the 4 overlooked takes 4."""
    claim = file(table, ClaimKind.HAND, 12, **HAND_16)

    outcome = call(table, claim, 4)

    assert (outcome.kind, outcome.points) == (OutcomeKind.MUGGINS, {"0": 4, "1": 12})


@pytest.mark.parametrize(
    ("claimed", "kept"),
    [(14, 14), (16, 14)],  # exact, and an over-claim corrected to 14 (hoyle.txt "Muggins")
    ids=["exact claim", "over-claim"],
)
def test_a_call_when_nothing_was_overlooked_gives_the_claimant_n(table, claimed, kept):
    """ACC rule 10.4a: nothing overlooked (exact or over), the call is false and the claimant is
    given N as a penalty; the caller takes nothing."""
    claim = file(table, ClaimKind.HAND, claimed, **HAND_14)

    outcome = call(table, claim, 3)

    assert outcome.kind == OutcomeKind.FALSE_MUGGINS
    assert outcome.points == {"0": 0, "1": kept + 3}


def test_an_under_claimed_heels_is_lost_not_open_to_a_call(table):
    """ACC rule 10.3: no muggins on his heels. A jack turned up and "no heels" claimed: the 2
    are lost (britannica-1911.txt: "This score is forfeited if not marked before the dealer
    plays a card"), the outcome is not "open to a muggins call", and a call is refused."""
    claim = file(table, ClaimKind.HEELS, 0, starter="JD")
    first = services.current_outcome(claim)

    assert first.kind == OutcomeKind.UNDER_LOST
    assert "no muggins on his heels, ACC rule 10.3" in first.explanation
    with pytest.raises(ValidationError, match="no muggins on his heels \\(ACC rule 10.3\\)"):
        call(table, claim, 2)
    claim.refresh_from_db()
    assert claim.muggins_caller is None
    assert claim.outcomes.count() == 1


def test_no_muggins_on_a_muggins_score(table):
    """ACC rule 10.3: no muggins on a muggins score (or the penalty a false call gives): a claim
    takes one call, and Pegboard has no claim of a muggins score or a penalty to call on."""
    claim = file(table, ClaimKind.HAND, 12, **HAND_16)
    call(table, claim, 2)

    with pytest.raises(ValidationError, match="no muggins on a muggins score"):
        services.muggins_call(claim=claim, actor=table.organiser, caller=table.players[0], points=2)
    assert claim.outcomes.count() == 2
    assert set(ClaimKind.values) == {"hand", "crib", "heels", "play"}


def test_the_heels_page_offers_no_call_and_a_posted_call_is_refused(client, table):
    """ACC rule 10.3 on the claim page: no muggins form on his heels, and a call posted anyway is
    a 400 whose message cites the rule; nothing is saved."""
    claim = file(table, ClaimKind.HEELS, 0, starter="JD")
    client.force_login(table.users[0])
    url = reverse("scoring:claim", args=[claim.pk])

    page = client.get(url)
    posted = client.post(
        reverse("scoring:muggins", args=[claim.pk]),
        {"caller": table.players[0].pk, "points": 2},
    )

    assert page.status_code == 200
    assert "Call muggins" not in page.content.decode()
    assert "No muggins on his heels (ACC rule 10.3)" in page.content.decode()
    assert posted.status_code == 400
    assert "ACC rule 10.3" in posted.content.decode()
    claim.refresh_from_db()
    assert claim.muggins_caller is None
