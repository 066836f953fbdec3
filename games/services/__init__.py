"""Writes for the games app: drawing rounds, swapping seats, entering, confirming and correcting
results, one table or a whole round at a time. The one bridge between the models and the pure
modules `games.draw` and `games.game_result`.

Every service locks the rows it changes (club.locking's order: session, round, game), refuses a
settled session, validates, and writes one audit entry per change inside its transaction.
`actor` is the logged-in user doing it.

- `draws`: round_draw, round_seat (tables an app above chose), round_swap_seats, round_withdraw
  (and the draw history they read, and why a round's seats can no longer change: swap_refusal,
  withdraw_refusal);
- `results`: result_enter, result_confirm, result_correct, and `lock_game`, which every change
  at a table takes (claims and rulings too), and `lock_round`, which a change of a whole round
  takes: both refuse a round withdrawn since the page was read (code WITHDRAWN);
- `rounds`: round_results_enter (a round's scorecards, signed ones confirmed at once),
  round_results_confirm;
- `unfinished`: game_not_played, game_forfeit, game_back_to_playing (a game that cannot be
  finished);
- `corrections`: correction_propose, correction_withdraw, correction_accept (a correction by
  someone who plays, taking effect when the other side accepts it through its one-time link);
- `table`: what the players do through a table's link without a login: table_result_enter,
  table_result_accept (and table_game, table_refusal, table_acceptors for its page);
- `table_cards`: table_cards_make, table_cards_renew (a club's printed card per table number),
  and where a card or an old game link leads now (card_now, table_forward).
"""

from games.services.corrections import (
    accept_refusal,
    acceptors,
    correction_accept,
    correction_propose,
    correction_withdraw,
    link_proposal,
    open_proposal,
)
from games.services.draws import (
    KIND_OF_TABLE,
    WITHDRAW_PERMISSION,
    draw_history,
    round_draw,
    round_entrants,
    round_seat,
    round_swap_seats,
    round_withdraw,
    swap_refusal,
    withdraw_refusal,
)
from games.services.results import (
    CORRECT_PERMISSION,
    WITHDRAWN,
    can_confirm,
    can_correct,
    lock_game,
    lock_round,
    result_confirm,
    result_correct,
    result_enter,
    status_refusal,
)
from games.services.rounds import NO_SCORES, round_results_confirm, round_results_enter
from games.services.table import (
    can_accept,
    table_acceptors,
    table_game,
    table_refusal,
    table_result_accept,
    table_result_enter,
)
from games.services.table_cards import (
    MOST_CARDS,
    TableNow,
    card_now,
    current_cards,
    most_tables,
    table_card,
    table_cards_make,
    table_cards_renew,
    table_forward,
    todays_session,
)
from games.services.unfinished import game_back_to_playing, game_forfeit, game_not_played

__all__ = [
    "MOST_CARDS",
    "TableNow",
    "card_now",
    "current_cards",
    "most_tables",
    "table_card",
    "table_cards_make",
    "table_cards_renew",
    "table_forward",
    "todays_session",
    "CORRECT_PERMISSION",
    "KIND_OF_TABLE",
    "NO_SCORES",
    "WITHDRAWN",
    "WITHDRAW_PERMISSION",
    "accept_refusal",
    "acceptors",
    "correction_accept",
    "correction_propose",
    "correction_withdraw",
    "link_proposal",
    "open_proposal",
    "can_accept",
    "can_confirm",
    "can_correct",
    "draw_history",
    "game_back_to_playing",
    "game_forfeit",
    "game_not_played",
    "lock_game",
    "lock_round",
    "result_confirm",
    "result_correct",
    "result_enter",
    "status_refusal",
    "round_draw",
    "round_seat",
    "round_entrants",
    "round_results_confirm",
    "round_results_enter",
    "round_swap_seats",
    "round_withdraw",
    "swap_refusal",
    "table_acceptors",
    "table_game",
    "table_refusal",
    "table_result_accept",
    "table_result_enter",
    "withdraw_refusal",
]
