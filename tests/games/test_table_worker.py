"""The table page's offline worker (games.table_views.table_worker, static/js/table-worker.js) and
the script that keeps a table's forms when the network drops (static/js/table-offline.js): the
worker's address, headers and scope, the pages that load the script, and the messages its
background copy of a page leaves unread. What they do in a browser with the network cut:
tests/browser/test_table_offline.py.

Terms: *scope* is the address a service worker may serve: by default the folder of its script's
address, so the worker's script is served from /t/ itself.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import resolve, reverse

from games import table_views
from games.models import Result
from tests.games.test_table_views import accept, enter

pytestmark = pytest.mark.django_db

WORKER = "/t/sw.js"


def test_the_worker_is_served_under_the_table_links():
    assert reverse("table:worker") == WORKER
    assert resolve(WORKER).func is table_views.table_worker
    # Its scope, the folder of its address, is every table link's.
    assert WORKER.rsplit("/", 1)[0] + "/" == "/t/"


def test_the_worker_is_a_script_checked_at_each_visit():
    response = Client().get(WORKER)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response["X-Content-Type-Options"] == "nosniff"
    body = response.content.decode()
    assert 'addEventListener("fetch"' in body
    # Network first, copies of table pages only, never of a post.
    assert 'request.method !== "GET"' in body
    assert "^\\/t\\/[^/]+\\/$" in body


def test_the_worker_is_not_read_as_a_table_token():
    # Its address comes before the token's pattern; with a slash it would be a token, and no
    # table has that one.
    assert Client().get("/t/sw.js/").status_code == 404
    assert Client().head(WORKER).status_code == 200


def test_the_worker_takes_no_post():
    assert Client().post(WORKER).status_code == 405


def test_the_policy_lets_the_site_run_its_own_worker():
    # A worker is a script: without worker-src the browser reads script-src, which allows 'self'.
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    assert directives.get("worker-src", directives["script-src"]) == ["'self'"]
    assert Client().get(WORKER).status_code == 200


def test_the_table_page_loads_the_script_and_names_its_worker(first_of_two):
    page = Client().get(first_of_two.page).content.decode()
    assert "js/table-offline.js" in page
    assert 'data-keep-forms data-keep-worker="/t/sw.js"' in page


def test_a_pin_is_never_kept_with_what_was_typed():
    from games.forms import pin_field

    assert 'data-keep="never"' in str(pin_field("Pat").widget.render("pin", ""))


def test_the_workers_copy_of_the_page_leaves_the_message_for_the_page_the_player_sees(
    client, first_of_two
):
    # The offline worker refreshes its copy in the background (static/js/table-worker.js); when
    # that copy reaches the server between the accept and the page its redirect leads to, the
    # player must still read who accepted (core.context_processors).
    pat, sam = first_of_two.players
    enter(client, first_of_two, pat)
    client.get(first_of_two.page)  # the entry's own message is read
    accept(client, first_of_two, Result.objects.get(game=first_of_two.game), sam)
    copy = client.get(first_of_two.page, headers={"X-Pegboard-Copy": "1"}).content.decode()
    assert "Confirmed by Sam Smith at the table" in copy
    assert "Accepted by Sam Smith" not in copy
    shown = client.get(first_of_two.page).content.decode()
    assert "Accepted by Sam Smith: the result is confirmed." in shown
    assert "Accepted by Sam Smith" not in client.get(first_of_two.page).content.decode()
