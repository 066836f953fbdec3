"""Highlights the club celebrates: one selector per kind, read by the live board, the session
page and the all-time records alike (docs/decisions/standings.md, on highlights).

Terms:
- big hand: scoring's accepted big hand (`scoring.selectors.accepted_big_hands`, the definition
  the jackpots read too): a hand or crib of BIG_HAND (24) or more, which a four-card hand can only
  be as 24, 28 or 29, claimed at its true count (never an over-claim corrected down, whatever a
  judge later rules), and undisputed or left its count by the judge's last ruling. Unlike a
  jackpot, a highlight does not wait for the cards to be confirmed: only a session that runs
  the jackpot asks for that, and a dispute takes the hand off at once.
- skunk: a skunked losing side of a confirmed result, a *double skunk* when it was also under the
  double skunk line. The lines are the session's house rules (by default under 91 and under 61,
  western-publishing.txt "Pegging"), applied when the result was confirmed (games.game_result).
- grand slam: a player who won every game of a session: at least GRAND_SLAM_GAMES games, one in
  every round the session drew, every one confirmed and won at the table (a forfeit is not),
  once the session's last round is in (the session is settled, or every round its rules plan is
  drawn). Read from the kept session totals (games.SessionTotal).
- winning streak: games won in a row by one player, across sessions in date order and within a
  session in round order (games.totals). The *longest* is the all-time record; a *running* streak
  is the one a player carries out of their latest game (or out of a session): still going. A
  running streak is a highlight from STREAK_GAMES games on.
- skunk king: the player who gave the most skunks in a season (every session of it counts, best N
  or not); players level share it. During a season, its king so far.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from django.db.models import F, Max, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from club.models import Player, Session, SessionState
from club.seasons import in_season, season_label
from core.pages import kept_under_version
from games.models import ResultLine, ResultState, Round, SessionTotal
from games.totals import streak
from scoring.models import Claim
from scoring.selectors import BIG_HAND, accepted_big_hands, big_hand_claims, session_big_hands
from standings.rating_selectors import Upset, session_upsets

UPSETS = 3  # the session's upsets shown: the least likely wins

GRAND_SLAM_GAMES = 2
STREAK_GAMES = 3
TOP = 5  # how many players a record lists
NAMES = 3  # players level on a highlight: this many named, then "and N others"


@dataclass(frozen=True)
class Skunk:
    round: int
    table: int
    winners: str
    losers: str
    double: bool
    score: str  # "121–84"
    confirmed_at: dt.datetime


@dataclass(frozen=True)
class GrandSlam:
    player_id: int
    player: str
    session_id: int
    date: dt.date
    games: int


@dataclass(frozen=True)
class GrandSlamCount:
    player: str
    slams: int
    latest: dt.date


@dataclass(frozen=True)
class Streak:
    player_id: int
    player: str
    games: int


@dataclass(frozen=True)
class SkunkKing:
    season: int
    label: str  # the season's name ("2026", "2025–26")
    players: tuple[str, ...]  # by name: more than one when they share it
    skunks: int

    @property
    def names(self) -> str:
        return together(self.players)


def together(names) -> str:
    """Players level on a highlight, in one phrase: "Ann", "Ann and Bob", "Ann, Bob and Cy",
    "Ann, Bob, Cy and 2 others" (NAMES named)."""
    names = list(names)
    if len(names) > NAMES + 1:
        names = [*names[:NAMES], f"{len(names) - NAMES} others"]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# --- Big hands -------------------------------------------------------------------------------


def big_hands(club, *, session: Session | None = None) -> list[Claim]:
    """The big hands of a session, newest first; or of the club, highest count first, then the
    oldest first. The club's: found first by their count (an index), then the club's among them
    (a planner that starts from the club's sessions would read every claim of ten years)."""
    if session is not None:
        return session_big_hands(session)
    counted = big_hand_claims(Claim.objects.all()).values_list("pk", flat=True).order_by()
    claims = Claim.objects.filter(pk__in=list(counted), game__session__club=club).order_by(
        "-true_points", "game__session__date", "game__round__number", "game__table", "pk"
    )
    return accepted_big_hands(claims)


# --- Skunks ----------------------------------------------------------------------------------


# A confirmed result line as the pages show it (the board's latest results read it too).
LINE_FIELDS = (
    "result_id",
    "result__confirmed_at",
    "result__game__table",
    "result__game__round__number",
    "side",
    "score",
    "won",
    "skunked",
    "double_skunked",
    "player__display_name",
)


def skunks(session: Session) -> list[Skunk]:
    """Every skunk and double skunk given in the session's confirmed results, newest first, one
    per skunked side: one query (the winners' and the skunked losers' lines)."""
    lines = (
        ResultLine.objects.filter(
            result__game__session=session, result__state=ResultState.CONFIRMED
        )
        .filter(Q(skunked=True) | Q(won=True, skunks_given__gt=0))
        .order_by("-result__confirmed_at", "-result_id", "side", "player__display_name")
        .values(*LINE_FIELDS)
    )
    by_result: dict[int, dict[int, list[dict]]] = {}
    for line in lines:
        by_result.setdefault(line["result_id"], {}).setdefault(line["side"], []).append(line)
    found = []
    for sides in by_result.values():
        winner = next(side for side in sides.values() if side[0]["won"])
        for _, loser in sorted(sides.items()):
            if loser[0]["won"]:
                continue
            found.append(
                Skunk(
                    round=winner[0]["result__game__round__number"],
                    table=winner[0]["result__game__table"],
                    winners=" & ".join(line["player__display_name"] for line in winner),
                    losers=" & ".join(line["player__display_name"] for line in loser),
                    double=any(line["double_skunked"] for line in loser),
                    score=f"{winner[0]['score']}–{loser[0]['score']}",
                    confirmed_at=winner[0]["result__confirmed_at"],
                )
            )
    return found


# --- The kept totals they read ------------------------------------------------------------

# A row of `club_totals`, in this order (plain tuples: the records read one per player and
# session of ten years, and a named tuple each would cost as much as the read).
TOTAL_FIELDS = (
    "player_id",
    "player__display_name",
    "session_id",
    "date",
    "played",
    "won",
    "skunks_given",
    "first_run",
    "last_run",
    "best_run",
)


def club_totals(
    club, *, session: Session | None = None, until: dt.date | None = None, skunks: bool = False
) -> list[tuple]:
    """The kept session totals (games.SessionTotal) the highlights read, one row (TOTAL_FIELDS)
    per player and session, by player and date: a session's, or the club's up to `until` with a
    skunk given (`skunks`), in one query; or the club's whole history, which the records read
    once for the selectors that take `totals`, in three (its numbers, then the players' names
    and the sessions' dates: joining them to every row would double the read)."""
    if session is None and until is None and not skunks:
        names = dict(Player.objects.filter(club=club).values_list("pk", "display_name"))
        dates = dict(Session.objects.filter(club=club).values_list("pk", "date"))
        rows = (
            SessionTotal.objects.filter(club=club)
            .order_by("player_id", "date")
            .values_list("player_id", "session_id", *TOTAL_FIELDS[4:])
        )
        return [
            (pid, names[pid], sid, dates[sid], played, won, given, first, last, best)
            for pid, sid, played, won, given, first, last, best in rows
        ]
    # A session's rows by its own index, not by the club's.
    totals = SessionTotal.objects.filter(**({"session": session} if session else {"club": club}))
    if skunks:
        totals = totals.filter(skunks_given__gt=0)
    if until is not None:
        totals = totals.filter(date__lte=until)
    return list(totals.order_by("player_id", "date").values_list(*TOTAL_FIELDS))


# --- Grand slams -----------------------------------------------------------------------------


def grand_slams(club, *, session: Session | None = None, totals=None) -> list[GrandSlam]:
    """The grand slams of a session, or of the club, newest first, then by name; `totals`: the
    club's (`club_totals`) when the caller has them. Besides them, the rounds each session drew
    (its last round's number: rounds are numbered from 1, only the latest is ever withdrawn)
    and, for the club's, the rules of its sessions still open: one query each."""
    rounds = Round.objects.filter(session__club=club)
    if session is not None:
        rounds = Round.objects.filter(session=session)
        open_sessions = [session] if session.is_open else []
    else:
        open_sessions = Session.objects.filter(club=club, state=SessionState.OPEN)
    if totals is None:
        totals = club_totals(club, session=session)
    drawn = dict(
        rounds.values("session_id").annotate(n=Max("number")).values_list("session_id", "n")
    )
    # The last round is in: settled, or every round its rules plan drawn.
    planned = {each.pk: each.house_rules.rounds_per_session for each in open_sessions}
    slams = [
        GrandSlam(player_id, name, session_id, date, played)
        for player_id, name, session_id, date, played, won, _, first_run, _, _ in totals
        if won == played == first_run >= GRAND_SLAM_GAMES
        and played == drawn.get(session_id)
        and played >= planned.get(session_id, 0)
        and (session is None or session_id == session.pk)
    ]
    return sorted(slams, key=lambda slam: (-slam.date.toordinal(), slam.player))


def grand_slam_counts(slams: list[GrandSlam], top: int = TOP) -> list[GrandSlamCount]:
    """Who has the most grand slams (then the latest first, then by name), the `top` of them."""
    counts = Counter(slam.player_id for slam in slams)
    latest: dict[int, GrandSlam] = {}
    for slam in slams:  # newest first: the first seen is the latest
        latest.setdefault(slam.player_id, slam)
    rows = [
        GrandSlamCount(player=slam.player, slams=counts[pid], latest=slam.date)
        for pid, slam in latest.items()
    ]
    rows.sort(key=lambda row: (-row.slams, -row.latest.toordinal(), row.player))
    return rows[:top]


# --- Winning streaks -------------------------------------------------------------------------


def longest_streaks(club, *, totals=None, top: int = TOP) -> list[Streak]:
    """The all-time record: each player's longest winning streak, longest first (then by name),
    the `top` of them, from the club's kept totals (`club_totals`, read unless given): their win
    runs joined by games.totals."""
    if totals is None:
        totals = club_totals(club)
    runs: dict[int, list[tuple[int, int, int, int]]] = {}
    names: dict[int, str] = {}
    for player_id, name, _, _, played, _, _, first_run, last_run, best_run in totals:
        names[player_id] = name  # by player and date
        runs.setdefault(player_id, []).append((played, first_run, last_run, best_run))
    found = [Streak(pid, names[pid], streak(sessions)) for pid, sessions in runs.items()]
    found = [each for each in found if each.games]
    return sorted(found, key=lambda each: (-each.games, each.player))[:top]


def running_streaks(club, *, session: Session | None = None) -> list[Streak]:
    """Winning streaks of STREAK_GAMES or more still going, longest first (then by name): those
    the session's players carry out of it, or each active player's now (out of their latest
    session). One query, whatever the club's history: per player, the last session before it
    they did not win every game of (its run at the end starts the streak) and the games of the
    sessions since."""
    if session is not None:
        ends = SessionTotal.objects.filter(session=session)
    else:  # each active player's latest (one index seek a player)
        latest = SessionTotal.objects.filter(player=OuterRef("pk")).order_by("-date")
        players = Player.objects.filter(club=club, active=True)
        ends = SessionTotal.objects.filter(
            pk__in=players.annotate(latest=Subquery(latest.values("pk")[:1])).values("latest")
        )
    before = SessionTotal.objects.filter(player=OuterRef("player"), date__lt=OuterRef("date"))
    # A session not won throughout: a game lost, or a forfeit (games.totals: never a run).
    lost = before.filter(first_run__lt=F("played")).order_by("-date")
    since = (
        before.filter(date__gt=Coalesce(OuterRef("lost_on"), Value(dt.date.min)))
        .values("player")
        .annotate(games=Sum("played"))
        .values("games")
    )
    rows = (
        ends.annotate(
            lost_on=Subquery(lost.values("date")[:1]),
            lost_run=Subquery(lost.values("last_run")[:1]),
        )
        .annotate(since=Subquery(since))
        .values_list(
            "player_id",
            "player__display_name",
            "played",
            "first_run",
            "last_run",
            "lost_run",
            "since",
        )
    )
    found = []
    for player_id, name, played, first_run, last_run, lost_run, since_games in rows:
        through = first_run == played
        games = played + (since_games or 0) + (lost_run or 0) if through else last_run
        if games >= STREAK_GAMES:
            found.append(Streak(player_id, name, games))
    return sorted(found, key=lambda each: (-each.games, each.player))


# --- Skunk kings -----------------------------------------------------------------------------


def skunk_kings(
    club, *, season: int | None = None, until: dt.date | None = None, totals=None
) -> list[SkunkKing]:
    """The skunk king of each season the club played (newest first), or of one `season`; up to
    `until` (a date, included) when given: its king so far. A season without a skunk has none.
    One season's skunks are summed in the database (the board asks every few seconds); every
    season's from the kept totals (`club_totals`: the club's when given, as the records do)."""
    given: dict[int, Counter] = {}
    names: dict[int, str] = {}
    if totals is None and season is not None:
        rows = SessionTotal.objects.filter(club=club, skunks_given__gt=0)
        rows = rows.filter(in_season(club, season), **({"date__lte": until} if until else {}))
        summed = rows.order_by().values("player_id", "player__display_name")
        for player_id, name, skunks_given in summed.annotate(n=Sum("skunks_given")).values_list(
            "player_id", "player__display_name", "n"
        ):
            names[player_id] = name
            given.setdefault(season, Counter())[player_id] = skunks_given
    else:
        seasons: dict[dt.date, int] = {}
        if totals is None:
            totals = club_totals(club, until=until, skunks=True)
        for player_id, name, _, date, _, _, skunks_given, _, _, _ in totals:
            if not skunks_given or (until is not None and date > until):
                continue
            if date not in seasons:
                seasons[date] = club.season_of(date)
            if season is not None and seasons[date] != season:
                continue
            names[player_id] = name
            given.setdefault(seasons[date], Counter())[player_id] += skunks_given
    kings = []
    for each in sorted(given, reverse=True):
        most = max(given[each].values())
        players = sorted(names[pid] for pid, n in given[each].items() if n == most)
        kings.append(SkunkKing(each, season_label(club, each), tuple(players), most))
    return kings


# --- A session's highlights ------------------------------------------------------------------


@dataclass(frozen=True)
class SessionHighlights:
    """What the board and the session page celebrate of one session."""

    big_hands: list[Claim]
    skunks: list[Skunk]
    grand_slams: list[GrandSlam]
    streaks: list[Streak]  # the longest streak carried out of the session (players level share)
    skunk_king: SkunkKing | None  # the session's season, up to the session
    upsets: list[Upset]  # the ratings' surprises of the session, least likely first

    @property
    def big_hand(self) -> int:
        return BIG_HAND

    @property
    def grand_slam_names(self) -> str:
        """Who won every game (all the session's grand slams are of the same number of games)."""
        return together(slam.player for slam in self.grand_slams)

    @property
    def streak_names(self) -> str:
        return together(each.player for each in self.streaks)

    @property
    def of_the_session(self) -> bool:
        """Whether anything of the session itself is celebrated (the skunk king is the season's)."""
        return bool(
            self.big_hands or self.skunks or self.grand_slams or self.streaks or self.upsets
        )


def session_highlights(session: Session) -> SessionHighlights:
    """A session's highlights, in a fixed number of queries whatever the session or the club's
    history: 8 (big hands 2, skunks 1, grand slams 2, streaks 1, skunk king 1, upsets 1)."""
    club = session.club
    running = running_streaks(club, session=session)
    kings = skunk_kings(club, season=club.season_of(session.date), until=session.date)
    return SessionHighlights(
        big_hands=big_hands(club, session=session),
        skunks=skunks(session),
        grand_slams=grand_slams(club, session=session),
        streaks=[each for each in running if each.games == running[0].games],
        skunk_king=kings[0] if kings else None,
        upsets=session_upsets(session, limit=UPSETS),
    )


# How long a session's highlights stay in the cache unread; a change makes a new key before then.
HIGHLIGHTS_CACHE_SECONDS = 12 * 60 * 60


def session_highlights_cached(session: Session) -> SessionHighlights:
    """`session_highlights`, kept in the shared cache (core.shared_cache) under the club's pages
    version (core.pages): the session page reloads after every action of the morning, and its
    highlights change only when a service moves that version on (results, claims, disputes and
    rulings, names, ratings, settling), inside the transaction of the change, so a kept copy is
    never stale. The version is the one `session.club` was read with: read before the
    highlights, so a copy is never older than its key."""
    return kept_under_version(
        session.club,
        f"highlights:{session.pk}",
        lambda: session_highlights(session),
        HIGHLIGHTS_CACHE_SECONDS,
    )
