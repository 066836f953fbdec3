"""Reads for the money app: what stops a session being settled (each with the page that clears
it), what settling it reads (`settle_inputs`), the session's skunk coins and cash box, the pots'
balances, the hands that win a jackpot, a session's current settlement and a player's money.
The ledger page's reads are money.ledger_selectors'.

Terms: see `money.models`. Balances are sums of ledger rows, counted in the database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce, Lower
from django.urls import reverse

from club.models import CheckIn, Player, Session, SessionState
from club.money import CHECKIN_JACKPOT_FIELDS, JACKPOT_FIELDS
from club.names import player_name_of
from core.cents import format_cents
from core.compiled_reads import compiled_once
from games.models import Game, GameStatus, ResultLine, ResultState
from games.selectors import session_standings
from money.fee_selectors import FeeLine, fees_owed, fees_taken
from money.hooks import registered_blockers
from money.models import (
    JACKPOT_POTS,
    LedgerEntry,
    Payout,
    Pot,
    Settlement,
    SettlementState,
    SkunkCoin,
)
from money.payout import RankedPlayer
from money.side_pots import Coin, SidePot
from scoring.models import Claim
from scoring.selectors import accepted_big_hands, session_open_disputes


class Blocker(str):
    """One thing that stops a session being settled: the sentence, and in `url` the page that
    clears it (docs/spec.md "A Thursday, step by step", step 6). A plain string everywhere
    else."""

    url: str

    def __new__(cls, text: str, url: str = "") -> Blocker:
        blocker = super().__new__(cls, text)
        blocker.url = url
        return blocker


def _names(names) -> str:
    return ", ".join(names)


def _fee_blockers(session: Session, page: str) -> list[Blocker]:
    """Per game: fees owed not paid yet, and change not given back yet, each by name."""
    lines = sorted(fees_owed(session).values(), key=lambda line: line.name)
    blockers = []
    unpaid = [
        f"{line.name} ({format_cents(line.to_pay_cents)})" for line in lines if line.to_pay_cents
    ]
    if unpaid:
        blockers.append(
            Blocker(
                f"Fees not paid: {_names(unpaid)}. Take what they owe on their rows.",
                f"{page}#checkin",
            )
        )
    change = [
        f"{line.name} ({format_cents(line.change_due_cents)})"
        for line in lines
        if line.change_due_cents
    ]
    if change:
        blockers.append(
            Blocker(
                f"Change to give back: {_names(change)}. Give it and press Change given on "
                "their rows.",
                f"{page}#checkin",
            )
        )
    return blockers


@compiled_once
def _claims_in_dispute(session_id: int):
    """The claims of the session's disputes waiting for a judge (scoring's
    session_open_disputes)."""
    return session_open_disputes(session_id).values_list("claim_id", flat=True)


def settle_blockers(
    session: Session,
    *,
    coins: list[CoinLine] | None = None,
    checkins: Iterable[CheckIn] | None = None,
    games: list[tuple[int, int, int, bool]] | None = None,
) -> list[Blocker]:
    """Everything that stops the session being settled, each as a sentence saying what to do,
    with the page that does it; then what the apps above register (money.hooks). `coins`,
    `checkins` and `games`: the session's `skunk_coin_lines`, check-ins (with their players,
    by name) and games played or forfeited (round id, round number, table, whether a version
    of its result is confirmed; by round and table) when the caller has read them already (the
    session page). Three reads of values (the check-ins and the games unless given, the
    disputes waiting), then the fees owed with the fee per game and the skunk coins unless
    given."""
    page = reverse("web:session", args=[session.pk])
    blockers = []
    if checkins is None:
        checkins = list(
            CheckIn.objects.filter(session=session)
            .order_by(Lower("player__display_name"))
            .values_list("player__display_name", "paid_at")
        )
    else:
        checkins = [(checkin.player.display_name, checkin.paid_at) for checkin in checkins]
    if not checkins:
        blockers.append(
            Blocker("Nobody is checked in: there is nothing to settle.", f"{page}#checkin")
        )
    if session.house_rules.fee_per_game:
        blockers += _fee_blockers(session, page)
    elif unpaid := [name for name, paid_at in checkins if paid_at is None]:
        blockers.append(
            Blocker(
                f"Fees not paid: {_names(unpaid)}. Mark them paid (or undo the check-in).",
                f"{page}#checkin",
            )
        )
    # A game not played has no result and blocks nothing (games.services.unfinished). Each
    # game with its confirmed results counted, by round and table: (round, number, table, n).
    if games is None:
        games = list(
            Game.objects.filter(session=session)
            .exclude(status=GameStatus.NOT_PLAYED)
            .annotate(confirmed=Count("results", filter=Q(results__state=ResultState.CONFIRMED)))
            .order_by("round__number", "table")
            .values_list("round_id", "round__number", "table", "confirmed")
        )
    if checkins and not any(confirmed for *_, confirmed in games):
        blockers.append(
            Blocker(
                "No game confirmed yet: draw a round and confirm its results first.",
                f"{page}#rounds",
            )
        )
    unconfirmed = [game for game in games if not game[3]]
    if unconfirmed:
        tables = ", ".join(f"round {number} table {table}" for _, number, table, _ in unconfirmed)
        blockers.append(
            Blocker(
                f"Results not confirmed: {tables}.",
                reverse("games:round", args=[unconfirmed[0][0]]),
            )
        )
    waiting = _claims_in_dispute(session.pk)
    if waiting:
        disputes = len(waiting)
        # One dispute: straight to its claim page, where an organiser names a judge for it.
        where = (
            f"{reverse('scoring:claim', args=[waiting[0]])}#judge"
            if disputes == 1
            else reverse("scoring:session_report", args=[session.pk])
        )
        blockers.append(
            Blocker(
                f"{disputes} dispute{'s' if disputes != 1 else ''} waiting for a judge: a judge "
                "who is not at the table rules first, or name a player present as judge for "
                f"{'it' if disputes == 1 else 'each'}.",
                where,
            )
        )
    if coins is None:
        coins = skunk_coin_lines(session)
    owing = [coin.label for coin in coins if coin.owed and not coin.paid]
    if owing:
        blockers.append(
            Blocker(
                f"Skunk coins not paid: {_names(owing)}. Mark them paid.",
                f"{page}#skunk-coins",
            )
        )
    back = [coin.label for coin in coins if coin.paid and not coin.owed]
    if back:
        blockers.append(
            Blocker(
                f"Skunk coins to hand back (the skunk was corrected away): {_names(back)}. "
                "Give them back and mark them handed back.",
                f"{page}#skunk-coins",
            )
        )
    blockers += [Blocker(text, getattr(text, "url", "")) for text in registered_blockers(session)]
    return blockers


@dataclass(frozen=True)
class SettleInputs:
    """What settling a session reads before it plans anything (`money.services.session_settle`,
    once the session is locked): the standings, the fees actually paid and the change given
    back, and the side pots the session touches, with the names of their winners for the payout
    sheet."""

    players: tuple[RankedPlayer, ...]  # the session's standings, best first
    fees: tuple[tuple[int, int], ...]  # (player id, cents) per paid check-in, in check-in order
    side_pots: tuple[SidePot, ...]  # the skunk bank first, then the jackpots 29, 28, 24
    names: dict[int, str]  # the side pots' winners' display names
    refunds: tuple[tuple[int, int], ...] = ()  # (player id, cents) of change given back
    pot_text: str = ""  # how the pot was made, for the payout sheet

    @property
    def pot_cents(self) -> int:
        """The session pot: the fees actually paid, less the change given back."""
        return sum(cents for _, cents in self.fees) - sum(cents for _, cents in self.refunds)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _pot_text(session: Session, lines: list[FeeLine], pot_cents: int) -> str:
    """How the pot was made, for the payout sheet: "The pot: 38 games at 25¢ = $9.50" (per
    game) or "The pot: 10 players at 25¢ = $2.50" (per session), naming the change given back."""
    fee = format_cents(session.house_rules.entry_fee_cents)
    if session.house_rules.fee_per_game:
        made = f"{_count(sum(line.games for line in lines), 'game')} at {fee}"
    else:
        made = f"{_count(len(lines), 'player')} at {fee}"
    text = f"The pot: {made} = {format_cents(pot_cents)}"
    back = [line for line in lines if line.change_cents]
    if back:
        paid = sum(line.fees_paid_cents for line in lines)
        names = ", ".join(f"{line.name} {format_cents(line.change_cents)}" for line in back)
        text += f" ({format_cents(paid)} paid, less change given back: {names})"
    return text + "."


def settle_inputs(session: Session) -> SettleInputs:
    """What settling `session` needs to plan its payouts and side pots (`SettleInputs`). A side
    pot is there when the session's rules run it or it took money this session: the skunk bank
    with the skunk coins taken, a jackpot with the contributions recorded on the paid check-ins
    (not the rules of today). Each carries over its balance before the session. With the fee
    per game every check-in has paid what it owes (the blockers saw to it): the fees are what
    each paid beyond the jackpots, the refunds the change given back."""
    players = tuple(
        RankedPlayer(player_id=row.player_id, rank=row.rank, name=row.player)
        for row in session_standings(session)
    )
    checkins = CheckIn.objects.filter(session=session)
    per_game = session.house_rules.fee_per_game
    if not per_game:
        checkins = checkins.filter(paid_at__isnull=False)
    paid = list(checkins.values("pk", "player_id", "fee_cents", *JACKPOT_FIELDS))
    owed = fees_owed(session)
    lines = [owed[row["pk"]] for row in paid]
    if per_game:
        fees = tuple(
            (line.player_id, line.fees_paid_cents) for line in lines if line.fees_paid_cents
        )
        refunds = tuple((line.player_id, line.change_cents) for line in lines if line.change_cents)
    else:
        fees = tuple((row["player_id"], row["fee_cents"]) for row in paid)
        refunds = ()
    side_pots = _skunk_bank(session) + _jackpots(session, paid)
    winners = {player_id for side_pot in side_pots for player_id in side_pot.winners}
    names = {}
    if winners:
        names = dict(
            Player.objects.filter(club=session.club_id, pk__in=winners).values_list(
                "pk", "display_name"
            )
        )
    pot = sum(cents for _, cents in fees) - sum(cents for _, cents in refunds)
    return SettleInputs(
        players=players,
        fees=fees,
        side_pots=side_pots,
        names=names,
        refunds=refunds,
        pot_text=_pot_text(session, lines, pot),
    )


def _skunk_bank(session: Session) -> tuple[SidePot, ...]:
    """The skunk bank at this settling: exactly the coins taken (the blockers made sure they are
    the coins owed), won by whoever gave a double skunk."""
    coins = tuple(
        Coin(player_id=player_id, cents=cents)
        for player_id, cents in SkunkCoin.objects.filter(session=session)
        .order_by("game_id", "player_id")
        .values_list("player_id", "cents")
    )
    if not coins and not session.house_rules.skunk_bank:
        return ()
    return (
        SidePot(
            pot=Pot.SKUNK_BANK,
            carried_cents=pot_balance(session.club, Pot.SKUNK_BANK),
            coins=coins,
            winners=tuple(double_skunk_winners(session)),
        ),
    )


def _jackpots(session: Session, paid: list[dict]) -> tuple[SidePot, ...]:
    """Each jackpot at this settling: the contributions recorded on the paid check-ins, won by
    whoever had a hand of its count accepted."""
    jackpots = []
    for hand, field in CHECKIN_JACKPOT_FIELDS.items():
        coins = tuple(
            Coin(player_id=row["player_id"], cents=row[field]) for row in paid if row[field] > 0
        )
        if not coins and hand not in session.house_rules.jackpots:
            continue
        pot = JACKPOT_POTS[hand]
        jackpots.append(
            SidePot(
                pot=pot,
                carried_cents=pot_balance(session.club, pot),
                coins=coins,
                winners=tuple(accepted_hands(session, hand)),
            )
        )
    return tuple(jackpots)


def double_skunk_winners(session: Session) -> list[int]:
    """The players who won a game of the session by a double skunk (a confirmed result with a
    double-skunked line): the winners of the skunk bank, by player id."""
    confirmed = ResultLine.objects.filter(
        result__game__session=session, result__state=ResultState.CONFIRMED
    )
    double_games = confirmed.filter(double_skunked=True).values("result_id")
    return sorted(
        set(
            confirmed.filter(won=True, result_id__in=double_games).values_list(
                "player_id", flat=True
            )
        )
    )


@dataclass(frozen=True)
class CoinLine:
    """One skunk coin of a session: owed (a confirmed skunked line, the bank on), paid (a
    SkunkCoin row), or both. Paid but not owed: the skunk was corrected away, hand it back."""

    game_id: int
    round_number: int
    table: int
    player_id: int
    name: str
    cents: int
    owed: bool
    coin: SkunkCoin | None

    @property
    def paid(self) -> bool:
        return self.coin is not None

    @property
    def label(self) -> str:
        return f"{self.name} (round {self.round_number} table {self.table})"


@compiled_once
def _coins_taken(session_id: int, club_id: int):
    """The session's skunk coins taken, with who took each and where its skunk was."""
    return (
        SkunkCoin.objects.filter(session_id=session_id)
        .order_by()  # sorted by skunk_coin_lines, not by the rows' own order (it joins five tables)
        .select_related("paid_by")
        .annotate(
            paid_by_name=player_name_of("paid_by", club_id),  # "Paid to <name>"
            round_number=F("game__round__number"),
            table=F("game__table"),
            name=F("player__display_name"),
        )
    )


def skunk_coin_lines(
    session: Session, *, skunked: Iterable[tuple[int, int, int, int, str]] | None = None
) -> list[CoinLine]:
    """The session's skunk coins, by round, table and name: each skunked line of a confirmed
    result owes one payout coin when the session's rules run the skunk bank; the coins taken
    are SkunkCoin rows. Two queries (one given `skunked`: the skunked lines of the session's
    confirmed results, as (game id, player id, round number, table, name), when the caller has
    read them already, as the session page's rounds do)."""
    rules = session.house_rules
    owed: dict[tuple[int, int], tuple] = {}
    if rules.skunk_bank and skunked is None:
        skunked = (
            ResultLine.objects.filter(
                result__game__session=session, result__state=ResultState.CONFIRMED, skunked=True
            )
            .order_by()
            .values_list(
                "result__game_id",
                "player_id",
                "result__game__round__number",
                "result__game__table",
                "player__display_name",
            )
        )
    if rules.skunk_bank:
        for game_id, player_id, number, table, name in skunked:
            owed[(game_id, player_id)] = (number, table, name)
    paid = {
        (coin.game_id, coin.player_id): coin for coin in _coins_taken(session.pk, session.club_id)
    }
    coins = []
    for key in owed.keys() | paid.keys():
        coin = paid.get(key)
        # Paid and no longer owed (the skunk corrected away): where the coin was taken.
        number, table, name = owed.get(key) or (coin.round_number, coin.table, coin.name)
        coins.append(
            CoinLine(
                game_id=key[0],
                round_number=number,
                table=table,
                player_id=key[1],
                name=name,
                cents=coin.cents if coin else rules.payout_coin_cents,
                owed=key in owed,
                coin=coin,
            )
        )
    return sorted(coins, key=lambda c: (c.round_number, c.table, c.name))


@dataclass(frozen=True)
class CashBox:
    """A session's cash box (docs/spec.md "The pot and payouts": the cash box and the ledger
    agree to the cent): what was collected (fees, jackpot contributions and skunk coins taken),
    the change given back (refunds, with the fee per game), what was paid out (payouts and
    side-pot wins), what the club keeps (a tournament's share of its fees), and the difference,
    carried into the side pots (or out of them, when it is below 0). Before settling nothing is
    paid out yet."""

    fees_cents: int
    contributions_cents: int
    skunk_coins_cents: int
    payouts_cents: int = 0
    side_pot_wins_cents: int = 0
    settled: bool = False
    refunds_cents: int = 0
    kept_cents: int = 0  # the club's share of the pot (a tournament's), not paid out

    @property
    def collected_cents(self) -> int:
        return self.fees_cents + self.contributions_cents + self.skunk_coins_cents

    @property
    def pot_cents(self) -> int:
        """The session pot before it is split: the fees taken less the change given back."""
        return self.fees_cents - self.refunds_cents

    @property
    def paid_out_cents(self) -> int:
        return self.payouts_cents + self.side_pot_wins_cents

    @property
    def carried_cents(self) -> int:
        return self.collected_cents - self.refunds_cents - self.paid_out_cents - self.kept_cents


def session_cash_box(
    session: Session, settlement: Settlement | None = None, *, checkins=None, coins=None
) -> CashBox:
    """The session's cash box from the money actually taken (`fee_selectors.fees_taken`; skunk
    coins taken) and, once settled, the current settlement's payouts, side-pot wins and what the
    club kept. `checkins` and `coins`: the session's check-ins and `skunk_coin_lines` when the
    caller has read them already (the session page)."""
    taken = fees_taken(session, checkins)
    if coins is None:
        coins_cents = SkunkCoin.objects.filter(session=session).aggregate(
            total=Coalesce(Sum("cents"), 0)
        )["total"]
    else:
        coins_cents = sum(coin.cents for coin in coins if coin.paid)
    box = {
        "fees_cents": taken.fees_cents,
        "contributions_cents": taken.contributions_cents,
        "skunk_coins_cents": coins_cents,
        "refunds_cents": taken.refunds_cents,
    }
    if settlement is None and session.state == SessionState.SETTLED:
        settlement = current_settlement(session)
    if settlement is None:
        return CashBox(**box)
    payouts = Payout.objects.filter(settlement=settlement).aggregate(
        total=Coalesce(Sum("amount_cents"), 0)
    )["total"]
    wins = sum(pot["won_cents"] for pot in settlement.side_pots)
    return CashBox(
        **box,
        payouts_cents=payouts,
        side_pot_wins_cents=wins,
        settled=True,
        # Settling books the pot as payouts plus the club's share (money.services), exactly.
        kept_cents=settlement.pot_cents - payouts,
    )


def session_cash_box_planned(session: Session, plan) -> CashBox:
    """The session's cash box as it will be once `plan` (money.services.SettlePlan, not yet
    written) is settled: the money taken now, and the plan's payouts and side-pot wins."""
    return replace(
        session_cash_box(session),
        payouts_cents=sum(payout.amount_cents for payout in plan.pot.payouts),
        side_pot_wins_cents=sum(pot["won_cents"] for pot in plan.sheet),
        settled=True,
        kept_cents=plan.kept_cents,
    )


def pot_balance(club, pot: str) -> int:
    return LedgerEntry.objects.filter(club=club, pot=pot).aggregate(
        total=Coalesce(Sum("amount_cents"), 0)
    )["total"]


def accepted_hands(session: Session, total: int) -> list[int]:
    """Players with an accepted big hand counting `total` this session whose cards were
    confirmed (scoring.selectors, which defines it for the highlights too): the winners of the
    jackpot of `total` (docs/spec.md "Claims, muggins and disputes"). Claimed at its true
    count, so never an over-claim corrected down, whatever a judge later rules, nor a count found
    only by a muggins call; a false muggins call after it never costs it; disputed, the judge's
    last ruling left the claimant's side the count. Two queries."""
    claims = Claim.objects.filter(game__session=session, true_points=total).order_by()
    hands = accepted_big_hands(claims, at_least=total, cards_confirmed=True)
    return sorted({claim.claimant_id for claim in hands})


def current_settlement(session):
    """The session's current settlement with its payouts (best place first), or None."""
    return (
        Settlement.objects.filter(session=session, state=SettlementState.CURRENT)
        .select_related("settled_by")
        .prefetch_related("payouts__player")
        .first()
    )


def pot_balances(club) -> dict[str, int]:
    """Every pot's balance: the sum of its ledger rows, in the database."""
    totals = dict(
        LedgerEntry.objects.filter(club=club)
        .values("pot")
        .annotate(total=Sum("amount_cents"))
        .values_list("pot", "total")
    )
    return {pot: totals.get(pot, 0) for pot in Pot.values}


def player_money(player):
    """A player's money history: fees, payouts, side-pot coins and wins, newest first."""
    return (
        LedgerEntry.objects.filter(player=player)
        .select_related("session")
        .order_by("-created_at", "-pk")
    )


def may_see_player_money(user, player) -> bool:
    """Whether `user` may read `player`'s money page: the player themself (a member who reads
    the roster), or whoever reads the club's ledger (organisers). The page and every link to it
    ask this."""
    if not user.has_perm("club.view_player"):
        return False
    own = player.user_id is not None and player.user_id == user.pk
    return own or user.has_perm("money.view_ledgerentry")
