"""Writes for the scoring app: claims, muggins calls, disputes, rulings and appeals. The one
bridge between the models and the scoring engine.

Every service locks the game (or dispute) it changes, refuses a settled session, validates, and
writes its audit entries inside its transaction. A ruling that changes the points of a game whose
result is confirmed makes a new result version through `games.services.result_correct`.

The services live in `claims` (claims, muggins, jackpot cards), `table` (a muggins call and a
jackpot hand's cards confirmed at the table, through its link) and `disputes` (disputes,
rulings, appeals), with what they share in `common`; every one is read from `scoring.services`.
"""

from scoring.counting import MAX_PLAY_POINTS, count_claim, is_impossible
from scoring.services.claims import (
    can_call_muggins,
    can_confirm_cards,
    claim_confirm_cards,
    claim_file,
    muggins_call,
    needs_card_confirmation,
    table_claim_file,
)
from scoring.services.common import JUDGE_PERMISSION, ORGANISER_PERMISSION, current_outcome
from scoring.services.disputes import (
    can_name_judge,
    can_rule,
    dispute_appeal,
    dispute_name_judge,
    dispute_open,
    dispute_rule,
    judge_candidates,
    judge_link_dispute,
    judge_link_refusal,
    link_dispute_rule,
    rule_refusal,
    table_dispute_open,
)
from scoring.services.table import table_cards_confirm, table_muggins_call

__all__ = [
    "JUDGE_PERMISSION",
    "MAX_PLAY_POINTS",
    "ORGANISER_PERMISSION",
    "can_call_muggins",
    "can_confirm_cards",
    "can_name_judge",
    "can_rule",
    "claim_confirm_cards",
    "claim_file",
    "count_claim",
    "current_outcome",
    "dispute_appeal",
    "dispute_name_judge",
    "dispute_open",
    "dispute_rule",
    "is_impossible",
    "judge_candidates",
    "judge_link_dispute",
    "judge_link_refusal",
    "link_dispute_rule",
    "muggins_call",
    "needs_card_confirmation",
    "rule_refusal",
    "table_cards_confirm",
    "table_claim_file",
    "table_dispute_open",
    "table_muggins_call",
]
