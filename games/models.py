"""Rounds, games (one per table), seats and result versions of a session.

Terms:
- round: one draw of a session, numbered from 1, with the seed it was drawn from.
- game: one table of a round (table number, kind two / three / partners) and the game played there.
- seat: a player at a game; `position` is the seat order (partners: 0 and 2 against 1 and 3) and
  `side` the side they play for (0, 1 or 2; partners share a side).
- result: one version of a game's final scores. Entering makes a draft; the other side (or another
  organiser) confirms it. A later entry or correction is a new version; the one it replaces becomes
  superseded. At most one version of a game is not superseded.
- result line: one player's figures in a result version (score of their side, won, skunks, game
  points, spread), derived by `games.game_result`.
- status: whether the game was played; *not played* (a player taken ill before it could be
  finished: no result, excluded everywhere) or a *forfeit* (one side left: a confirmed result of
  source FORFEIT scored by the house rule, no spread, never a skunk, a highlight or a rating).
- table token: a game's unguessable key, the `/t/<token>/` link and QR code on the seating chart
  through which the players at that table enter and accept its result without a login (while
  its round is open: games.table).
- at the table: a version entered (`entered_by_player`) or accepted (`confirmed_by_player`)
  through the table's link, by a player named there rather than by a login.
- scorecard: a version an organiser typed in from the round's paper scorecards; confirmed at
  once when the players signed them and the club's rule says signed scorecards confirm.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Cast
from django.utils import timezone

from club.models import Player, Session
from club.names import person_name

# Letters and digits nobody misreads from paper (no 0/o, 1/l/i): 12 of 31 make about 59 bits.
TOKEN_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
TOKEN_LENGTH = 12


def new_table_token() -> str:
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


class TableKind(models.TextChoices):
    TWO = "two", "2 players"
    THREE = "three", "3 players (cut-throat)"
    PARTNERS = "partners", "4 players (partners)"


class GameStatus(models.TextChoices):
    """Whether a game was played. A game not played has no result and counts nowhere; a
    forfeit has a confirmed result of source FORFEIT, scored by the house rule (docs/spec.md
    "A Thursday, step by step", step 7)."""

    PLAYED = "played", "Played"
    NOT_PLAYED = "not_played", "Not played"
    FORFEIT = "forfeit", "Forfeit"


class Round(models.Model):
    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(help_text="The draw's random seed: same seed, same draw.")
    mode = models.CharField(max_length=10)
    drawn_at = models.DateTimeField(default=timezone.now)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


def forfeit_text(seats, forfeit_side: int) -> str:
    """A forfeit for people, "forfeit: Ann wins, Bob left", from its game's seats: (side,
    player's name) in seat order."""
    names: dict[bool, list[str]] = {True: [], False: []}
    for side, name in seats:
        names[side == forfeit_side].append(name)
    stayed, left = " and ".join(names[False]), " and ".join(names[True])
    return f"forfeit: {stayed} win{'s' if len(names[False]) == 1 else ''}, {left} left"


class Game(models.Model):
    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="games")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="games")
    table = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=TableKind.choices)
    table_token = models.CharField(
        max_length=TOKEN_LENGTH,
        unique=True,
        default=new_table_token,
        editable=False,
        help_text="The key of the table's link (/t/<token>/) on the seating chart.",
    )
    status = models.CharField(max_length=12, choices=GameStatus.choices, default=GameStatus.PLAYED)
    forfeit_side = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="A forfeit: the side that left (it loses)."
    )
    status_reason = models.TextField(blank=True)
    status_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    status_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="game_table_unique_in_round"),
            models.CheckConstraint(
                condition=models.Q(status="forfeit", forfeit_side__isnull=False)
                | (~models.Q(status="forfeit") & models.Q(forfeit_side__isnull=True)),
                name="game_forfeit_names_its_side",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.round.number}, table {self.table}"

    @property
    def status_text(self) -> str:
        """The game's state for people when it was not played out: "not played", "forfeit: Ann
        wins, Bob left"; empty for a game played (one query, only then)."""
        if self.status == GameStatus.PLAYED:
            return ""
        if self.status == GameStatus.NOT_PLAYED:
            return "not played"
        seats = Seat.objects.filter(game=self).values_list("side", "player__display_name")
        return forfeit_text(seats, self.forfeit_side)

    @property
    def counts(self) -> bool:
        """Whether the game was played (a forfeit counts as its result; not played: nowhere)."""
        return self.status != GameStatus.NOT_PLAYED

    @property
    def side_count(self) -> int:
        return 3 if self.kind == TableKind.THREE else 2


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player"], name="seat_one_per_player_per_round"
            ),
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.game}, seat {self.position + 1}"


class ResultState(models.TextChoices):
    DRAFT = "draft", "Draft"
    CONFIRMED = "confirmed", "Confirmed"
    SUPERSEDED = "superseded", "Superseded"


# A result's state as the players say it (the pages); the state's name is for the audit log.
STATE_WORDS = {
    ResultState.DRAFT: "Waiting for the other side to accept",
    ResultState.CONFIRMED: "Confirmed",
    ResultState.SUPERSEDED: "Replaced",
}
# The same, short enough for a badge beside a table's players on a phone.
BADGE_WORDS = {ResultState.DRAFT: "To accept"}
# What replaced a version, by the replacing version's source: "replaced by the correction of 10:42".
REPLACED_BY_WORDS = {
    "entry": "a new entry",
    "table": "a new entry at the table",
    "scorecard": "the scorecard",
    "correction": "the correction",
    "ruling": "the judge's ruling",
}


class ResultSource(models.TextChoices):
    ENTRY = "entry", "Entered on the game page"
    TABLE = "table", "Entered at the table (its link)"
    SCORECARD = "scorecard", "Scorecard typed in by an organiser"
    CORRECTION = "correction", "Correction"
    RULING = "ruling", "Judge's ruling"
    FORFEIT = "forfeit", "Forfeit (scored by the house rule)"


class Result(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="results")
    version = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=12, choices=ResultState.choices)
    source = models.CharField(
        max_length=12, choices=ResultSource.choices, default=ResultSource.ENTRY
    )
    reason = models.TextField(blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The login that entered it; empty when it was entered at the table.",
    )
    entered_by_player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The player who entered it at the table (its link), without a login.",
    )
    entered_side = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The side of the player who entered it; empty for staff."
    )
    entered_at = models.DateTimeField(default=timezone.now)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    confirmed_by_player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The player of another side who accepted it at the table (its link).",
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="result_version_unique"),
            models.UniqueConstraint(
                fields=["game"],
                condition=~models.Q(state="superseded"),
                name="result_one_current_per_game",
            ),
            models.CheckConstraint(
                condition=~models.Q(state="confirmed")
                | models.Q(confirmed_by__isnull=False)
                | models.Q(confirmed_by_player__isnull=False),
                name="result_confirmed_has_confirmer",
            ),
            models.CheckConstraint(
                condition=models.Q(entered_by__isnull=False)
                | models.Q(entered_by_player__isnull=False),
                name="result_entered_has_enterer",
            ),
        ]
        permissions = [
            ("confirm_result", "Can confirm a result entered by the other side"),
            ("correct_result", "Can correct a confirmed result"),
        ]

    def __str__(self) -> str:
        return f"{self.game}, result v{self.version} ({self.get_state_display().lower()})"

    @property
    def badge_words(self) -> str:
        """The state on a badge of a table's line: "To accept" (waiting for the other side)."""
        return BADGE_WORDS.get(self.state, self.state_words)

    @property
    def state_words(self) -> str:
        """The state as players say it ("Waiting for the other side to accept")."""
        return STATE_WORDS.get(self.state, self.get_state_display())

    @property
    def replacing_words(self) -> str:
        """This version as what replaced an older one: "the correction", "a new entry"."""
        return REPLACED_BY_WORDS.get(self.source, "a new version")

    @property
    def entered_by_name(self) -> str:
        """Who entered it, for people: the login's player's name (club.names), or the player's
        at the table."""
        if self.entered_by_player_id:
            return f"{self.entered_by_player} at the table"
        return _login_name(self.entered_by)

    @property
    def confirmed_by_name(self) -> str:
        if self.confirmed_by_player_id:
            return f"{self.confirmed_by_player} at the table"
        return _login_name(self.confirmed_by)

    @property
    def scores(self) -> list[int]:
        """The side scores in side order (from the lines)."""
        by_side: dict[int, int] = {}
        for line in self.lines.all():
            by_side[line.side] = line.score
        return [by_side[side] for side in sorted(by_side)]


def _login_name(user) -> str:
    """A login as people know it: its player's name, else its full name (club.names)."""
    return person_name(user)


class ResultLine(models.Model):
    result = models.ForeignKey(Result, on_delete=models.PROTECT, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="result_lines")
    side = models.PositiveSmallIntegerField()
    score = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    skunked = models.BooleanField()
    double_skunked = models.BooleanField()
    skunks_given = models.PositiveSmallIntegerField()
    game_points = models.PositiveSmallIntegerField()
    spread = models.SmallIntegerField()

    class Meta:
        ordering = ["result", "side", "player__display_name"]
        constraints = [
            models.UniqueConstraint(fields=["result", "player"], name="result_line_one_per_player"),
        ]
        indexes = [models.Index(fields=["player", "result"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.score}"

    @property
    def score_text(self) -> str:
        """The score as people read it: "121", or for a forfeit (its lines carry no score)
        "won by forfeit" / "lost by forfeit". Reads `result` (select it with the line); lines
        read as values have it from `score_text_expression`."""
        if self.result.source == ResultSource.FORFEIT:
            return "won by forfeit" if self.won else "lost by forfeit"
        return str(self.score)


def score_text_expression() -> models.Expression:
    """`ResultLine.score_text` as a database expression, for result lines read as values."""
    forfeit = models.Q(result__source=ResultSource.FORFEIT)
    return models.Case(
        models.When(forfeit & models.Q(won=True), then=models.Value("won by forfeit")),
        models.When(forfeit, then=models.Value("lost by forfeit")),
        default=Cast("score", output_field=models.CharField()),
        output_field=models.CharField(),
    )


class SessionTotal(models.Model):
    """One player's totals over the confirmed results of one session: the aggregate the season,
    all-time, records and player pages read instead of every result line. Written only by
    `games.totals.refresh_session_totals`, which the result services call in their transaction.

    `first_run` / `last_run`: games won in a row from the session's first game / up to its last;
    `best_run`: the longest run of wins inside the session (round order). They join into
    winning streaks across sessions.
    """

    session = models.ForeignKey(Session, on_delete=models.PROTECT, related_name="totals")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="session_totals")
    club = models.ForeignKey("club.Club", on_delete=models.PROTECT, related_name="+")
    date = models.DateField()
    played = models.PositiveSmallIntegerField()
    won = models.PositiveSmallIntegerField()
    points = models.PositiveIntegerField()
    spread = models.IntegerField()
    skunks_given = models.PositiveSmallIntegerField()
    skunks_taken = models.PositiveSmallIntegerField()
    first_run = models.PositiveSmallIntegerField()
    last_run = models.PositiveSmallIntegerField()
    best_run = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["date", "player"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="session_total_unique"),
        ]
        indexes = [
            models.Index(fields=["club", "date"]),
            models.Index(fields=["player", "date"]),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.date}: {self.points} points"


class ProposalState(models.TextChoices):
    OPEN = "open", "Waiting for the other side"
    ACCEPTED = "accepted", "Accepted"
    WITHDRAWN = "withdrawn", "Withdrawn"
    REPLACED = "replaced", "Replaced by a newer proposal"


class CorrectionProposal(models.Model):
    """A correction of a game's confirmed result proposed by a player of the game (someone who
    plays never corrects alone): it takes effect when a player of another side accepts it
    (games.services.corrections). `base` is the confirmed version it corrects: a proposal made
    before the result changed again cannot be accepted."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="proposals")
    base = models.ForeignKey(Result, on_delete=models.PROTECT, related_name="+")
    scores = models.JSONField(help_text="The side scores proposed, by side index.")
    reason = models.CharField(max_length=300)
    proposed_side = models.PositiveSmallIntegerField()
    proposed_by_player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The login that proposed it on the game page; empty at the table.",
    )
    proposed_at = models.DateTimeField(default=timezone.now)
    state = models.CharField(
        max_length=10, choices=ProposalState.choices, default=ProposalState.OPEN
    )
    accepted_by_player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    result = models.ForeignKey(
        Result,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The confirmed version its acceptance wrote.",
    )

    class Meta:
        ordering = ["game", "-proposed_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=models.Q(state="open"), name="proposal_one_open_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"Proposed correction of {self.game}: {self.scores}"


# More table cards than any club room has tables: a typo (1000) must not print a thousand cards.
MOST_TABLE_CARDS = 200


class TableCard(models.Model):
    """A club's printed card for one physical table number: its QR code and short link
    (`/t/<token>/`, the same form and alphabet as a game's) open the game at that table number
    in the current round of the club's open session (games.services.table_cards). Printed once
    and left on the table; "New cards" retires every card of the club (`retired_at`) and makes
    new tokens, so a lost or photographed card stops working. A retired card is kept, so its
    address says it was replaced rather than "no such table"."""

    club = models.ForeignKey("club.Club", on_delete=models.PROTECT, related_name="table_cards")
    number = models.PositiveSmallIntegerField(help_text="The table number painted on the card.")
    token = models.CharField(
        max_length=TOKEN_LENGTH,
        unique=True,
        editable=False,
        help_text="The key of the card's link (/t/<token>/), unique among games' tokens too.",
    )
    made_at = models.DateTimeField(default=timezone.now)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    retired_at = models.DateTimeField(
        null=True, blank=True, help_text="When new cards replaced this one (its link stopped)."
    )

    class Meta:
        ordering = ["club", "number", "-made_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "number"],
                condition=models.Q(retired_at__isnull=True),
                name="table_card_one_current_per_number",
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="table_card_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Table card {self.number} of {self.club}"
