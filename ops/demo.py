"""The demo club's past season, played through the services so the audit trail, the standings and
the ledger are all real.

Terms:
- meeting day: the club's session weekday (a Thursday for the demo club).
- season dates: the meeting days before `today` that get a session: the most recent ones of the
  current calendar year, at most `MAX_SESSIONS` and at least `MIN_SESSIONS` (reaching back into the
  previous year when the year is young), with `HOLIDAYS` weeks inside that stretch skipped
  (Christmas and New Year's Day first, when they fall in it; otherwise weeks chosen by the rng).
- skill: a number per player from the rng; the stronger player at a table wins more often, so the
  standings spread out.
- story claims: the claims filed in the season besides everyday accepted hands: a 29, a 28, two
  24s, two over-claims, an under-claim taken by a muggins call, and a disputed over-claim that the
  judge rules on. All are filed while their game is in play, before the session is settled.

Everything comes from one `random.Random(seed)`, drawn in a fixed order, so the same seed and
`today` build the same sessions, tables, scores, claims and payouts. The timestamps the services
stamp (`opened_at`, `paid_at`, the audit trail's) are the time of the build, not the session dates:
the services take no clock, and the demo does not write rows behind their backs.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from club import services as club_services
from club.models import Club, Player, Session
from games import services as game_services
from games.models import Game, Round, Seat
from money.services import session_settle, skunk_coins_collect
from scoring import services as scoring_services
from scoring.engine import DECK, is_possible_hand_total, score_hand
from scoring.models import ClaimKind, RulingDecision

MAX_SESSIONS = 16
MIN_SESSIONS = 8
HOLIDAYS = 2
PLAYERS = (9, 14)  # checked in per session, inclusive
ROUNDS = (4, 6)  # drawn per session, inclusive (never above the club's rounds per session)
JUDGE_PLAYS = 0.3  # chance that a judge plays in a session
SKILL_WEIGHT = 0.9  # how much a point of skill difference tilts a game
SKUNK, DOUBLE_SKUNK = 1 / 8, 1 / 50  # share of games whose (worst) loser is skunked

# The demo club's side pots: the skunk bank, and a jackpot for each big hand (cents a player).
SIDE_POTS = {"skunk_bank": True, "jackpot_29_cents": 10, "jackpot_28_cents": 10}
SIDE_POTS["jackpot_24_cents"] = 5
ORGANISER, CONFIRMER, JUDGE, DISPUTANT = "organiser", "organiser2", "judge", "player"
JUDGE_USERS = ("judge", "judge2")

# The story hands: (hand, starter) with their counts (checked by the tests).
HAND_29 = ("5H 5C 5S JD", "5D")  # 29
HANDS_28 = [("5H 5C 5S 5D", ten) for ten in ("KS", "10C", "QH", "JS")]  # 28 (jack not his nobs)
HANDS_24 = [("7H 7C 8S 8D", "9H"), ("4S 4D 5C 6H", "6S"), ("3H 3C 3S 3D", "9C")]  # 24
STORY_HANDS = {"28": HANDS_28, "24": HANDS_24}
DISPUTED = ("5S 5C JD 9H", "KH", 11)  # counts 10: the jack is no nobs, the starter is a heart
DISPUTE_STATEMENT = "The jack is his nobs: that is 11, not 10."


def season_dates(
    *, weekday: int, today: dt.date, rng: random.Random, sessions: int | None = None
) -> list[dt.date]:
    """The dates of the season's sessions, oldest first (see the module's terms).

    `sessions` overrides how many (the tests build short seasons); the holidays are still skipped.
    """
    last = today - dt.timedelta(days=1)
    last -= dt.timedelta(days=(last.weekday() - weekday) % 7)
    # Meeting days of today's year so far: the first falls in its first week.
    this_year = (last.timetuple().tm_yday - 1) // 7 + 1 if last.year == today.year else 0
    if sessions is None:
        sessions = max(MIN_SESSIONS, min(MAX_SESSIONS, this_year - HOLIDAYS))
    elif sessions < 1:
        raise ValueError("A season has at least one session.")
    stretch = [last - dt.timedelta(weeks=week) for week in range(sessions + HOLIDAYS)]
    festive = [
        day for day in stretch if (day.month, day.day) >= (12, 24) or (day.month, day.day) == (1, 1)
    ]
    skipped = festive[:HOLIDAYS]
    # Never the most recent or the first week: the demo shows last week's session and a gap.
    inner = stretch[1:-1] if len(stretch) > HOLIDAYS + 1 else stretch
    others = [day for day in inner if day not in skipped]
    skipped += rng.sample(others, HOLIDAYS - len(skipped))
    return sorted(day for day in stretch if day not in skipped)


@dataclass
class _Story:
    """The story claims planned for one session, and whether the disputant must come."""

    claims: list[str]
    with_disputant: bool = False


def _plan_stories(rng: random.Random, count: int) -> list[_Story]:
    """Spread the story claims over the sessions, and everyday accepted hands over all of them."""
    stories = [_Story(claims=[]) for _ in range(count)]
    specials = ["28", "24", "24", "over", "over", "muggins", "dispute"]
    # The 29 is a mid-season event; the rest fall anywhere.
    plan = [("29", rng.randrange(count // 4, count - count // 4))]
    plan += [(story, rng.randrange(count)) for story in specials]
    for story, session in plan:
        stories[session].claims.append(story)
        stories[session].with_disputant |= story == "dispute"
    for story in stories:
        story.claims += ["accepted"] * rng.choice((0, 1, 1, 2))
    return stories


def _seating(round_) -> dict[int, list[tuple[int, Player]]]:
    """Game id -> (side, player) of each seat, in seat order, for a round (one query)."""
    seating: dict[int, list[tuple[int, Player]]] = {}
    seats = Seat.objects.filter(round=round_).select_related("player__user")
    for seat in seats.order_by("game_id", "position"):
        seating.setdefault(seat.game_id, []).append((seat.side, seat.player))
    return seating


def random_hand(rng: random.Random, *, at_least: int = 0) -> tuple[str, str, int]:
    """Five cards off a shuffled deck: (hand, starter, count), the count at least `at_least`."""
    while True:
        cards = rng.sample(DECK, 5)
        count = score_hand(cards[:4], cards[4]).total
        if count >= at_least:
            return " ".join(str(c) for c in cards[:4]), str(cards[4]), count


def game_scores(rng: random.Random, skills: list[float]) -> list[int]:
    """Final side scores of one game: the stronger side wins more often; some losers are
    skunked (SKUNK, DOUBLE_SKUNK)."""
    weights = [math.exp(SKILL_WEIGHT * skill) for skill in skills]
    winner = rng.choices(range(len(skills)), weights=weights)[0]
    scores = []
    for side in range(len(skills)):
        if side == winner:
            scores.append(121)
            continue
        luck = rng.random()
        if luck < DOUBLE_SKUNK:
            scores.append(rng.randint(40, 60))
        elif luck < DOUBLE_SKUNK + SKUNK:
            scores.append(rng.randint(61, 90))
        else:
            scores.append(rng.randint(95, 120))
    return scores


class _Builder:
    """Plays the sessions of one season, drawing every choice from the one rng in turn."""

    def __init__(self, *, club: Club, rng: random.Random) -> None:
        users = get_user_model().objects
        self.club = club
        self.rng = rng
        self.organiser = users.get(username=ORGANISER)
        self.confirmer = users.get(username=CONFIRMER)
        self.judge = users.get(username=JUDGE)
        self.disputant = Player.objects.get(club=club, user__username=DISPUTANT)
        self.judge_player = Player.objects.filter(club=club, user=self.judge).first()
        players = list(club.players.filter(active=True).select_related("user"))
        players.sort(key=lambda p: p.display_name)
        self.judges = [p for p in players if p.user and p.user.username in JUDGE_USERS]
        self.regulars = [p for p in players if p not in self.judges]
        self.skill = {p.pk: rng.gauss(0, 1) for p in players}
        self.turnout = {p.pk: rng.uniform(0.5, 1.0) for p in self.regulars}

    # --- who comes ----------------------------------------------------------------------------

    def attendance(self, story: _Story) -> list[Player]:
        rng = self.rng
        wanted = rng.randint(*PLAYERS)
        judges = [p for p in self.judges if rng.random() < JUDGE_PLAYS]
        pool = list(self.regulars)
        chosen: list[Player] = []
        if story.with_disputant:
            # The disputed claim needs its claimant (who disputes) and a judge who does not play.
            judges = [p for p in judges if p != self.judge_player]
            chosen.append(self.disputant)
            pool.remove(self.disputant)
        while pool and len(chosen) + len(judges) < wanted:
            weights = [self.turnout[p.pk] for p in pool]
            chosen.append(pool.pop(rng.choices(range(len(pool)), weights=weights)[0]))
        return chosen + judges

    # --- a game's scores ----------------------------------------------------------------------

    def scores(self, sides: list[Player]) -> list[int]:
        return game_scores(self.rng, [self.skill[p.pk] for p in sides])

    # --- claims -------------------------------------------------------------------------------

    def file(
        self,
        game: Game,
        claimant: Player,
        hand: str,
        starter: str,
        claimed: int,
        kind: str = ClaimKind.HAND,
    ):
        """File a claim the way the organiser does at the table for a seated player."""
        return scoring_services.claim_file(
            game=game,
            actor=self.organiser,
            kind=kind,
            claimant=claimant,
            claimed_points=claimed,
            hand=hand,
            starter=starter,
            deal=self.rng.randint(1, 12),
        )

    def story_claim(self, story: str, games: list[Game], seated: dict) -> bool:
        """File one story claim at a suitable game of the round; False if none suits."""
        rng = self.rng
        if story == "dispute":
            games = [
                g
                for g in games
                if any(p == self.disputant for _, p in seated[g.pk])
                and not any(p.user_id == self.judge.pk for _, p in seated[g.pk])
            ]
        elif story == "muggins":
            # The organiser files and records the call for an opponent: not at her own table.
            games = [
                g for g in games if not any(p.user_id == self.organiser.pk for _, p in seated[g.pk])
            ]
        if not games:
            return False
        game = rng.choice(games)
        sides = seated[game.pk]
        if story == "dispute":
            hand, starter, claimed = DISPUTED
            claim = self.file(game, self.disputant, hand, starter, claimed)
            dispute = scoring_services.dispute_open(
                claim=claim, actor=self.disputant.user, statement=DISPUTE_STATEMENT
            )
            scoring_services.dispute_rule(
                dispute=dispute, actor=self.judge, decision=RulingDecision.AGREE
            )
            return True
        side, claimant = rng.choice(sides)
        if story in ("29", "28", "24"):
            hand, starter = HAND_29 if story == "29" else rng.choice(STORY_HANDS[story])
            self.scoring_story(self.file(game, claimant, hand, starter, int(story)))
        elif story == "accepted":
            crib = rng.random() < 0.25
            hand, starter, _ = random_hand(rng, at_least=6)
            kind = ClaimKind.CRIB if crib else ClaimKind.HAND
            true = score_hand(hand, starter, crib=crib).total
            self.file(game, claimant, hand, starter, true, kind=kind)
        elif story == "over":
            hand, starter, count = random_hand(rng, at_least=4)
            claimed = count + rng.choice((1, 2))
            while not is_possible_hand_total(claimed):
                claimed += 1
            self.file(game, claimant, hand, starter, claimed)
        elif story == "muggins":
            hand, starter, count = random_hand(rng, at_least=8)
            overlooked = rng.choice((2, 2, 4))
            claim = self.file(game, claimant, hand, starter, count - overlooked)
            caller = rng.choice([p for s, p in sides if s != side])
            scoring_services.muggins_call(
                claim=claim, actor=self.organiser, caller=caller, points=overlooked
            )
            self.scoring_story(claim, caller=caller)
        else:  # pragma: no cover - a typo in the plan
            raise ValueError(f"Unknown story {story!r}")
        return True

    def scoring_story(self, claim, *, caller: Player | None = None) -> None:
        """The claims of a story, scored through the scoring services; draws nothing from the rng.

        A 29, 28 or 24: its cards confirmed by someone not of the claimant's side (an opponent
        with a login, else a judge or organiser who is not a party), so it wins its jackpot.
        The muggins story (`caller` given, after its call for all N overlooked, ACC rule 10.4a):
        two more hands of the same claimant at that table with a call of the other two kinds:
        the 8-7-7-6-2 hand (16, club-thursday-rules.md "Combinations") claimed as 12 and called
        for 6 (the caller takes the 4 overlooked), and 9-6-5-4-4 (14, hoyle.txt "Showing")
        claimed right and called for 2 (a false call: the claimant is given 2).
        """
        if caller is None:
            users = get_user_model().objects
            candidates = [
                p.user for p in Player.objects.filter(pk__in=claim.opponent_ids) if p.user_id
            ] + [users.get(username=name) for name in (*JUDGE_USERS, ORGANISER, CONFIRMER)]
            for user in candidates:
                if scoring_services.can_confirm_cards(claim, user):
                    scoring_services.claim_confirm_cards(claim=claim, actor=user)
                    return
            return
        for later, hand, starter, claimed, called in (
            (2, "8S 7H 7D 6C", "2H", 12, 6),
            (4, "9S 6D 5C 4H", "4D", 14, 2),
        ):
            more = scoring_services.claim_file(
                game=claim.game,
                actor=self.organiser,
                kind=ClaimKind.HAND,
                claimant=claim.claimant,
                claimed_points=claimed,
                hand=hand,
                starter=starter,
                deal=(claim.deal or 0) + later,
            )
            scoring_services.muggins_call(
                claim=more, actor=self.organiser, caller=caller, points=called
            )

    # --- a session ----------------------------------------------------------------------------

    def session(self, date: dt.date, story: _Story) -> Session:
        rng = self.rng
        session = club_services.session_open(club=self.club, actor=self.organiser, date=date)
        for player in self.attendance(story):
            checkin = club_services.checkin_create(
                session=session, actor=self.organiser, player=player
            )
            club_services.fee_mark_paid(checkin=checkin, actor=self.organiser)
        planned = session.house_rules.rounds_per_session
        rounds = rng.randint(min(ROUNDS[0], planned), min(ROUNDS[1], planned))
        pending = [(kind, rng.randint(1, rounds)) for kind in story.claims]
        for number in range(1, rounds + 1):
            round_ = game_services.round_draw(
                session=session, actor=self.organiser, seed=rng.randrange(2**31)
            )
            games = list(round_.games.order_by("table"))
            seated = _seating(round_)
            # Claims are filed while the games are in play; one that finds no suitable table
            # waits for the next round.
            due = [item for item in pending if item[1] <= number]
            for item in due:
                if self.story_claim(item[0], games, seated) or number == rounds:
                    pending.remove(item)
            scores = {}
            for game in games:
                sides = [p for _, p in sorted(seated[game.pk], key=lambda sp: sp[0])]
                scores[game.table] = self.scores(sides)
            type_in_round(round_, self.organiser, self.confirmer, scores)
        # The skunked pay their coins into the skunk bank at the table.
        skunk_coins_collect(session=session, actor=self.organiser)
        session_settle(session=session, actor=self.organiser, seed=rng.randrange(2**31))
        return session


def type_in_round(round_: Round, organiser, confirmer, scores: dict) -> None:
    """A round's scorecards (table number -> side scores) typed in by `organiser` and confirmed
    by `confirmer` at once, as at the desk: one replay of the ratings for the round. A table
    the confirmer plays at is left out of a whole round's confirmation, so its result is
    confirmed on its own, as it is at the table."""
    drafts = game_services.round_results_enter(round_=round_, actor=organiser, scores=scores)
    confirmed = {
        result.pk for result in game_services.round_results_confirm(round_=round_, actor=confirmer)
    }
    for draft in drafts:
        if draft.pk not in confirmed:
            game_services.result_confirm(result=draft, actor=confirmer)


def build_demo_season(
    *, club: Club, seed: int = 2026, today: dt.date | None = None, sessions: int | None = None
) -> int:
    """Play a past season of `club` (the demo club) through the services; the sessions built.

    `today` defaults to the local date; `sessions` overrides the season's length (8 to 16; tests
    build shorter ones). Needs the demo fixture's users (organiser, organiser2, judge, player) and
    players. All in one transaction: a failure leaves no half-built season.
    """
    today = today or timezone.localdate()
    rng = random.Random(seed)
    with transaction.atomic():
        builder = _Builder(club=club, rng=rng)
        # The side pots: the season's payout sheets show them.
        club_services.club_update_rules(club=club, actor=builder.organiser, **SIDE_POTS)
        dates = season_dates(weekday=club.session_weekday, today=today, rng=rng, sessions=sessions)
        stories = _plan_stories(rng, len(dates))
        for date, story in zip(dates, stories, strict=True):
            builder.session(date, story)
    return len(dates)
