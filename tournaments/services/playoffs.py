"""The bracket and the playoffs: every match made, the playoffs moving on by themselves as
results are confirmed, forfeits (ACC rule 13.1).

Terms: tournaments.services."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from club.models import Player, Session
from core.audit import audit_record
from core.locking import locked
from games.draw import DrawTable
from games.models import GameStatus, ResultState, Round
from games.services import game_forfeit, round_seat
from tournaments.audit import TournamentVerb
from tournaments.bracket import bracket_size, first_round
from tournaments.models import Match, MatchGame, Stage, Tournament
from tournaments.selectors import (
    PLAYOFF,
    games_waiting,
    match_scores,
)


def _bracket_make(tournament: Tournament, seeds: Sequence[int]) -> None:
    """Every match of every playoff round, the first round's players placed by seed."""
    size = bracket_size(len(seeds))
    rounds = size.bit_length() - 1
    player_of = dict(enumerate(seeds, start=1))
    matches = []
    for slot_index, slot in enumerate(first_round(len(seeds))):
        top, bottom = slot.top, slot.bottom
        matches.append(
            Match(
                tournament=tournament,
                round_number=1,
                position=slot_index,
                top_id=player_of.get(top) if top else None,
                bottom_id=player_of.get(bottom) if bottom else None,
                top_seed=top,
                bottom_seed=bottom,
                is_bye=not (top and bottom),
                best_of=tournament.best_of(1, rounds),
            )
        )
    for round_number in range(2, rounds + 1):
        matches.extend(
            Match(
                tournament=tournament,
                round_number=round_number,
                position=position,
                best_of=tournament.best_of(round_number, rounds),
            )
            for position in range(size >> round_number)
        )
    Match.objects.bulk_create(matches)


def _place_winner(
    tournament: Tournament, match: Match, winner_id: int, by_place: dict[tuple[int, int], Match]
) -> None:
    """Put the winner of `match` into the next round's match (or make them champion)."""
    following = by_place.get((match.round_number + 1, match.position // 2))
    if following is None:
        tournament.champion_id = winner_id
        tournament.stage = Stage.FINISHED
        tournament.save(update_fields=["champion", "stage"])
        return
    seed = match.top_seed if winner_id == match.top_id else match.bottom_seed
    if match.position % 2 == 0:
        following.top_id, following.top_seed = winner_id, seed
    else:
        following.bottom_id, following.bottom_seed = winner_id, seed
    following.save(update_fields=["top", "top_seed", "bottom", "bottom_seed"])


def _decide(
    tournament: Tournament,
    match: Match,
    winner_id: int,
    actor,
    by_place: dict[tuple[int, int], Match],
    score: tuple[int, int] = (0, 0),
) -> None:
    match.winner_id = winner_id
    match.decided_at = timezone.now()
    match.save(update_fields=["winner", "decided_at"])
    _place_winner(tournament, match, winner_id, by_place)
    if not match.is_bye:
        audit_record(
            actor=actor,
            action=TournamentVerb.MATCH_DECIDED,
            obj=tournament,
            club=tournament.club,
            data={
                "round": match.round_number,
                "match": match.position + 1,
                "winner": winner_id,
                "score": list(score),
            },
        )


def _free_table(busy: set[int]) -> int:
    table = 1
    while table in busy:
        table += 1
    busy.add(table)
    return table


def _advance(tournament: Tournament, session: Session, actor) -> None:
    """Decide every match whose games say so, seat the next game of every match still being
    played, and the first game of every match whose two players are known, round by round (a
    winner placed in round r+1 is seen when that round's turn comes). A fixed number of queries
    to read the bracket, whatever its size."""
    to_seat: dict[tuple[int, int], list[tuple[Match, int]]] = {}
    matches = list(Match.objects.filter(tournament=tournament).order_by("round_number", "position"))
    scores, waiting = match_scores(tournament.pk), games_waiting(tournament)
    played = dict(
        MatchGame.objects.filter(match__tournament=tournament)
        .values("match_id")
        .annotate(games=Count("pk"))
        .values_list("match_id", "games")
    )
    busy = {m.table for m in matches if m.table and m.winner_id is None and m.top_id}
    by_place = {(m.round_number, m.position): m for m in matches}
    for key in sorted(by_place):
        match = by_place[key]
        wins = scores.get(match.pk, {})
        top, bottom = wins.get(match.top_id, 0), wins.get(match.bottom_id, 0)
        if match.winner_id is not None:
            _refuse_changed_winner(match, top, bottom)
            continue
        if match.is_bye and (match.top_id or match.bottom_id):
            _decide(tournament, match, match.top_id or match.bottom_id, actor, by_place)
            continue
        if match.top_id is None or match.bottom_id is None:
            continue
        if max(top, bottom) >= match.wins_needed:
            winner = match.top_id if top > bottom else match.bottom_id
            _decide(tournament, match, winner, actor, by_place, score=(top, bottom))
            busy.discard(match.table)
            continue
        if not waiting.get(match.pk):
            if match.table is None:
                match.table = _free_table(busy)
                match.save(update_fields=["table"])
            number = played.get(match.pk, 0) + 1
            to_seat.setdefault((match.round_number, number), []).append((match, number))
    for (round_number, number), seating in sorted(to_seat.items()):
        _seat_games(tournament, session, round_number, number, seating, actor)


def _refuse_changed_winner(match: Match, top: int, bottom: int) -> None:
    if match.is_bye:
        return
    if max(top, bottom) >= match.wins_needed:
        winner = match.top_id if top > bottom else match.bottom_id
        if winner == match.winner_id:
            return
    raise ValidationError(
        f"{match.winner} has won playoff round {match.round_number}, match "
        f"{match.position + 1}, and plays on: a change that undoes that is not made here. "
        "Ask the director."
    )


def _seat_games(
    tournament: Tournament,
    session: Session,
    round_number: int,
    number: int,
    waiting: list[tuple[Match, int]],
    actor,
) -> None:
    """Seat game `number` of each waiting match of playoff round `round_number`, all in one
    games round (the one that already holds such games, or a new one)."""
    into = Round.objects.filter(
        session=session,
        games__match_game__match__round_number=round_number,
        games__match_game__number=number,
        games__match_game__match__tournament=tournament,
    ).first()
    tables = [
        DrawTable(number=match.table, seats=(match.top_id, match.bottom_id)) for match, _ in waiting
    ]
    round_ = round_seat(
        session=session,
        actor=actor,
        tables=tables,
        mode=PLAYOFF,
        seed=0,
        into=into,
    )
    games = {game.table: game for game in round_.games.filter(table__in=[t.number for t in tables])}
    MatchGame.objects.bulk_create(
        MatchGame(match=match, number=game_number, game=games[match.table])
        for match, game_number in waiting
    )
    audit_record(
        actor=actor,
        action=TournamentVerb.MATCH_GAME_SEATED,
        obj=tournament,
        club=tournament.club,
        data={
            "round": round_number,
            "game": number,
            "matches": [match.position + 1 for match, _ in waiting],
            "tables": [match.table for match, _ in waiting],
        },
    )


def playoffs_advance(*, session: Session) -> None:
    """What follows a confirmed or corrected result in a tournament's session (games.hooks):
    the playoffs move on. Inside the confirming service's transaction."""
    if not session.is_tournament:
        return
    tournament = Tournament.objects.filter(session=session).first()
    if tournament is None or tournament.stage != Stage.PLAYOFFS:
        return
    tournament = locked(Tournament.objects.select_related("club")).get(pk=tournament.pk)
    _advance(tournament, session, None)


def match_game_forfeit(
    *, match: Match, actor: AbstractBaseUser, absent: Player, reason: str = ""
) -> Match:
    """ACC rule 13.1: a qualifier who does not appear forfeits the match's current game (after
    five minutes, then another every fifteen); the director records each. The next game is
    seated as after any result, and the match is decided when the forfeits say so."""
    with transaction.atomic():
        tournament = locked(Tournament.objects.select_related("club")).get(pk=match.tournament_id)
        match = Match.objects.select_related("top", "bottom").get(pk=match.pk)
        if match.winner_id is not None:
            raise ValidationError("This match is decided: there is nothing to forfeit.")
        if absent.pk not in (match.top_id, match.bottom_id):
            raise ValidationError({"absent": f"{absent} does not play in this match."})
        current = (
            match.match_games.exclude(game__results__state=ResultState.CONFIRMED)
            .filter(game__status=GameStatus.PLAYED)
            .select_related("game")
            .first()
        )
        if current is None:
            raise ValidationError("The match has no game waiting to be played.")
        game_forfeit(
            game=current.game,
            actor=actor,
            leaving=absent,
            reason=reason or "Did not appear in time (ACC rule 13.1).",
        )
        audit_record(
            actor=actor,
            action=TournamentVerb.GAME_FORFEITED,
            obj=tournament,
            club=tournament.club,
            data={
                "round": match.round_number,
                "match": match.position + 1,
                "game": current.number,
                "absent": absent.pk,
            },
        )
        match.refresh_from_db()
    return match
