"""The prize fund of a tournament, paid when its session is settled: the bridge between the pure
split (tournaments.prizes) and money's settling (money.hooks; money never imports this app).

Terms (tournaments.models, tournaments.prizes):
- pot: the entry fees actually paid at the tournament's session, less any change given back,
  as money reads it for any session (`money.selectors.SettleInputs.pot_cents`).
- club's share: `club_share_percent` of the pot, rounded down to whole cents; the club keeps
  it (money books it as the club's share, out of the session pot). Rounding down never takes
  more than the percent from the players.
- prize fund: the pot less the club's share, all of it paid to the qualifiers by how far they
  went (`prize_split`, with the tournament's `prize_shares` or the default shares and the
  club's payout coin; the champion takes the odd cents).
- prize level of a qualifier: the champion's; else the level of the playoff round they lost
  (a forfeit included: ACC rule 13.1, a qualifier who does not appear still receives the prize
  of that round's losers), a seed who had a bye and lost in round 2 in round 2's level.
- place: the first place of the player's level, in the order of the levels: champion 1,
  runner-up 2, semi-finalists 3, quarter-finalists 5, ...; the entrants who did not qualify
  follow with 0¢, by their qualifying standing (ties sharing a place). The rank is the place.

The planner answers for a tournament's session only, and only once it is finished (the final
decided); before that the blocker says so and settling is refused.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from club.models import Session
from core.cents import format_cents
from money.hooks import PotPlan
from money.payout import Payout, PayoutPlan
from money.selectors import SettleInputs
from tournaments.bracket import bracket_size, rounds
from tournaments.models import Match, Stage, Tournament
from tournaments.prizes import Level, PrizeError, prize_levels, prize_split, prize_steps
from tournaments.selectors import qualifying_standings

NOT_FINISHED = "The playoffs are not finished: settle when the final is decided."


def _tournament(session: Session) -> Tournament | None:
    if not session.is_tournament:
        return None
    return Tournament.objects.filter(session=session).first()


def club_share_cents(tournament: Tournament, pot_cents: int) -> int:
    """What the club keeps of `pot_cents`: its share in percent, rounded down to whole cents."""
    return pot_cents * tournament.club_share_percent // 100


def prize_fund_blockers(session: Session) -> list[str]:
    """What of a tournament stops its session being settled: the playoffs still being played,
    or the director's prize shares not fitting the playoff's levels."""
    tournament = _tournament(session)
    if tournament is None:
        return []
    if tournament.stage != Stage.FINISHED:
        return [NOT_FINISHED]
    if tournament.prize_shares:
        try:
            prize_levels(len(tournament.seeds), tournament.prize_shares)
        except PrizeError as error:
            return [f"The tournament's prize shares do not fit its playoff: {error}"]
    return []


def _fund_text(inputs: SettleInputs, *, fee_cents: int, percent: int, kept_cents: int) -> str:
    """How the fund was made, for the prize sheet."""
    entrants = len(inputs.fees)
    paid = sum(cents for _, cents in inputs.fees)
    word = "entrant" if entrants == 1 else "entrants"
    if paid == entrants * fee_cents:
        made = f"{entrants} {word} at {format_cents(fee_cents)} = {format_cents(paid)}"
    else:
        made = f"{entrants} {word} paid {format_cents(paid)}"
    back = sum(cents for _, cents in inputs.refunds)
    if back:
        made += f", less change given back ({format_cents(back)})"
    fund = inputs.pot_cents - kept_cents
    if percent:
        made += f", less the club's {percent}% ({format_cents(kept_cents)})"
    if back or percent:
        made += f" = {format_cents(fund)}"
    return f"The fund: {made}."


def _levels_of(tournament: Tournament, levels: tuple[Level, ...]) -> list[list[int]]:
    """The qualifiers of each level, top first, each level's in seed order. A bracket that
    does not put every qualifier in exactly one level of the right size is a broken invariant."""
    depth = rounds(bracket_size(len(tournament.seeds)))
    found: list[list[int]] = [[] for _ in levels]
    found[0].append(tournament.champion_id)
    decided = Match.objects.filter(tournament=tournament, is_bye=False, winner__isnull=False)
    for top, bottom, winner, round_number in decided.values_list(
        "top_id", "bottom_id", "winner_id", "round_number"
    ):
        found[1 + depth - round_number].append(bottom if winner == top else top)
    seed_of = {player_id: seed for seed, player_id in enumerate(tournament.seeds)}
    placed = [player_id for level in found for player_id in level]
    if sorted(placed) != sorted(tournament.seeds) or [len(f) for f in found] != [
        level.players for level in levels
    ]:
        raise AssertionError(
            f"The bracket of {tournament} does not place each qualifier in one prize level."
        )
    return [sorted(level, key=seed_of.__getitem__) for level in found]


def prize_fund_plan(session: Session, inputs: SettleInputs, seed: int) -> PotPlan | None:
    """The tournament's pot plan (money.hooks planner): the club's share kept, the fund paid by
    prize level, every entrant listed; None for a session that is not a tournament's. `seed` is
    not used: nothing is left to a cut (the bracket decided every place)."""
    tournament = _tournament(session)
    if tournament is None:
        return None
    if tournament.stage != Stage.FINISHED:
        raise ValidationError(NOT_FINISHED)
    coin_cents = session.house_rules.payout_coin_cents
    kept = club_share_cents(tournament, inputs.pot_cents)
    fund = inputs.pot_cents - kept
    levels = prize_split(
        fund_cents=fund,
        coin_cents=coin_cents,
        qualifiers=len(tournament.seeds),
        shares=tournament.prize_shares or None,
    )
    payouts = []
    place = 1
    for level, players in zip(levels, _levels_of(tournament, levels), strict=True):
        payouts += [_payout(player_id, place, level.each_cents) for player_id in players]
        place += level.players
    qualified = set(tournament.seeds)
    rest = [row for row in qualifying_standings(tournament) if row.player_id not in qualified]
    shared = (None, place)  # (qualifying rank, place) of the last group of ties
    for index, row in enumerate(rest):
        if row.rank != shared[0]:
            shared = (row.rank, place + index)
        payouts.append(_payout(row.player_id, shared[1], 0))
    plan = PayoutPlan(
        pot_cents=fund,
        coin_cents=coin_cents,
        paid_places=len(tournament.seeds),
        weights=tuple(level.share for level in levels),
        place_amounts_cents=tuple(level.each_cents for level in levels),
        payouts=tuple(payouts),
        cuts=(),
        steps=prize_steps(levels, fund_cents=fund, coin_cents=coin_cents),
    )
    made = _fund_text(
        inputs,
        fee_cents=session.house_rules.entry_fee_cents,
        percent=tournament.club_share_percent,
        kept_cents=kept,
    )
    return PotPlan(payouts=plan, kept_cents=kept, steps=(made,))


def _payout(player_id: int, place: int, cents: int) -> Payout:
    return Payout(player_id=player_id, rank=place, place=place, amount_cents=cents)
