"""The page table, navigation by role, and the forms' error paths. The page table (`PAGES`: the
status of every page for every role: public, player, another club's player, judge, organiser) is
checked against the URL conf, so a new page without a row here fails
`test_every_url_has_a_row_in_the_page_table`; tests/web/test_page_status.py checks every row,
tests/web/test_anonymous_posts.py posts to every URL anonymously, and tests/security reads the
same table for what one club may do with another club's objects."""

import re
from collections.abc import Mapping

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from club.audit import ClubVerb
from club.models import CheckIn, Club, LoginLink, Player, Session
from club.services import login_give, player_link_issue
from core.models import AuditEntry
from games.models import CorrectionProposal, Game, Result, Round
from money.models import LedgerEntry, Settlement, SkunkCoin
from scoring import services
from scoring.models import Claim, Dispute
from tests.conftest import ROLES
from tests.factories import (
    CheckInFactory,
    ClubFactory,
    PlayerFactory,
    ResultFactory,
    SeatFactory,
    SessionFactory,
    UserFactory,
)
from tests.rows import counts
from tests.tournaments.page_objects import tournament_objects

pytestmark = pytest.mark.django_db

LOGIN = "login"  # anonymous users are sent here
PUBLISHED = "published"  # 200 while the club publishes its standings, else 404
PUBLISHED_OR_403 = "published-or-403"  # 200 while the club publishes its standings, else 403
PUBLISHED_REDIRECT = "published-redirect"  # 302 while the club publishes its standings, else 404
# Who asks: the four roles of this club (so `ROLES.index(role)` picks a column), then "stranger", a
# player of another club on the same site (so that club is their current club) asking for URLs
# built with this club's objects: a URL naming one of this club's objects is 404 for them, as if it
# did not exist; a page that names none shows their own club. Then "b_organiser", an organiser of
# that other club (every permission, only the club scoping refuses them), and "no_record", a login
# in the organisers group linked to no player at all: roles are per club (club/backends.py), so it
# is a logged-in visitor everywhere (never an organiser of the visitors' club).
COLUMNS = (*ROLES, "stranger", "b_organiser", "no_record")
# url name -> expected status for each of COLUMNS
PAGES = {
    "health": (200, 200, 200, 200, 200, 200, 200),
    "home": (200, 200, 200, 200, 200, 200, 200),
    "scoring:counter": (200, 200, 200, 200, 200, 200, 200),
    "scoring:discard": (200, 200, 200, 200, 200, 200, 200),
    "login": (200, 302, 302, 302, 302, 302, 302),
    "club:rules": (200, 200, 200, 200, 200, 200, 200),
    "club:rules_edit": (LOGIN, 403, 403, 200, 403, 200, 403),
    "club:players": (LOGIN, 200, 200, 200, 200, 200, 403),
    "club:player_add": (LOGIN, 403, 403, 200, 403, 200, 403),
    "club:player_edit": (LOGIN, 403, 403, 200, 403, 404, 403),
    "club:audit": (LOGIN, 403, 200, 200, 403, 200, 403),
    # Logins: a player's login page and its actions (organisers of the player's club),
    # one's own account page (every login), and the welcome page of a one-time link, which
    # anyone holding the link opens, logged in or not (url_for makes a live link, which
    # redirects to the form's own address: tests/club/test_login_pages.py).
    "club:player_login": (LOGIN, 403, 403, 200, 403, 404, 403),
    "club:player_login_give": (LOGIN, 403, 403, 405, 403, 405, 403),
    "club:player_login_role": (LOGIN, 403, 403, 405, 403, 405, 403),
    "club:player_login_link": (LOGIN, 403, 403, 405, 403, 405, 403),
    "club:player_pin": (LOGIN, 403, 403, 405, 403, 405, 403),
    "club:account": (LOGIN, 200, 200, 200, 200, 200, 200),
    "club:account_password": (LOGIN, 405, 405, 405, 405, 405, 405),
    "club:account_pin": (LOGIN, 405, 405, 405, 405, 405, 405),
    "welcome": (302, 302, 302, 302, 302, 302, 302),
    # Public only while the club's "standings public" rule is on.
    "club:sessions": (PUBLISHED, 200, 200, 200, 200, 200, PUBLISHED_OR_403),
    "standings:season": (PUBLISHED, 200, 200, 200, 200, 200, PUBLISHED_OR_403),
    "standings:all_time": (PUBLISHED, 200, 200, 200, 200, 200, PUBLISHED_OR_403),
    "standings:ratings": (PUBLISHED, 200, 200, 200, 200, 200, PUBLISHED_OR_403),
    "standings:player": (PUBLISHED, 200, 200, 200, 404, 404, PUBLISHED_OR_403),
    "club:session_open": (LOGIN, 403, 403, 200, 403, 200, 403),
    # Move or delete a session nobody has played in (url_for's session has a game: refused, 200
    # with the reason for the organiser).
    "club:session_redate": (LOGIN, 403, 403, 200, 403, 404, 403),
    "club:session_delete": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:session": (PUBLISHED, 200, 200, 200, 404, 404, PUBLISHED_OR_403),
    "web:session_export": (PUBLISHED, 200, 200, 200, 404, 404, PUBLISHED_OR_403),
    # The live board: members of its session's club always see it, members of no
    # club while that club publishes its standings, everyone else gets 404.
    "web:board": (PUBLISHED, 200, 200, 200, 404, 404, PUBLISHED),
    # Its refresh, asked for without htmx (an address bar): sent to the board.
    "web:board_parts": (PUBLISHED_REDIRECT, 302, 302, 302, 404, 404, PUBLISHED_REDIRECT),
    # The club's login lock-outs (organisers); a stranger sees their own club's.
    "web:lockouts": (LOGIN, 403, 403, 200, 403, 200, 403),
    "web:lockout_lift": (LOGIN, 403, 403, 405, 403, 405, 403),
    # POST-only actions: a GET by someone allowed to post is 405 (the object is not looked up).
    "web:checkin_add": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:checkin_paid": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:checkin_unpaid": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:checkin_undo": (LOGIN, 403, 403, 405, 403, 405, 403),
    # Leaves after a round, sits out a round, and their undos (POST only, organisers).
    "web:checkin_leaves": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:checkin_leaves_undo": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:checkin_sits_out": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:checkin_sits_out_undo": (LOGIN, 403, 403, 405, 403, 405, 403),
    # The fee per game: take, change given back, undo (POST only, organisers).
    "web:checkin_fee_take": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:checkin_fee_change": (LOGIN, 403, 403, 405, 403, 405, 403),
    "web:checkin_fee_undo": (LOGIN, 403, 403, 405, 403, 405, 403),
    "games:round_draw": (LOGIN, 403, 403, 405, 403, 405, 403),
    # The round page is public while the club publishes its standings (find your
    # name); its seating chart (the tables' links) stays the members'.
    "games:round": (PUBLISHED, 200, 200, 200, 404, 404, PUBLISHED_OR_403),
    "games:round_print": (LOGIN, 200, 200, 200, 404, 404, 403),
    "games:round_swap": (LOGIN, 403, 403, 405, 403, 405, 403),
    # Typing in a round's scorecards: organisers (the permission to correct a result).
    "games:round_scorecards": (LOGIN, 403, 403, 200, 403, 404, 403),
    # Withdrawing a round's confirm step (url_for's round has a result: the reason is shown).
    "games:round_withdraw": (LOGIN, 403, 403, 200, 403, 404, 403),
    "games:table_cards": (LOGIN, 403, 403, 200, 403, 200, 403),  # organisers: keys to tables
    "games:table_cards_renew": (LOGIN, 403, 403, 200, 403, 200, 403),
    "games:game": (LOGIN, 200, 200, 200, 404, 404, 403),
    "games:result_enter": (LOGIN, 405, 405, 405, 405, 405, 403),
    "games:result_confirm": (LOGIN, 405, 405, 405, 405, 405, 403),
    "games:result_correct": (LOGIN, 403, 403, 405, 403, 405, 403),
    # A correction proposed by a player of the game, and its withdrawal (POST only).
    "games:correction_propose": (LOGIN, 405, 405, 405, 405, 405, 403),
    "games:correction_withdraw": (LOGIN, 405, 405, 405, 405, 405, 403),
    # A game that cannot be finished: not played or a forfeit, and back to playing (organisers).
    "games:game_unfinished": (LOGIN, 403, 403, 405, 403, 405, 403),
    "games:game_back_to_playing": (LOGIN, 403, 403, 405, 403, 405, 403),
    "money:session_settle": (LOGIN, 403, 403, 405, 403, 405, 403),
    "money:settle_preview": (LOGIN, 403, 403, 200, 403, 404, 403),
    "money:settlement": (LOGIN, 200, 200, 200, 404, 404, 403),
    "money:session_reopen": (LOGIN, 403, 403, 405, 403, 405, 403),
    # Skunk coins: taken and handed back by whoever takes the fees.
    "money:skunk_coin_paid": (LOGIN, 403, 403, 405, 403, 405, 403),
    "money:skunk_coins_collect": (LOGIN, 403, 403, 405, 403, 405, 403),
    "money:skunk_coin_back": (LOGIN, 403, 403, 405, 403, 405, 403),
    "money:ledger": (LOGIN, 403, 403, 200, 403, 200, 403),
    "money:player_money": (LOGIN, 403, 403, 200, 404, 404, 403),  # a player sees only their own
    "scoring:claim_new": (LOGIN, 403, 403, 200, 404, 404, 403),  # players: only at their own table
    "scoring:claim": (LOGIN, 200, 200, 200, 404, 404, 403),
    "scoring:muggins": (LOGIN, 405, 405, 405, 405, 405, 403),
    "scoring:dispute_open": (LOGIN, 405, 405, 405, 405, 405, 403),
    "scoring:claim_confirm_cards": (LOGIN, 405, 405, 405, 405, 405, 403),
    "scoring:queue": (LOGIN, 403, 200, 200, 403, 200, 403),
    "scoring:dispute_rule": (LOGIN, 403, 405, 405, 403, 405, 403),
    "scoring:dispute_appeal": (LOGIN, 405, 405, 405, 405, 405, 403),
    "scoring:session_report": (LOGIN, 403, 200, 200, 403, 404, 403),
    # An organiser names a player present as judge for one dispute (POST only).
    "scoring:dispute_name_judge": (LOGIN, 403, 403, 405, 403, 405, 403),
    # The named judge's one-time link: whoever holds it, logged in or not (tests/scoring/
    # test_judge_link.py: the refusals).
    "judge_link:page": (200, 200, 200, 200, 200, 200, 200),
    # A proposed correction's acceptance link: whoever holds it (tests/games/test_corrections.py).
    "accept_link:page": (200, 200, 200, 200, 200, 200, 200),
    # A table's link (a game's, or a table card's): anyone holding it, of any club, while its
    # round is open (tests/games/test_table_views.py: the refusals). Its forms are POST only.
    # The table page's offline worker (a script, not a page): the same for everyone.
    "table:worker": (200, 200, 200, 200, 200, 200, 200),
    "table:page": (200, 200, 200, 200, 200, 200, 200),
    "table:result": (405, 405, 405, 405, 405, 405, 405),
    "table:accept": (405, 405, 405, 405, 405, 405, 405),
    "table_claims:claim_new": (405, 405, 405, 405, 405, 405, 405),
    "table_claims:dispute_open": (405, 405, 405, 405, 405, 405, 405),
    "table_claims:muggins": (405, 405, 405, 405, 405, 405, 405),
    "table_claims:cards_confirm": (405, 405, 405, 405, 405, 405, 405),
    # Tournaments: the list and the public pages of one (its standings, its bracket) like the
    # sessions; the director's page for members; creating, drawing, closing and forfeits are
    # the organisers' (tournaments.run_tournament).
    "tournaments:list": (PUBLISHED, 200, 200, 200, 200, 200, PUBLISHED_OR_403),
    "tournaments:new": (LOGIN, 403, 403, 200, 403, 200, 403),
    "tournaments:prizes": (LOGIN, 403, 403, 200, 403, 404, 403),
    "tournaments:detail": (LOGIN, 200, 200, 200, 404, 404, 403),
    "tournaments:draw": (LOGIN, 403, 403, 405, 403, 405, 403),
    "tournaments:close": (LOGIN, 403, 403, 405, 403, 405, 403),
    "tournaments:forfeit": (LOGIN, 403, 403, 405, 403, 405, 403),
    "tournaments:standings": (PUBLISHED, 200, 200, 200, 404, 404, PUBLISHED_OR_403),
    "tournaments:bracket": (PUBLISHED, 200, 200, 200, 404, 404, PUBLISHED_OR_403),
}
# Addresses whose token is the key: whoever holds a table's link reads that table and posts to
# it, logged in or not, whatever their club. tests/security's club-scoping checks
# leave them out; tests/games/test_table_views.py checks that a link reaches its own table only.
LINK_IS_THE_KEY = {
    "table:page",
    "table:result",
    "table:accept",
    "table_claims:claim_new",
    "table_claims:dispute_open",
    "table_claims:muggins",
    "table_claims:cards_confirm",
    "judge_link:page",
    "accept_link:page",
}
# One-time player links (club.PlayerLink): a post there acts once, for the player it names.
PLAYER_LINKS = {"judge_link:page", "accept_link:page"}
# The table link's forms: anonymous posts that write, but only their own table's rows
# (docs/spec.md "People and what they do": "Anonymous visitors write nothing but what a table's
# link allows": its result, its claims and calls for a judge).
TABLE_LINK_POSTS = LINK_IS_THE_KEY - {"table:page"} - PLAYER_LINKS
# Not pages: the logout action (POST only) and the admin, which Django guards itself.
NOT_PAGES = {"logout"}


def named_urls(resolver=None, namespace=""):
    """Every named URL pattern of the site outside the admin, as "namespace:name"."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from named_urls(pattern, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}{pattern.name}", pattern


# Which object fills <pk> for each prefix of URL names; other parameters by their own name.
PK_OBJECT = {
    "club:player": "player",
    "club:session_": "session",
    "web:session": "session",
    "web:board": "session",
    "web:checkin": "session",
    "money:session": "session",
    "money:settlement": "session",
    "money:skunk": "session",
    "money:settle": "session",
    "money:player": "player",
    "games:round_draw": "session",
    "games:round_withdraw": "session",
    "games:round": "round",
    "games:game": "game",
    "standings:player": "player",
    "games:result": "game",
    "games:correction": "game",
    "scoring:claim_new": "game",
    "scoring:claim": "claim",
    "scoring:muggins": "claim",
    "scoring:dispute_open": "claim",
    "scoring:dispute": "dispute",
    "scoring:session": "session",
    "tournaments:forfeit": "match",  # before "tournaments:", which the others take
    "tournaments:": "tournament",
}


def club_objects(club: Club) -> dict:
    """Real objects of `club` for the URL parameters, by parameter name: a session with a
    check-in, a drawn game with a draft result, a claim under dispute, a skunk coin and a
    proposed correction."""
    session = SessionFactory(club=club)
    checkin = CheckInFactory(session=session)
    result = ResultFactory(game__round__session=session)
    seat = SeatFactory(game=result.game, player=checkin.player)
    claim = services.claim_file(
        game=result.game,
        actor=seat.player.user or UserFactory(role="organisers", club=club),
        kind="heels",
        claimant=seat.player,
        claimed_points=2,
        starter="JH",
    )
    dispute = Dispute.objects.create(claim=claim, opened_by=seat.player, statement="No")
    coin = SkunkCoin.objects.create(
        session=session,
        game=result.game,
        player=checkin.player,
        cents=25,
        paid_by=UserFactory(role="organisers", club=club),
    )
    proposal = CorrectionProposal.objects.create(
        game=result.game,
        base=result,
        scores=[121, 91],
        reason="Miscounted.",
        proposed_side=seat.side,
        proposed_by_player=seat.player,
    )
    return {
        "proposal": proposal,
        "coin": coin,
        "player": checkin.player,
        "session": session,
        "checkin": checkin,
        "round": result.game.round,
        "game": result.game,
        "result": result,
        "claim": claim,
        "dispute": dispute,
    }


def url_for(name: str, club: Club, objects: Mapping | None = None) -> str:
    """The URL of `name` with `objects` of `club` (`club_objects`, made here when not given;
    a tournament's too for its pages) filling its parameters. One-time links are made here."""
    if objects is None:
        objects = club_objects(club)
        if name.startswith("tournaments:"):
            objects |= tournament_objects(club)
    pattern = dict(named_urls())[name]
    kwargs = {}
    for key in pattern.pattern.converters:
        if key == "pk":
            owner = next(obj for prefix, obj in PK_OBJECT.items() if name.startswith(prefix))
            kwargs[key] = objects[owner].pk
        elif key == "number":  # a round's number within the session
            kwargs[key] = objects["round"].number
        elif key == "link":  # a live one-time login link of a new login of the club
            newcomer = PlayerFactory(club=club)
            kwargs[key] = login_give(
                player=newcomer, actor=None, username=f"new{newcomer.pk}", role="player"
            )
        elif key == "token":  # a table's link
            kwargs[key] = objects["game"].table_token
        elif key == "key" and name.startswith("accept_link"):  # a proposal's acceptance link
            kwargs[key] = accept_link(objects["proposal"])
        elif key == "key":  # a live one-time player link: a bystander named judge
            kwargs[key] = name_a_judge(objects["dispute"])
        elif key in objects:
            kwargs[key] = objects[key].pk
        else:
            raise AssertionError(f"url_for does not know how to fill <{key}> of {name}")
    return reverse(name, kwargs=kwargs)


def accept_link(proposal: CorrectionProposal) -> str:
    """The raw token of a live acceptance link of `proposal`."""
    return player_link_issue(
        session=proposal.game.session,
        purpose="accept",
        target=proposal.pk,
        player=None,
        actor=None,
    )


def name_a_judge(dispute: Dispute) -> str:
    """The raw token of a live judge's link: a player checked in, not at the table, named."""
    session = dispute.claim.game.session
    bystander = CheckInFactory(session=session, player__club=session.club).player
    return services.dispute_name_judge(dispute=dispute, actor=None, player=bystander)


def row_counts() -> tuple[int, ...]:
    """The rows of every table a page could write to, counted (and the used logins, paid
    check-ins and set PINs among them)."""
    return counts("row_counts", _counted)


def _counted() -> list:
    models = (
        Club,
        Player,
        AuditEntry,
        Session,
        CheckIn,
        Round,
        Game,
        Result,
        Claim,
        Dispute,
        Settlement,
        LedgerEntry,
        LoginLink,
    )
    return [model.objects.values("pk") for model in models] + [
        CheckIn.objects.filter(paid_at__isnull=False).values("pk"),
        LoginLink.objects.filter(used_at__isnull=False).values("pk"),
        Player.objects.exclude(pin_hash="").values("pk"),
    ]


def test_every_url_has_a_row_in_the_page_table():
    names = {name for name, _ in named_urls()}
    missing = names - set(PAGES) - NOT_PAGES
    assert not missing, f"add these pages to PAGES with a status per role: {sorted(missing)}"
    stale = (set(PAGES) | NOT_PAGES) - names
    assert not stale, f"these rows name no URL any more: {sorted(stale)}"
    assert set(PAGES).isdisjoint(NOT_PAGES)
    wrong = [name for name, row in PAGES.items() if len(row) != len(COLUMNS)]
    assert not wrong, f"these rows need one status for each of {COLUMNS}: {wrong}"


def login_as(column: str, client, member, stranger):
    """`client`, logged in as `column` of COLUMNS describes (anonymous for "public")."""
    if column == "stranger":
        client.force_login(stranger("player"))
    elif column == "b_organiser":
        client.force_login(stranger("organiser"))
    elif column == "no_record":
        client.force_login(UserFactory(role="organisers"))
    elif column != "public":
        client.force_login(member(column))
    return client


def assert_status(response, expected, published: bool) -> None:
    if expected == PUBLISHED:
        expected = 200 if published else 404
    if expected == PUBLISHED_OR_403:
        expected = 200 if published else 403
    if expected == PUBLISHED_REDIRECT:
        expected = 302 if published else 404
    if expected == LOGIN:
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    else:
        assert response.status_code == expected, response.content[:500]


# A POST that fills the fields of every form on the site, so a refusal is not a form error.
POST_DATA = {
    "display_name": "Intruder",
    "entry_fee_cents": "1",
    "name": "Intruder",
    "new_player": "on",
    "side_0": "121",
    "side_1": "90",
    "statement": "x",
    "decision": "agree",
    "kind": "heels",
    "claimed_points": "2",
    "starter": "JH",
    "reason": "x",
    "points": "1",
    "seen": "on",
}


ALL_NAV = [
    "Home",
    "Standings",
    "Sessions",
    "Tournaments",
    "Hand counter",
    "Discard advisor",
    "House rules",
    "Players",
    "Disputes",
    "Ledger",
    "Audit log",
    "Lock-outs",
]
NAV = {
    "public": ALL_NAV[: ALL_NAV.index("House rules") + 1],
    "player": ALL_NAV[: ALL_NAV.index("Players") + 1],
    "judge": [label for label in ALL_NAV if label not in ("Ledger", "Lock-outs")],
    "organiser": ALL_NAV,
}


@pytest.mark.parametrize("role", ROLES)
def test_home_shows_the_club_next_session_role_and_navigation(role, club, client_for):
    response = client_for(role).get("/")
    html = response.content.decode()
    assert club.name in html
    assert 'data-testid="next-session"' in html
    nav = html.split('aria-label="Main"')[1].split("</nav>")[0]
    labels = [label for label in ALL_NAV if f">{label}</a>" in nav]
    assert labels == NAV[role]
    if role == "public":
        assert 'data-testid="role"' not in html
        assert "Log in" in html
    else:
        assert f'data-testid="role">{role}</span>' in html
    assert ("Edit the house rules" in html) == (role == "organiser")
    assert ("Add a player" in html) == (role == "organiser")
    assert ("Open a session" in html) == (role == "organiser")


@pytest.mark.parametrize("path", ["/", "/club/rules/", "/scoring/counter/"])
def test_each_navigation_link_goes_to_its_page_and_marks_the_one_open(path, club, client_for):
    html = client_for("organiser").get(path).content.decode()
    nav = html.split('aria-label="Main"')[1].split("</nav>")[0]
    links = re.findall(r'<li><a href="([^"]*)"( aria-current="page")?>([^<]*)</a></li>', nav)
    assert [label for _, _, label in links] == ALL_NAV
    assert [url for url, current, _ in links if current] == [path]
    for url, _, label in links:
        assert resolve(url), label


def test_home_without_any_club_explains_what_to_do(client, db):
    response = client.get("/")
    assert response.status_code == 200
    assert b"has no club yet" in response.content


def test_login_and_logout_through_the_pages(client, member, club):
    user = member("judge")
    response = client.post("/login/", {"username": user.username, "password": "test-password-123"})
    assert response.status_code == 302
    assert 'data-testid="role">judge' in client.get("/").content.decode()
    client.post("/logout/")
    assert 'data-testid="role"' not in client.get("/").content.decode()


def test_organiser_edits_house_rules_with_an_audit_entry(client_for, club):
    client = client_for("organiser")
    form = client.get("/club/rules/edit/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data["session_start"], data["session_end"] = "09:30", "11:30"
    data.update(entry_fee_cents=50, muggins="")
    response = client.post("/club/rules/edit/", data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("club:rules")
    assert "House rules saved." in response.content.decode()
    club.refresh_from_db()
    assert (club.entry_fee_cents, club.muggins) == (50, False)
    entry = AuditEntry.objects.get(action=ClubVerb.CLUB_RULES_CHANGED)
    assert entry.data["entry_fee_cents"] == {"before": 25, "after": 50}


def test_bad_house_rule_is_shown_on_the_field_and_nothing_saved(client_for, club):
    client = client_for("organiser")
    form = client.get("/club/rules/edit/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data["session_start"], data["session_end"] = "09:30", "11:30"
    data.update(game_target=61, entry_fee_cents=-5)
    response = client.post("/club/rules/edit/", data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "entry_fee_cents" in errors
    assert Club.objects.get(pk=club.pk).game_target == 121
    assert not AuditEntry.objects.filter(action=ClubVerb.CLUB_RULES_CHANGED).exists()


def test_organiser_adds_a_player_and_a_duplicate_name_is_a_field_error(client_for, club):
    client = client_for("organiser")
    response = client.post("/club/players/add/", {"display_name": "Opal Ortiz", "active": "on"})
    assert response.status_code == 302
    assert Player.objects.filter(club=club, display_name="Opal Ortiz").exists()
    again = client.post("/club/players/add/", {"display_name": "opal ortiz", "active": "on"})
    assert again.status_code == 200
    assert "already a player" in again.context["form"].errors["display_name"][0]
    assert Player.objects.filter(club=club, display_name__iexact="opal ortiz").count() == 1


def test_the_player_form_takes_no_login(client_for):
    """A login is made for its player on the login page; a username posted here is ignored."""
    client = client_for("organiser")
    response = client.post("/club/players/add/", {"display_name": "Lou", "login": "nobody"})
    assert response.status_code == 302
    assert Player.objects.get(display_name="Lou").user is None


def test_an_organiser_cannot_reach_another_clubs_player(client_for):
    client = client_for("organiser")
    stranger = PlayerFactory(club=ClubFactory())
    assert client.get(f"/club/players/{stranger.pk}/edit/").status_code == 404
    response = client.post(f"/club/players/{stranger.pk}/edit/", {"display_name": "Renamed"})
    assert response.status_code == 404
    assert Player.objects.get(pk=stranger.pk).display_name == stranger.display_name


def test_player_list_shows_only_the_current_club(client_for, club):
    PlayerFactory(club=ClubFactory(), display_name="Elsewhere Ella")
    PlayerFactory(club=club, display_name="Here Hank")
    html = client_for("player").get("/club/players/").content.decode()
    assert "Here Hank" in html
    assert "Elsewhere Ella" not in html
