"""Creating a tournament (its session, its own side pots) and setting its prize shares.

Terms: tournaments.services."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from club.locking import lock_session
from club.models import Club, Session, SessionKind
from club.rules import JACKPOT_HANDS
from club.services import session_open, session_require_open
from core.audit import audit_record
from core.cents import MONEY_LIMIT_CENTS, MONEY_LIMIT_MESSAGE
from core.locking import locked
from tournaments.audit import TournamentVerb
from tournaments.models import Tournament
from tournaments.prizes import WHOLE, PrizeError, prize_levels
from tournaments.selectors import (
    cut_size,
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
    jackpots: Mapping[int, int] | None = None,
) -> Tournament:
    """Create a tournament and open its session on `starts_on` (where entrants check in and
    pay the entry fee), played under the club's house rules with the tournament's fee, one
    entry fee for the day, and two-player tables. `jackpots` (hand -> each entrant's
    contribution in cents, 29, 28 or 24) are the tournament's side pots; without it, the
    club's own."""
    with transaction.atomic():
        rules = dataclasses.replace(
            club.house_rules,
            entry_fee_cents=entry_fee_cents,
            fee_per="session",
            table_mode="singles",
            rounds_per_session=qualifying_games,
            **_jackpot_rules(jackpots),
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
                "jackpots": rules.jackpots,
            },
        )
    return tournament


def _jackpot_rules(jackpots: Mapping[int, int] | None) -> dict[str, int]:
    """The house rules' jackpot fields for the tournament's own side pots (none: the club's)."""
    if jackpots is None:
        return {}
    fields = {}
    for hand, cents in jackpots.items():
        if hand not in JACKPOT_HANDS:
            raise ValidationError(f"There is no jackpot for a {hand}: only for {JACKPOT_HANDS}.")
        if not 0 <= cents <= MONEY_LIMIT_CENTS:
            raise ValidationError({f"jackpot_{hand}_cents": MONEY_LIMIT_MESSAGE})
        fields[f"jackpot_{hand}_cents"] = cents
    return fields


def prize_shares_set(
    *, tournament: Tournament, actor: AbstractBaseUser | None, shares: Sequence[int]
) -> Tournament:
    """Set the director's share of the prize fund for each level, in basis points (10000 in
    all), the champion first; empty: the default shares. Checked against the playoff's levels
    (from the qualifiers once qualifying has closed, else from the entrants checked in now,
    and again when the session is settled). Refused once the session is settled."""
    with transaction.atomic():
        session, tournament = lock_tournament(tournament)
        session_require_open(session)
        shares = [int(share) for share in shares]
        if shares:
            _check_prize_shares(shares)
            qualifiers = len(tournament.seeds) or cut_size(tournament)
            if qualifiers < 2:
                raise ValidationError("Check the entrants in first: the levels follow the cut.")
            try:
                prize_levels(qualifiers, shares)
            except PrizeError as error:
                raise ValidationError({"prize_shares": str(error)}) from None
        before = tournament.prize_shares
        tournament.prize_shares = shares
        tournament.save(update_fields=["prize_shares"])
        audit_record(
            actor=actor,
            action=TournamentVerb.PRIZE_SHARES_SET,
            obj=tournament,
            club=tournament.club,
            data={"before": before, "after": shares},
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


def lock_tournament(tournament: Tournament) -> tuple[Session, Tournament]:
    session = lock_session(tournament.session_id)
    return session, locked(Tournament.objects.select_related("club")).get(pk=tournament.pk)
