"""Hostile GET requests: the hand counter's and the discard advisor's queries, every GET page's
query string, the paging and sorting parameters of every table, and ids beyond the integer
columns in every URL. None gets a 500, and every HTML response is inert.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.test.utils import ContextList
from django.urls import reverse
from django_tables2 import tables
from hypothesis import given, settings
from hypothesis import strategies as st

from club.models import CheckIn
from scoring.forms import DiscardForm, HandCounterForm
from tests.security.hostile_checks import FUZZ, assert_inert
from tests.security.hostile_tournaments import in_the_final
from tests.security.hostile_values import (
    BAD_CARDS,
    BOOL,
    CARD,
    CARDS,
    EXTRA_KEYS,
    HAND,
    HOSTILE,
    MISSING,
)
from tests.security.hostile_world import url_of
from tests.security.hostile_world_base import World, confirm_all, open_dispute
from tests.web.test_pages import COLUMNS, PAGES, named_urls

pytestmark = pytest.mark.django_db


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


DEALT = st.one_of(
    st.lists(st.sampled_from(CARDS + BAD_CARDS), min_size=4, max_size=7).map(" ".join),
    st.sampled_from(("5H 5C JD 6S 4C KH", "5H 5C JD 6S 4C", "5H 5H JD 6S 4C KH")),
    HOSTILE,
)


@FUZZ
@given(
    cards=st.one_of(st.just(MISSING), DEALT),
    players=st.one_of(st.just(MISSING), st.sampled_from(("2", "3", "4", "5", "1", "")), HOSTILE),
    whose=st.one_of(st.just(MISSING), st.sampled_from(("mine", "theirs", "")), HOSTILE),
    fragment=st.booleans(),
)
def test_discard_advisor_answers_hostile_queries(client, db, cards, players, whose, fragment):
    query = {
        key: value
        for key, value in (("cards", cards), ("players", players), ("whose", whose))
        if value is not MISSING
    }
    headers = {"X-Requested-With": "fetch"} if fragment else {}
    response = client.get(reverse("scoring:discard"), query, headers=headers)
    assert response.status_code == 200
    assert_inert(response)
    form = DiscardForm(query) if "cards" in query else None
    html = response.content.decode()
    if form is not None and form.is_valid():
        assert html.count('data-testid="discard-row"') == len(form.advice.rows)
    elif form is not None:
        assert 'data-testid="discard-row"' not in html
        assert 'data-testid="discard-errors"' in html or "field--error" in html


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
            "session",  # the ledger's filters
            "kind",
            "player",
            "pot",
            "name",  # the round page's "Find your name"
        )
    ),
    EXTRA_KEYS,
)


def page_objects(w: World) -> dict:
    """Objects of `w` for the URL parameters, as tests.web.test_pages.url_for names them."""
    confirm_all(w)
    dispute = open_dispute(w)
    final = in_the_final(w)  # a tournament in its final
    return {
        "tournament": final.tournament,
        "match": final,
        "player": w.players[0],
        "session": w.session,
        "checkin": CheckIn.objects.get(session=w.session, player=w.players[0]),
        "round": w.game.round,
        "game": w.game,
        "result": w.game.results.first(),
        "claim": dispute.claim,
        "dispute": dispute,
    }


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
