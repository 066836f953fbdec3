"""Claim services: filing a claim (counted by the engine) and calling muggins on it.

Terms: a *table* is one game of round 1 of a session opened, checked in and drawn through the real
services (two players with logins); *side 0* / *side 1* are its seats' sides. The claimant is the
side-1 player unless a test says otherwise, so an outcome's `points` is {"1": claimant's points,
"0": caller's points}. *T* is the engine's true count. Cards come from the rule texts (docs/rules.md
"The texts"), named beside each case.
"""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from club import services as club_services
from club.models import Session, SessionState
from core.models import AuditEntry
from scoring import services
from scoring.audit import ScoringVerb
from scoring.engine import ENGINE_VERSION
from scoring.models import Claim, ClaimKind, Outcome
from tests.builders import Table, make_table
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def last_audit_pk() -> int:
    return AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def audit_since(pk: int) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(pk__gt=pk).order_by("pk"))


def rows() -> tuple[int, int, int]:
    return Claim.objects.count(), Outcome.objects.count(), AuditEntry.objects.count()


def play(table: Table, *cards: str) -> list[tuple[int, str]]:
    """A count laid alternately, ending with the side-1 player (the claimant) laying the last."""
    first = len(cards) % 2  # side 0 leads when the count has an even number of cards
    return [(table.players[(first + i) % 2].pk, card) for i, card in enumerate(cards)]


def file(table: Table, kind: str, claimed: int, *, claimant_side: int = 1, actor=None, **cards):
    return services.claim_file(
        game=table.game,
        actor=actor or table.users[claimant_side],
        kind=kind,
        claimant=table.players[claimant_side],
        claimed_points=claimed,
        **cards,
    )


# The four kinds of claim, each with cards from the rule texts and its true count T.
KIND_CARDS = {
    # club-thursday-rules.md, "Combinations": 8, 7, 7, 6, 2 "... is 16".
    ClaimKind.HAND: ({"hand": "8S 7H 7D 6C", "starter": "2H"}, 16),
    # hoyle.txt, "Showing": 9-6-5-4-4 "Fifteen 6 and 8 is 14" (no flush: a crib counts as a hand).
    ClaimKind.CRIB: ({"hand": "9S 6D 5C 4H", "starter": "4D"}, 14),
    # club-thursday-rules.md, "Before the Play": a jack starter is his heels, 2 to the dealer.
    ClaimKind.HEELS: ({"starter": "JD"}, 2),
    # club-thursday-rules.md, "Pegging": 9, 6, 8, 7 "pegs 4 for run when he plays the seven".
    ClaimKind.PLAY: ({"plays": ("9S", "6H", "8D", "7C")}, 4),
}


def cards_for(table: Table, kind: str) -> dict:
    cards, _ = KIND_CARDS[kind]
    if kind == ClaimKind.PLAY:
        return {"plays": play(table, *cards["plays"])}
    return dict(cards)


# (branch, claimed - T, muggins on, muggins called for, v1 kind, v2 kind,
#  claimant's points - T after the last outcome, caller's points after a call)
BRANCHES = [
    ("exact", 0, True, None, "exact", None, 0, None),
    ("over-claim", 2, True, None, "over", None, 0, None),
    ("under, muggins off", -2, False, None, "under_lost", None, -2, None),
    ("under, muggins on, no call", -2, True, None, "under", None, -2, None),
    ("muggins for exactly the overlooked", -2, True, 2, "under", "muggins", -2, 2),
    ("muggins for less", -2, True, 1, "under", "muggins", -2, 1),
    # ACC rule 10.4a: the caller takes the lesser of N and the overlooked; no penalty.
    ("muggins for more", -2, True, 5, "under", "muggins_overcalled", -2, 2),
    # ACC rule 10.4a: nothing overlooked, a false call: the claimant is given N.
    ("muggins when nothing overlooked", 0, True, 3, "exact", "false_muggins", 3, 0),
]


@pytest.mark.parametrize("kind", list(KIND_CARDS))
@pytest.mark.parametrize(
    ("offset", "muggins", "called", "first_kind", "second_kind", "claimant_gain", "caller_gain"),
    [branch[1:] for branch in BRANCHES],
    ids=[branch[0] for branch in BRANCHES],
)
def test_claim_outcome_branches(
    kind, offset, muggins, called, first_kind, second_kind, claimant_gain, caller_gain
):
    table = make_table(muggins=muggins)  # the club's rule is set before session_open snapshots it
    assert table.session.rules["muggins"] is muggins
    _, true = KIND_CARDS[kind]
    claimed = true + offset
    before = last_audit_pk()

    claim = file(table, kind, claimed, **cards_for(table, kind))
    if kind == ClaimKind.HEELS and first_kind == "under":
        first_kind = "under_lost"  # ACC rule 10.3: no muggins on his heels, the points are lost

    assert (claim.kind, claim.claimed_points, claim.true_points) == (kind, claimed, true)
    assert claim.claimant_side == 1
    first = claim.outcomes.get()
    assert first.version == 1
    assert first.kind == first_kind
    assert first.points == {"1": min(claimed, true)}
    filed = audit_since(before)
    assert [entry.action for entry in filed] == [
        ScoringVerb.CLAIM_FILED,
        ScoringVerb.OUTCOME_COMPUTED,
    ]
    assert filed[0].object_id == str(claim.pk)
    assert (filed[0].data["claimed"], filed[0].data["true"]) == (claimed, true)
    assert filed[1].object_id == str(first.pk)
    assert filed[1].data == {"claim": claim.pk, "kind": first_kind, "points": first.points}

    if called is None:
        assert services.current_outcome(claim) == first
        assert first.points == {"1": true + claimant_gain}
        return

    if kind == ClaimKind.HEELS:  # ACC rule 10.3: no muggins on his heels
        with pytest.raises(ValidationError, match="ACC rule 10.3"):
            services.muggins_call(
                claim=claim, actor=table.users[0], caller=table.players[0], points=called
            )
        assert claim.outcomes.count() == 1
        return
    before = last_audit_pk()
    second = services.muggins_call(
        claim=claim, actor=table.users[0], caller=table.players[0], points=called
    )

    assert list(claim.outcomes.order_by("version").values_list("version", flat=True)) == [1, 2]
    assert second.version == 2
    assert second.kind == second_kind
    assert second.points == {"0": caller_gain, "1": true + claimant_gain}
    assert services.current_outcome(claim) == second
    claim.refresh_from_db()
    assert (claim.muggins_caller, claim.muggins_points) == (table.players[0], called)
    assert claim.muggins_called_at is not None
    called_entries = audit_since(before)
    assert [entry.action for entry in called_entries] == [
        ScoringVerb.MUGGINS_CALLED,
        ScoringVerb.OUTCOME_COMPUTED,
    ]
    assert called_entries[0].data == {
        "claim": claim.pk,
        "caller": table.players[0].pk,
        "points": called,
    }
    assert called_entries[1].data["points"] == second.points
    # Version 1 is kept as it was: an outcome is never rewritten.
    assert claim.outcomes.get(version=1).points == {"1": min(claimed, true)}


def test_an_organiser_files_and_records_muggins_for_a_table(table):
    claim = file(table, ClaimKind.HAND, 12, actor=table.organiser, **cards_for(table, "hand"))
    outcome = services.muggins_call(
        claim=claim, actor=table.organiser, caller=table.players[0], points=4
    )

    assert claim.filed_by == table.organiser
    assert outcome.points == {"0": 4, "1": 12}


def test_a_player_files_for_the_other_side(table):
    claim = file(table, ClaimKind.HAND, 16, actor=table.users[0], **cards_for(table, "hand"))

    assert (claim.claimant, claim.claimant_side, claim.filed_by) == (
        table.players[1],
        1,
        table.users[0],
    )


# --- Impossible counts ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "claimed", "impossible"),
    [
        # No hand counts 19, 25, 26 or 27 (hoyle.txt "Showing"; club-thursday-rules.md), nor > 29.
        *[(ClaimKind.HAND, n, True) for n in (19, 25, 26, 27, 30)],
        *[(ClaimKind.CRIB, n, True) for n in (19, 25, 26, 27, 30)],
        *[(ClaimKind.HAND, n, False) for n in (0, 16, 24, 28, 29)],
        *[(ClaimKind.CRIB, n, False) for n in (0, 14, 29)],
        # His heels is 2 or nothing (club-thursday-rules.md, "Before the Play").
        *[(ClaimKind.HEELS, n, True) for n in (1, 3, 4)],
        *[(ClaimKind.HEELS, n, False) for n in (0, 2)],
        # One card pegs at most 14 (double pair royal 12 and a fifteen or 31).
        (ClaimKind.PLAY, services.MAX_PLAY_POINTS + 1, True),
        (ClaimKind.PLAY, 20, True),
        (ClaimKind.PLAY, services.MAX_PLAY_POINTS, False),
        (ClaimKind.PLAY, 4, False),
    ],
)
def test_impossible_counts_are_flagged_at_once(table, kind, claimed, impossible):
    before = last_audit_pk()

    claim = file(table, kind, claimed, **cards_for(table, kind))

    assert claim.impossible is impossible
    assert services.is_impossible(kind, claimed) is impossible
    assert audit_since(before)[0].data["impossible"] is impossible
    # Flagged or not, the claim is still counted: an impossible claim is an over-claim here.
    _, true = KIND_CARDS[kind]
    if claimed > true:
        assert services.current_outcome(claim).kind == "over"
        assert services.current_outcome(claim).points == {"1": true}


def test_max_play_points_is_fourteen_and_a_play_reaches_it(table):
    """9, 2, then four aces: the last ace makes a double pair royal (12, hoyle.txt "Pair") and
    the count 15 (2): 14, the most one card can peg, and not flagged."""
    assert services.MAX_PLAY_POINTS == 14

    claim = file(table, ClaimKind.PLAY, 14, plays=play(table, "9S", "2H", "AS", "AH", "AD", "AC"))

    assert claim.true_points == 14
    assert claim.impossible is False
    assert services.current_outcome(claim).kind == "exact"


# --- True counts, breakdown and engine version ----------------------------------------------------


def labels(claim: Claim) -> list[tuple[str, int]]:
    return [(item["label"], item["points"]) for item in claim.breakdown]


def test_the_8_7_7_6_2_hand_counts_16(table):
    """club-thursday-rules.md, "Combinations": four fifteens (8) and 8 for the double run."""
    claim = file(table, ClaimKind.HAND, 16, hand="8s 7h 7d 6c", starter="2h")

    assert claim.true_points == 16
    assert claim.engine_version == ENGINE_VERSION
    assert (claim.cards, claim.starter) == ("8S 7H 7D 6C", "2H")
    assert claim.breakdown == [
        {"label": "fifteen", "cards": ["7H", "8S"], "points": 2},
        {"label": "fifteen", "cards": ["7D", "8S"], "points": 2},
        {"label": "fifteen", "cards": ["2H", "6C", "7H"], "points": 2},
        {"label": "fifteen", "cards": ["2H", "6C", "7D"], "points": 2},
        {"label": "double run", "cards": ["6C", "7D", "7H", "8S"], "points": 8},
    ]
    assert claim.spoken == "Fifteen 2, fifteen 4, fifteen 6, fifteen 8 and a double run makes 16"
    assert claim.card_list() == ["8S", "7H", "7D", "6C", "2H"]


def test_the_29(table):
    """hoyle.txt, "Showing": J, 5, 5, 5 and the 5 of the jack's suit turned: 16 + 12 + 1."""
    claim = file(table, ClaimKind.HAND, 29, hand="5H 5C 5S JD", starter="5D")

    assert claim.true_points == 29
    assert claim.impossible is False
    assert sum(item["points"] for item in claim.breakdown) == 29
    assert labels(claim).count(("fifteen", 2)) == 8
    assert ("double pair royal", 12) in labels(claim)
    assert ("his nobs", 1) in labels(claim)
    assert claim.engine_version == ENGINE_VERSION
    assert services.current_outcome(claim).kind == "exact"


@pytest.mark.parametrize(
    ("kind", "starter", "true", "breakdown"),
    [
        # hoyle.txt "Flush": "(No count for four-flush in crib.)"; the same four in hand score 4.
        # Fifteens 2+4+9 and K+2+3, and the run 2-3-4, count either way.
        (ClaimKind.CRIB, "KC", 7, [("fifteen", 2), ("fifteen", 2), ("run of 3", 3)]),
        (ClaimKind.HAND, "KC", 11, [("fifteen", 2), ("fifteen", 2), ("run of 3", 3),
                                    ("flush of 4", 4)]),
        # club-thursday-rules.md: "Four cards in hand or crib of the same suit as the starter - 5".
        (ClaimKind.CRIB, "KH", 12, [("fifteen", 2), ("fifteen", 2), ("run of 3", 3),
                                    ("flush of 5", 5)]),
    ],
    ids=["four-flush in crib: not counted", "four-flush in hand: 4", "five-flush in crib: 5"],
)  # fmt: skip
def test_a_four_card_flush_counts_in_the_hand_not_the_crib(table, kind, starter, true, breakdown):
    claim = file(table, kind, true, hand="2H 3H 4H 9H", starter=starter)

    assert claim.true_points == true
    assert labels(claim) == breakdown
    assert services.current_outcome(claim).kind == "exact"


def test_heels_is_two_for_a_jack_starter(table):
    """club-thursday-rules.md, "Before the Play": a jack starter is his heels, the dealer pegs 2."""
    claim = file(table, ClaimKind.HEELS, 2, starter="jd")

    assert claim.true_points == 2
    assert claim.breakdown == [{"label": "his heels", "cards": ["JD"], "points": 2}]
    assert (claim.cards, claim.starter) == ("", "JD")
    assert claim.engine_version == ENGINE_VERSION
    assert services.current_outcome(claim).points == {"1": 2}


@pytest.mark.parametrize(
    ("kind", "cards", "claimed", "outcome"),
    [
        # hoyle.txt "Flush": "(No count for four-flush in crib.)": 2-4-6-8 of hearts, king turned.
        (ClaimKind.CRIB, {"hand": "2H 4H 6H 8H", "starter": "KC"}, 4, "over"),
        # Two for his heels claimed on a queen (club-thursday-rules.md: only a jack).
        (ClaimKind.HEELS, {"starter": "QD"}, 2, "over"),
        # hoyle.txt "Showing": a hand with no counting combination ("I have nineteen").
        (ClaimKind.HAND, {"hand": "2S 4H 8D KC", "starter": "QS"}, 0, "exact"),
        # club-thursday-rules.md "Pegging": 8, 7, 7, 6: no run "because of the extra seven".
        (ClaimKind.PLAY, {"plays": ("8S", "7H", "7D", "6C")}, 4, "over"),
    ],
    ids=["four-flush crib", "heels on a queen", "nineteen hand", "foreign seven"],
)
def test_a_claim_that_counts_nothing_is_filed(table, kind, cards, claimed, outcome):
    if kind == ClaimKind.PLAY:
        cards = {"plays": play(table, *cards["plays"])}

    claim = file(table, kind, claimed, **cards)

    assert claim.true_points == 0
    assert claim.breakdown == []
    assert services.current_outcome(claim).kind == outcome
    assert services.current_outcome(claim).points == {"1": 0}


@pytest.mark.parametrize(
    ("cards", "true", "breakdown", "count"),
    [
        # es-lowe.txt "PLAYING LAST CARDS": 8 and 7 "calling fifteen two".
        (("7S", "8H"), 2, [("fifteen", 2)], 15),
        # hoyle.txt "Pair": a third card of the same rank makes pair royal and pegs 6.
        (("4S", "4H", "4D"), 6, [("pair royal", 6)], 12),
        # club-thursday-rules.md "Pegging": 9, 6, 8, 7, the 7 pegs 4 for the run (no foreign card).
        (("9S", "6H", "8D", "7C"), 4, [("run of 4", 4)], 30),
        # hoyle.txt "Run": 5, 2, 4, 3 played in that order score 4 for run.
        (("5S", "2H", "4D", "3C"), 4, [("run of 4", 4)], 14),
        # britannica-1911.txt "Sequences": A-4, B-3, A-2, B-ace: B a run of four.
        (("4S", "3H", "2D", "AC"), 4, [("run of 4", 4)], 10),
        # es-lowe.txt "THE GO": two ten cards and a 4 make 24; a 7 makes "31 two".
        (("KS", "QH", "4D", "7C"), 2, [("thirty-one", 2)], 31),
        # britannica-1911.txt "Compound Scores": a pair and a fifteen reckoned together (5, 5, 5).
        (("5S", "5H", "5D"), 8, [("fifteen", 2), ("pair royal", 6)], 15),
    ],
    ids=["7-8 fifteen", "pair royal", "run 9-6-8-7", "run 5-2-4-3", "run A-4",
         "thirty-one", "fifteen and pair royal"],
)  # fmt: skip
def test_play_counts(table, cards, true, breakdown, count):
    laid = play(table, *cards)
    claim = file(table, ClaimKind.PLAY, true, plays=laid)

    assert claim.true_points == true
    assert labels(claim) == breakdown
    assert claim.plays == [[player, card] for player, card in laid]
    assert claim.card_list() == list(cards)
    assert claim.engine_version == ENGINE_VERSION
    # The count read aloud names each score and the running count (its wording may change).
    assert all(label in claim.spoken.lower() for label, _ in breakdown)
    assert str(count) in claim.spoken
    assert services.current_outcome(claim).kind == "exact"


# --- Bad input: its own message, nothing saved ----------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "cards", "field", "message"),
    [
        ("hand", {"hand": "5X 7H 7D 6C", "starter": "2H"}, "hand", "'5X' is not a card"),
        ("hand", {"hand": "8S 7H 7D 6C", "starter": "5X"}, "starter", "'5X' is not a card"),
        ("hand", {"hand": "8S 7H 7H 6C", "starter": "2H"}, "hand", "7H is twice in the hand"),
        ("crib", {"hand": "8S 7H 7H 6C", "starter": "2H"}, "hand", "7H is twice in the crib"),
        ("hand", {"hand": "8S 7H 7D 6C", "starter": "7D"}, "starter",
         "the starter 7D is also in the hand"),
        ("hand", {"hand": "8S 7H", "starter": "2H"}, "hand", "not 2: 8S 7H"),
        ("crib", {"hand": "8S 7H 7D", "starter": "2H"}, "hand", "a crib has 4 cards, not 3"),
        ("heels", {"starter": "JX"}, "starter", "'JX' is not a card"),
        ("play", {"plays": ("KS", "QH", "5D", "7C")}, "plays",
         "7C takes the count to 32: a count never passes 31"),
        ("play", {"plays": ("5H", "KS", "5h")}, "plays", "5H is laid twice in the count"),
        ("play", {"plays": ("5H", "ZZ")}, "plays", "Card 2: 'ZZ' is not a card"),
        ("play", {"plays": ()}, "plays", "Give the cards of the current count"),
    ],
    ids=["unknown card", "unknown starter", "card twice in hand", "card twice in crib",
         "starter also in hand", "two cards", "crib of three", "unknown heels starter",
         "count past 31", "card laid twice", "unknown card laid", "no cards laid"],
)  # fmt: skip
def test_bad_cards_name_the_card_and_save_nothing(table, kind, cards, field, message):
    if kind == "play":
        cards = {"plays": play(table, *cards["plays"])}
    before = rows()

    with pytest.raises(ValidationError) as error:
        file(table, kind, 2, **cards)

    assert list(error.value.message_dict) == [field]
    assert message in error.value.message_dict[field][0]
    assert rows() == before


def test_a_claimant_not_at_the_table_is_refused(table):
    outsider = PlayerFactory(club=table.club, user=UserFactory(role="players"))
    before = rows()

    with pytest.raises(ValidationError) as error:
        services.claim_file(
            game=table.game,
            actor=table.users[0],
            kind=ClaimKind.HAND,
            claimant=outsider,
            claimed_points=16,
            **cards_for(table, "hand"),
        )

    assert f"{outsider} is not at this table" in error.value.message_dict["claimant"][0]
    assert rows() == before


@pytest.mark.parametrize("role", ["players", "judges"])
def test_a_filer_neither_seated_nor_organiser_is_refused(table, role):
    outsider = UserFactory(role=role)
    PlayerFactory(club=table.club, user=outsider)
    before = rows()

    with pytest.raises(PermissionDenied):
        file(table, ClaimKind.HAND, 16, actor=outsider, **cards_for(table, "hand"))

    assert rows() == before


@pytest.mark.parametrize(
    ("laid_by", "message"),
    [
        ("outsider", "Every card is laid by a player at this table"),
        ("opponent last", "The last card is the one claimed for"),
    ],
)
def test_a_play_is_laid_by_the_table_and_ends_with_the_claimant(table, laid_by, message):
    if laid_by == "outsider":
        outsider = PlayerFactory(club=table.club)
        laid = [(outsider.pk, "7S"), (table.players[1].pk, "8H")]
    else:
        laid = [(table.players[1].pk, "7S"), (table.players[0].pk, "8H")]
    before = rows()

    with pytest.raises(ValidationError) as error:
        file(table, ClaimKind.PLAY, 2, plays=laid)

    assert message in error.value.message_dict["plays"][0]
    assert rows() == before


def test_a_negative_claim_is_refused(table):
    before = rows()

    with pytest.raises(ValidationError) as error:
        file(table, ClaimKind.HAND, -2, **cards_for(table, "hand"))

    assert "claimed_points" in error.value.message_dict
    assert rows() == before


# --- Muggins rules --------------------------------------------------------------------------------


def under_claim(table: Table) -> Claim:
    """The 8-7-7-6-2 hand (16) claimed as 12 by side 1: 4 overlooked."""
    return file(table, ClaimKind.HAND, 12, **cards_for(table, "hand"))


def test_muggins_by_the_claimants_own_side_is_refused(table):
    claim = under_claim(table)
    before = rows()

    with pytest.raises(ValidationError) as error:
        services.muggins_call(claim=claim, actor=table.users[1], caller=table.players[1], points=4)

    assert "called by an opponent" in error.value.message_dict["caller"][0]
    assert rows() == before
    claim.refresh_from_db()
    assert claim.muggins_caller is None


def test_a_player_records_muggins_only_for_their_own_side(table):
    claim = under_claim(table)
    before = rows()

    with pytest.raises(PermissionDenied):
        services.muggins_call(claim=claim, actor=table.users[1], caller=table.players[0], points=4)

    assert rows() == before


def test_an_outsider_cannot_record_muggins(table):
    claim = under_claim(table)
    outsider = UserFactory(role="judges")
    before = rows()

    with pytest.raises(PermissionDenied):
        services.muggins_call(claim=claim, actor=outsider, caller=table.players[0], points=4)

    assert rows() == before


def test_a_second_muggins_call_is_refused(table):
    claim = under_claim(table)
    services.muggins_call(claim=claim, actor=table.users[0], caller=table.players[0], points=2)
    before = rows()

    with pytest.raises(ValidationError, match="already called muggins"):
        services.muggins_call(claim=claim, actor=table.organiser, caller=table.players[0], points=2)

    assert rows() == before
    assert claim.outcomes.count() == 2
    claim.refresh_from_db()
    assert claim.muggins_points == 2


def test_muggins_is_refused_when_the_session_plays_without_it():
    table = make_table(muggins=False)
    claim = under_claim(table)
    assert services.current_outcome(claim).kind == "under_lost"
    before = rows()

    with pytest.raises(ValidationError, match="played without muggins"):
        services.muggins_call(claim=claim, actor=table.users[0], caller=table.players[0], points=4)

    assert rows() == before


def test_the_session_keeps_the_muggins_rule_it_opened_with(table):
    """Turning muggins off in the club after the session opened does not change the session."""
    club_services.club_update_rules(club=table.club, actor=table.organiser, muggins=False)
    claim = under_claim(table)

    outcome = services.muggins_call(
        claim=claim, actor=table.users[0], caller=table.players[0], points=4
    )

    assert services.current_outcome(claim).kind == outcome.kind == "muggins"


@pytest.mark.parametrize("points", [0, None])
def test_muggins_for_nothing_is_refused(table, points):
    claim = under_claim(table)
    before = rows()

    with pytest.raises(ValidationError) as error:
        services.muggins_call(
            claim=claim, actor=table.users[0], caller=table.players[0], points=points
        )

    assert "points" in error.value.message_dict
    assert rows() == before


def test_muggins_on_a_disputed_claim_is_refused(table):
    claim = under_claim(table)
    services.dispute_open(claim=claim, actor=table.users[1], statement="I said sixteen.")
    before = rows()

    with pytest.raises(ValidationError, match="disputed"):
        services.muggins_call(claim=claim, actor=table.users[0], caller=table.players[0], points=4)

    assert rows() == before


# --- A settled session ----------------------------------------------------------------------------


def test_a_settled_session_refuses_claims_and_muggins(table):
    claim = under_claim(table)
    Session.objects.filter(pk=table.session.pk).update(state=SessionState.SETTLED)
    before = rows()

    with pytest.raises(ValidationError, match="is settled"):
        file(table, ClaimKind.HAND, 16, **cards_for(table, "hand"))
    with pytest.raises(ValidationError, match="is settled"):
        services.muggins_call(claim=claim, actor=table.users[0], caller=table.players[0], points=4)

    assert rows() == before
