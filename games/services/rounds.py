"""Writes of a whole round at once: an organiser typing in a round's scorecards, and another
organiser confirming them. All or nothing, with the audit entries the one-table services write.

Terms: a *signed scorecard* is a table's paper scorecard that the players at it signed. When the
organiser says every scorecard typed in was signed and the session's rules say signed scorecards
confirm (DESIGN.md "A Thursday, step by step", item 4), those results are confirmed at once: the
players' signatures are the other side's confirmation, so this holds at a table the organiser
plays at too. Otherwise they are drafts for the other side or another organiser to confirm.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from club.audit import audit_record_many
from club.locking import locked
from club.services import session_require_open
from club.submissions import spend_token
from games.audit import GameVerb
from games.hooks import results_changed
from games.models import Game, Result, ResultLine, ResultSource, ResultState, Round, Seat
from games.services.results import CORRECT_PERMISSION, lock_round, new_version
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
    table), and nothing is saved; so is a call that gives no table at all (code NO_SCORES). A
    table's unconfirmed draft is replaced, as `result_enter` does. One audit entry per result:
    the one `result_enter` writes, or "confirmed from a signed scorecard". The same form posted
    twice enters once (`token`: club.submissions).
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
        current: dict[int, Result] = {
            result.game_id: result
            for result in Result.objects.filter(game__in=chosen).exclude(
                state=ResultState.SUPERSEDED
            )
        }
        latest = dict(
            Result.objects.filter(game__in=chosen)
            .values("game_id")
            .annotate(latest=Max("version"))
            .values_list("game_id", "latest")
        )
        now = timezone.now()
        confirm = signed and session.house_rules.signed_scorecards_confirm
        versions = []
        errors: dict[str, list[str]] = {}
        for game in chosen:
            game.session, game.round = session, round_  # no query per game for rules or names
            old = current.get(game.pk)
            if old is not None and old.state == ResultState.CONFIRMED:
                errors[f"table_{game.table}"] = [
                    f"Table {game.table}'s result is confirmed: an organiser can correct it, "
                    "giving a reason."
                ]
                continue
            try:
                versions.append(
                    new_version(
                        game=game,
                        seats=seats.get(game.pk, []),
                        latest=latest.get(game.pk, 0),
                        scores=scores[game.table],
                        actor=actor,
                        state=ResultState.CONFIRMED if confirm else ResultState.DRAFT,
                        source=source,
                        # An organiser who plays at the table enters it for their side, as
                        # `result_enter` records it (so their partner cannot confirm it).
                        entered_side=next(
                            (
                                seat.side
                                for seat in seats.get(game.pk, [])
                                if seat.player.user_id == actor.pk
                            ),
                            None,
                        ),
                        now=now,
                    )
                )
            except ValidationError as error:
                errors[f"table_{game.table}"] = [f"Table {game.table}: {'; '.join(error.messages)}"]
        if errors:
            raise ValidationError(errors)
        Result.objects.filter(pk__in=[old.pk for old in current.values()]).update(
            state=ResultState.SUPERSEDED
        )
        results = Result.objects.bulk_create([result for result, _ in versions])
        lines = []
        for result, (_, result_lines) in zip(results, versions, strict=True):
            for line in result_lines:
                line.result = result
            lines.extend(result_lines)
        ResultLine.objects.bulk_create(lines)
        if confirm:
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
