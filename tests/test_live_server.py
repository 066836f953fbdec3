"""The browser tests' live server answers requests that arrive at once (tests/live_server.py):
members logging in and reading pages side by side, as a browser's parallel requests do, each get
their page, never a 500 from the database table another request was using. And a request still
being answered when its page has gone is waited for before the test's database is emptied."""

from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from django.core.servers.basehttp import WSGIRequestHandler
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory
from tests.http_browser import Browser
from tests.live_server import TakingTurnsServer

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = 8
PAGES_EACH = 12


def statuses_of_a_member(port: int, username: str) -> list[int]:
    """Log in through the login page, then read the home page and the login page in turn: the
    status of every request."""
    browser = Browser(port)
    statuses = [browser.get(reverse("login"))[0]]
    form = {"username": username, "password": PASSWORD}
    statuses.append(browser.post(reverse("login"), form, follow=False)[0])
    for n in range(PAGES_EACH):
        statuses.append(browser.get(reverse("home") if n % 2 else reverse("login"))[0])
    return statuses


def test_members_reading_and_logging_in_at_once_all_get_their_pages(live_server):
    port = urlsplit(live_server.url).port
    names = [f"member{n}" for n in range(MEMBERS)]
    for name in names:
        UserFactory(username=name)
    with ThreadPoolExecutor(MEMBERS) as pool:
        found = list(pool.map(lambda name: statuses_of_a_member(port, name), names))
    for name, statuses in zip(names, found, strict=True):
        assert statuses[1] == 302, f"{name}'s login answered {statuses[1]}"
        assert set(statuses) <= {200, 302}, f"{name} got {statuses}"


def test_a_request_still_answered_after_its_page_closed_is_waited_for():
    """The page sends a request and is gone before the answer (its connection closed); the
    server is still answering it, so the test's teardown waits instead of emptying the database
    under it."""
    release = threading.Event()

    def slow_page(environ, start_response):
        release.wait(10)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"too late"]

    server = TakingTurnsServer(("127.0.0.1", 0), WSGIRequestHandler)
    server.set_app(slow_page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with socket.create_connection(server.server_address) as page:
            page.sendall(b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        deadline = time.monotonic() + 5
        while server.answering == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.answering == 1
        with pytest.raises(AssertionError, match="still answers 1 connection"):
            server.wait_until_idle(timeout=0.2)
        release.set()
        server.wait_until_idle(timeout=5)
        assert server.answering == 0
    finally:
        release.set()
        server.shutdown()
        server.server_close()
