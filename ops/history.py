"""A long club history for the benchmarks (`manage.py seed_history`), played through the services.

Terms:
- history club: a club of its own (slug `history` unless told otherwise) with two organisers and
  two judges (members with a login, never checked in to play), and `players` players, every sixth
  with a login (the ones who can open disputes).
- meeting days: every week on the club's weekday for `years` years back from `today`, the weeks of
  Christmas and New Year's Day skipped: about 50 a year.
- the last meeting day is "this morning": its session is left open, part-way through (two rounds
  confirmed, a third entered as drafts), with disputes waiting for a judge, so the open-session
  pages and the judges' queue have work in them. Every earlier session is settled.
- turnout: each player's chance of coming on a given week (0.85 to 1.0), so about 37 of 40 come.
- side pots: the skunk bank and the 29, 28 and 24 jackpots, as the demo club runs them; every
  check-in pays the fee and the contributions, every skunked player their coin.
- claims per session: a few accepted hands and cribs, now and then an over-claim, a muggins call,
  a dispute (ruled; some appealed and ruled again), and the big hands (24, 28, rarely a 29).

Speed: check-ins and results go through the services that take a whole session's arrivals
(`checkins_create`) and a whole round's scorecards (`round_results_enter`, then
`round_results_confirm` by the other organiser); draws, claims, disputes and settling go through
the same services as the pages, one call each. Everything comes from one `random.Random(seed)`.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from club import services as club_services
from club.models import Club, Player, Session
from club.roles import JUDGES, ORGANISERS, PLAYERS
from games import services as game_services
from games.models import Game, Round, Seat
from money.services import session_settle, skunk_coins_collect
from ops.demo import HAND_29, SIDE_POTS, STORY_HANDS, game_scores, random_hand
from scoring import services as scoring_services
from scoring.engine import is_possible_hand_total, score_hand
from scoring.models import ClaimKind, RulingDecision

ROUNDS = 6
LOGIN_EVERY = 6  # every sixth player has a login
TURNOUT = (0.85, 1.0)
ACCEPTED = (2, 5)  # accepted hand and crib claims per session, inclusive
CHANCE = {"over": 0.3, "muggins": 0.2, "dispute": 0.12, "24": 0.15, "28": 0.01, "29": 0.002}
APPEAL = 0.25  # share of ruled disputes appealed
OPEN_DISPUTES = 3  # waiting for a judge in this morning's session
FIRST_NAMES = [
    "Ada",
    "Bea",
    "Cal",
    "Dot",
    "Eli",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kit",
    "Lou",
    "Max",
    "Ned",
    "Ola",
    "Pru",
    "Quin",
    "Rex",
    "Sue",
    "Ted",
    "Uma",
    "Vic",
    "Wes",
    "Xan",
    "Yvo",
    "Zed",
    "Abe",
    "Bo",
    "Cy",
    "Di",
]
LAST_NAMES = [
    "Ames",
    "Birch",
    "Cole",
    "Drake",
    "Eaton",
    "Frost",
    "Gale",
    "Hale",
    "Irving",
    "Judd",
    "Knox",
    "Lane",
    "Moss",
]


@dataclass
class HistoryReport:
    club: Club
    sessions: int = 0
    settled: int = 0
    games: int = 0
    claims: int = 0
    disputes: int = 0
    seconds: float = 0.0
    counts: dict = field(default_factory=dict)


def meeting_days(*, weekday: int, today: dt.date, years: int) -> list[dt.date]:
    """Every meeting day of the last `years` years up to today, oldest first, festive weeks out."""
    last = today - dt.timedelta(days=(today.weekday() - weekday) % 7)
    first = last.replace(year=last.year - years) + dt.timedelta(days=1)
    days = []
    day = last
    while day >= first:
        if not ((day.month, day.day) >= (12, 24) or (day.month, day.day) == (1, 1)):
            days.append(day)
        day -= dt.timedelta(weeks=1)
    return days[::-1]


def _people_names(rng: random.Random, count: int) -> list[str]:
    names = [f"{first} {last}" for last in LAST_NAMES for first in FIRST_NAMES]
    return sorted(rng.sample(names, count))


class _History:
    def __init__(
        self,
        *,
        club: Club,
        rng: random.Random,
        players: list[Player],
        staff: dict,
        rounds: int = ROUNDS,
    ):
        self.club = club
        self.rounds = rounds
        self.rng = rng
        self.players = players
        self.organiser, self.confirmer = staff["organisers"]
        self.judges = staff["judges"]
        self.skill = {p.pk: rng.gauss(0, 1) for p in players}
        self.turnout = {p.pk: rng.uniform(*TURNOUT) for p in players}
        self.report = HistoryReport(club=club)

    def session(self, date: dt.date, *, this_morning: bool = False) -> Session:
        rng = self.rng
        session = club_services.session_open(club=self.club, actor=self.organiser, date=date)
        came = [p for p in self.players if rng.random() < self.turnout[p.pk]]
        club_services.checkins_create(
            session=session, actor=self.organiser, players=came, paid=True
        )
        rounds = 3 if this_morning else self.rounds
        stories = self.plan(this_morning)
        for number in range(1, rounds + 1):
            round_ = game_services.round_draw(
                session=session, actor=self.organiser, seed=rng.randrange(2**31)
            )
            games, sides = self.seating(round_)
            for story in [s for s, at in stories if at == number]:
                self.claim(story, games, sides, rule=not this_morning)
            scores = {
                table: game_scores(rng, [self.skill[p.pk] for p in members])
                for table, members in sides.items()
            }
            game_services.round_results_enter(round_=round_, actor=self.organiser, scores=scores)
            if not (this_morning and number == rounds):
                game_services.round_results_confirm(round_=round_, actor=self.confirmer)
            self.report.games += len(scores)
        self.report.sessions += 1
        if not this_morning:
            # The skunked pay their coins at the table; this morning's are still owed.
            skunk_coins_collect(session=session, actor=self.organiser)
            session_settle(session=session, actor=self.organiser, seed=rng.randrange(2**31))
            self.report.settled += 1
        return session

    def plan(self, this_morning: bool) -> list[tuple[str, int]]:
        """The session's claims as (story, round it is filed in)."""
        rng = self.rng
        stories = ["accepted"] * rng.randint(*ACCEPTED)
        stories += [story for story, chance in CHANCE.items() if rng.random() < chance]
        if this_morning:
            stories += ["dispute"] * OPEN_DISPUTES
        last = 3 if this_morning else self.rounds
        return [(story, rng.randint(1, last)) for story in stories]

    def seating(self, round_: Round) -> tuple[dict[int, Game], dict[int, list[Player]]]:
        """Table number -> its game, and table number -> the players of each side, in side order
        (one per side), from one query."""
        seats = Seat.objects.filter(round=round_).select_related("game", "player__user")
        games: dict[int, Game] = {}
        tables: dict[int, dict[int, Player]] = {}
        for seat in seats.order_by("game__table", "position"):
            games[seat.game.table] = seat.game
            tables.setdefault(seat.game.table, {}).setdefault(seat.side, seat.player)
        sides = {table: [by_side[s] for s in sorted(by_side)] for table, by_side in tables.items()}
        return games, sides

    def claim(self, story: str, games: dict, sides: dict, *, rule: bool) -> None:
        rng = self.rng
        tables = sorted(sides)
        if story == "dispute":
            # A player with a login claims too much and will not accept the engine's count.
            tables = [t for t in tables if any(p.user_id for p in sides[t])]
            if not tables:
                return
        table = rng.choice(tables)
        game = games[table]
        members = sides[table]
        claimant = rng.choice([p for p in members if p.user_id] if story == "dispute" else members)
        kind = ClaimKind.HAND
        if story == "accepted":
            kind = ClaimKind.CRIB if rng.random() < 0.25 else ClaimKind.HAND
            hand, starter, _ = random_hand(rng, at_least=6)
            claimed = score_hand(hand, starter, crib=kind == ClaimKind.CRIB).total
        elif story in ("24", "28", "29"):
            hand, starter = HAND_29 if story == "29" else rng.choice(STORY_HANDS[story])
            claimed = int(story)
        elif story in ("over", "dispute"):
            hand, starter, count = random_hand(rng, at_least=4)
            claimed = count + rng.choice((1, 2))
            while not is_possible_hand_total(claimed):
                claimed += 1
        else:  # muggins: the claimant overlooks points an opponent then calls
            hand, starter, count = random_hand(rng, at_least=8)
            claimed = count - rng.choice((2, 2, 4))
        claim = scoring_services.claim_file(
            game=game,
            actor=self.organiser,
            kind=kind,
            claimant=claimant,
            claimed_points=claimed,
            hand=hand,
            starter=starter,
            deal=rng.randint(1, 12),
        )
        self.report.claims += 1
        if story == "muggins":
            caller = rng.choice([p for p in members if p != claimant])
            scoring_services.muggins_call(
                claim=claim, actor=self.organiser, caller=caller, points=claim.true_points - claimed
            )
        elif story == "dispute":
            self.dispute(claim, claimant, rule=rule)

    def dispute(self, claim, claimant: Player, *, rule: bool) -> None:
        rng = self.rng
        dispute = scoring_services.dispute_open(
            claim=claim, actor=claimant.user, statement="I counted it twice: my count stands."
        )
        self.report.disputes += 1
        if not rule:
            return
        first, second = rng.sample(self.judges, 2)
        scoring_services.dispute_rule(dispute=dispute, actor=first, decision=RulingDecision.AGREE)
        if rng.random() < APPEAL:
            scoring_services.dispute_appeal(
                dispute=dispute, actor=claimant.user, statement="Another judge, please."
            )
            scoring_services.dispute_rule(
                dispute=dispute, actor=second, decision=RulingDecision.AGREE
            )


def _staff(club: Club) -> dict:
    """The two organisers and two judges: logins with a member record in the club (so the club
    is theirs on every page), never checked in to play."""
    users = get_user_model().objects
    staff: dict[str, list] = {}
    for group_name, prefix in ((ORGANISERS, "organiser"), (JUDGES, "judge")):
        group = Group.objects.get(name=group_name)
        members = []
        for n in (1, 2):
            user = users.create_user(username=f"{club.slug}-{prefix}{n}", password=None)
            user.groups.add(group)
            club_services.player_create(
                club=club, actor=None, display_name=f"{prefix.title()} {n}", user=user
            )
            members.append(user)
        staff[group_name] = members
    return {"organisers": staff[ORGANISERS], "judges": staff[JUDGES]}


def build_history(
    *,
    years: int,
    players: int,
    seed: int,
    slug: str = "history",
    today: dt.date | None = None,
    progress: Callable[[str], None] | None = None,
    rounds: int = ROUNDS,
    weeks_apart: int = 1,
) -> HistoryReport:
    """Create the history club and play `years` years of Thursdays through the services.

    One transaction per session (and one for the club and its people), so a long build that is
    stopped leaves whole sessions. A slug already taken is a ValidationError. `rounds` (per
    settled session, 1 to 6) and `weeks_apart` (1: every week) make a cheaper history of the
    same length for the tests (the cash box test: ten years, every eighth week).
    """
    if not 1 <= rounds <= ROUNDS or weeks_apart < 1:
        raise ValidationError(f"Give 1 to {ROUNDS} rounds and at least 1 week apart.")
    if years < 1 or players < 4:
        raise ValidationError("A history needs at least 1 year and 4 players.")
    if Club.objects.filter(slug=slug).exists():
        raise ValidationError(f"A club with the slug {slug!r} exists already: choose another.")
    start = time.perf_counter()
    rng = random.Random(seed)
    today = today or timezone.localdate()
    with transaction.atomic():
        club = club_services.club_create(
            # Club names are unique too: the slug in it lets several histories share a database.
            actor=None,
            name=f"History Club {slug} ({years} years)",
            slug=slug,
            rounds_per_session=ROUNDS,
            **SIDE_POTS,
        )
        staff = _staff(club)
        organiser = staff["organisers"][0]
        group = Group.objects.get(name=PLAYERS)
        roster = []
        for index, name in enumerate(_people_names(rng, players)):
            user = None
            if index % LOGIN_EVERY == 0:
                user = get_user_model().objects.create_user(
                    username=f"{slug}-{name.lower().replace(' ', '-')}", password=None
                )
                user.groups.add(group)
            roster.append(
                club_services.player_create(
                    club=club, actor=organiser, display_name=name, user=user
                )
            )
    history = _History(club=club, rng=rng, players=roster, staff=staff, rounds=rounds)
    days = meeting_days(weekday=club.session_weekday, today=today, years=years)
    days = days[::-1][::weeks_apart][::-1]  # this morning stays the last
    for index, day in enumerate(days):
        with transaction.atomic():
            history.session(day, this_morning=index == len(days) - 1)
        if progress and (index + 1) % 25 == 0:
            progress(f"{index + 1}/{len(days)} sessions, {time.perf_counter() - start:.0f} s")
    report = history.report
    report.seconds = time.perf_counter() - start
    return report
