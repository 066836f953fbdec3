"""A club's house rules as one typed value: `HouseRules`. Pure Python, standard library only.

Terms (docs/spec.md, "The club's house rules"):
- house rules: the settings a club plays under, with the defaults written below. The `Club` row
  holds the current ones; a session keeps a snapshot (a plain dict, `HouseRules.snapshot()`) of
  the rules it was played under, so a later edit never rewrites history.
- snapshot: the JSON a session stores. `HouseRules.from_snapshot` reads one back; a key an older
  snapshot lacks (a rule added since) takes its default, so old sessions keep meaning what they
  meant (no jackpot, no skunk bank).
- fee per: "session" (each player pays the entry fee once a morning) or "game" (the fee for each
  game a player is seated in, docs/spec.md "The club's house rules"); a snapshot from before
  the rule reads "session", what it was played under.
- paid places: one in `players_per_paid_place` players, rounded up (13 players at 4: 4 places).
- place weights: "linear" (k, k-1, ..., 1), "equal", or whole numbers that never grow ("50,30,20").
- skunk line: a loser whose score is under it is skunked; the double skunk line likewise
  (western-publishing.txt: skunk under 91, double skunk under 61 in a game of 121; Hoyle's and
  Britannica's "lurch" is the double skunk line at 61).
- game points: a win, a skunk win, a double skunk win; a loss scores none.
- jackpot: a side pot for a hand of 29, 28 or 24; its contribution per paying player is in cents,
  0 when the club runs no such jackpot.
- table links: each table's QR code and short link on the seating chart, through which the
  players at it enter their result and a player of another side accepts it, without a login;
  table PINs: accepting there needs that player's 4-digit PIN.
- forfeit points: what a forfeit scores (a game a side cannot finish and leaves): the game
  points of the side that stays, with a win and no spread; the side that leaves loses with 0
  points and no spread; never a skunk or a highlight. At most a plain win's points.
- signed scorecards confirm: an organiser typing in a round's scorecards and ticking that the
  players signed them confirms those results at once (otherwise they are drafts to confirm).

Code outside `club/` reads a rule only through this type (an architecture test checks it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields

GAME_TARGETS = (61, 121)
JACKPOT_HANDS = (29, 28, 24)
WEIGHT_WORDS = ("linear", "equal")
FEE_PER_SESSION = "session"
FEE_PER_GAME = "game"


def parse_place_weights(text: str) -> str | list[int]:
    """Read a place-weights rule: "linear", "equal", or whole numbers separated by commas.

    Raises ValueError with a message that says what to write instead.
    """
    word = (text or "").strip().lower()
    if word in WEIGHT_WORDS:
        return word
    try:
        weights = [int(part.strip()) for part in word.split(",")]
    except ValueError:
        raise ValueError(
            'Write "linear", "equal", or whole numbers separated by commas, such as "50,30,20".'
        ) from None
    if any(weight <= 0 for weight in weights):
        raise ValueError("Every place weight must be a whole number above zero.")
    if weights != sorted(weights, reverse=True):
        raise ValueError("Place weights must not grow: a better place never gets less.")
    return weights


@dataclass(frozen=True)
class HouseRules:
    """The house rules of a club or of one session; the defaults are the design's."""

    game_target: int = 121
    entry_fee_cents: int = 25
    fee_per: str = "session"
    payout_coin_cents: int = 25
    players_per_paid_place: int = 4
    place_weights: str = "linear"
    skunk_line: int = 91
    double_skunk_line: int = 61
    points_win: int = 2
    points_skunk_win: int = 3
    points_double_skunk_win: int = 3
    muggins: bool = True
    rounds_per_session: int = 6
    table_mode: str = "singles"
    standings_public: bool = True
    skunk_bank: bool = False
    jackpot_29_cents: int = 0
    jackpot_28_cents: int = 0
    jackpot_24_cents: int = 0
    table_links: bool = True
    table_pins: bool = False
    signed_scorecards_confirm: bool = True
    forfeit_points: int = 2

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every rule's name, in declaration order (the snapshot's keys)."""
        return tuple(field.name for field in fields(cls))

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, object]) -> HouseRules:
        """The rules a session's snapshot holds; missing rules take their defaults."""
        return cls(**{name: snapshot[name] for name in cls.names() if name in snapshot})

    def snapshot(self) -> dict[str, object]:
        """Plain values for a session to keep (JSON) and for the audit trail to compare."""
        return asdict(self)

    # --- Derived values -------------------------------------------------------------------------

    def paid_places(self, players: int) -> int:
        """How many places are paid for `players` players (one in N, rounded up)."""
        if players <= 0:
            return 0
        return -(-players // self.players_per_paid_place)

    def weights(self) -> str | list[int]:
        """The place weights read: "linear", "equal", or the list of whole numbers."""
        return parse_place_weights(self.place_weights)

    def is_skunked(self, score: int) -> bool:
        """A loser with this score is skunked."""
        return score < self.skunk_line

    def is_double_skunked(self, score: int) -> bool:
        """A loser with this score is double skunked (Hoyle's lurch, at 61 in a game of 121)."""
        return score < self.double_skunk_line

    def win_points(self, *, skunk: bool, double_skunk: bool) -> int:
        """The winner's game points, by the worst-beaten loser."""
        if double_skunk:
            return self.points_double_skunk_win
        if skunk:
            return self.points_skunk_win
        return self.points_win

    def jackpot_cents(self, hand: int) -> int:
        """What each paying player adds to the jackpot for `hand` (29, 28 or 24); 0: none."""
        if hand not in JACKPOT_HANDS:
            raise ValueError(f"There is no jackpot for a {hand}: only for {JACKPOT_HANDS}.")
        return getattr(self, f"jackpot_{hand}_cents")

    @property
    def fee_per_game(self) -> bool:
        """Whether the entry fee is owed for each game played rather than once a morning."""
        return self.fee_per == FEE_PER_GAME

    def morning_fee_cents(self) -> int:
        """The most a player's fees can come to in one morning: the fee for every round per
        game, else the fee once (what "pays for the morning" takes, before the jackpots)."""
        if self.fee_per_game:
            return self.entry_fee_cents * self.rounds_per_session
        return self.entry_fee_cents

    @property
    def jackpots(self) -> dict[int, int]:
        """The jackpots the rules run: hand -> contribution per paying player, in cents."""
        return {hand: cents for hand in JACKPOT_HANDS if (cents := self.jackpot_cents(hand))}
