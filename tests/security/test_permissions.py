"""Clubs never see each other's private data, for every URL of the site.

Terms: the *first club* and the *other club* are the two clubs of `page_world` (tests/conftest.py),
built once for this module (the first is also the anonymous visitors' club); a *stranger* is a
member of the other club, so that is their current club. Every URL is built with the first club's
objects by `url_for`, and what each role may do there is the one page table, PAGES, in
tests/web/test_pages.py (its columns "stranger" and "b_organiser" are another club's player and
organiser; "no_record" a login with no player record anywhere). A *marker* is text only the
first club's data carries: its name and its players' names, all "Zebulon Firstclub <pk>". A
URL *names an object* when it has a parameter (a session, game, claim, player...); a
stranger's answer there must be the one a made-up id gets, so it never confirms the object exists.
"""

import pytest
from django.db.models import CharField, Value
from django.db.models.functions import Cast, Concat
from django.test import Client
from django.urls import reverse

from club.models import CheckIn, Club, Player, Session
from core.models import AuditEntry
from games.models import Result, Round, Seat
from money.models import LedgerEntry, Settlement
from scoring.models import Claim, Dispute, Ruling
from tests.rows import rows
from tests.web.test_pages import (
    COLUMNS,
    LINK_IS_THE_KEY,
    NOT_PAGES,
    PAGES,
    POST_DATA,
    assert_status,
    named_urls,
    row_counts,
    url_for,
)

pytestmark = pytest.mark.django_db

FIRST = "Zebulon Firstclub"
OTHER = "Yolanda Secondclub"
MADE_UP_PK = 10**9
URLS = dict(named_urls())


def names_object(name: str) -> bool:
    return bool(URLS[name].pattern.converters)


def post_only(name: str) -> bool:
    """A class-based view without GET (a function view, like the health check, is not one)."""
    view = getattr(URLS[name].callback, "view_class", None)
    return view is not None and (not hasattr(view, "get") or "get" not in view.http_method_names)


# A one-time login link's address is a secret handed to one person: whoever holds it may use it,
# whatever club they belong to, and it cannot be guessed (a made-up one is a 404 for everyone:
# below, and tests/club/test_login_pages.py).
LINKS = {"welcome", "judge_link:page", "accept_link:page"}
# Actions on the poster's own login (its password, its PIN): a stranger posting there changes
# their own account, never the first club's (tests/club/test_login_pages.py).
OWN_ACCOUNT = {"club:account_password", "club:account_pin"}
# A table's link is its own key (LINK_IS_THE_KEY): a stranger holding it may use it; that it
# reaches its own table only is tests/games/test_table_views.py's.
SCOPED = sorted(name for name in PAGES if name not in LINK_IS_THE_KEY | LINKS)
POST_ONLY = sorted(name for name in SCOPED if post_only(name) and name not in OWN_ACCOUNT)


def made_up_url(name: str) -> str:
    """The URL of `name` with ids that belong to nothing."""
    return reverse(name, kwargs=dict.fromkeys(URLS[name].pattern.converters, MADE_UP_PK))


def mark_players(club: Club, prefix: str) -> None:
    """Give every player of `club` a name that says whose they are."""
    Player.objects.filter(club=club).update(
        display_name=Concat(Value(f"{prefix} "), Cast("pk", CharField()))
    )


def publish(club: Club, published: bool) -> None:
    Club.objects.filter(pk=club.pk).update(standings_public=published)


def first_club_state(club: Club) -> list:
    """Everything of the first club a write could change, as plain values."""
    return rows(("first_club_state", club.pk), lambda: _first_club_rows(club))


def _first_club_rows(club: Club) -> list:
    in_session = {"session__club": club}
    in_game = {"game__session__club": club}
    return [
        queryset.order_by("pk").values()
        for queryset in (
            Club.objects.filter(pk=club.pk),
            Player.objects.filter(club=club),
            Session.objects.filter(club=club),
            CheckIn.objects.filter(**in_session),
            Round.objects.filter(**in_session),
            Seat.objects.filter(**in_game),
            Result.objects.filter(**in_game),
            Claim.objects.filter(**in_game),
            Dispute.objects.filter(claim__game__session__club=club),
            Ruling.objects.filter(dispute__claim__game__session__club=club),
            Settlement.objects.filter(**in_session),
            LedgerEntry.objects.filter(club=club),
            AuditEntry.objects.filter(club=club),
        )
    ]


def test_the_table_has_a_stranger_column_and_post_only_actions_are_found():
    # Guards the helpers below: if either were wrong, the tests using them would test nothing.
    assert COLUMNS[4:] == ("stranger", "b_organiser", "no_record")
    assert "web:checkin_paid" in POST_ONLY and "scoring:dispute_rule" in POST_ONLY
    assert "web:session" not in POST_ONLY and "scoring:claim_new" not in POST_ONLY
    assert not set(POST_ONLY) & NOT_PAGES


@pytest.mark.parametrize("published", [True, False], ids=["published", "private"])
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("name", SCOPED)
@pytest.mark.parametrize("role", ["player", "organiser"])
def test_a_stranger_never_sees_or_changes_the_first_clubs_data(
    role, name, method, published, page_world, client
):
    """Another club's player or organiser, on any URL built with the first club's objects, gets
    none of its names, changes none of its rows, and cannot tell its objects from made-up ids."""
    club, other_club = page_world.first_club(), page_world.second_club()
    publish(club, published)
    url = url_for(name, club, page_world.fresh_objects())
    mark_players(club, FIRST)
    owner = Client()
    owner.force_login(page_world.login("organiser"))
    client.force_login(page_world.login("stranger" if role == "player" else "b_organiser"))
    before, rows_before = first_club_state(club), row_counts()

    response = getattr(client, method)(url, POST_DATA if method == "post" else None)

    body = response.content.decode()
    assert club.name not in body
    assert FIRST not in body
    assert first_club_state(club) == before
    if names_object(name) or role == "player":
        assert row_counts() == rows_before
    if names_object(name):
        assert response.status_code in (403, 404, 405)
        if role == "organiser":  # holds every permission: only the club scoping refuses them
            assert response.status_code in (404, 405)
        made_up = getattr(client, method)(made_up_url(name), POST_DATA)
        assert response.status_code == made_up.status_code
    elif response.status_code == 200 and response["Content-Type"].startswith("text/html"):
        assert other_club.name in body  # their own club's page
    if method == "get":
        # The owner's view of the same page carries the marker, so its absence above means
        # something (for pages the owner may read at all).
        mine = owner.get(url)
        if mine.status_code == 200 and mine["Content-Type"].startswith("text/html"):
            assert club.name in mine.content.decode()


@pytest.mark.parametrize("name", sorted(LINKS))
@pytest.mark.parametrize("column", COLUMNS)
def test_a_made_up_link_is_a_404_for_everyone(column, name, page_world, client):
    url_for(name, page_world.first_club(), page_world.fresh_objects())  # a live link exists
    page_world.client_as(client, column)
    before = row_counts()
    made_up = reverse(name, kwargs=dict.fromkeys(URLS[name].pattern.converters, "x" * 32))
    assert client.get(made_up).status_code == 404
    assert client.post(made_up, POST_DATA).status_code == 404
    assert row_counts() == before


@pytest.mark.parametrize("published", [True, False], ids=["published", "private"])
@pytest.mark.parametrize("name", POST_ONLY)
@pytest.mark.parametrize("column", ["public", "stranger", "b_organiser", "no_record"])
def test_post_only_actions_refuse_anonymous_and_strangers(
    column, name, published, page_world, client
):
    """The status is the page table's, except that where a stranger may do the action (a GET is
    405) the object is not theirs: 404. Nothing is written."""
    club = page_world.first_club()
    publish(club, published)
    url = url_for(name, club, page_world.fresh_objects())
    page_world.client_as(client, column)
    expected = PAGES[name][COLUMNS.index(column)]
    if expected == 405:
        expected = 404
    before, rows_before = first_club_state(club), row_counts()

    response = client.post(url, POST_DATA)

    assert_status(response, expected, published)
    assert row_counts() == rows_before
    assert first_club_state(club) == before
