"""The browser tests' live server answers requests that arrive at once (tests/live_server.py):
members logging in and reading pages side by side, as a browser's parallel requests do, each get
their page, never a 500 from the database table another request was using."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory
from tests.http_browser import Browser

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
