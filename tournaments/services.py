"""Writes of a tournament: creating it, drawing its qualifying rounds, closing qualifying (the
cut and the bracket), and the playoffs moving on by themselves as results are confirmed.

Terms (tournaments.models): the bridge between the models and the pure modules (the pairing,
`tournaments.pairing`; the bracket, `tournaments.bracket`; the cut of the cards that breaks a tie,
`money.payout.cut_cards`).

Locks: a tournament's own changes lock its session (club.locking), then the tournament row;
`playoffs_advance`, called from games.hooks' results-changed inside the service that confirmed a
result (which holds that game's lock), locks the tournament row only: two tables confirming at
once take turns, so each new playoff game is seated once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from club.locking import lock_session
from club.models import Club, Player, Session, SessionKind
from club.services import session_open, session_require_open
from core.audit import audit_record
from core.locking import locked
from games.draw import DrawTable
from games.models import Game, GameStatus, ResultState, Round, Seat
from games.services import game_forfeit, round_entrants, round_seat
from money.payout import cut_cards
from tournaments.audit import TournamentVerb
from tournaments.bracket import bracket_size, first_round
from tournaments.models import Bye, Match, MatchGame, Stage, Tournament
from tournaments.pairing import PairingError, pair_round
from tournaments.prizes import WHOLE
from tournaments.selectors import (
    PLAYOFF,
    QUALIFYING,
    QualifyingRow,
    games_waiting,
    match_scores,
    qualifying_standings,
)


def tournament_create(
    *,
    club: Club,
    actor: AbstractBaseUser | None,
    name: str,
    starts_on: dt.date,
    ends_on: dt.date | None = None,
    entry_fee_cents: int,
    qualifying_games: int,
    match_lengths: Sequence[int] = (),
    club_share_percent: int = 0,
    bye_points: int = 2,
    prize_shares: Sequence[int] = (),
) -> Tournament:
    """Create a tournament and open its session on `starts_on` (where entrants check in and
    pay the entry fee), played under the club's house rules with the tournament's fee, one
    entry fee for the day, and two-player tables."""
    with transaction.atomic():
        rules = dataclasses.replace(
            club.house_rules,
            entry_fee_cents=entry_fee_cents,
            fee_per="session",
            table_mode="singles",
            rounds_per_session=qualifying_games,
        )
        tournament = Tournament(
            club=club,
            name=(name or "").strip(),
            starts_on=starts_on,
            ends_on=ends_on or starts_on,
            entry_fee_cents=entry_fee_cents,
            qualifying_games=qualifying_games,
            match_lengths=[int(length) for length in match_lengths],
            club_share_percent=club_share_percent,
            bye_points=bye_points,
            prize_shares=[int(share) for share in prize_shares],
            created_by=actor if actor is not None and actor.is_authenticated else None,
        )
        tournament.full_clean(exclude=["session"])
        _check_match_lengths(tournament.match_lengths)
        _check_prize_shares(tournament.prize_shares)
        session = session_open(
            club=club, actor=actor, date=starts_on, kind=SessionKind.TOURNAMENT, rules=rules
        )
        tournament.session = session
        tournament.save()
        audit_record(
            actor=actor,
            action=TournamentVerb.CREATED,
            obj=tournament,
            club=club,
            data={
                "name": tournament.name,
                "session": session.pk,
                "starts_on": tournament.starts_on,
                "ends_on": tournament.ends_on,
                "entry_fee_cents": entry_fee_cents,
                "qualifying_games": qualifying_games,
                "match_lengths": tournament.match_lengths,
                "club_share_percent": club_share_percent,
                "bye_points": bye_points,
                "prize_shares": tournament.prize_shares,
            },
        )
    return tournament


def _check_match_lengths(lengths: Sequence[int]) -> None:
    if any(length not in (3, 5) for length in lengths):
        raise ValidationError({"match_lengths": "A playoff match is best of 3 or best of 5 games."})


def _check_prize_shares(shares: Sequence[int]) -> None:
    """A director's shares, before the number of levels is known (the cut decides it; the
    settling checks them against the levels: tournaments.prize_fund)."""
    if shares and (min(shares) < 1 or sum(shares) != WHOLE):
        raise ValidationError(
            {
                "prize_shares": "Give each prize level a share of 1 basis point or more (a "
                "hundredth of a percent), the champion first, adding up to 10000 (100%); or "
                "none for the default shares."
            }
        )


def _lock(tournament: Tournament) -> tuple[Session, Tournament]:
    session = lock_session(tournament.session_id)
    return session, locked(Tournament.objects.select_related("club")).get(pk=tournament.pk)


# --- Qualifying ------------------------------------------------------------------------------


def _qualifying_rounds(tournament: Tournament):
    return Round.objects.filter(session_id=tournament.session_id, mode=QUALIFYING)


def _history(tournament: Tournament) -> tuple[dict[tuple[int, int], int], dict[int, int]]:
    """Who met whom in the qualifying so far (pair sorted low first -> times), and the byes."""
    tables: dict[int, list[int]] = {}
    seats = Seat.objects.filter(round__in=_qualifying_rounds(tournament)).values_list(
        "game_id", "player_id"
    )
    for game_id, player_id in seats:
        tables.setdefault(game_id, []).append(player_id)
    met: dict[tuple[int, int], int] = {}
    for players in tables.values():
        if len(players) == 2:
            pair = (min(players), max(players))
            met[pair] = met.get(pair, 0) + 1
    byes: dict[int, int] = {}
    for player_id in Bye.objects.filter(tournament=tournament).values_list("player_id", flat=True):
        byes[player_id] = byes.get(player_id, 0) + 1
    return met, byes


def qualifying_round_draw(
    *,
    tournament: Tournament,
    actor: AbstractBaseUser | None,
    seed: int | None = None,
    expected_number: int | None = None,
) -> Round:
    """Draw the next qualifying round: every entrant still playing at a two-player table, each
    against someone not met yet where possible; with an odd number, one bye to an entrant with
    the fewest byes so far (tournaments.pairing)."""
    with transaction.atomic():
        session, tournament = _lock(tournament)
        session_require_open(session)
        if tournament.stage not in (Stage.REGISTRATION, Stage.QUALIFYING):
            raise ValidationError("Qualifying is closed: the playoffs are under way.")
        number = _qualifying_rounds(tournament).count() + 1
        if expected_number is not None and expected_number != number:
            raise ValidationError(
                f"Qualifying round {expected_number} is already drawn; the next is {number}."
            )
        if number > tournament.qualifying_games:
            raise ValidationError(
                f"All {tournament.qualifying_games} qualifying rounds are drawn: close "
                "qualifying when their results are in."
            )
        entrants = round_entrants(session, session.rounds.count() + 1)
        met, byes = _history(tournament)
        seed = seed if seed is not None else secrets.randbelow(2**53)
        try:
            pairing = pair_round(entrants=entrants, met=met, byes=byes, seed=seed)
        except PairingError as error:
            raise ValidationError(str(error)) from None
        tables = [
            DrawTable(number=number_, seats=pair)
            for number_, pair in enumerate(pairing.tables, start=1)
        ]
        round_ = round_seat(session=session, actor=actor, tables=tables, mode=QUALIFYING, seed=seed)
        if pairing.bye is not None:
            bye = Bye(tournament=tournament, round=round_, player_id=pairing.bye)
            bye.full_clean(validate_constraints=False)
            bye.save()
        if tournament.stage == Stage.REGISTRATION:
            tournament.stage = Stage.QUALIFYING
            tournament.save(update_fields=["stage"])
        audit_record(
            actor=actor,
            action=TournamentVerb.QUALIFYING_DRAWN,
            obj=tournament,
            club=tournament.club,
            data={
                "round": round_.number,
                "qualifying_round": number,
                "seed": seed,
                "bye": pairing.bye,
                "repeats": pairing.repeats,
            },
        )
    return round_


def close_refusal(tournament: Tournament) -> str | None:
    """Why qualifying cannot close now (None: it can)."""
    if tournament.stage != Stage.QUALIFYING:
        return "Qualifying is not under way."
    rounds = _qualifying_rounds(tournament)
    drawn = rounds.count()
    if drawn < tournament.qualifying_games:
        return (
            f"Only {drawn} of the {tournament.qualifying_games} qualifying rounds are drawn: "
            "draw the rest first."
        )
    open_games = (
        Game.objects.filter(round__in=rounds, status=GameStatus.PLAYED)
        .exclude(results__state=ResultState.CONFIRMED)
        .values_list("round__number", "table")
        .order_by("round__number", "table")
    )
    missing = [f"round {number} table {table}" for number, table in open_games[:6]]
    if missing:
        return (
            "These qualifying games have no confirmed result yet: "
            + ", ".join(missing)
            + ("…" if len(open_games) > 6 else "")
            + ". Every result is entered by one player and accepted by the other first."
        )
    return None


def _measures(row: QualifyingRow) -> tuple[int, int, int]:
    return (row.game_points, row.won, row.spread)


def seeds_decide(
    standings: Sequence[QualifyingRow], qualifiers: int, seed: int
) -> tuple[list[int], list[str]]:
    """The qualifiers in seed order, and in words how each tie among them was decided: a group
    of players level on game points, games won and spread that reaches into the qualifiers is
    put in order by a cut of the cards (high card first), as the payout's ties are."""
    seeds: list[int] = []
    steps: list[str] = []
    names = {row.player_id: row.player for row in standings}
    start = 0
    while start < qualifiers and start < len(standings):
        end = start
        while end < len(standings) and _measures(standings[end]) == _measures(standings[start]):
            end += 1
        group = [row.player_id for row in standings[start:end]]
        if len(group) == 1:
            seeds.extend(group)
        else:
            order, cuts = cut_cards(group, boundaries=range(1, len(group)), seed=seed + start)
            seeds.extend(order)
            points, won, spread = _measures(standings[start])
            cards = "; ".join(
                ", ".join(f"{names[card.player_id]} {card.card}" for card in round_)
                for round_ in cuts
            )
            across = "across the cut line, " if end > qualifiers else ""
            steps.append(
                f"Places {start + 1} to {end} are level ({points} game points, {won} won, "
                f"spread {spread:+d}): {across}a cut of the cards put them in order ({cards}): "
                + ", ".join(names[player] for player in order)
                + "."
            )
        start = end
    return seeds[:qualifiers], steps


def qualifying_close(
    *, tournament: Tournament, actor: AbstractBaseUser | None, seed: int | None = None
) -> Tournament:
    """Close qualifying: the best quarter of the entrants qualify (ACC rule 13.2.b), seeded by
    the standings (ties by a recorded cut of the cards), and the bracket is made (13.2.c, d):
    first-round byes to the top seeds, then the first playoff games are seated."""
    with transaction.atomic():
        session, tournament = _lock(tournament)
        session_require_open(session)
        refusal = close_refusal(tournament)
        if refusal:
            raise ValidationError(refusal)
        standings = qualifying_standings(tournament)
        qualifiers = sum(1 for row in standings if row.in_cut)
        seed = seed if seed is not None else secrets.randbelow(2**53)
        seeds, steps = seeds_decide(standings, qualifiers, seed)
        tournament.seeds = seeds
        tournament.cut_seed = seed
        tournament.cut_steps = steps
        tournament.stage = Stage.PLAYOFFS
        tournament.save(update_fields=["seeds", "cut_seed", "cut_steps", "stage"])
        _bracket_make(tournament, seeds)
        audit_record(
            actor=actor,
            action=TournamentVerb.QUALIFYING_CLOSED,
            obj=tournament,
            club=tournament.club,
            data={"seeds": seeds, "cut_seed": seed, "cut_steps": steps},
        )
        _advance(tournament, session, actor)
    return tournament


# --- The bracket and the playoffs ------------------------------------------------------------


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
    scores, waiting = match_scores(tournament), games_waiting(tournament)
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
