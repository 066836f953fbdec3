"""Drawing a round: who sits at which table, from a stored seed.

Terms:
- *entrant*: a checked-in, active player (an int id) who is seated in the round being drawn.
- *mode*: ``"singles"`` (2-player tables, one 3-player table when the count is odd) or
  ``"partners"`` (4-player tables, the rest as one 2- or 3-player table, or one of each).
- *table kinds*: ``"two"`` (two players alone), ``"three"`` (cut-throat, three alone) and
  ``"partners"`` (four players, seats 0 & 2 against seats 1 & 3).
- *opponents*: two players at one table on different sides: both pairs of a two, all three pairs
  of a three, the four cross pairs of a partners table. *Partners*: seats 0 & 2 or 1 & 3.
- *session repeat*: an opponent pair of this draw that were opponents earlier in this session;
  *season repeat*: one that met in an earlier session of the season; *partner repeat*: a partner
  pair that were partners earlier in this session.
- *3-table count*: how many times a player sat at a 3-player table this session. The draw is
  *fair* when nobody at the 3-player table has a higher count than an entrant who is not there.
- *repeat-free round*: a draw of the round with no session repeat. *Horizon*: how many
  repeat-free rounds in a row can still be drawn from now on (this round included, at most
  ``rounds_remaining``), assuming the same entrants.
- *cost*: the score a draw minimises; see ``draw_round`` for its order.
- *chance*: ``Chance(seed)``, the draw's one source of chance: every random choice (a tie
  broken, a start for a search, a seat within a table) is ``random()``, ``below(n)`` or
  ``shuffle(items)``, made from ``random.Random(seed).random()`` alone, so a stored seed
  replays the same choices on any version of Python.

The module is pure Python (no Django) and deterministic: ``Chance(seed)`` is the only source of
chance and every search is bounded by a count of steps, never by the clock, so the same seed,
entrants (in any order) and history always give the same draw. docs/draw.md explains the method
and the decisions.
"""

from games.draw.api import draw_round, swap_seats
from games.draw.budgets import Chance
from games.draw.types import MODES, Draw, DrawError, DrawHistory, DrawTable, table_sizes

__all__ = [
    "MODES",
    "Chance",
    "Draw",
    "DrawError",
    "DrawHistory",
    "DrawTable",
    "draw_round",
    "swap_seats",
    "table_sizes",
]
