"""Double posts on the scoring pages: a claim, a muggins call, a dispute, a ruling and an appeal
posted twice from one rendering of their page save once. Nothing in a claim's rows refused the
second claim (two identical claims are legal: two deals can score the same hand), so each form
carries a one-time token (core.submissions); the second post is told "This was already saved." and
sent to what the first made, never an error page.

Terms: as in tests/games/test_double_posts.py (`token_of` reads the token a page rendered; the
second post's message is the last one waiting).
"""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from core.models import AuditEntry
from core.submissions import TOKEN_FIELD
from scoring import services
from scoring.audit import ScoringVerb
from scoring.models import Claim, Dispute, DisputeState, Outcome, Ruling

pytestmark = pytest.mark.django_db

SAVED = ("info", "This was already saved.")


def last_message(response) -> tuple[str, str]:
    return [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)][-1]


def token_of(page, form_name: str) -> str:
    token = page.context[form_name][TOKEN_FIELD].value()
    assert token
    return token


def file_claim(club_table, claimed=28) -> Claim:
    """A 29 hand claimed as 28 by side 0: an under-claim, muggins open."""
    return services.claim_file(
        game=club_table.game,
        actor=club_table.users[0],
        kind="hand",
        claimant=club_table.players[0],
        claimed_points=claimed,
        hand="5H 5C 5S JD",
        starter="5D",
    )


def test_a_claim_posted_twice_is_one_claim_and_the_second_post_shows_it(client, club_table):
    client.force_login(club_table.users[0])
    url = reverse("scoring:claim_new", args=[club_table.game.pk])
    page = client.get(url)
    assert page.content.decode().count(f'name="{TOKEN_FIELD}"') == 1
    post = {
        "kind": "hand",
        "claimant": club_table.players[0].pk,
        "claimed_points": "29",
        "hand": "5H 5C 5S JD",
        "starter": "5D",
        TOKEN_FIELD: token_of(page, "form"),
    }
    first = client.post(url, post)
    (claim,) = Claim.objects.all()
    assert first.url == reverse("scoring:claim", args=[claim.pk])

    second = client.post(url, post)

    assert list(Claim.objects.all()) == [claim]
    assert Outcome.objects.count() == 1
    assert second.status_code == 302
    assert second.url == reverse("scoring:claim", args=[claim.pk])
    assert last_message(second) == SAVED
    assert AuditEntry.objects.filter(action=ScoringVerb.CLAIM_FILED).count() == 1


def test_two_claims_from_two_renderings_are_two_claims(client, club_table):
    """The same hand claimed in two deals is two claims: each page has its own token."""
    client.force_login(club_table.users[0])
    url = reverse("scoring:claim_new", args=[club_table.game.pk])
    post = {
        "kind": "heels",
        "claimant": club_table.players[0].pk,
        "claimed_points": "2",
        "starter": "JH",
    }
    for _ in range(2):
        post[TOKEN_FIELD] = token_of(client.get(url), "form")
        assert client.post(url, post).status_code == 302
    assert Claim.objects.count() == 2


def test_a_claim_without_a_token_is_filed_as_before(client, club_table):
    client.force_login(club_table.users[0])
    url = reverse("scoring:claim_new", args=[club_table.game.pk])
    post = {"kind": "heels", "claimant": club_table.players[0].pk, "claimed_points": "2"}
    post["starter"] = "JH"
    client.post(url, post)
    client.post(url, post)
    assert Claim.objects.count() == 2  # no token, no guard (API callers, old pages)


def test_a_muggins_call_posted_twice_is_one_call(client, club_table):
    claim = file_claim(club_table)
    client.force_login(club_table.users[1])
    url = reverse("scoring:claim", args=[claim.pk])
    page = client.get(url)
    post = {
        "caller": club_table.players[1].pk,
        "points": "1",
        TOKEN_FIELD: token_of(page, "muggins_form"),
    }
    muggins = reverse("scoring:muggins", args=[claim.pk])
    assert client.post(muggins, post).status_code == 302
    second = client.post(muggins, post)
    assert (second.status_code, second.url) == (302, url)
    assert last_message(second) == SAVED
    assert claim.outcomes.count() == 2  # the claim's own, and the call's
    assert AuditEntry.objects.filter(action=ScoringVerb.MUGGINS_CALLED).count() == 1


def test_a_second_muggins_call_without_a_token_is_refused_by_the_claim(client, club_table):
    """A claim takes one muggins call: the natural key already refuses a second, with why."""
    claim = file_claim(club_table)
    client.force_login(club_table.users[1])
    post = {"caller": club_table.players[1].pk, "points": "1"}
    muggins = reverse("scoring:muggins", args=[claim.pk])
    client.post(muggins, post)
    second = client.post(muggins, post)
    assert second.status_code == 400
    assert "already called muggins" in second.content.decode()
    assert AuditEntry.objects.filter(action=ScoringVerb.MUGGINS_CALLED).count() == 1


def test_a_dispute_posted_twice_is_one_dispute(client, club_table):
    claim = file_claim(club_table)
    client.force_login(club_table.users[1])
    url = reverse("scoring:claim", args=[claim.pk])
    post = {"statement": "That is 29.", TOKEN_FIELD: token_of(client.get(url), "dispute_form")}
    dispute_url = reverse("scoring:dispute_open", args=[claim.pk])
    assert client.post(dispute_url, post).status_code == 302
    second = client.post(dispute_url, post)
    assert (second.status_code, second.url) == (302, url)
    assert last_message(second) == SAVED
    assert Dispute.objects.count() == 1
    # Without the token, the claim's one dispute refuses a second, saying why.
    refused = client.post(dispute_url, {"statement": "That is 29."})
    assert refused.status_code == 400
    assert "already disputed" in refused.content.decode()


def test_a_ruling_posted_twice_is_one_ruling(client, club_table, member):
    claim = file_claim(club_table)
    services.dispute_open(claim=claim, actor=club_table.users[1], statement="29.")
    client.force_login(member("judge"))
    url = reverse("scoring:claim", args=[claim.pk])
    page = client.get(url)
    token = token_of(page, "ruling_form")
    # The "agree" button carries the token too.
    assert page.content.decode().count(f'name="{TOKEN_FIELD}" value="{token}"') == 2
    dispute = Dispute.objects.get()
    rule = reverse("scoring:dispute_rule", args=[dispute.pk])
    assert client.post(rule, {"decision": "agree", TOKEN_FIELD: token}).status_code == 302
    second = client.post(rule, {"decision": "agree", TOKEN_FIELD: token})
    assert (second.status_code, second.url) == (302, url)
    assert last_message(second) == SAVED
    assert Ruling.objects.count() == 1


def test_an_appeal_posted_twice_is_one_appeal(client, club_table, member):
    claim = file_claim(club_table)
    dispute = services.dispute_open(claim=claim, actor=club_table.users[1], statement="29.")
    services.dispute_rule(dispute=dispute, actor=member("judge"), decision="agree")
    client.force_login(club_table.users[1])
    url = reverse("scoring:claim", args=[claim.pk])
    post = {"statement": "A run too.", TOKEN_FIELD: token_of(client.get(url), "appeal_form")}
    appeal = reverse("scoring:dispute_appeal", args=[dispute.pk])
    assert client.post(appeal, post).status_code == 302
    second = client.post(appeal, post)
    assert (second.status_code, second.url) == (302, url)
    assert last_message(second) == SAVED
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.APPEALED
    assert AuditEntry.objects.filter(action=ScoringVerb.DISPUTE_APPEALED).count() == 1
