"""The money rules of a backup's rows (ops.backup_checks): what the money's rows say of each
other, as money.services writes them, so an edit of one amount, one player or one row is refused,
naming the row.

Terms (money.models):
- sums: a settlement's payouts and the club's share sum to its pot; its ledger rows in the
  session pot net to zero (fees in, refunds, payouts and the club's share out) and its fees less
  its refunds are its pot; the payouts in
  the ledger are its Payout rows; the current settlement's pot is the fees its session's
  check-ins paid (with the fee per game: their payments beyond the jackpots, less the change
  given back, `FeePayment` rows); no pot ends below zero.
- club's share: at most one ledger row per settlement, out of the session pot, with no player;
  only a tournament's session has one, of exactly its `club_share_percent` of the pot rounded
  down to whole cents (tournaments.prize_fund), and a Thursday's none.
- states: a replaced settlement's rows are all reversed (every pot nets to zero), a current one
  has no reversal; a settled session has one current settlement and an open one none.
- contributions: a current settlement books, for each paid check-in of its session, its fee in
  the session pot (with the fee per game, every check-in: what it paid beyond its jackpots,
  and the change given back as a refund) and each jackpot contribution it paid (`CheckIn`'s
  `jackpot_<hand>_cents`) in that jackpot, and in the skunk bank exactly the coins taken
  (`SkunkCoin` rows of the session): one ledger row each, player and cents alike, and no other.
  A replaced settlement is not compared with the check-ins, which may have changed since its
  session was reopened.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from club.models import SessionState
from club.money import CHECKIN_JACKPOT_FIELDS
from money.models import JACKPOT_POTS, FeePaymentKind, LedgerKind, Pot, SettlementState
from tournaments.prize_fund import club_share_cents

POT_NAMES = {pot: str(label).lower() for pot, label in Pot.choices}


class BrokenRow(Exception):
    """A row of the file breaks a rule of the site; the message names it and says what."""


class MoneyChecks:
    """The money rules, for the checker of ops.backup_checks, which gives them `rows` (model
    label -> the file's unsaved rows) and `fail(row, message)` (raises BrokenRow)."""

    rows: dict

    def fail(self, instance, message: str):
        raise NotImplementedError

    def money(self) -> None:
        """Every money rule of the file (see the module's terms)."""
        payouts: dict[int, list] = defaultdict(list)
        for payout in self.rows.get("money.payout", []):
            payouts[payout.settlement_id].append(payout)
        ledger: dict[int, list] = defaultdict(list)
        for entry in self.rows.get("money.ledgerentry", []):
            ledger[entry.settlement_id].append(entry)
        current = {}
        for settlement in self.rows.get("money.settlement", []):
            self.settlement(settlement, payouts[settlement.pk], ledger[settlement.pk])
            if settlement.state == SettlementState.CURRENT:
                current[settlement.session_id] = settlement
        fees: Counter = Counter()
        for session_id, rows in self.fee_rows().items():
            fees[session_id] = sum(cents for _, kind, _, cents, _ in rows if kind != "jackpot")
        for session in self.rows.get("club.session", []):
            settlement = current.get(session.pk)
            if session.state == SessionState.SETTLED and settlement is None:
                self.fail(session, "it is settled, yet it has no current settlement.")
            if session.state == SessionState.OPEN and settlement is not None:
                self.fail(
                    session,
                    f"it is open, yet money.settlement #{settlement.pk} is its current settlement.",
                )
            if settlement is not None and fees[session.pk] != settlement.pot_cents:
                self.fail(
                    settlement,
                    f"its pot is {settlement.pot_cents:,}¢ but its session's check-ins paid "
                    f"{fees[session.pk]:,}¢.",
                )
            if settlement is not None:
                self.contributions(settlement, ledger[settlement.pk])
        tournaments = {t.session_id: t for t in self.rows.get("tournaments.tournament", [])}
        for settlement in self.rows.get("money.settlement", []):
            tournament = tournaments.get(settlement.session_id)
            self.club_share(settlement, ledger[settlement.pk], tournament)
        balances: Counter = Counter()
        for entry in self.rows.get("money.ledgerentry", []):
            balances[entry.pot] += entry.amount_cents
        for pot, balance in balances.items():
            if balance < 0:
                club = self.rows["club.club"][0]
                self.fail(club, f"its {POT_NAMES[pot]} ends at {balance:+,}¢, below 0.")

    def settlement(self, settlement, payouts: list, ledger: list) -> None:
        """A settlement's own sums and state (see the module's terms)."""
        pot = settlement.pot_cents
        paid = sum(payout.amount_cents for payout in payouts)
        kept = -sum(entry.amount_cents for entry in ledger if entry.kind == LedgerKind.CLUB_SHARE)
        if paid + kept != pot:
            with_kept = f" and the club's share {kept:,}¢" if kept else ""
            self.fail(
                settlement,
                f"its payouts{with_kept} sum to {paid + kept:,}¢ but its pot is {pot:,}¢.",
            )
        nets: Counter = Counter()
        for entry in ledger:
            nets[entry.pot] += entry.amount_cents
        if nets[Pot.MAIN]:
            self.fail(
                settlement,
                f"its ledger rows in the {POT_NAMES[Pot.MAIN]} net to {nets[Pot.MAIN]:+,}¢, not 0.",
            )
        reversal = next((e for e in ledger if e.kind == LedgerKind.REVERSAL), None)
        if settlement.state == SettlementState.CURRENT and reversal is not None:
            self.fail(
                settlement,
                f"it is current, yet money.ledgerentry #{reversal.pk} reverses a row of it.",
            )
        kept = [entry for entry in ledger if entry.kind != LedgerKind.REVERSAL]
        fees = sum(
            entry.amount_cents
            for entry in kept
            if entry.kind in (LedgerKind.FEE, LedgerKind.REFUND)
        )
        if fees != pot:
            self.fail(
                settlement,
                f"its fees less its refunds in the ledger sum to {fees:,}¢ but its pot is "
                f"{pot:,}¢.",
            )
        paid_out: Counter = Counter()
        for entry in kept:
            if entry.kind == LedgerKind.PAYOUT:
                paid_out[entry.player_id] -= entry.amount_cents
        if +paid_out != +Counter({p.player_id: p.amount_cents for p in payouts}):
            self.fail(settlement, "its payouts in the ledger are not its payouts.")
        left = next((name for name, net in nets.items() if net), None)
        if settlement.state != SettlementState.CURRENT and left:
            self.fail(
                settlement,
                f"it was replaced, yet its ledger rows in the {POT_NAMES[left]} net to "
                f"{nets[left]:+,}¢, not 0 (reopening reverses every row).",
            )

    def club_share(self, settlement, ledger: list, tournament) -> None:
        """A settlement's club's share row: its shape, and its amount against its tournament
        (see the module's terms)."""
        shares = [entry for entry in ledger if entry.kind == LedgerKind.CLUB_SHARE]
        for entry in shares:
            if entry.pot != Pot.MAIN or entry.player_id is not None or entry.amount_cents >= 0:
                self.fail(
                    entry,
                    "a club's share is money out of the session pot, below 0¢, with no player.",
                )
        if len(shares) > 1:
            self.fail(shares[1], f"money.settlement #{settlement.pk} has a second club's share.")
        kept = -sum(entry.amount_cents for entry in shares)
        due = 0 if tournament is None else club_share_cents(tournament, settlement.pot_cents)
        if kept != due:
            whose = (
                f"its tournament keeps {tournament.club_share_percent}% of "
                f"{settlement.pot_cents:,}¢, rounded down: {due:,}¢"
                if tournament is not None
                else "only a tournament's session keeps a share"
            )
            self.fail(
                shares[0] if shares else settlement,
                f"the club's share of money.settlement #{settlement.pk} is {kept:,}¢, but {whose}.",
            )

    def fee_rows(self) -> dict[int, list[tuple]]:
        """Per session id, what its check-ins paid, as the ledger books it: (pot, kind, player,
        cents, check-in); kind "fee", "refund" or "jackpot" (with the hand's pot)."""
        sessions = {session.pk: session for session in self.rows.get("club.session", [])}
        payments: dict[int, Counter] = defaultdict(Counter)
        for payment in self.rows.get("money.feepayment", []):
            payments[payment.checkin_id][payment.kind] += payment.cents
        found: dict[int, list[tuple]] = defaultdict(list)
        for c in self.rows.get("club.checkin", []):
            session = sessions.get(c.session_id)
            per_game = session is not None and session.house_rules.fee_per_game
            if not per_game and c.paid_at is None:
                continue
            jackpots = [
                (JACKPOT_POTS[hand], "jackpot", c.player_id, getattr(c, field), c)
                for hand, field in CHECKIN_JACKPOT_FIELDS.items()
                if getattr(c, field) > 0
            ]
            rows = found[c.session_id]
            rows += jackpots
            if not per_game:
                rows.append((Pot.MAIN, "fee", c.player_id, c.fee_cents, c))
                continue
            paid = payments[c.pk][FeePaymentKind.PAYMENT]
            fee = paid - min(paid, sum(row[3] for row in jackpots))
            change = payments[c.pk][FeePaymentKind.CHANGE]
            if fee:
                rows.append((Pot.MAIN, "fee", c.player_id, fee, c))
            if change:
                rows.append((Pot.MAIN, "refund", c.player_id, -change, c))
        return found

    def contributions(self, settlement, ledger: list) -> None:
        """What a current settlement booked from its session's check-ins and skunk coins (see
        the module's terms)."""
        kinds = {"fee": LedgerKind.FEE, "refund": LedgerKind.REFUND}
        wanted = [
            (pot, kinds.get(kind, LedgerKind.JACKPOT_COIN), player_id, cents, c)
            for pot, kind, player_id, cents, c in self.fee_rows().get(settlement.session_id, [])
        ]
        wanted += [
            (Pot.SKUNK_BANK, LedgerKind.SKUNK_COIN, coin.player_id, coin.cents, coin)
            for coin in self.rows.get("money.skunkcoin", [])
            if coin.session_id == settlement.session_id
        ]
        owed: dict[tuple, list] = defaultdict(list)
        for pot, kind, player_id, cents, source in wanted:
            owed[(pot, kind, player_id)].append((cents, source))
        booked: dict[tuple, list] = defaultdict(list)
        for entry in ledger:
            if entry.kind in (
                LedgerKind.FEE,
                LedgerKind.REFUND,
                LedgerKind.JACKPOT_COIN,
                LedgerKind.SKUNK_COIN,
            ):
                booked[(entry.pot, entry.kind, entry.player_id)].append(entry)
        for key in sorted(owed.keys() | booked.keys(), key=lambda k: (k[0], k[1], k[2] or 0)):
            self.booked_as_owed(settlement, key, owed[key], booked[key])

    def booked_as_owed(self, settlement, key: tuple, owed: list, booked: list) -> None:
        pot, kind, player_id = key
        what = {
            LedgerKind.FEE: "entry fee",
            LedgerKind.REFUND: "change given back",
            LedgerKind.JACKPOT_COIN: f"{POT_NAMES[pot]} contribution",
            LedgerKind.SKUNK_COIN: "skunk coin",
        }[kind]
        rows = sorted(booked, key=lambda entry: entry.pk)
        missing = []
        for cents, source in sorted(owed, key=lambda item: item[1].pk):
            match = next((entry for entry in rows if entry.amount_cents == cents), None)
            if match is None:
                missing.append((cents, source))
            else:
                rows.remove(match)
        who = f"club.player #{player_id}"
        if rows and missing:
            (cents, source), entry = missing[0], rows[0]
            self.fail(
                entry,
                f"its {what} from {who} is {entry.amount_cents:,}¢, but "
                f"{source._meta.label_lower} #{source.pk} says {cents:,}¢.",
            )
        if rows:
            source = "money.skunkcoin row" if kind == LedgerKind.SKUNK_COIN else "paid check-in"
            self.fail(
                rows[0],
                f"its {what} from {who} ({rows[0].amount_cents:,}¢) matches no {source} of its "
                "session.",
            )
        if missing:
            cents, source = missing[0]
            self.fail(
                source,
                f"its {what} of {cents:,}¢ is not in the ledger of "
                f"money.settlement #{settlement.pk}, its session's settlement.",
            )
