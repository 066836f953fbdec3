"""Reads for the standings app: the season and all-time tables, records, a player's season.

Terms:
- session total: one player's figures in one session (games.SessionTotal, kept by the result
  services); every table here sums them in the database or over their few rows, never over every
  result line.
- season: named by the year it starts in (the club sets the start date; 1 January by default).
- best N: when the club sets `best_sessions`, each player's season counts only their best N
  sessions (by game points, then spread, then the earlier date); the season table and the running
  rank on the player page count the same sessions.
- ranking: by `games.ranking` (game points, then games won, then spread), ties shared ("T-3").
- money won: payouts and side-pot wins of current (not reopened) settlements, from the ledger.
- kept copy: what a page reads again and again between changes (the all-time table and records,
  a season's table with its running ranks, a player's season), kept in the cache under the
  club's pages version (core.pages), which every service that changes what they show moves on
  in its transaction: a copy is never stale, and the first read after a change counts it again.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass

from django.db.models import Count, QuerySet, Sum
from django.utils.formats import date_format

from club.models import Player, Session
from club.seasons import in_season, seasons_of
from core.pages import kept_under_version
from games.models import ResultLine, ResultState, Round, Seat, SessionTotal
from games.ranking import rank, ranks_of
from money.models import LedgerEntry, LedgerKind, SettlementState
from standings.highlights import (
    TOP,
    GrandSlamCount,
    SkunkKing,
    Streak,
    big_hands,
    club_totals,
    grand_slam_counts,
    grand_slams,
    longest_streaks,
    running_streaks,
    skunk_kings,
)

WINNINGS = (LedgerKind.PAYOUT, LedgerKind.SKUNK_BANK_WIN, LedgerKind.JACKPOT_WIN)


@dataclass(frozen=True)
class SeasonStanding:
    rank: int
    tied: bool
    player_id: int
    player: str
    sessions: int
    played: int
    game_points: int
    won: int
    lost: int
    spread: int
    skunks_given: int
    skunks_taken: int
    money_cents: int
    rating: float | None = None  # the ratings' ordinal (standings.rating_selectors), if rated
    provisional: bool = False

    @property
    def rating_key(self) -> float:
        """For sorting by rating: the unrated last."""
        return float("-inf") if self.rating is None else self.rating

    @property
    def rank_label(self) -> str:
        return f"T-{self.rank}" if self.tied else str(self.rank)

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def win_rate_text(self) -> str:
        """The win rate as the tables show it: 57%."""
        return f"{self.win_rate:.0%}"

    @property
    def rating_text(self) -> str:
        """The rating as the tables show it, to three places; blank when unrated."""
        return "" if self.rating is None else f"{self.rating:.3f}"


def player_session_rows(club, season: int | None = None) -> list[dict]:
    """One row per (player, session) from the kept totals (games.totals), by player and date:
    player_id, session_id, date, points, played, won, spread, skunks_given, skunks_taken.
    All sessions, or one season's (club.seasons)."""
    totals = SessionTotal.objects.filter(club=club)
    if season is not None:
        totals = totals.filter(in_season(club, season))
    return list(
        totals.order_by("player_id", "date").values(
            "player_id",
            "session_id",
            "date",
            "points",
            "played",
            "won",
            "spread",
            "skunks_given",
            "skunks_taken",
        )
    )


def player_career_rows(club) -> list[dict]:
    """One row per player over every session (counted in the database), shaped like
    `player_session_rows` with `sessions` the number of sessions played."""
    return list(
        SessionTotal.objects.filter(club=club)
        .values("player_id")
        .annotate(
            sessions=Count("pk"),
            points=Sum("points"),
            played=Sum("played"),
            won=Sum("won"),
            spread=Sum("spread"),
            skunks_given=Sum("skunks_given"),
            skunks_taken=Sum("skunks_taken"),
        )
        .order_by("player_id")
    )


def _best_first(row: dict) -> tuple:
    """Which of a player's sessions count first under best N: most game points, then the
    better spread, then the earlier date."""
    return (-row["points"], -row["spread"], row["date"])


def _best(rows: list[dict], best: int | None) -> list[dict]:
    """A player's best N sessions (`_best_first`); all of them when N is not set."""
    if not best or len(rows) <= best:
        return rows
    return sorted(rows, key=_best_first)[:best]


def _line(rows: list[dict], best: int | None) -> dict:
    """A player's figures over their sessions' rows (their best N of them, when `best`)."""
    counted = _best(rows, best)
    played = sum(r["played"] for r in counted)
    won = sum(r["won"] for r in counted)
    return {
        "sessions": sum(r.get("sessions", 1) for r in counted),
        "played": played,
        "game_points": sum(r["points"] for r in counted),
        "won": won,
        "lost": played - won,
        "spread": sum(r["spread"] for r in counted),
        "skunks_given": sum(r["skunks_given"] for r in counted),
        "skunks_taken": sum(r["skunks_taken"] for r in counted),
    }


def _winnings(club, season: int | None = None) -> QuerySet[LedgerEntry]:
    """The ledger rows of money won (payouts and side-pot wins of current settlements), of
    every session or of one season."""
    rows = LedgerEntry.objects.filter(
        club=club, settlement__state=SettlementState.CURRENT, kind__in=WINNINGS
    )
    if season is not None:
        # The season's sessions as a list of ids for the index (money.LedgerEntry's
        # ledger_club_winnings): joining the session of every win and testing its date would
        # read every win of the club's history.
        rows = rows.filter(
            session__in=Session.objects.filter(in_season(club, season), club=club).values("pk")
        )
    return rows


def standings_from_rows(club, rows: list[dict], *, best: int | None, season: int | None = None):
    """Ranked standings from per-(player, session) rows, money won from the payouts."""
    by_player: dict[int, list[dict]] = {}
    for row in rows:
        by_player.setdefault(row["player_id"], []).append(row)
    money = dict(
        _winnings(club, season)
        .values("player_id")
        .annotate(total=Sum("amount_cents"))
        .values_list("player_id", "total")
    )
    names = dict(Player.objects.filter(pk__in=by_player).values_list("pk", "display_name"))
    table = [
        {
            "player_id": player_id,
            "player": names[player_id],
            **_line(player_rows, best),
            # The ledger is the club's side: money paid out to a player is negative there.
            "money_cents": -money.get(player_id, 0),
        }
        for player_id, player_rows in by_player.items()
    ]
    return [
        SeasonStanding(rank=ranked.rank, tied=ranked.tied, **ranked.row)
        for ranked in rank(table, name=lambda row: row["player"])
    ]


def running_ranks(rows: list[dict], *, best: int | None) -> dict[int, list[tuple]]:
    """Each player's (date, rank) after each session date they played: everyone's season so
    far, counted and ranked exactly as the season table counts and ranks it (best N included).

    Each player's figures are kept up to date row by row (their best N kept in order), so a
    season of 50 mornings costs a few thousand additions and a ranking of some 40 lines each
    morning, not a recount per morning."""
    by_date: dict = {}
    for r in rows:
        by_date.setdefault(r["date"], []).append(r)
    counted: dict[int, list[dict]] = {}  # best N: each player's sessions, best first
    lines: dict[int, dict] = {}  # each player's measures so far, as the ranking reads them
    history: dict[int, list[tuple]] = {}
    for day in sorted(by_date):
        for r in by_date[day]:
            pid = r["player_id"]
            if best:
                own = counted.setdefault(pid, [])
                insort(own, r, key=_best_first)
                top = own[:best]
                lines[pid] = {
                    "player_id": pid,
                    "game_points": sum(t["points"] for t in top),
                    "won": sum(t["won"] for t in top),
                    "spread": sum(t["spread"] for t in top),
                }
            else:
                line = lines.setdefault(
                    pid, {"player_id": pid, "game_points": 0, "won": 0, "spread": 0}
                )
                line["game_points"] += r["points"]
                line["won"] += r["won"]
                line["spread"] += r["spread"]
        ranks = dict(zip(lines, ranks_of(list(lines.values())), strict=True))
        for r in by_date[day]:
            history.setdefault(r["player_id"], []).append((day, ranks[r["player_id"]]))
    return history


@dataclass(frozen=True)
class SeasonTable:
    """A season's table and the rank of each player after each session they played in it."""

    standings: list[SeasonStanding]
    ranks: dict[int, list[tuple]]  # player id -> (date, rank after that session)


def season_table(club, season: int) -> SeasonTable:
    """The season's table (`season_standings`) and every player's running ranks, from one read
    of the season's session totals."""
    rows = player_session_rows(club, season)
    return SeasonTable(
        standings=standings_from_rows(club, rows, best=club.best_sessions, season=season),
        ranks=running_ranks(rows, best=club.best_sessions),
    )


def season_standings(club, season: int) -> list[SeasonStanding]:
    """The season's table: sums over sessions (best N if the club says so), ranked with ties."""
    rows = player_session_rows(club, season)
    return standings_from_rows(club, rows, best=club.best_sessions, season=season)


def all_time_standings(club) -> list[SeasonStanding]:
    return standings_from_rows(club, player_career_rows(club), best=None)


def club_seasons(club) -> list[int]:
    """Every season the club has played, newest first."""
    # Distinct plain dates: `.dates()` truncates every date through a function call per row
    # (a Python one on SQLite), several times the cost of the read at ten years.
    return seasons_of(
        club, Session.objects.filter(club=club).order_by().values_list("date", flat=True).distinct()
    )


@dataclass(frozen=True)
class BigHand:
    """An accepted big hand as the records list it (standings.highlights.big_hands): what the page
    shows, formatted once with the records, rather than the claim, its game, round and session,
    which the cache would hold and rebuild at every read (a club's are a hundred at ten years)."""

    true_points: int
    player: str
    kind: str  # scoring.models.ClaimKind: hand or crib
    day: str  # the date as the records show it (the `date` filter's "j M Y": "17 Jan 2019")
    round: int
    table: int


@dataclass(frozen=True)
class Records:
    most_points: list[dict]  # {player, date, points}
    longest_streaks: list[Streak]  # the all-time record
    running_streaks: list[Streak]  # still going now
    big_hands: list[BigHand]  # every 29, 28 and 24 accepted
    grand_slams: list[GrandSlamCount]
    most_skunks: list[SeasonStanding]
    skunk_kings: list[SkunkKing]  # one per season, newest first


def club_records(club, standings: list[SeasonStanding] | None = None) -> Records:
    """All-time records and highlights (standings.highlights) from the kept session totals, in a
    fixed few queries. `standings`: the all-time standings when the caller has them already."""
    most = (
        SessionTotal.objects.filter(club=club)
        .order_by("-points", "date", "player_id")
        .values("player__display_name", "date", "points")[:TOP]
    )
    standings = all_time_standings(club) if standings is None else standings
    totals = club_totals(club)  # read once for the streaks, the grand slams and the skunk kings
    return Records(
        most_points=[
            {"player": r["player__display_name"], "date": r["date"], "points": r["points"]}
            for r in most
        ],
        longest_streaks=longest_streaks(club, totals=totals),
        running_streaks=running_streaks(club)[:TOP],
        big_hands=[
            BigHand(
                true_points=claim.true_points,
                player=claim.claimant.display_name,
                kind=claim.kind,
                day=date_format(claim.game.session.date, "j M Y"),
                round=claim.game.round.number,
                table=claim.game.table,
            )
            for claim in big_hands(club)
        ],
        grand_slams=grand_slam_counts(grand_slams(club, totals=totals)),
        most_skunks=[
            row
            for row in sorted(standings, key=lambda s: (-s.skunks_given, s.player))[:TOP]
            if row.skunks_given
        ],
        skunk_kings=skunk_kings(club, totals=totals),
    )


# How long a club's all-time figures stay in the cache unread; a change makes a new key before
# then.
RECORDS_CACHE_SECONDS = 24 * 60 * 60


def _kept(club, what: str, count):
    """What `count()` returns, kept in the cache under the club's pages version."""
    return kept_under_version(club, what, count, RECORDS_CACHE_SECONDS)


def club_records_cached(club, standings: list[SeasonStanding] | None = None) -> Records:
    """`club_records`, kept in the cache under the club's pages version (core.pages): the
    records read every session total and every accepted big hand of the club's history, and
    change only when a service moves that version on (results, claims, rulings, names, money),
    in the transaction of the change, so a kept copy is never stale."""
    return _kept(club, "records", lambda: club_records(club, standings=standings))


def all_time_standings_cached(club) -> list[SeasonStanding]:
    """`all_time_standings`, kept in the cache under the club's pages version (core.pages): it
    sums every session total and every win of the club's history, and changes only when a
    service moves that version on (results, names, money), in the transaction of the change, so
    a kept copy is never stale. The ratings are not in it: the page reads them fresh."""
    return _kept(club, "all-time", lambda: all_time_standings(club))


def season_table_cached(club, season: int) -> SeasonTable:
    """`season_table`, kept in the cache under the club's pages version (core.pages): every
    player's page of the season ranks the whole season, the same for each of them, and it
    changes only when a service moves that version on (results, names, money, the club's best
    N and season dates)."""
    return _kept(club, f"season:{season}", lambda: season_table(club, season))


@dataclass(frozen=True)
class PlayerSeason:
    standing: SeasonStanding | None
    sessions: list[dict]  # {session_id, date, played, won, points, spread, money_cents}
    head_to_head: list[dict]  # {opponent, games, won, lost}
    points_by_session: list[tuple]  # (date, points)
    rank_by_session: list[tuple]  # (date, rank after that session)
    players: int  # how many players the season's table has


def player_season(club, player, season: int) -> PlayerSeason:
    """A player's season: their line, every session, head-to-head, and the charts' data. The
    season's table and ranks are the kept ones (`season_table_cached`); the player's own
    sessions and money are read apart, a few rows each."""
    table = season_table_cached(club, season)
    standing = next((s for s in table.standings if s.player_id == player.pk), None)
    money = dict(
        _winnings(club, season)
        .filter(player=player)
        .values("session_id")
        .annotate(total=Sum("amount_cents"))
        .values_list("session_id", "total")
    )
    mine = (
        SessionTotal.objects.filter(in_season(club, season), club=club, player=player)
        .order_by("date")
        .values("session_id", "date", "played", "won", "points", "spread")
    )
    sessions = [{**r, "money_cents": -money.get(r["session_id"], 0)} for r in mine]
    return PlayerSeason(
        standing=standing,
        sessions=sessions,
        head_to_head=head_to_head(club, player, season),
        points_by_session=[(s["date"], s["points"]) for s in sessions],
        rank_by_session=table.ranks.get(player.pk, []),
        players=len(table.standings),
    )


def player_season_cached(club, player, season: int) -> PlayerSeason:
    """`player_season`, kept in the cache under the club's pages version (core.pages): a page
    the players open again and again after a morning, whose figures (results, seats, names,
    money) change only when a service moves that version on."""
    return _kept(club, f"player:{player.pk}:{season}", lambda: player_season(club, player, season))


def head_to_head(club, player, season: int | None = None) -> list[dict]:
    """Games against each opponent (partners excluded) and who won them, in one query: every
    line of the confirmed results of the games the player sat at in the season (or ever), the
    player's own line among them giving their side and their win."""
    sessions = Session.objects.filter(club=club)
    if season is not None:
        sessions = sessions.filter(in_season(club, season))
    # The games found by the player's seat in each of the season's rounds (one look-up in
    # seat_one_per_player_per_round each), not by the player's result lines, which only the
    # player's whole history of lines leads to. A result's lines are written from its game's
    # seats, which cannot change once the game has a result (games.services.draws).
    seated = Seat.objects.filter(
        player=player, round__in=Round.objects.filter(session__in=sessions).values("pk")
    ).values("game_id")
    # Unordered: the rows are tallied, not listed, and ordering by the result's game, round
    # and session would join those tables whole, every club's rows with them.
    lines = (
        ResultLine.objects.filter(result__state=ResultState.CONFIRMED, result__game__in=seated)
        .order_by()
        .values_list("result_id", "player_id", "player__display_name", "side", "won")
    )
    by_result: dict[int, list[tuple]] = {}
    for result_id, *line in lines:
        by_result.setdefault(result_id, []).append(line)
    table: dict[int, dict] = {}
    for result in by_result.values():
        mine = next((line for line in result if line[0] == player.pk), None)
        if mine is None:
            continue
        _, _, my_side, my_won = mine
        for opponent_id, name, side, won in result:
            if side == my_side:
                continue  # the player, or a partner: not an opponent
            row = table.setdefault(
                opponent_id,
                {"opponent_id": opponent_id, "opponent": name, "games": 0, "won": 0, "lost": 0},
            )
            row["games"] += 1
            row["won"] += my_won
            row["lost"] += won
    return sorted(table.values(), key=lambda r: (-r["games"], r["opponent"].lower()))
