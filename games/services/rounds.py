"""Writes of a whole round at once: an organiser typing in a round's scorecards, and another
organiser confirming them. All or nothing, with the audit entries the one-table services write.

Terms: a *signed scorecard* is a table's paper scorecard that the players at it signed. When the
organiser says every scorecard typed in was signed and the session's rules say signed scorecards
confirm, those results are confirmed at once: the players' signatures are the other side's
confirmation, so this holds at a table the organiser plays at too, unless the other side entered
other scores themselves (at the table or on the game page): what a side entered is never
overruled from this screen. Otherwise they are drafts for the other side or another organiser to
confirm.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from club.names import person_name
from club.services import session_require_open
from core.audit import audit_record_many
from core.locking import locked
from core.submissions import spend_token
from games.audit import GameVerb
from games.hooks import results_changed
from games.models import Game, Result, ResultLine, ResultSource, ResultState, Round, Seat
from games.services.results import CORRECT_PERMISSION, lock_round, new_version, status_refusal
from games.totals import refresh_session_totals

NO_SCORES = "no_scores"  # the code of the error for a call that gives no table at all


def round_results_enter(
    *,
    round_: Round,
    actor: AbstractBaseUser,
    scores: Mapping[int, Sequence[int]],
    source: str = ResultSource.ENTRY,
    signed: bool = False,
    token: str = "",
) -> list[Result]:
    """Enter several tables' results of a round at once: an organiser typing in the round's
    scorecards. `scores` maps table number to side scores. Drafts, unless `signed` (the players
    signed every scorecard given) and the session's rules say signed scorecards confirm: then
    confirmed at once (see the module's terms).

    All or nothing: a table that is not in the round, is already confirmed or has impossible
    scores is a ValidationError naming the table (keyed `table_<number>`, one message per bad
    table), and nothing is saved; so is a call that gives no table at all (code NO_SCORES).

    What another side entered is never overruled (`_other_side_refusal`): a draft the typist's
    own side entered is replaced, as `result_enter` does; another side's draft with the same
    scores is kept as it is, with who entered it (and confirmed, when the scorecard confirms);
    another side's draft with other scores refuses its table, and so does, at a table the
    typist plays at, a confirming scorecard that differs from what the other side last
    entered. One audit entry per result written or confirmed: the one `result_enter` writes, or
    "confirmed from a signed scorecard". The same form posted twice enters once (`token`:
    core.submissions).
    """
    if not actor.has_perm(CORRECT_PERMISSION):
        raise PermissionDenied("Only an organiser enters a whole round's results.")
    with transaction.atomic():
        spend_token(token=token, actor=actor)
        # After the token, so that a page posted twice says "already saved" first.
        if not scores:
            raise ValidationError("Type at least one table's final scores.", code=NO_SCORES)
        round_ = lock_round(round_)
        session = round_.session
        session_require_open(session)
        games = {
            game.table: game for game in locked(Game.objects.filter(round=round_)).order_by("table")
        }
        unknown = sorted(set(scores) - set(games))
        if unknown:
            raise ValidationError(f"Round {round_.number} has no table {unknown[0]}.")
        chosen = [games[table] for table in sorted(scores)]
        seats: dict[int, list[Seat]] = {}
        for seat in (
            Seat.objects.filter(game__in=chosen)
            .select_related("player")
            .order_by("game_id", "position")
        ):
            seats.setdefault(seat.game_id, []).append(seat)
        versions: dict[int, list[Result]] = {}
        for version in (
            Result.objects.filter(game__in=chosen)
            .select_related("entered_by_player")
            .prefetch_related("lines")
            .order_by("game_id", "version")
        ):
            versions.setdefault(version.game_id, []).append(version)
        now = timezone.now()
        confirm = signed and session.house_rules.signed_scorecards_confirm
        versions_new = []
        agreed: list[Result] = []  # another side's drafts this scorecard agrees with
        replaced: list[Result] = []
        errors: dict[str, list[str]] = {}
        for game in chosen:
            game.session, game.round = session, round_  # no query per game for rules or names
            typed = list(scores[game.table])
            history = versions.get(game.pk, [])
            old = next((v for v in history if v.state != ResultState.SUPERSEDED), None)
            if status_refusal(game):
                errors[f"table_{game.table}"] = [status_refusal(game)]
                continue
            if old is not None and old.state == ResultState.CONFIRMED:
                errors[f"table_{game.table}"] = [
                    f"Table {game.table}'s result is confirmed: an organiser can correct it, "
                    "giving a reason."
                ]
                continue
            # An organiser who plays at the table enters it for their side, as `result_enter`
            # records it (so their partner cannot confirm it).
            own_side = next(
                (s.side for s in seats.get(game.pk, []) if s.player.user_id == actor.pk), None
            )
            refusal = _other_side_refusal(game, history, old, typed, actor, own_side, confirm)
            if refusal:
                errors[f"table_{game.table}"] = [refusal]
                continue
            if old is not None and _by_another_side(old, actor, own_side):
                # The same scores as the other side's own entry: theirs is kept, with who
                # entered it, and confirmed when the signed scorecard confirms.
                if confirm:
                    old.game = game
                    agreed.append(old)
                continue
            try:
                versions_new.append(
                    new_version(
                        game=game,
                        seats=seats.get(game.pk, []),
                        latest=history[-1].version if history else 0,
                        scores=typed,
                        actor=actor,
                        state=ResultState.CONFIRMED if confirm else ResultState.DRAFT,
                        source=source,
                        entered_side=own_side,
                        now=now,
                    )
                )
            except ValidationError as error:
                errors[f"table_{game.table}"] = [f"Table {game.table}: {'; '.join(error.messages)}"]
            else:
                if old is not None:
                    replaced.append(old)
        if errors:
            raise ValidationError(errors)
        Result.objects.filter(pk__in=[old.pk for old in replaced]).update(
            state=ResultState.SUPERSEDED
        )
        Result.objects.filter(pk__in=[draft.pk for draft in agreed]).update(
            state=ResultState.CONFIRMED, confirmed_by=actor, confirmed_at=now
        )
        for draft in agreed:
            draft.state, draft.confirmed_by, draft.confirmed_at = ResultState.CONFIRMED, actor, now
        written = Result.objects.bulk_create([result for result, _ in versions_new])
        lines = []
        for result, (_, result_lines) in zip(written, versions_new, strict=True):
            for line in result_lines:
                line.result = result
            lines.extend(result_lines)
        ResultLine.objects.bulk_create(lines)
        results = sorted([*written, *agreed], key=lambda result: result.game.table)
        if confirm and results:
            refresh_session_totals(session)
            results_changed(session)
        audit_record_many(
            actor=actor,
            action=GameVerb.RESULT_SIGNED if confirm else GameVerb.RESULT_ENTERED,
            club=session.club,
            entries=[
                (
                    result,
                    {
                        "game": result.game_id,
                        "version": result.version,
                        "scores": list(scores[result.game.table]),
                        **({"source": source} if source != ResultSource.ENTRY else {}),
                    },
                )
                for result in results
            ],
        )
    return results


def _by_another_side(version: Result, actor: AbstractBaseUser, own_side: int | None) -> bool:
    """Whether `version` was entered by someone of another side than the typist's: anyone but
    the typist when the typist does not play at the table."""
    if version.entered_by_id == actor.pk:
        return False
    return own_side is None or version.entered_side != own_side


def _scores_text(scores: Sequence[int]) -> str:
    return "–".join(str(score) for score in scores)


def _entry_text(version: Result) -> str:
    """ "Bob Baker entered 60–121 at the table": who entered a version, and what."""
    scores = _scores_text(version.scores)
    if version.entered_by_player_id:
        return f"{version.entered_by_player} entered {scores} at the table"
    return f"{person_name(version.entered_by)} entered {scores}"


def _other_side_refusal(
    game: Game,
    history: list[Result],
    old: Result | None,
    typed: list[int],
    actor: AbstractBaseUser,
    own_side: int | None,
    confirm: bool,
) -> str | None:
    """Why a scorecard cannot be entered over what another side entered (None: it can).

    A scorecard never replaces a draft another side entered with other scores (the typist may
    have the wrong card, or the players may disagree: they settle it at the table, not the
    screen). And an organiser who plays at the table never confirms his own game over what the
    other side last entered, even after replacing their draft with his own on the game page."""
    if old is not None and _by_another_side(old, actor, own_side) and old.scores != typed:
        return (
            f"Table {game.table}: {_entry_text(old)}, not what this scorecard says "
            f"({_scores_text(typed)}), and their entry waits for the other side. Check with the "
            "players: confirm it on the game page if it is right, or leave this table empty "
            "here and let the table settle it."
        )
    if not confirm or own_side is None:
        return None
    since = max((v.version for v in history if v.confirmed_at is not None), default=0)
    theirs = [v for v in history if v.version > since and _by_another_side(v, actor, own_side)]
    if theirs and theirs[-1].scores != typed:
        return (
            f"Table {game.table}: you play at this table and {_entry_text(theirs[-1])}, not "
            f"what this scorecard says ({_scores_text(typed)}): your scorecard cannot confirm "
            "it. Leave this table empty here: the other side accepts your entry at the table, "
            "or another organiser confirms it."
        )
    return None


def round_results_confirm(*, round_: Round, actor: AbstractBaseUser) -> list[Result]:
    """Confirm every draft of a round at once: an organiser checking the scorecards another
    organiser typed in. Drafts the actor entered, or whose table the actor plays at, are left for
    someone else (they are not confirmed here); the confirmed ones are returned.
    """
    if not actor.has_perm(CORRECT_PERMISSION):
        raise PermissionDenied("Only an organiser confirms a whole round's results.")
    with transaction.atomic():
        round_ = lock_round(round_)
        session_require_open(round_.session)
        list(locked(Game.objects.filter(round=round_)).values_list("pk", flat=True))
        own_games = Seat.objects.filter(round=round_, player__user=actor).values("game_id")
        drafts = list(
            Result.objects.filter(game__round=round_, state=ResultState.DRAFT)
            .select_related("game__round")
            .exclude(entered_by=actor)
            .exclude(game__in=own_games)
            .order_by("game__table")
        )
        now = timezone.now()
        Result.objects.filter(pk__in=[draft.pk for draft in drafts]).update(
            state=ResultState.CONFIRMED, confirmed_by=actor, confirmed_at=now
        )
        for draft in drafts:
            draft.state, draft.confirmed_by, draft.confirmed_at = ResultState.CONFIRMED, actor, now
        refresh_session_totals(round_.session)
        if drafts:
            results_changed(round_.session)
        audit_record_many(
            actor=actor,
            action=GameVerb.RESULT_CONFIRMED,
            club=round_.session.club,
            entries=[
                (draft, {"game": draft.game_id, "version": draft.version}) for draft in drafts
            ],
        )
    return drafts
