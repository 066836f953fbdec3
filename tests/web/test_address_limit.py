"""Failed logins per address, whatever the username (web.throttle): beside the lock-out of one
login from one address after ten wrong passwords, thirty failed logins from one address within
ten minutes refuse every login from there, before any password is checked, until enough of them
have slid out of the window; a venue whose members share one address and mistype a few times is
never refused, and another address is not affected.

The clock is patched (`django.utils.timezone.now`), never slept on."""

import contextlib
import datetime as dt
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.utils.module_loading import import_string

from tests.factories import PASSWORD
from web import throttle

pytestmark = pytest.mark.django_db

LOGIN = "/login/"
VENUE = "192.0.2.10"
ELSEWHERE = "198.51.100.7"
WINDOW = 600  # seconds


def window_start(moment: dt.datetime) -> dt.datetime:
    return dt.datetime.fromtimestamp(moment.timestamp() // WINDOW * WINDOW, tz=dt.UTC)


def try_login(client, username, password="wrong-password"):
    return client.post(LOGIN, {"username": username, "password": password})


@pytest.fixture
def clock(clock):
    """The suite's clock, 72 seconds into a window near the real time (django-axes keeps its
    own rows by the real time)."""
    clock.now = window_start(clock.now) + dt.timedelta(seconds=72)
    return clock


@contextlib.contextmanager
def counting_hashes():
    """Counts every password hash computed or checked, whichever hasher the site uses."""
    calls = []
    with contextlib.ExitStack() as stack:
        for path in settings.PASSWORD_HASHERS:
            hasher = import_string(path)
            for name in ("encode", "verify"):
                original = getattr(hasher, name)

                def counted(self, *args, _original=original, **kwargs):
                    calls.append(type(self).__name__)
                    return _original(self, *args, **kwargs)

                stack.enter_context(mock.patch.object(hasher, name, counted))
        yield calls


def test_the_settings_are_the_ones_the_readme_gives():
    assert settings.PEGBOARD_ADDRESS_FAILURE_LIMIT == 30
    assert settings.PEGBOARD_ADDRESS_WINDOW.total_seconds() == 10 * 60
    assert settings.AXES_HANDLER == "web.throttle.ClubLoginHandler"


def test_many_usernames_from_one_address_are_refused_after_the_limit_without_a_hash(member, clock):
    venue = Client(REMOTE_ADDR=VENUE)
    for number in range(29):
        assert try_login(venue, f"guess{number}").status_code == 200  # the form, with its error
        clock.advance(5)
    # The thirtieth failure within ten minutes reaches the limit: it gets the page at once.
    assert try_login(venue, "guess29").status_code == 429

    user = member("player")
    with counting_hashes() as hashes:
        refused = try_login(venue, "guess30")
        right = try_login(venue, user.username, PASSWORD)
    assert hashes == []  # refused before any password was checked (or a dummy hashed)
    assert (refused.status_code, right.status_code) == (429, 429)
    assert "_auth_user_id" not in venue.session
    html = refused.content.decode()
    assert 'data-testid="address-limit"' in html
    assert "Try again after" in html
    assert "cannot lift" in html
    assert refused["Content-Security-Policy"]


def test_a_refused_login_is_not_counted_and_the_refusal_ends_when_the_window_slides(member, clock):
    user = member("player")
    venue = Client(REMOTE_ADDR=VENUE)
    for number in range(30):
        try_login(venue, f"guess{number}")
    refused = try_login(venue, user.username, PASSWORD)
    assert refused.status_code == 429
    until = refused.context["ends"]
    # The thirty are all in this window: refused to its end, then for a moment while they slide.
    assert until == window_start(clock.now) + dt.timedelta(seconds=WINDOW + 1)
    # Refusals were not failures: they neither moved the time nor locked the member's login.
    for _ in range(20):
        assert try_login(venue, user.username).status_code == 429
    assert try_login(venue, user.username, PASSWORD).context["ends"] == until

    clock.now = until - dt.timedelta(seconds=1)
    assert try_login(venue, user.username, PASSWORD).status_code == 429
    clock.now = until
    assert try_login(venue, user.username, PASSWORD).status_code == 302


def test_honest_typos_of_several_members_sharing_the_venue_address_are_not_refused(member, clock):
    members = [member("player") for _ in range(8)]
    for user in members:
        phone = Client(REMOTE_ADDR=VENUE)
        for _ in range(3):
            assert try_login(phone, user.username).status_code == 200
            clock.advance(10)
        assert try_login(phone, user.username, PASSWORD).status_code == 302


def test_another_address_is_not_affected(member, clock):
    user = member("player")
    venue = Client(REMOTE_ADDR=VENUE)
    for number in range(30):
        try_login(venue, f"guess{number}")
    assert try_login(venue, "guess").status_code == 429
    elsewhere = Client(REMOTE_ADDR=ELSEWHERE)
    assert try_login(elsewhere, "someone").status_code == 200
    assert try_login(elsewhere, user.username, PASSWORD).status_code == 302


def test_failures_slide_out_of_the_window(clock):
    """Fixed ten-minute counters, the one before weighted by how much of it is still within
    the last ten minutes: a burst at a window's edge gets no second thirty at once."""
    venue = Client(REMOTE_ADDR=VENUE)
    edge = window_start(clock.now) + dt.timedelta(seconds=WINDOW)
    clock.now = edge - dt.timedelta(minutes=1)
    for number in range(29):
        try_login(venue, f"guess{number}")
    clock.now = edge + dt.timedelta(minutes=1)
    # 29 of the window before, nine tenths of it still within the last ten minutes: 26.1.
    for number in range(3):
        assert try_login(venue, f"late{number}").status_code == 200
    refused = try_login(venue, "late3")  # 3 + 26.1 is not 30; the fourth makes 30.1
    assert refused.status_code == 429
    # 4 + 29 * (1 - f) < 30 once f > 3/29 of the window: 62.07 s into it, so from 63 s.
    assert refused.context["ends"] == edge + dt.timedelta(seconds=63)


@pytest.mark.parametrize(
    ("current", "previous", "elapsed", "wait"),
    [
        (29, 0, 100, None),
        (30, 0, 100, 500 + 0),  # to the window's end, when 30 become the window before
        (60, 0, 100, 500 + 300),  # then until half of them have slid out
        (10, 20, 0, 0),  # exactly 30: refused, until a moment later
        (10, 20, 100, None),
        (10, 40, 0, 300),  # 10 + 40 * (1 - f) < 30 once f > 1/2
        (0, 30, 0, 0),
    ],
)
def test_the_wait_of_an_address(current, previous, elapsed, wait):
    found = throttle.seconds_refused(
        current=current, previous=previous, elapsed=elapsed, window=600, limit=30
    )
    assert found == wait


@override_settings(PEGBOARD_PROXIES=1)
def test_behind_a_proxy_the_address_the_proxy_saw_counts(clock):
    """With one trusted proxy in front, the client's address is the last one of
    X-Forwarded-For (the proxy's own entry); what the client wrote before it is ignored."""
    for number in range(30):
        client = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"10.9.9.{number}, {VENUE}")
        try_login(client, f"guess{number}")
    spoofed = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"10.9.9.99, {VENUE}")
    assert try_login(spoofed, "guess").status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=ELSEWHERE)
    assert try_login(other, "guess").status_code == 200


@pytest.mark.parametrize(
    ("proxies", "forwarded", "address"),
    [
        (0, "203.0.113.5", "10.0.0.1"),  # no trusted proxy: the header is anyone's to write
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "1.2.3.4, 203.0.113.5", "203.0.113.5"),
        (2, "1.2.3.4, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (2, "203.0.113.5", "10.0.0.1"),  # fewer entries than proxies: not what they write
        (1, "not-an-address", "10.0.0.1"),
        (1, "", "10.0.0.1"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_address(rf, proxies, forwarded, address):
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    with override_settings(PEGBOARD_PROXIES=proxies):
        assert throttle.client_address(request) == address


def test_a_logins_lock_out_comes_first_and_its_failures_count_for_the_address(member, clock):
    """The per-login lock-out still comes first for its login: ten wrong passwords for one
    login lock it, and those failures count for the address too."""
    user = member("player")
    venue = Client(REMOTE_ADDR=VENUE)
    for _ in range(10):
        try_login(venue, user.username)
    locked = try_login(venue, user.username, PASSWORD)
    assert locked.status_code == 429
    assert 'data-testid="locked-out"' in locked.content.decode()
    for number in range(20):
        try_login(venue, f"guess{number}")
    with counting_hashes() as hashes:
        assert try_login(venue, "guess-more").status_code == 429
    assert hashes == []
