"""Hostile input: every form of the site posted with hypothesis-generated values, every GET form,
table parameter and URL id with hostile values, and every page rendering user text that is HTML.

Terms:
- endpoint: a named URL whose view accepts POST (a class view with a `post` method; a function
  view that does not answer POST with 405). The set is read from the URL conf, so a new POST
  view without a `Target` here fails `test_every_post_view_is_fuzzed`.
- target: how to post to one endpoint: the URL (with real objects in the state the form needs), the
  user who posts (the most powerful role that may: an organiser, a judge for rulings, a seated
  player for disputes), the form's fields with a strategy each, and valid baselines.
- hostile value: empty, huge (10k+ characters), unicode (RTL, emoji, zero-width, NUL), numbers out
  of range or written as floats, SQL and HTML fragments, template syntax, bad or duplicate cards.
- accepted: the view redirected without an error message; anything else is rejected, and a
  rejected post must leave every row of the club, games, scoring and auth-user tables as it was.
  An accepted post may write, but only what is consistent: an audit entry with every change, no
  NUL character and no text longer than its column, spreads that sum to zero, payouts that add up
  to the pot, nothing of another club touched, and the page it redirects to renders.
- inert: the raw `<script>alert` (and the other markers) never reaches an HTML response; user text
  shows up escaped (`&lt;script&gt;`).

Each hypothesis example runs in a savepoint that is rolled back, so every example starts from the
same state, built once per test through the services.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode, urlsplit

import pytest
from django import forms
from django.apps import apps
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.db import connection, models, transaction
from django.db.models import Sum
from django.test import Client
from django.test.utils import ContextList
from django.urls import reverse
from django.utils.html import escape
from django_tables2 import tables
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club import services as club_services
from club import settlement as club_settlement
from club.forms import CheckInForm, HouseRulesForm, PlayerForm, ReopenForm, SessionOpenForm
from club.models import AuditEntry, CheckIn, Club, Player, Session, Settlement
from games import services as game_services
from games.forms import CorrectionForm, ResultForm, SwapForm
from games.models import Game, ResultLine
from scoring import services as scoring_services
from scoring.engine import DECK
from scoring.forms import ClaimForm, HandCounterForm, MugginsForm, RulingForm, StatementForm
from scoring.models import Claim, Dispute
from tests.club.test_views import COLUMNS, PAGES, PK_OBJECT, named_urls, url_for
from tests.factories import PASSWORD, CheckInFactory, ClubFactory, PlayerFactory, SessionFactory

pytestmark = pytest.mark.django_db

# --- Hostile values -------------------------------------------------------------------------------

ATTACKS = (
    "",
    " ",
    "\t\r\n",
    "\x00",
    "5H\x005C",
    "a\x00b",
    "'; DROP TABLE club_player; --",
    "1 OR 1=1",
    "' OR '1'='1",
    "1); DELETE FROM club_auditentry; --",
    '" UNION SELECT username, password FROM auth_user --',
    "<script>alert(1)</script>",
    '"><script>alert(1)</script>',
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    'x" onmouseover="alert(1)',
    "x' onfocus='alert(1)",
    "</textarea><script>alert(1)</script>",
    "javascript:alert(1)",
    "{{ 7|add:7 }}",
    "{% debug %}",
    "%s%s%s%n",
    "../../../etc/passwd",
    "\u202eevil.exe",  # right-to-left override
    "مرحبا بالعالم",
    "שלום",
    "😀🃏🂡",
    "\u200b",
    "\ufeff",
    "Ω≈ç√∫",
    "ＡＢＣ１２３",
    "١٢١",  # Arabic-Indic digits: int() reads them
    "null",
    "None",
    "undefined",
    "NaN",
    "-Infinity",
    "1e309",
    "-0",
    "0x1F",
    "1_000",
    "9" * 40,
    "-" + "9" * 40,
    '=HYPERLINK("http://evil")',
    "+cmd|' /C calc'!A0",
)
# What must never appear raw in an HTML response: each is in an attack above.
MARKERS = (
    "<script>alert",
    "<img src=x onerror",
    "<svg onload",
    'onmouseover="alert',
    "onfocus='alert",
)

TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)  # no lone surrogates
HUGE = st.builds(
    operator.mul, st.sampled_from(("x", "é", "😀", "<b>", "5H ", "9", "\u202e")), st.just(12_000)
)
NUMBERS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats().map(str),  # nan, inf, 1e+300, -0.0 ...
)
HOSTILE = st.one_of(st.sampled_from(ATTACKS), TEXT, NUMBERS, HUGE)

CARDS = tuple(str(card) for card in DECK)
BAD_CARDS = ("5X", "1H", "11C", "0S", "10", "H5", "♠", "JJ", "5H5C", "", "10♥♥", "Z")
CARD = st.one_of(
    st.sampled_from(CARDS),
    st.sampled_from(("10C", "TD", "jd", "5♥", "A♠", "5H", "JD")),  # 5H, JD: in the baseline hand
    st.sampled_from(BAD_CARDS),
    HOSTILE,
)
HAND = st.one_of(
    st.lists(st.sampled_from(CARDS + BAD_CARDS), max_size=6).map(" ".join),  # duplicates too
    st.sampled_from(
        ("5H 5H 5H 5H", "5H,5C,5S,JD", "5H 5C 5S", "5H 5C 5S JD 4C", "5h5c5sjd", "5H  5C\t5S\nJD")
    ),
    HOSTILE,
)
BOOL = st.one_of(st.sampled_from(("on", "off", "true", "false", "1", "0", "", "yes")), HOSTILE)
DATE = st.one_of(
    st.dates().map(str),
    st.sampled_from(("2026-02-30", "99999-01-01", "0000-00-00", "2026-13-01", "12/03/2026")),
    HOSTILE,
)
TIME = st.one_of(
    st.times().map(str), st.sampled_from(("09:30", "24:00", "25:61", "9:30pm", "-1:00")), HOSTILE
)
EXTRA_KEYS = st.one_of(
    st.sampled_from(
        ("club", "club_id", "state", "pk", "id", "is_superuser", "groups", "actor", "next", "paid")
    ),
    st.text("abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=12),
)
MISSING = object()


def field_strategy(form_field: forms.Field, ids: list[int]) -> st.SearchStrategy:
    """Hostile values for a form field, mixed with values of the right kind; `ids` are real
    primary keys (this club's players and another club's) for the choice fields."""
    if isinstance(form_field, forms.BooleanField):
        return BOOL
    if isinstance(form_field, forms.ChoiceField):
        values = [str(value) for value, _ in form_field.choices if value != ""]
        known = st.sampled_from(values) if values else st.nothing()
        return st.one_of(known, st.sampled_from([str(i) for i in ids]), HOSTILE)
    if isinstance(form_field, forms.IntegerField):
        low = form_field.min_value if form_field.min_value is not None else -5
        high = form_field.max_value if form_field.max_value is not None else 200
        near = st.integers(min_value=low - 3, max_value=high + 3).map(str)
        return st.one_of(near, NUMBERS, HOSTILE)
    if isinstance(form_field, forms.DateField):
        return DATE
    if isinstance(form_field, forms.TimeField):
        return TIME
    if isinstance(form_field, forms.CharField):
        return st.one_of(st.sampled_from(("Ann", "Bob Smith", "linear", "50,30,20")), HOSTILE)
    raise AssertionError(f"No hostile strategy for a {type(form_field).__name__}: add one.")


# --- The state the forms need ---------------------------------------------------------------------


@dataclass
class World:
    club: Club
    other: Club  # another club on the same site: nothing of it may change
    organiser: object
    organiser2: object
    judge: object
    session: Session
    game: Game  # round 1's game at which players[0] sits
    players: list  # the four checked-in, seated players (each with a login)
    users: dict  # player pk -> user
    spare: Player  # a player of the club not checked in
    outsider: Player  # a player of the other club
    ids: list[int] = field(default_factory=list)
    other_state: tuple = ()  # other_club_state() as the fixture left it

    def seat_users(self) -> list:
        seats = self.game.seats.select_related("player").order_by("side")
        return [self.users[seat.player_id] for seat in seats]

    def seat_players(self) -> list[Player]:
        return [seat.player for seat in self.game.seats.select_related("player").order_by("side")]


@pytest.fixture
def world(club, member) -> World:
    organiser, organiser2, judge = member("organiser"), member("organiser"), member("judge")
    users = [member("player") for _ in range(4)]
    players = [Player.objects.get(user=user) for user in users]
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for player in players:
        checkin = club_services.checkin_create(session=session, actor=organiser, player=player)
        club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=7)
    game = round_.games.get(seats__player=players[0])
    other = ClubFactory(name="Other Club", slug="other-club")
    outsider = PlayerFactory(club=other, display_name="Outsider")
    CheckInFactory(session=SessionFactory(club=other, date=dt.date(2026, 3, 5)), player=outsider)
    spare = PlayerFactory(club=club, display_name="Spare Player")
    w = World(
        club=club,
        other=other,
        organiser=organiser,
        organiser2=organiser2,
        judge=judge,
        session=session,
        game=game,
        players=players,
        users={player.pk: user for player, user in zip(players, users, strict=True)},
        spare=spare,
        outsider=outsider,
        ids=[p.pk for p in players] + [spare.pk, outsider.pk],
    )
    w.other_state = other_club_state(w)
    return w


def confirm_all(w: World, scores=(121, 100)) -> None:
    for game in w.session.games.all():
        draft = game_services.result_enter(game=game, actor=w.organiser, scores=list(scores))
        game_services.result_confirm(result=draft, actor=w.organiser2)


def file_claim(w: World) -> Claim:
    """A hand claim of 28 for what counts 29 (an under-claim: muggins is open)."""
    claimant = w.seat_players()[0]
    return scoring_services.claim_file(
        game=w.game,
        actor=w.users[claimant.pk],
        kind="hand",
        claimant=claimant,
        claimed_points=28,
        hand="5H 5C 5S JD",
        starter="5D",
    )


def open_dispute(w: World) -> Dispute:
    return scoring_services.dispute_open(
        claim=file_claim(w), actor=w.seat_users()[1], statement="That is 29."
    )


class Fields(dict):
    """A strategy by field name; `text` names the free-text fields, where a value can be stored
    as typed (each is also posted with every one of `SWEEP`)."""

    def __init__(self, strategies=(), *, text=()):
        super().__init__(strategies)
        self.text = set(text)


@dataclass
class Target:
    url: str
    user: object | None
    fields: Fields = field(default_factory=Fields)  # every field the view reads
    valid: list[dict] = field(default_factory=lambda: [{}])  # posts the view accepts


def form_fields(form: forms.Form, w: World, **overrides) -> Fields:
    """A strategy for each field of `form` (the unbound form the view validates)."""
    text = [name for name, f in form.fields.items() if isinstance(f, forms.CharField)]
    strategies = Fields(
        {name: field_strategy(f, w.ids) for name, f in form.fields.items()},
        text=[*text, *overrides],
    )
    strategies.update(overrides)
    return strategies


def as_post(value) -> str:
    if isinstance(value, dt.time):
        return value.strftime("%H:%M")
    return "" if value is None else str(value)


def rules_edit(w: World) -> Target:
    form = HouseRulesForm(instance=w.club)
    valid = {}
    for name in form.fields:
        value = form[name].value()
        if value is True:
            valid[name] = "on"
        elif value is not False:
            valid[name] = as_post(value)
    valid["venue"] = "The Legion hall"
    return Target(reverse("club:rules_edit"), w.organiser, form_fields(form, w), [valid])


def player_add(w: World) -> Target:
    form = PlayerForm(club=w.club)
    valid = [
        {"display_name": "New Player", "active": "on"},
        {"display_name": "Al", "nickname": "Big Al", "login": "", "joined": "2026-01-15"},
    ]
    return Target(reverse("club:player_add"), w.organiser, form_fields(form, w), valid)


def player_edit(w: World) -> Target:
    form = PlayerForm(club=w.club, player=w.spare)
    valid = [{"display_name": "Spare Renamed", "active": "on"}]
    url = reverse("club:player_edit", args=[w.spare.pk])
    return Target(url, w.organiser, form_fields(form, w), valid)


def session_open(w: World) -> Target:
    valid = [{"date": "2026-12-03", "starts_at": "09:30"}]
    fields = form_fields(SessionOpenForm(), w)
    return Target(reverse("club:session_open"), w.organiser, fields, valid)


def checkin_add(w: World) -> Target:
    fields = form_fields(CheckInForm(club=w.club), w)
    fields["name"] = st.one_of(
        st.sampled_from(("Spare Player", "spare  player", "Outsider", w.players[0].display_name)),
        HOSTILE,
    )
    valid = [{"name": "Spare Player"}, {"name": "Brand New", "new_player": "on"}]
    return Target(reverse("club:checkin_add", args=[w.session.pk]), w.organiser, fields, valid)


def checkin_action(action: str) -> Callable[[World], Target]:
    def target(w: World) -> Target:
        if action == "unpaid":
            checkin = CheckIn.objects.get(session=w.session, player=w.players[0])
        else:  # mark the spare's fee paid, or take the spare's check-in back
            checkin = club_services.checkin_create(
                session=w.session, actor=w.organiser, player=w.spare
            )
        url = reverse(f"club:checkin_{action}", args=[w.session.pk, checkin.pk])
        return Target(url, w.organiser)

    return target


def round_draw(w: World) -> Target:
    return Target(reverse("games:round_draw", args=[w.session.pk]), w.organiser)


def round_swap(w: World) -> Target:
    round_ = w.game.round
    seated = [(p.pk, p.display_name) for p in w.players]
    elsewhere = next(p for p in w.players if p not in w.seat_players())
    valid = [{"player_a": str(w.players[0].pk), "player_b": str(elsewhere.pk)}]
    fields = form_fields(SwapForm(round_=round_, seated=seated), w)
    return Target(reverse("games:round_swap", args=[round_.pk]), w.organiser, fields, valid)


def side_names(w: World) -> list[list[str]]:
    return [[p.display_name] for p in w.seat_players()]


def result_enter(w: World) -> Target:
    fields = form_fields(ResultForm(game=w.game, sides=side_names(w)), w)
    valid = [{"side_0": "121", "side_1": "100"}, {"side_0": "45", "side_1": "121"}]
    return Target(reverse("games:result_enter", args=[w.game.pk]), w.organiser, fields, valid)


def result_confirm(w: World) -> Target:
    draft = game_services.result_enter(game=w.game, actor=w.organiser, scores=[121, 100])
    url = reverse("games:result_confirm", args=[w.game.pk, draft.pk])
    return Target(url, w.organiser2)


def result_correct(w: World) -> Target:
    confirm_all(w)
    fields = form_fields(CorrectionForm(game=w.game, sides=side_names(w)), w)
    valid = [{"side_0": "121", "side_1": "90", "reason": "Miscounted the last hand."}]
    return Target(reverse("games:result_correct", args=[w.game.pk]), w.organiser, fields, valid)


def session_settle(w: World) -> Target:
    confirm_all(w)
    return Target(reverse("club:session_settle", args=[w.session.pk]), w.organiser)


def session_reopen(w: World) -> Target:
    confirm_all(w)
    club_settlement.session_settle(session=w.session, actor=w.organiser, seed=1)
    fields = form_fields(ReopenForm(), w)
    valid = [{"reason": "A fee was counted twice."}]
    return Target(reverse("club:session_reopen", args=[w.session.pk]), w.organiser, fields, valid)


def claim_new(w: World) -> Target:
    seated = [(p.pk, p.display_name) for p in w.seat_players()]
    first, second = (str(pk) for pk, _ in seated)
    overrides = {"hand": HAND, "starter": CARD}
    overrides.update({f"play_card_{row}": CARD for row in range(1, 9)})
    fields = form_fields(ClaimForm(seated=seated), w, **overrides)
    valid = [
        {
            "kind": "hand",
            "claimant": first,
            "claimed_points": "12",
            "hand": "5H 5C 5S JD",
            "starter": "5D",
            "deal": "3",
        },
        {"kind": "heels", "claimant": second, "claimed_points": "2", "starter": "JH"},
        {
            "kind": "play",
            "claimant": second,
            "claimed_points": "2",
            "play_player_1": first,
            "play_card_1": "10H",
            "play_player_2": second,
            "play_card_2": "5S",
        },
    ]
    return Target(reverse("scoring:claim_new", args=[w.game.pk]), w.organiser, fields, valid)


def muggins(w: World) -> Target:
    claim = file_claim(w)
    opponent = w.seat_players()[1]
    fields = form_fields(MugginsForm(opponents=[(opponent.pk, opponent.display_name)]), w)
    valid = [{"caller": str(opponent.pk), "points": points} for points in ("1", "5")]
    return Target(reverse("scoring:muggins", args=[claim.pk]), w.organiser, fields, valid)


def dispute_open(w: World) -> Target:
    claim = file_claim(w)
    fields = form_fields(StatementForm(), w)
    valid = [{"statement": "The jack is his nobs: 29."}]
    url = reverse("scoring:dispute_open", args=[claim.pk])
    return Target(url, w.seat_users()[1], fields, valid)


def dispute_rule(w: World) -> Target:
    dispute = open_dispute(w)
    sides = [(side, p.display_name) for side, p in enumerate(w.seat_players())]
    fields = form_fields(RulingForm(sides=sides), w)
    fields["decision"] = st.one_of(st.sampled_from(("agree", "override", "AGREE")), HOSTILE)
    fields.text.add("decision")  # read from the POST as it is, outside the form
    valid = [
        {"decision": "agree"},
        {"decision": "override", "side_0": "28", "side_1": "0", "reason": "Nobs was missed."},
    ]
    return Target(reverse("scoring:dispute_rule", args=[dispute.pk]), w.judge, fields, valid)


def dispute_appeal(w: World) -> Target:
    dispute = open_dispute(w)
    scoring_services.dispute_rule(dispute=dispute, actor=w.judge, decision="agree")
    fields = form_fields(StatementForm(), w)
    valid = [{"statement": "The judge missed the run."}]
    url = reverse("scoring:dispute_appeal", args=[dispute.pk])
    return Target(url, w.seat_users()[0], fields, valid)


def login(w: World) -> Target:
    username = w.organiser.get_username()
    fields = Fields(
        {
            "username": st.one_of(st.just(username), HOSTILE),
            "password": st.one_of(st.just(PASSWORD), HOSTILE),
        },
        text=["username", "password"],
    )
    return Target(reverse("login"), None, fields, [{"username": username, "password": PASSWORD}])


def logout(w: World) -> Target:
    return Target(reverse("logout"), w.organiser)


TARGETS: dict[str, Callable[[World], Target]] = {
    "login": login,
    "logout": logout,
    "club:rules_edit": rules_edit,
    "club:player_add": player_add,
    "club:player_edit": player_edit,
    "club:session_open": session_open,
    "club:checkin_add": checkin_add,
    "club:checkin_paid": checkin_action("paid"),
    "club:checkin_unpaid": checkin_action("unpaid"),
    "club:checkin_undo": checkin_action("undo"),
    "club:session_settle": session_settle,
    "club:session_reopen": session_reopen,
    "games:round_draw": round_draw,
    "games:round_swap": round_swap,
    "games:result_enter": result_enter,
    "games:result_confirm": result_confirm,
    "games:result_correct": result_correct,
    "scoring:claim_new": claim_new,
    "scoring:muggins": muggins,
    "scoring:dispute_open": dispute_open,
    "scoring:dispute_rule": dispute_rule,
    "scoring:dispute_appeal": dispute_appeal,
}


def post_views(club, organiser) -> set[str]:
    """Every URL name whose view accepts POST: a class view with a `post` method; a function
    view that does not answer an organiser's empty POST with 405."""
    names = set()
    for name, pattern in named_urls():
        view_class = getattr(pattern.callback, "view_class", None)
        if view_class is not None:
            if hasattr(view_class, "post") and "post" in view_class.http_method_names:
                names.add(name)
            continue
        client = Client()
        client.force_login(organiser)
        if client.post(url_for(name, club)).status_code != 405:
            names.add(name)
    return names


def test_every_post_view_is_fuzzed(club, member):
    found = post_views(club, member("organiser"))
    assert found == set(TARGETS), "give every view that accepts POST a Target"


# --- Checking a response --------------------------------------------------------------------------


@functools.cache
def tracked_models() -> list[type[models.Model]]:
    found = [
        model
        for label in ("club", "games", "scoring")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]
    user = get_user_model()
    return found + [user, user.groups.through, user.user_permissions.through]


DOMAIN_APPS = {"club", "games", "scoring"}


def snapshot() -> dict[str, list[tuple]]:
    """Every row of the tracked tables as the database holds it, by model label (plain SQL:
    this runs twice per post)."""
    rows = {}
    with connection.cursor() as cursor:
        for model in tracked_models():
            quote = connection.ops.quote_name
            columns = ", ".join(quote(f.column) for f in model._meta.concrete_fields)
            table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
            cursor.execute(f"SELECT {columns} FROM {table} ORDER BY {pk}")  # noqa: S608
            rows[model._meta.label] = cursor.fetchall()
    return rows


def other_club_state(w: World) -> tuple:
    return (
        list(Club.objects.filter(pk=w.other.pk).values_list()),
        list(Player.objects.filter(club=w.other).values_list()),
        list(Session.objects.filter(club=w.other).values_list()),
        list(CheckIn.objects.filter(session__club=w.other).values_list()),
        AuditEntry.objects.filter(club=w.other).count(),
    )


def assert_inert(response) -> None:
    if "html" not in response.get("Content-Type", ""):
        return
    html = response.content.decode()
    for marker in MARKERS:
        assert marker not in html, f"unescaped {marker!r} in {response.request['PATH_INFO']}"


def accepted(response) -> bool:
    if response.status_code != 302:
        return False
    return not any(m.level >= messages.ERROR for m in get_messages(response.wsgi_request))


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def assert_consistent_write(before: dict, after: dict) -> None:
    changed = {label for label in after if after[label] != before[label]}
    domain = {label for label in changed if label.split(".")[0] in DOMAIN_APPS}
    if domain - {"club.AuditEntry"}:
        audit = "club.AuditEntry"
        assert len(after[audit]) > len(before[audit]), f"{sorted(domain)} changed, no audit entry"
    for model in tracked_models():
        label = model._meta.label
        if label not in changed:
            continue
        concrete = model._meta.concrete_fields
        names = [f.attname for f in concrete]
        for row in model._base_manager.values_list(*names):  # JSON decoded
            for model_field, value in zip(concrete, row, strict=True):
                for text in strings_in(value):
                    # PostgreSQL refuses NUL in text and in jsonb: a 500 there.
                    assert "\x00" not in text, f"NUL stored in {label}.{model_field.name}"
                limit = getattr(model_field, "max_length", None)
                if isinstance(model_field, models.CharField) and limit and value:
                    # SQLite does not enforce varchar lengths; PostgreSQL does.
                    assert len(value) <= limit, f"{label}.{model_field.name} over {limit}"
    unbalanced = ResultLine.objects.values("result").annotate(total=Sum("spread")).exclude(total=0)
    assert not unbalanced.exists(), "a result's spreads do not sum to zero"
    for settlement in Settlement.objects.annotate(paid=Sum("payouts__amount_cents")):
        assert (settlement.paid or 0) == settlement.pot_cents, "payouts do not add up to the pot"


def assert_local_redirect(response) -> None:
    location = urlsplit(response.url)
    assert location.netloc in ("", "testserver"), f"redirect off the site: {response.url}"


class _Rollback(Exception):
    """Undoes one example's writes."""


FORM_URLENCODED = "application/x-www-form-urlencoded"


def run_post(w: World, target: Target, data: dict | bytes, *, urlencoded: bool = False) -> bool:
    """Post `data` as the target's user (multipart, or urlencoded; bytes are sent as they are),
    check everything, roll back. Whether the post was accepted."""
    outcome = None
    try:
        with transaction.atomic():
            client = Client()
            if target.user is not None:
                client.force_login(target.user)
            before = snapshot()
            if isinstance(data, bytes):
                response = client.post(target.url, data, content_type=FORM_URLENCODED)
            elif urlencoded:
                body = urlencode(data, doseq=True)
                response = client.post(target.url, body, content_type=FORM_URLENCODED)
            else:
                response = client.post(target.url, data)
            assert response.status_code < 500, response.content[:2000]
            assert_inert(response)
            after = snapshot()
            outcome = accepted(response)
            if outcome:
                assert other_club_state(w) == w.other_state, "another club's rows changed"
                assert_local_redirect(response)
                assert_consistent_write(before, after)
                page = client.get(response.url)
                # A `next` the user gave may name a page that does not exist: still on the site.
                given_next = ("next" if isinstance(data, dict) else b"next=") in data
                ok = (200, 404) if given_next else (200,)
                assert page.status_code in ok, f"{response.url} after the post: {page}"
                assert_inert(page)
            else:
                changed = sorted(label for label in after if after[label] != before[label])
                assert not changed, f"a rejected post ({response.status_code}) wrote {changed}"
            raise _Rollback
    except _Rollback:
        pass
    return outcome


@st.composite
def posted(draw, target: Target) -> dict:
    """A valid baseline with a few fields made hostile, or every field hostile; some fields
    missing, some repeated, and unknown keys added."""
    data = dict(draw(st.sampled_from(target.valid)))
    names = sorted(target.fields)
    if names and draw(st.booleans()):
        chosen = names
    else:
        chosen = draw(st.lists(st.sampled_from(names), max_size=3, unique=True)) if names else []
    for name in chosen:
        strategy = target.fields[name]
        value = draw(
            st.one_of(st.just(MISSING), strategy, st.lists(strategy, min_size=2, max_size=3))
        )
        if value is MISSING:
            data.pop(name, None)
        else:
            data[name] = value
    extra = draw(st.dictionaries(EXTRA_KEYS, HOSTILE, max_size=3))
    data.update({key: value for key, value in extra.items() if key not in target.fields})
    return data


FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # each example rolls back to the fixture's state
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


SWEEP = ("a\x00b", "x" * 12_000, '"><script>alert(1)</script>', "\u202eمرحبا 😀 '; --")


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_hostile_posts_never_500_and_rejected_posts_write_nothing(name, world):
    target = TARGETS[name](world)
    for data in target.valid:  # the harness posts what the view really accepts
        assert run_post(world, target, data), f"{name} refused its valid baseline {data}"
    # Each free-text field, one at a time, gets each attack while the rest of the post is
    # valid: what hypothesis finds only by luck (a NUL in the one field stored as typed). The
    # first baseline takes every field, even one it leaves out (a ruling's reason on "agree").
    for index, valid in enumerate(target.valid):
        for field_name in sorted(target.fields.text):
            if index and field_name not in valid:
                continue  # the other baselines only for the fields they fill
            for attack in SWEEP:
                run_post(world, target, {**valid, field_name: attack})
        # Bytes that are not UTF-8 in every text field (Django reads them with replacement).
        broken = "&".join(f"{quote(name)}=%FF%FE%C0%AF%00" for name in sorted(target.fields.text))
        run_post(world, target, f"{urlencode(valid, doseq=True)}&{broken}".encode())
    seen = {True: 0, False: 0}

    # Without fields only the unknown keys vary: a few examples say enough.
    @settings(FUZZ, max_examples=15 if target.fields else 3)
    @given(data=st.data())
    def fuzz(data):
        post = data.draw(posted(target), label="post")
        urlencoded = data.draw(st.booleans(), label="urlencoded")
        seen[run_post(world, target, post, urlencoded=urlencoded)] += 1

    fuzz()
    if target.fields:
        assert seen[False], f"no hostile post to {name} was refused"


# --- GET forms and query strings ------------------------------------------------------------------


@FUZZ
@given(
    hand=st.one_of(st.just(MISSING), HAND),
    starter=st.one_of(st.just(MISSING), CARD),
    crib=st.one_of(st.just(MISSING), BOOL),
    fragment=st.booleans(),
)
def test_hand_counter_answers_hostile_queries(client, db, hand, starter, crib, fragment):
    query = {
        key: value
        for key, value in (("hand", hand), ("starter", starter), ("crib", crib))
        if value is not MISSING
    }
    headers = {"X-Requested-With": "fetch"} if fragment else {}
    response = client.get(reverse("scoring:counter"), query, headers=headers)
    assert response.status_code == 200
    assert_inert(response)
    form = HandCounterForm(query) if query else None
    if form is not None and form.is_valid():
        total = form.counted.score.total
        assert f'data-testid="count-total">{total}<' in response.content.decode()


ORGANISER = COLUMNS.index("organiser")
GET_PAGES = sorted(name for name, statuses in PAGES.items() if statuses[ORGANISER] == 200)
QUERY_KEYS = st.one_of(
    st.sampled_from(
        (
            "sort",
            "page",
            "per_page",
            "results-sort",  # the session page's results table
            "results-page",
            "results-per_page",
            "season",
            "table",
            "_export",
            "display_name",
            "active",
            "action",
            "hand",
            "starter",
            "next",
        )
    ),
    EXTRA_KEYS,
)


def page_objects(w: World) -> dict:
    """Objects of `w` for the URL parameters, as tests.club.test_views.url_for names them."""
    confirm_all(w)
    dispute = open_dispute(w)
    return {
        "player": w.players[0],
        "session": w.session,
        "checkin": CheckIn.objects.get(session=w.session, player=w.players[0]),
        "round": w.game.round,
        "game": w.game,
        "result": w.game.results.first(),
        "claim": dispute.claim,
        "dispute": dispute,
    }


def url_of(name: str, objects: dict) -> str:
    pattern = dict(named_urls())[name]
    kwargs = {}
    for key in pattern.pattern.converters:
        if key == "pk":
            owner = next(obj for prefix, obj in PK_OBJECT.items() if name.startswith(prefix))
            kwargs[key] = objects[owner].pk
        else:
            kwargs[key] = objects[key].pk
    return reverse(name, kwargs=kwargs)


@pytest.mark.filterwarnings("ignore:Use '__' to separate path components:DeprecationWarning")
def test_get_pages_answer_hostile_query_strings(world):
    objects = page_objects(world)
    client = Client()
    client.force_login(world.organiser)

    @settings(FUZZ, max_examples=4 * len(GET_PAGES))
    @given(
        name=st.sampled_from(GET_PAGES),
        query=st.dictionaries(QUERY_KEYS, st.one_of(HOSTILE, st.lists(HOSTILE, max_size=2))),
    )
    def fuzz(name, query):
        response = client.get(url_of(name, objects), query)
        assert response.status_code < 500, response.content[:2000]
        assert_inert(response)

    fuzz()


def tables_in(response) -> list[tables.Table]:
    if response.context is None:  # not a template (CSV, plain text)
        return []
    contexts = response.context if isinstance(response.context, ContextList) else [response.context]
    found = []
    for context in contexts:
        for layer in context.dicts:
            found += [v for v in layer.values() if isinstance(v, tables.Table) and v not in found]
    return found


@pytest.mark.filterwarnings("ignore:Use '__' to separate path components:DeprecationWarning")
def test_every_tables_paging_and_sorting_parameters_take_hostile_values(world):
    """The query parameters of every table on every page (found in the page's context, so a new
    table or prefix is covered) with out-of-range, zero, negative and garbage values."""
    objects = page_objects(world)
    client = Client()
    client.force_login(world.organiser)
    checked = set()
    for name in GET_PAGES:
        url = url_of(name, objects)
        for table in tables_in(client.get(url)):
            for param in (
                table.prefixed_page_field,
                table.prefixed_per_page_field,
                table.prefixed_order_by_field,
            ):
                for value in ("-1", "0", str(10**25), "x", "\x00", "-rank,player"):
                    response = client.get(url, {param: value})
                    assert response.status_code < 500, f"{name}?{param}={value!r}"
                    assert_inert(response)
                checked.add(param)
    assert {"page", "per_page", "sort"} <= checked


@pytest.mark.parametrize("huge", [2**31, 2**63, 10**30])
def test_ids_beyond_the_integer_columns_are_not_found(huge, club, member):
    """`<int:pk>` takes any digits: ids past a 32-bit or 64-bit column are a 404, not a 500."""
    client = Client()
    client.force_login(member("organiser"))
    for name, pattern in named_urls():
        if not pattern.pattern.converters:
            continue
        url = reverse(name, kwargs=dict.fromkeys(pattern.pattern.converters, huge))
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code in (403, 404, 405), f"{method.__name__} {name}"


# --- User text that is HTML renders inert ---------------------------------------------------------

SCRIPT_NAME = '<script>alert("pegboard")</script>'
ESCAPED_NAME = "&lt;script&gt;alert(&quot;pegboard&quot;)&lt;/script&gt;"
TEXTS = {  # what each piece of user text is set to; every one carries a marker
    "club name": '<script>alert("club")</script>',
    "venue": "<img src=x onerror=alert('venue')>",
    "nickname": "<svg onload=alert('nick')>",
    "other player": 'Eve"><script>alert("eve")</script>',
    "correction reason": "<script>alert('correction')</script>",
    "dispute statement": "<img src=x onerror=alert('statement')>",
    "ruling reason": "<script>alert('ruling')</script>",
    "appeal statement": "<svg onload=alert('appeal')>",
    "reopen reason": "<script>alert('reopen')</script>",
}
# Pages that show players[0]'s name: there the escaped form must be found (so a page that
# leaves the name out cannot pass the "no raw marker" check by accident).
SHOWS_NAME = {
    "club:players",
    "club:audit",
    "club:session",
    "club:player_money",
    "club:ledger",
    "games:standings",
    "games:all_time",
    "games:player",
    "games:round",
    "games:round_print",
    "games:game",
    "scoring:claim",
    "scoring:session_report",
}


@pytest.fixture
def html_world(world, member) -> tuple[World, dict]:
    """`world` played through the services with HTML in every piece of user text."""
    w = world
    organiser = w.organiser
    club_services.club_update_rules(
        club=w.club, actor=organiser, name=TEXTS["club name"], venue=TEXTS["venue"]
    )
    club_services.player_update(
        player=w.players[0], actor=organiser, display_name=SCRIPT_NAME, nickname=TEXTS["nickname"]
    )
    club_services.player_update(
        player=w.players[1], actor=organiser, display_name=TEXTS["other player"]
    )
    for player in w.players[:2]:
        player.refresh_from_db()
    confirm_all(w)
    game_services.result_correct(
        game=w.game, actor=organiser, scores=[121, 95], reason=TEXTS["correction reason"]
    )
    claim = file_claim(w)
    dispute = scoring_services.dispute_open(
        claim=claim, actor=w.seat_users()[1], statement=TEXTS["dispute statement"]
    )
    scoring_services.dispute_rule(
        dispute=dispute,
        actor=w.judge,
        decision="override",
        points={0: 28, 1: 0},
        reason=TEXTS["ruling reason"],
    )
    scoring_services.dispute_appeal(
        dispute=dispute, actor=w.seat_users()[0], statement=TEXTS["appeal statement"]
    )
    scoring_services.dispute_rule(dispute=dispute, actor=member("judge"), decision="agree")
    club_settlement.session_settle(session=w.session, actor=organiser, seed=1)
    club_settlement.session_reopen(
        session=w.session, actor=organiser, reason=TEXTS["reopen reason"]
    )
    club_settlement.session_settle(session=w.session, actor=organiser, seed=2)
    objects = {
        "player": w.players[0],
        "session": w.session,
        "checkin": CheckIn.objects.get(session=w.session, player=w.players[0]),
        "round": w.game.round,
        "game": w.game,
        "result": w.game.results.first(),
        "claim": claim,
        "dispute": dispute,
    }
    return w, objects


@pytest.mark.parametrize("column", ["public", "judge", "organiser"])
def test_user_text_renders_inert_on_every_page(column, html_world):
    w, objects = html_world
    client = Client()
    if column != "public":
        client.force_login({"judge": w.judge, "organiser": w.organiser}[column])
    index = COLUMNS.index(column)
    pages = [name for name, row in PAGES.items() if row[index] in (200, "published")]
    assert "games:player" in pages
    for name in pages:
        response = client.get(url_of(name, objects))
        assert response.status_code == 200, name
        if "html" not in response["Content-Type"]:  # CSV, plain text: never sniffed as HTML
            assert response["X-Content-Type-Options"] == "nosniff", name
        assert_inert(response)
        html = response.content.decode()
        if name in SHOWS_NAME:
            assert ESCAPED_NAME in html, f"{name} does not show the player's name escaped"
    # The SVG charts name the player in their <title>: escaped there too.
    page = client.get(url_of("games:player", objects)).content.decode()
    assert '&lt;script&gt;alert("pegboard")&lt;/script&gt;: game points per session' in page


def test_every_piece_of_user_text_is_shown_escaped_somewhere(html_world):
    """The texts really reach the pages (so the markers' absence means they were escaped)."""
    w, objects = html_world
    client = Client()
    client.force_login(w.organiser)
    html = "".join(
        client.get(url_of(name, objects)).content.decode()
        for name in ("club:rules", "club:audit", "games:game", "scoring:claim", "club:settlement")
    )
    assert_inert(client.get(url_of("club:audit", objects)))
    for what, text in TEXTS.items():
        assert escape(text) in html, f"the {what} is not on the pages, escaped"


def test_csv_export_carries_names_as_plain_text(html_world):
    """CSV is not HTML: the name is written as it is, with a CSV content type (never text/html,
    which a browser would run)."""
    _, objects = html_world
    client = Client()
    response = client.get(url_of("club:session_export", objects), {"table": "standings"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    cells = {cell for row in csv.reader(io.StringIO(response.content.decode())) for cell in row}
    assert SCRIPT_NAME in cells


@pytest.mark.parametrize("season", ["0", "-5", "9999", "99999", str(10**25), "2026.0", "x"])
def test_season_of_a_club_without_sessions(season, club, member):
    """Before a club's first session no season is known, so `?season=` is not checked against a
    list: a year that no date can have is still a 404, not a 500."""
    client = Client()
    organiser = member("organiser")
    client.force_login(organiser)
    player = Player.objects.get(user=organiser)
    for url in (
        reverse("games:standings"),
        reverse("games:all_time"),
        reverse("games:player", args=[player.pk]),
    ):
        response = client.get(url, {"season": season})
        assert response.status_code in (200, 404), url
