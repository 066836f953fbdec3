"""A player present named judge for one dispute, and their one-time link (docs/spec.md
"Claims, muggins and disputes"; docs/club/claims.md "Disputes"): in a club whose only organiser
plays, the organiser names a bystander who is checked in and not a party; the bystander rules on
their own phone, without a login, once."""

from types import SimpleNamespace

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from club import services as club_services
from club.models import PlayerLink
from games.models import ResultSource, ResultState
from games.services import result_confirm, result_enter
from scoring import services
from scoring.models import DisputeState, Ruling
from tests.builders import make_table
from tests.factories import CheckInFactory, ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_table(club):
    """The club's only organiser plays at table 1 (side 0); his opponent is a player."""
    table = make_table(club=club, roles=("organisers", "players"))
    if not table.users[0].groups.filter(name="organisers").exists():  # the draw chose the sides
        table = SimpleNamespace(
            **{**vars(table), "users": table.users[::-1], "players": table.players[::-1]}
        )
    organiser = table.users[0]
    result = result_enter(game=table.game, actor=organiser, scores=[121, 100])
    result_confirm(result=result, actor=table.users[1])
    claim = services.claim_file(
        game=table.game,
        actor=organiser,
        kind="hand",
        claimant=table.players[0],
        claimed_points=12,
        hand="8S 7H 7D 6C",
        starter="2H",
    )
    dispute = services.dispute_open(claim=claim, actor=table.users[1], statement="No 12.")
    bystander = CheckInFactory(session=table.session, player__club=club).player
    return SimpleNamespace(**vars(table), dispute=dispute, bystander=bystander)


def name(table, player=None):
    return services.dispute_name_judge(
        dispute=table.dispute, actor=table.users[0], player=player or table.bystander
    )


def test_the_organiser_who_plays_cannot_rule_and_is_told_what_to_do(own_table):
    refusal = services.rule_refusal(own_table.dispute, own_table.users[0])
    assert "You play in this game" in refusal
    assert "names a player present" in refusal
    assert services.can_name_judge(own_table.dispute, own_table.users[0])


def test_naming_refuses_a_party_a_player_not_present_and_another_clubs_player(own_table):
    with pytest.raises(ValidationError, match="plays in this game"):
        name(own_table, own_table.players[1])
    absent = PlayerFactory(club=own_table.club)
    with pytest.raises(ValidationError, match="not checked in to this session"):
        name(own_table, absent)
    with pytest.raises(ValidationError, match="not a player of this club"):
        name(own_table, PlayerFactory(club=ClubFactory()))
    assert own_table.dispute.__class__.objects.get().named_judge is None


def test_only_an_organiser_of_the_club_names_a_judge(own_table):
    with pytest.raises(PermissionDenied):
        services.dispute_name_judge(
            dispute=own_table.dispute, actor=own_table.users[1], player=own_table.bystander
        )


def test_naming_is_audited_and_a_new_name_kills_the_older_link(own_table):
    first = name(own_table)
    other = CheckInFactory(session=own_table.session, player__club=own_table.club).player
    second = name(own_table, other)
    assert PlayerLink.objects.filter(revoked_at__isnull=False).count() == 1
    old = club_services.player_link_find(first, "judge")
    assert "replaced by a newer one" in club_services.player_link_refusal(old)
    assert (
        club_services.player_link_refusal(club_services.player_link_find(second, "judge")) is None
    )
    own_table.dispute.refresh_from_db()
    assert own_table.dispute.named_judge == other
    from core.models import AuditEntry

    assert AuditEntry.objects.filter(action="dispute.judge_named").count() == 2


def test_agree_through_the_link_rules_as_the_player_and_spends_the_link(own_table, client):
    key = name(own_table)
    url = reverse("judge_link:page", args=[key])
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "No 12." in html and "Agree with the engine" in html and 'class="breakdown"' in html
    assert client.post(url, {"decision": "agree"}).status_code == 302
    ruling = Ruling.objects.get()
    assert ruling.judge is None and ruling.judge_player == own_table.bystander
    own_table.dispute.refresh_from_db()
    assert own_table.dispute.state == DisputeState.RULED
    # Right after, the phone reads what it ruled; any later open is a 410 that says so.
    assert client.get(url).status_code == 200
    again = client.get(url)
    assert again.status_code == 410
    assert "was used" in again.content.decode()
    assert client.post(url, {"decision": "agree"}).status_code == 410
    assert Ruling.objects.count() == 1


def test_an_override_corrects_the_confirmed_result_with_the_player_recorded(own_table, client):
    key = name(own_table)
    url = reverse("judge_link:page", args=[key])
    post = {"decision": "override", "side_0": "10", "side_1": "0", "reason": "Only ten."}
    assert client.post(url, post).status_code == 302
    ruling = Ruling.objects.get()
    current = own_table.game.results.exclude(state=ResultState.SUPERSEDED).get()
    assert ruling.result == current
    assert current.source == ResultSource.RULING
    assert current.scores != [121, 100] and current.version == 2
    assert current.entered_by is None and current.confirmed_by is None
    assert current.entered_by_player == own_table.bystander
    assert current.confirmed_by_player == own_table.bystander


def test_an_override_without_a_reason_is_refused_and_the_link_still_works(own_table, client):
    url = reverse("judge_link:page", args=[name(own_table)])
    response = client.post(url, {"decision": "override", "side_0": "10", "side_1": "0"})
    assert response.status_code == 400
    assert "Write why you override" in response.content.decode()
    assert PlayerLink.objects.get().used_at is None


def test_a_made_up_key_is_a_404_and_a_settled_session_a_410(own_table, client):
    assert client.get(reverse("judge_link:page", args=["x" * 43])).status_code == 404
    assert client.get("/j/%00/").status_code == 404
    key = name(own_table)
    own_table.session.__class__.objects.filter(pk=own_table.session.pk).update(state="settled")
    response = client.get(reverse("judge_link:page", args=[key]))
    assert response.status_code == 410
    assert "is settled" in response.content.decode()


def test_a_link_works_for_its_own_dispute_only(own_table):
    key = name(own_table)
    link = club_services.player_link_find(key, "judge")
    assert club_services.player_link_find(key, "accept") is None
    link.target = link.target + 1000
    assert services.judge_link_dispute(link) is None


def test_the_named_judge_types_the_pin_when_the_club_uses_table_pins(own_table, client):
    rules = dict(own_table.session.rules, table_pins=True)
    own_table.session.__class__.objects.filter(pk=own_table.session.pk).update(rules=rules)
    club_services.pin_set(player=own_table.bystander, actor=own_table.users[0], pin="4071")
    url = reverse("judge_link:page", args=[name(own_table)])
    wrong = client.post(url, {"decision": "agree", "pin": "1111"})
    assert wrong.status_code == 400
    assert Ruling.objects.count() == 0
    assert client.post(url, {"decision": "agree", "pin": "4071"}).status_code == 302
    assert Ruling.objects.get().judge_player == own_table.bystander


def test_the_appeal_goes_to_a_different_judge(own_table, client):
    client.post(reverse("judge_link:page", args=[name(own_table)]), {"decision": "agree"})
    services.dispute_appeal(dispute=own_table.dispute, actor=own_table.users[1], statement="Re")
    own_table.dispute.refresh_from_db()
    with pytest.raises(ValidationError, match="gave the first ruling"):
        name(own_table)
    assert own_table.bystander not in services.judge_candidates(own_table.dispute)
    second = CheckInFactory(session=own_table.session, player__club=own_table.club).player
    url = reverse("judge_link:page", args=[name(own_table, second)])
    assert client.post(url, {"decision": "agree"}).status_code == 302
    own_table.dispute.refresh_from_db()
    assert own_table.dispute.state == DisputeState.FINAL
    assert [r.judge_player for r in own_table.dispute.rulings.order_by("level")] == [
        own_table.bystander,
        second,
    ]


def test_a_login_judge_who_rules_kills_the_named_players_link(own_table):
    key = name(own_table)
    judge = UserFactory(role="judges", club=own_table.club)
    services.dispute_rule(dispute=own_table.dispute, actor=judge, decision="agree")
    link = club_services.player_link_find(key, "judge")
    assert link.revoked_at is not None


def test_the_claim_page_offers_the_organiser_the_form_and_shows_the_link(own_table, client):
    client.force_login(own_table.users[0])
    url = reverse("scoring:claim", args=[own_table.dispute.claim_id])
    html = client.get(url).content.decode()
    assert "You play in this game" in html
    assert "Name a judge for this dispute" in html
    response = client.post(
        reverse("scoring:dispute_name_judge", args=[own_table.dispute.pk]),
        {"player": own_table.bystander.pk},
    )
    assert response.status_code == 302
    html = client.get(url).content.decode()
    assert 'data-testid="judge-qr"' in html and "/j/" in html
    refused = client.post(
        reverse("scoring:dispute_name_judge", args=[own_table.dispute.pk]),
        {"player": own_table.players[1].pk},
    )
    assert refused.status_code == 400
    assert "Select a valid choice" in refused.content.decode()


def test_the_queue_and_the_settle_blocker_say_what_to_do(own_table, client):
    client.force_login(own_table.users[0])
    html = client.get(reverse("scoring:queue")).content.decode()
    assert "Not yours to rule: you play in this game" in html
    assert "Name a judge for this dispute" in html
    from money.selectors import settle_blockers

    blocker = next(b for b in settle_blockers(own_table.session) if "dispute" in b)
    assert "name a player present as judge" in blocker
    assert blocker.url.endswith(f"/claims/{own_table.dispute.claim_id}/#judge")
    client.post(reverse("judge_link:page", args=[name(own_table)]), {"decision": "agree"})
    assert not [b for b in settle_blockers(own_table.session) if "dispute" in b]
