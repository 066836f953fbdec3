"""The world the page crawl walks (tests/browser/test_crawl.py): the demo club with its settled
season, plus a session open today as it looks mid-morning, and a second club with its organiser.

Terms:
- *tournaments*: one mid-qualifying and one in its final (tests/browser/crawl_tournaments.py).
- *today's session*: ten players checked in (two not yet paid), round 1 drawn; its first game has
  a confirmed result with a hand claim and a dispute waiting for a judge, its second a draft
  result waiting for the other side, the rest are in play.
- *page pattern*: one named URL of the site filled with one of the world's objects; some names
  appear twice, in two states (an open and a settled session, a game in play and a finished one).
- *roles*: who crawls: a visitor, someone at a table holding its link, the demo's player, judge
  and organiser, and the organiser of another club on the same site.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from club import services as club_services
from club.models import Club, Player, Session
from club.services import club_start
from club.services.player_links import player_link_issue
from games import services as game_services
from games.models import MOST_TABLE_CARDS, CorrectionProposal, ResultState, TableCard
from scoring import services as scoring_services
from scoring.models import Claim, Dispute
from scoring.services.disputes import dispute_name_judge, judge_candidates
from tests.browser.crawl_tournaments import tournament_pages
from tests.demo_snapshot import built_once, load_demo
from tests.tournaments.builders import page_tournament

PASSWORD = "pegboard-demo"
ROLES = ("public", "table", "player", "judge", "organiser", "b_organiser")
LOGINS = {"player": "player", "judge": "judge", "organiser": "organiser", "b_organiser": "b-olive"}
# Patterns that show the other club (Riverside), whose large type setting stays off.
OTHER_CLUBS_PAGES = {"welcome@form"}
# URL names that are not HTML pages for a person to read: a health check (JSON), a CSV download,
# htmx's fragment of the board (a browser is sent to the board), a one-time link's address (it
# redirects at once to the welcome page, which is crawled), POST-only actions, and the table
# page's offline worker (a script).
NOT_CRAWLED = {
    "health",
    "web:session_export",
    "web:board_parts",
    "welcome",
    "logout",
    "table:worker",
}


@dataclass(frozen=True)
class World:
    pages: dict[str, str]  # label ("name" or "name@state") -> path
    table_paths: list[str]  # the table links of today's round, in play and finished, and a card


def build_world() -> World:
    """The world on a fresh database: built by the first test of the run that asks, copied back
    for the others (tests/demo_snapshot.py `built_once`)."""
    return built_once("crawl-world", _build)


def _build() -> World:
    load_demo(season=True)
    club = Club.objects.get(slug="thursday-peggers")
    users = get_user_model().objects
    organiser = users.get(username="organiser")
    confirmer = users.get(username="organiser2")
    settled = Session.objects.filter(club=club).order_by("-date").first()
    today = _open_today(club, organiser, confirmer)
    round_ = today.rounds.get(number=1)
    games = list(round_.games.order_by("table"))
    finished, drafted, in_play = games[0], games[1], games[-1]
    claim = Claim.objects.filter(game=finished).first()
    dispute = Dispute.objects.filter(claim=claim).first()
    settled_claim = Claim.objects.filter(game__round__session=settled).order_by("pk").first()
    ruled = Dispute.objects.filter(claim__game__round__session__club=club).exclude(pk=dispute.pk)
    ruled = ruled.order_by("pk").first()
    player = Player.objects.get(club=club, user__username="player")
    withdrawable = today.rounds.order_by("-number").first()
    welcome = _other_club_and_a_welcome_link()
    tournament = page_tournament(club, players=club.players.filter(active=True)[:10])

    pages = {
        "home": reverse("home"),
        "login": reverse("login"),
        "welcome@form": welcome,
        "club:rules": reverse("club:rules"),
        "club:rules_edit": reverse("club:rules_edit"),
        "club:players": reverse("club:players"),
        "club:player_add": reverse("club:player_add"),
        "club:player_edit": reverse("club:player_edit", args=[player.pk]),
        "club:player_login": reverse("club:player_login", args=[player.pk]),
        "club:account": reverse("club:account"),
        "club:audit": reverse("club:audit"),
        "club:sessions": reverse("club:sessions"),
        "club:session_open": reverse("club:session_open"),
        "club:session_redate": reverse("club:session_redate", args=[today.pk]),
        "web:session@open": reverse("web:session", args=[today.pk]),
        "web:session@settled": reverse("web:session", args=[settled.pk]),
        "web:board": reverse("web:board", args=[today.pk]),
        "web:lockouts": reverse("web:lockouts"),
        "money:settlement@open": reverse("money:settlement", args=[today.pk]),
        "money:settlement@settled": reverse("money:settlement", args=[settled.pk]),
        "money:ledger": reverse("money:ledger"),
        "money:player_money": reverse("money:player_money", args=[player.pk]),
        "standings:season": reverse("standings:season"),
        "standings:all_time": reverse("standings:all_time"),
        "standings:ratings": reverse("standings:ratings"),
        "standings:player": reverse("standings:player", args=[player.pk]),
        "games:round@open": reverse("games:round", args=[round_.pk]),
        "games:round_print": reverse("games:round_print", args=[round_.pk]),
        "games:table_cards": reverse("games:table_cards"),
        "games:table_cards_renew": reverse("games:table_cards_renew"),
        "games:round_scorecards": reverse("games:round_scorecards", args=[round_.pk]),
        "games:round_withdraw": reverse(
            "games:round_withdraw", args=[today.pk, withdrawable.number]
        ),
        "games:game@finished": reverse("games:game", args=[finished.pk]),
        "games:game@draft": reverse("games:game", args=[drafted.pk]),
        "games:game@in_play": reverse("games:game", args=[in_play.pk]),
        "scoring:counter": reverse("scoring:counter"),
        "scoring:discard@advice": reverse("scoring:discard") + "?cards=5H+5C+JD+6S+4C+KH",
        "scoring:claim_new": reverse("scoring:claim_new", args=[in_play.pk]),
        "scoring:claim@disputed": reverse("scoring:claim", args=[claim.pk]),
        "scoring:claim@settled": reverse("scoring:claim", args=[settled_claim.pk]),
        "scoring:queue": reverse("scoring:queue"),
        "scoring:session_report@open": reverse("scoring:session_report", args=[today.pk]),
        "scoring:session_report@ruled": reverse(
            "scoring:session_report", args=[ruled.claim.game.round.session_id]
        ),
        "table:page@in_play": reverse("table:page", args=[in_play.table_token]),
        "table:page@draft": reverse("table:page", args=[drafted.table_token]),
        "tournaments:standings": reverse("tournaments:standings", args=[tournament.pk]),
        "tournaments:bracket": reverse("tournaments:bracket", args=[tournament.pk]),
    }
    pages |= _player_links(today, organiser, finished, dispute)
    pages |= tournament_pages(club, organiser, confirmer)
    # A table card of a table number no round has: no game in today's round (its page lists
    # the round's tables, with "Find your name"). Only that one, so every seating chart keeps
    # its tables' codes (tests/browser/test_print.py prints them, up to a big session's).
    spare = TableCard.objects.create(
        club=club, number=MOST_TABLE_CARDS, token=game_services.table_cards.unused_token()
    )
    pages["table:page@card_no_game"] = reverse("table:page", args=[spare.token])
    tables = [
        pages["table:page@in_play"],
        pages["table:page@draft"],
        pages["table:page@card_no_game"],
    ]
    return World(pages=pages, table_paths=tables)


def _player_links(today: Session, organiser, finished, dispute) -> dict[str, str]:
    """The pages a player opens without a login through a one-time link: a bystander named judge
    of today's dispute, and the acceptance of a correction proposed at the finished table; and
    the payout sheet before settling (today's lists what still blocks it)."""
    bystander = judge_candidates(dispute)[0]
    judge_key = dispute_name_judge(dispute=dispute, actor=organiser, player=bystander)
    result = finished.results.get(state=ResultState.CONFIRMED)
    seat = finished.seats.order_by("position").first()
    proposal = CorrectionProposal.objects.create(
        game=finished,
        base=result,
        scores=[score if score == max(result.scores) else score + 1 for score in result.scores],
        reason="The last crib was miscounted.",
        proposed_side=seat.side,
        proposed_by_player=seat.player,
    )
    accept_key = player_link_issue(
        session=today, purpose="accept", target=proposal.pk, player=None, actor=None
    )
    return {
        "judge_link:page": reverse("judge_link:page", kwargs={"key": judge_key}),
        "accept_link:page": reverse("accept_link:page", kwargs={"key": accept_key}),
        "money:settle_preview": reverse("money:settle_preview", args=[today.pk]),
    }


def _open_today(club: Club, organiser, confirmer) -> Session:
    session = club_services.session_open(club=club, actor=organiser, date=timezone.localdate())
    players = list(club.players.filter(active=True).order_by("display_name")[:10])
    for n, player in enumerate(players):
        checkin = club_services.checkin_create(session=session, actor=organiser, player=player)
        if n < 8:
            club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=11)
    games = list(round_.games.order_by("table"))
    first, second = games[0], games[1]
    scores = [121] + [90] * (first.side_count - 1)
    draft = game_services.result_enter(game=first, actor=organiser, scores=scores)
    game_services.result_confirm(result=draft, actor=confirmer)
    seat = first.seats.select_related("player__user").order_by("side").first()
    claim = scoring_services.claim_file(
        game=first,
        actor=organiser,
        kind="hand",
        claimant=seat.player,
        claimed_points=12,
        hand="5H 5C JD QS",
        starter="KH",
    )
    other = first.seats.exclude(side=seat.side).select_related("player").first()
    scoring_services.table_dispute_open(
        claim=claim, player=other.player, statement="We counted ten, not twelve."
    )
    game_services.result_enter(
        game=second, actor=organiser, scores=[121] + [70] * (second.side_count - 1)
    )
    return session


def _other_club_and_a_welcome_link() -> str:
    """Riverside, with its organiser "b-olive" (the crawl's other club's organiser, a password
    set), and the address of the welcome page of her one-time link (not used: she has a password
    already, and the page is crawled as the visitor sees it)."""
    _, olive, token = club_start(
        name="Riverside Cribbage",
        slug="riverside",
        organiser_username=LOGINS["b_organiser"],
        organiser_name="Olive Ashdown",
    )
    olive.user.set_password(PASSWORD)
    olive.user.save(update_fields=["password"])
    return reverse("welcome", args=[token])
