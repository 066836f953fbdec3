"""Dispute services: opening a dispute on a claim, a judge's ruling, the one appeal, and how a
ruling moves a game's recorded result.

Terms: a *table* is one game of round 1 of a session opened, checked in and drawn through the real
services (two players with logins, side 0 and side 1). The disputed claim is the 8-7-7-6-2 hand
(16, club-thursday-rules.md "Combinations") claimed as 12 by the side-1 player with muggins on:
its outcome is "under", {"1": 12}. A *judge* is a user in the judges role who is not seated at
the table unless a test says so. The *recorded result* is 121 - 89 (side 0 wins; 89 is under the
skunk line 91, so a skunk win worth 3 game points and a spread of 32).
"""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from club.models import Session, SessionState
from core.models import AuditEntry
from games import services as games_services
from games.audit import GameVerb
from games.models import Result, ResultSource, ResultState
from games.selectors import session_standings
from scoring import services
from scoring.audit import ScoringVerb
from scoring.models import ClaimKind, Dispute, DisputeState, Ruling
from scoring.selectors import judges_queue, session_claims, session_open_disputes
from tests.builders import Table, make_table
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def judge():
    return UserFactory(role="judges", club=ClubFactory(slug="officials"))


def under_claim(table: Table):
    return services.claim_file(
        game=table.game,
        actor=table.users[1],
        kind=ClaimKind.HAND,
        claimant=table.players[1],
        claimed_points=12,
        hand="8S 7H 7D 6C",
        starter="2H",
    )


def disputed(table: Table) -> Dispute:
    return services.dispute_open(
        claim=under_claim(table), actor=table.users[1], statement="I said sixteen, not twelve."
    )


def confirm(table: Table, scores=(121, 89)) -> Result:
    draft = games_services.result_enter(game=table.game, actor=table.users[0], scores=scores)
    return games_services.result_confirm(result=draft, actor=table.users[1])


def override_16(dispute: Dispute, actor) -> Ruling:
    """The judge heard "sixteen": side 1 scores 16, side 0 nothing (4 more than the outcome)."""
    return services.dispute_rule(
        dispute=dispute,
        actor=actor,
        decision="override",
        points={0: 0, 1: 16},
        reason="Both players agree he said sixteen aloud.",
    )


def versions(table: Table) -> list[tuple[int, str, str, list[int]]]:
    return [
        (result.version, result.state, result.source, result.scores)
        for result in table.game.results.order_by("version")
    ]


def standing(table: Table) -> dict[int, tuple[int, int, int]]:
    """Per player id: (game points, won, spread) from the session standings."""
    return {
        row.player_id: (row.game_points, row.won, row.spread)
        for row in session_standings(table.session)
    }


# --- Opening a dispute ----------------------------------------------------------------------------


@pytest.mark.parametrize("side", [0, 1])
def test_a_seated_player_opens_a_dispute(table, side):
    claim = under_claim(table)

    dispute = services.dispute_open(
        claim=claim, actor=table.users[side], statement="  Count it again, please.  "
    )

    assert dispute.claim == claim
    assert dispute.opened_by == table.players[side]
    assert dispute.statement == "Count it again, please."
    assert dispute.state == DisputeState.OPEN
    entry = AuditEntry.objects.filter(action=ScoringVerb.DISPUTE_OPENED).get()
    assert entry.object_id == str(dispute.pk)
    assert entry.data == {"claim": claim.pk, "statement": "Count it again, please."}


@pytest.mark.parametrize("who", ["organiser", "judge", "player of another table"])
def test_only_a_player_seated_at_the_game_opens_a_dispute(table, who):
    claim = under_claim(table)
    if who == "organiser":
        actor = table.organiser
    elif who == "judge":
        actor = judge()
    else:
        actor = UserFactory(role="players")
        PlayerFactory(club=table.club, user=actor)

    with pytest.raises(PermissionDenied):
        services.dispute_open(claim=claim, actor=actor, statement="Wrong count.")

    assert not Dispute.objects.exists()


def test_a_claim_is_disputed_once(table):
    dispute = disputed(table)

    with pytest.raises(ValidationError, match="already disputed"):
        services.dispute_open(claim=dispute.claim, actor=table.users[0], statement="Me too.")

    assert Dispute.objects.count() == 1


@pytest.mark.parametrize("statement", ["", "   ", None])
def test_a_dispute_needs_a_statement(table, statement):
    claim = under_claim(table)

    with pytest.raises(ValidationError) as error:
        services.dispute_open(claim=claim, actor=table.users[1], statement=statement)

    assert "statement" in error.value.message_dict
    assert not Dispute.objects.exists()


def test_open_disputes_are_listed_while_they_wait_for_a_judge(table):
    """session_open_disputes (what settling waits for) and the judges' queue list a dispute while
    it is open and again while appealed; not after the first ruling (it may be appealed, but
    nobody has to: an unappealed ruling must not block settling) and not once final."""
    first, second = judge(), judge()
    dispute = disputed(table)
    listed = [
        list(session_open_disputes(table.session)) == [dispute],
        list(judges_queue(table.club)) == [dispute],
    ]

    services.dispute_rule(dispute=dispute, actor=first, decision="agree")
    listed_ruled = [
        session_open_disputes(table.session).exists(),
        judges_queue(table.club).exists(),
    ]

    services.dispute_appeal(dispute=dispute, actor=table.users[1], statement="He said sixteen.")
    listed_appealed = [
        list(session_open_disputes(table.session)) == [dispute],
        list(judges_queue(table.club)) == [dispute],
    ]

    services.dispute_rule(dispute=dispute, actor=second, decision="agree")
    dispute.refresh_from_db()

    assert listed == [True, True]
    assert listed_ruled == [False, False]
    assert listed_appealed == [True, True]
    assert dispute.state == DisputeState.FINAL
    assert not session_open_disputes(table.session).exists()
    assert not judges_queue(table.club).exists()
    # The auditor's report keeps the claim with its dispute and both rulings.
    [claim] = session_claims(table.session)
    assert [ruling.level for ruling in claim.dispute.rulings.all()] == [1, 2]


# --- Who rules, and how ---------------------------------------------------------------------------


def test_a_judge_seated_at_the_game_cannot_rule_on_it():
    table = make_table(roles=("judges", "players"))
    [seated_judge] = [user for user in table.users if user.groups.filter(name="judges").exists()]
    assert seated_judge.has_perm("scoring.rule_dispute")
    dispute = disputed(table)
    other = judge()

    assert services.can_rule(dispute, seated_judge) is False
    assert services.can_rule(dispute, other) is True
    with pytest.raises(PermissionDenied, match="a party to this claim"):
        services.dispute_rule(dispute=dispute, actor=seated_judge, decision="agree")

    assert not Ruling.objects.exists()
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.OPEN


@pytest.mark.parametrize("who", ["seated player", "player of another table"])
def test_a_player_cannot_rule(table, who):
    dispute = disputed(table)
    if who == "seated player":
        actor = table.users[0]
    else:
        actor = UserFactory(role="players")
        PlayerFactory(club=table.club, user=actor)

    assert services.can_rule(dispute, actor) is False
    with pytest.raises(PermissionDenied, match="Only judges"):
        services.dispute_rule(dispute=dispute, actor=actor, decision="agree")

    assert not Ruling.objects.exists()


@pytest.mark.parametrize("reason", ["", "   "])
def test_an_override_needs_a_reason(table, reason):
    dispute = disputed(table)

    with pytest.raises(ValidationError) as error:
        services.dispute_rule(
            dispute=dispute, actor=judge(), decision="override", points={1: 16}, reason=reason
        )

    assert "reason" in error.value.message_dict
    assert not Ruling.objects.exists()


def test_an_unknown_decision_is_refused(table):
    dispute = disputed(table)

    with pytest.raises(ValidationError) as error:
        services.dispute_rule(dispute=dispute, actor=judge(), decision="maybe")

    assert "decision" in error.value.message_dict
    assert not Ruling.objects.exists()


def test_agree_takes_the_current_outcomes_points(table):
    """After a muggins call for 6 with 4 overlooked the current outcome is version 2: the caller
    4, the claimant 12 (ACC rule 10.4a). Agreeing takes those points, not v1's."""
    claim = under_claim(table)
    services.muggins_call(claim=claim, actor=table.users[0], caller=table.players[0], points=6)
    dispute = services.dispute_open(
        claim=claim, actor=table.users[0], statement="I called muggins for the double run."
    )
    the_judge = judge()

    ruling = services.dispute_rule(dispute=dispute, actor=the_judge, decision="agree")

    assert services.current_outcome(claim).version == 2
    assert ruling.points == services.current_outcome(claim).points == {"0": 4, "1": 12}
    assert (ruling.level, ruling.decision, ruling.reason, ruling.judge) == (
        1,
        "agree",
        "",
        the_judge,
    )
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.RULED
    entry = AuditEntry.objects.filter(action=ScoringVerb.DISPUTE_RULED).get()
    assert entry.object_id == str(ruling.pk)
    assert entry.data["points"] == {"0": 4, "1": 12}
    assert entry.data["level"] == 1


def test_an_override_records_the_points_given_for_every_side(table):
    dispute = disputed(table)

    ruling = services.dispute_rule(
        dispute=dispute, actor=judge(), decision="override", points={1: 16}, reason="Heard 16."
    )

    assert ruling.points == {"0": 0, "1": 16}
    assert ruling.reason == "Heard 16."
    assert ruling.decision == "override"


def test_a_ruled_dispute_is_not_ruled_again_at_the_same_level(table):
    dispute = disputed(table)
    services.dispute_rule(dispute=dispute, actor=judge(), decision="agree")

    with pytest.raises(ValidationError, match="ruled"):
        services.dispute_rule(dispute=dispute, actor=judge(), decision="agree")

    assert Ruling.objects.count() == 1


# --- The appeal -----------------------------------------------------------------------------------


def test_an_appeal_needs_a_first_ruling(table):
    dispute = disputed(table)

    with pytest.raises(ValidationError, match="no ruling to appeal"):
        services.dispute_appeal(dispute=dispute, actor=table.users[1], statement="Unfair.")

    dispute.refresh_from_db()
    assert dispute.state == DisputeState.OPEN


@pytest.mark.parametrize("who", ["organiser", "judge", "player of another table"])
def test_only_a_party_appeals(table, who):
    dispute = disputed(table)
    services.dispute_rule(dispute=dispute, actor=judge(), decision="agree")
    if who == "organiser":
        actor = table.organiser
    elif who == "judge":
        actor = judge()
    else:
        actor = UserFactory(role="players")
        PlayerFactory(club=table.club, user=actor)

    with pytest.raises(PermissionDenied):
        services.dispute_appeal(dispute=dispute, actor=actor, statement="Unfair.")

    dispute.refresh_from_db()
    assert dispute.state == DisputeState.RULED


def test_an_appeal_needs_a_statement(table):
    dispute = disputed(table)
    services.dispute_rule(dispute=dispute, actor=judge(), decision="agree")

    with pytest.raises(ValidationError) as error:
        services.dispute_appeal(dispute=dispute, actor=table.users[1], statement="  ")

    assert "statement" in error.value.message_dict


def test_the_appeal_goes_to_another_judge_whose_ruling_is_final(table):
    first, second = judge(), judge()
    dispute = disputed(table)
    services.dispute_rule(dispute=dispute, actor=first, decision="agree")

    appealed = services.dispute_appeal(
        dispute=dispute, actor=table.users[0], statement="  The first judge did not ask me.  "
    )

    assert appealed.state == DisputeState.APPEALED
    assert appealed.appealed_by == table.players[0]
    assert appealed.appeal_statement == "The first judge did not ask me."
    assert appealed.appealed_at is not None
    assert AuditEntry.objects.filter(action=ScoringVerb.DISPUTE_APPEALED).count() == 1

    assert services.can_rule(appealed, first) is False
    with pytest.raises(PermissionDenied, match="another judge"):
        services.dispute_rule(dispute=appealed, actor=first, decision="agree")
    assert Ruling.objects.count() == 1

    assert services.can_rule(appealed, second) is True
    final = override_16(appealed, second)

    assert (final.level, final.judge, final.points) == (2, second, {"0": 0, "1": 16})
    appealed.refresh_from_db()
    assert appealed.state == DisputeState.FINAL
    assert services.can_rule(appealed, judge()) is False

    with pytest.raises(ValidationError, match="once"):
        services.dispute_appeal(dispute=appealed, actor=table.users[1], statement="Again!")
    with pytest.raises(ValidationError, match="final"):
        services.dispute_rule(dispute=appealed, actor=judge(), decision="agree")
    assert Ruling.objects.count() == 2
    appealed.refresh_from_db()
    assert appealed.state == DisputeState.FINAL


# --- How a ruling changes the recorded result -----------------------------------------------------


def test_a_ruling_that_changes_points_makes_one_new_result_version(table):
    confirm(table)
    winner, loser = table.players[0].pk, table.players[1].pk
    assert standing(table) == {winner: (3, 1, 32), loser: (0, 0, -32)}
    dispute = disputed(table)
    the_judge = judge()

    ruling = override_16(dispute, the_judge)

    # Side 1 gains 16 - 12 = 4: 89 -> 93, no longer a skunk (the skunk line is 91).
    assert versions(table) == [
        (1, ResultState.SUPERSEDED, ResultSource.ENTRY, [121, 89]),
        (2, ResultState.CONFIRMED, ResultSource.RULING, [121, 93]),
    ]
    new = table.game.results.get(version=2)
    assert ruling.result == new
    assert (new.entered_by, new.confirmed_by) == (the_judge, the_judge)
    assert f"claim {dispute.claim.pk}" in new.reason
    assert "[121, 93]" in ruling.note and "version 2" in ruling.note
    assert standing(table) == {winner: (2, 1, 28), loser: (0, 0, -28)}
    corrected = AuditEntry.objects.filter(action=GameVerb.RESULT_CORRECTED).get()
    assert corrected.data["scores"] == {"before": [121, 89], "after": [121, 93]}
    assert corrected.data["source"] == ResultSource.RULING
    ruled = AuditEntry.objects.filter(action=ScoringVerb.DISPUTE_RULED).get()
    assert ruled.data["result_version"] == 2


def test_the_appeal_ruling_moves_the_scores_by_its_own_difference(table):
    """The first judge gives 16 (89 -> 93); the appeal judge agrees with the engine's 12: the
    scores move back by 4, a third version; standings follow each time."""
    confirm(table)
    winner, loser = table.players[0].pk, table.players[1].pk
    dispute = disputed(table)
    override_16(dispute, judge())
    services.dispute_appeal(dispute=dispute, actor=table.users[0], statement="He said twelve.")

    final = services.dispute_rule(dispute=dispute, actor=judge(), decision="agree")

    assert final.points == {"1": 12}
    assert versions(table) == [
        (1, ResultState.SUPERSEDED, ResultSource.ENTRY, [121, 89]),
        (2, ResultState.SUPERSEDED, ResultSource.RULING, [121, 93]),
        (3, ResultState.CONFIRMED, ResultSource.RULING, [121, 89]),
    ]
    assert final.result == table.game.results.get(version=3)
    assert "appeal" in final.result.reason
    assert standing(table) == {winner: (3, 1, 32), loser: (0, 0, -32)}


@pytest.mark.parametrize("decision", ["agree", "override with the same points"])
def test_a_ruling_that_changes_nothing_makes_no_version(table, decision):
    confirm(table)
    dispute = disputed(table)

    if decision == "agree":
        ruling = services.dispute_rule(dispute=dispute, actor=judge(), decision="agree")
    else:
        ruling = services.dispute_rule(
            dispute=dispute,
            actor=judge(),
            decision="override",
            points={1: 12},
            reason="He said twelve; twelve it is.",
        )

    assert ruling.result is None
    assert ruling.note == "The ruling does not change the points."
    assert versions(table) == [(1, ResultState.CONFIRMED, ResultSource.ENTRY, [121, 89])]
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CORRECTED).exists()


@pytest.mark.parametrize("recorded", ["nothing entered", "a draft"])
def test_a_ruling_before_any_confirmed_result_makes_no_version(table, recorded):
    if recorded == "a draft":
        games_services.result_enter(game=table.game, actor=table.users[0], scores=[121, 89])
    before = versions(table)
    dispute = disputed(table)

    ruling = override_16(dispute, judge())

    assert ruling.result is None
    assert ruling.note.startswith("No confirmed result yet")
    assert versions(table) == before
    assert ruling.points == {"0": 0, "1": 16}
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.RULED


def test_a_ruling_that_cannot_move_the_winners_score_says_so(table):
    """The winner is already at 121: a ruling giving the winner's side 4 more moves nothing."""
    confirm(table)
    claim = services.claim_file(
        game=table.game,
        actor=table.users[0],
        kind=ClaimKind.HAND,
        claimant=table.players[0],
        claimed_points=12,
        hand="8S 7H 7D 6C",
        starter="2H",
    )
    dispute = services.dispute_open(claim=claim, actor=table.users[0], statement="I said 16.")

    ruling = services.dispute_rule(
        dispute=dispute, actor=judge(), decision="override", points={0: 16}, reason="He did."
    )

    assert ruling.result is None
    assert "do not change" in ruling.note
    assert versions(table) == [(1, ResultState.CONFIRMED, ResultSource.ENTRY, [121, 89])]


# --- A settled session ----------------------------------------------------------------------------


def test_a_settled_session_refuses_disputes_rulings_and_appeals(table):
    open_dispute = disputed(table)
    ruled_claim = services.claim_file(
        game=table.game,
        actor=table.users[0],
        kind=ClaimKind.HEELS,
        claimant=table.players[0],
        claimed_points=2,
        starter="JS",
    )
    ruled = services.dispute_open(claim=ruled_claim, actor=table.users[1], statement="No jack.")
    services.dispute_rule(dispute=ruled, actor=judge(), decision="agree")
    fresh_claim = services.claim_file(
        game=table.game,
        actor=table.users[0],
        kind=ClaimKind.HEELS,
        claimant=table.players[0],
        claimed_points=2,
        starter="JH",
    )
    Session.objects.filter(pk=table.session.pk).update(state=SessionState.SETTLED)

    with pytest.raises(ValidationError, match="is settled"):
        services.dispute_open(claim=fresh_claim, actor=table.users[1], statement="No jack.")
    with pytest.raises(ValidationError, match="is settled"):
        services.dispute_rule(dispute=open_dispute, actor=judge(), decision="agree")
    with pytest.raises(ValidationError, match="is settled"):
        services.dispute_appeal(dispute=ruled, actor=table.users[1], statement="Unfair.")

    assert Dispute.objects.count() == 2
    assert Ruling.objects.count() == 1
