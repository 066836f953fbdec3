"""The browser tests' live server answers requests that arrive at once (tests/live_server.py):
members logging in and reading pages side by side, as a browser's parallel requests do, each get
their page, never a 500 from the database table another request was using."""

from __future__ import annotations

import http.client
import re
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
MEMBERS = 8
PAGES_EACH = 12


def statuses_of_a_member(address: tuple[str, int], username: str) -> list[int]:
    """Log in through the login page, then read the home page and the login page in turn: the
    status of every request."""
    cookies: dict[str, str] = {}

    def request(method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection(*address, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                cookies[name] = morsel.value
        return response.status, text

    status, page = request("GET", reverse("login"))
    statuses = [status]
    token = CSRF.search(page)[1]
    form = {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token}
    statuses.append(request("POST", reverse("login"), form)[0])
    for n in range(PAGES_EACH):
        statuses.append(request("GET", reverse("home") if n % 2 else reverse("login"))[0])
    return statuses


def test_members_reading_and_logging_in_at_once_all_get_their_pages(live_server):
    address = (urlsplit(live_server.url).hostname, urlsplit(live_server.url).port)
    names = [f"member{n}" for n in range(MEMBERS)]
    for name in names:
        UserFactory(username=name)
    with ThreadPoolExecutor(MEMBERS) as pool:
        found = list(pool.map(lambda name: statuses_of_a_member(address, name), names))
    for name, statuses in zip(names, found, strict=True):
        assert statuses[1] == 302, f"{name}'s login answered {statuses[1]}"
        assert set(statuses) <= {200, 302}, f"{name} got {statuses}"
