"""Writes made at the table, through its link (`/t/<token>/`), by players without a login: one
player enters the final scores, a player of another side accepts them on the same phone
(docs/spec.md "A Thursday, step by step", step 4; Bridgemate's one device per table).

Terms:
- table link: a game's `table_token` as an address; it works while the game's round is open.
- open round: its session is open, the club's "table links" rule is on (both in the session's
  rules and in the club's rules now: turning it off stops every link at once), and no later
  round is drawn (a round's chart comes down when the next one goes up; a late table is typed
  in from its scorecard by the organiser instead).
- at the table: the change names the player who made it on the shared phone instead of a login;
  its audit entry has no actor and says "at the table" (club.audit.at_the_table).
- accept: confirm a draft at the table. A player of another side than the one that entered it
  (any player at the table when an organiser entered it), with their PIN when the session's rules
  ask for table PINs (club.services.pin_verify, which keeps a wrong PIN even though the accept is
  refused, and refuses a try unread while the wait after wrong PINs runs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from club.audit import at_the_table
from club.models import Player, Session
from club.services import pin_verify
from core.audit import audit_record
from core.submissions import spend_token
from games.audit import GameVerb
from games.hooks import results_changed
from games.models import (
    TOKEN_ALPHABET,
    TOKEN_LENGTH,
    Game,
    Result,
    ResultSource,
    ResultState,
    Round,
    Seat,
)
from games.services.results import enter_draft, lock_game, status_refusal
from games.totals import refresh_session_totals

TOKEN_PATTERN = re.compile(f"[{TOKEN_ALPHABET}]{{{TOKEN_LENGTH}}}")


def table_game(token: str) -> Game | None:
    """The game a table link names (None: no such link). Tokens are lower case; a phone's
    keyboard may not be."""
    token = (token or "").strip().lower()
    if not TOKEN_PATTERN.fullmatch(token):
        return None  # not one we make: no need to ask the database (PostgreSQL refuses a NUL)
    return Game.objects.select_related("session__club", "round").filter(table_token=token).first()


LINKS_OFF = (
    "This club does not use table links: ask the organiser, who enters the result on the game page."
)


def links_on(session: Session) -> bool:
    """The "table links" rule, in the session's rules and in the club's rules now: turning it
    off is the organiser's way to stop every printed link at once (a chart left on a wall, a
    photo of a QR code)."""
    return session.house_rules.table_links and session.club.table_links


def later_round(game: Game) -> int | None:
    """The number of the first round drawn after the game's (None: its round is the newest).
    At a tournament, whose tables play at their own pace (a playoff match game by game, seated
    as the games before it end), only a game seated later at the same table counts: the round
    of the first such."""
    if game.session.is_tournament:
        return (
            Game.objects.filter(session_id=game.session_id, table=game.table, pk__gt=game.pk)
            .order_by("pk")
            .values_list("round__number", flat=True)
            .first()
        )
    later = Round.objects.filter(session_id=game.session_id, number__gt=game.round.number)
    return later.order_by("number").values_list("number", flat=True).first()


def table_refusal(game: Game) -> str | None:
    """Why the game's table link does not work now (None: it does)."""
    session = game.session
    round_ = game.round
    if not links_on(session):
        return LINKS_OFF
    if not session.is_open:
        return (
            f"The session of {session.date:%A %d %B %Y} is settled: this table's link no "
            "longer works."
        )
    unfinished = status_refusal(game)
    if unfinished:
        return unfinished.replace("an organiser puts", "ask an organiser, who puts")
    later = later_round(game)
    if later is not None:
        return (
            f"Round {round_.number} is over (round {later} is drawn): this table's link no "
            "longer works. Ask the organiser if your result is missing."
        )
    return None


def _require_open(game: Game) -> None:
    refusal = table_refusal(game)
    if refusal:
        raise ValidationError(refusal)


def _seat(game: Game, player: Player) -> Seat:
    seat = Seat.objects.filter(game=game, player=player).select_related("player").first()
    if seat is None:
        raise ValidationError({"player": f"{player} does not play at this table."})
    return seat


def table_result_enter(
    *, game: Game, player: Player, scores: Sequence[int], token: str = ""
) -> Result:
    """A player at the table enters its final side scores, as a draft for another side to
    accept. An unconfirmed draft is replaced, as on the game page; a confirmed result is
    changed only by an organiser's correction. The same form posted twice enters once."""
    with transaction.atomic():
        spend_token(token=token, actor=None)
        game = lock_game(game)
        _require_open(game)
        seat = _seat(game, player)
        return enter_draft(
            game=game,
            scores=scores,
            actor=None,
            source=ResultSource.TABLE,
            entered_side=seat.side,
            player=seat.player,
        )


def can_accept(result: Result, seat: Seat) -> bool:
    """Whether the player in `seat` is of a side that may accept this draft (for the buttons)."""
    return result.entered_side is None or seat.side != result.entered_side


def table_acceptors(game: Game, result: Result | None) -> list[Seat]:
    """The seats whose players may accept `result` at the table, in seat order."""
    if result is None or result.state != ResultState.DRAFT:
        return []
    seats = game.seats.select_related("player").order_by("position")
    return [seat for seat in seats if can_accept(result, seat)]


def _acceptable(game: Game, result: Result, player: Player) -> Seat:
    """The seat of `player`, who may accept `result` now; else a ValidationError saying why."""
    _require_open(game)
    if result.game_id != game.pk:
        raise ValidationError("This result is of another table.")
    if result.state == ResultState.CONFIRMED:
        raise ValidationError("This result is confirmed already.")
    if result.state != ResultState.DRAFT:
        raise ValidationError(
            f"Version {result.version} was replaced by a newer entry: accept the newest."
        )
    seat = _seat(game, player)
    if not can_accept(result, seat):
        raise ValidationError(
            {
                "player": f"{seat.player}'s side entered this result: a player of another "
                "side accepts it."
            }
        )
    return seat


def table_result_accept(*, result: Result, player: Player, pin: str = "") -> Result:
    """A player of another side accepts a draft at the table: the result is confirmed. With the
    session's "table PINs" rule on, their PIN first (a wrong one is kept and refused, and makes
    the next try wait once there were a few). An accept refused for another reason (the same
    side, a result confirmed already, a closed round) is refused before the PIN is read, so it
    costs no try."""
    game = result.game
    if game.session.house_rules.table_pins:
        _acceptable(game, Result.objects.get(pk=result.pk), player)
        pin_verify(session=game.session, player=player, pin=pin)
    with transaction.atomic():
        game = lock_game(game)
        result = Result.objects.get(pk=result.pk)
        seat = _acceptable(game, result, player)
        result.state = ResultState.CONFIRMED
        result.confirmed_by_player = seat.player
        result.confirmed_at = timezone.now()
        result.save(update_fields=["state", "confirmed_by_player", "confirmed_at"])
        refresh_session_totals(game.session)
        results_changed(game.session)
        audit_record(
            actor=None,
            action=GameVerb.RESULT_CONFIRMED,
            obj=result,
            club=game.session.club,
            data={"game": game.pk, "version": result.version, **at_the_table(seat.player)},
        )
    return result
