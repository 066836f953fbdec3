"""Qualifying: drawing its rounds (with the bye), and closing it: the cut, the seeds and the
bracket (ACC rule 13.2).

Terms: tournaments.services."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from club.services import session_require_open
from core.audit import audit_record
from games.draw import DrawTable
from games.models import Game, GameStatus, ResultState, Round, Seat
from games.services import round_entrants, round_seat
from money.payout import cut_cards
from tournaments.audit import TournamentVerb
from tournaments.models import Bye, Stage, Tournament
from tournaments.pairing import PairingError, pair_round
from tournaments.selectors import (
    QUALIFYING,
    QualifyingRow,
    qualifying_standings,
)
from tournaments.services.playoffs import _advance, _bracket_make
from tournaments.services.setup import lock_tournament


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
        session, tournament = lock_tournament(tournament)
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
        session, tournament = lock_tournament(tournament)
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
