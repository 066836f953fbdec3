"""Browser tests: Python Playwright driving Debian's chromium against pytest-django's live server.

Terms: without /usr/bin/chromium the tests skip and say why; with PEGBOARD_REQUIRE_BROWSER=1 (CI)
a missing browser fails the run instead. Screenshots and printed pages' PDFs, for a person to
look at (no test reads the file), go to .artifacts/ (ignored by git) when PEGBOARD_SHOTS=1: a
page's whole length costs a tenth of a second or more to take (docs/decisions/ci-and-tests.md).
A test that starts from the demo club calls `tests.demo_snapshot.load_demo`, which builds it
once per run and copies it back for the next test, instead of `call_command("load_demo")`.
"""

import os
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Debian's build of the same chromium as a headless shell only (package chromium-headless-shell),
# which Playwright itself runs for headless tests: without the full browser's window machinery, a
# new context and page cost a quarter of the processor time. Used when it is installed too.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
ARTIFACTS = Path(__file__).resolve().parents[2] / ".artifacts"
SHOTS = os.environ.get("PEGBOARD_SHOTS") == "1"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium():
    """The run's chromium (one per worker process), started at the first test that needs it: its
    headless shell where that is installed (see HEADLESS_SHELL)."""
    if not CHROMIUM.exists():
        reason = (
            f"{CHROMIUM} is missing: install it with "
            "`apt-get install -y chromium chromium-headless-shell`"
        )
        if os.environ.get("PEGBOARD_REQUIRE_BROWSER") == "1":
            pytest.fail(f"PEGBOARD_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are still
    # synchronous, so Django's async-safety guard would refuse them without this.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        executable = HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM
        browser = playwright.chromium.launch(
            executable_path=str(executable), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def browser(chromium, request):
    """The run's chromium for one test: every context (every phone, desk and TV) the test opens
    is closed when it ends. A page left open would go on running its timers (the board's refresh,
    a waiting post's retry) and holding a live server's request thread, and that thread's
    database connection, for the rest of the run. Then, for a test with the live server, what
    the server is still answering is answered before the test's database is emptied
    (tests/live_server.py)."""
    before = set(chromium.contexts)
    yield chromium
    for context in chromium.contexts:
        if context not in before:
            context.close()
    if "live_server" in request.fixturenames:
        request.getfixturevalue("live_server").thread.httpd.wait_until_idle()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def keep_shot(target, name: str, *, full_page: bool = True, asked: bool = SHOTS) -> None:
    """A screenshot of `target` (a page; an element's locator with full_page=False) as
    .artifacts/NAME.png, for a person to look at, when PEGBOARD_SHOTS=1 (or `asked`: see the
    module's terms)."""
    if not asked:
        return
    whole = {"full_page": True} if full_page else {}  # a locator takes no full_page
    target.screenshot(path=str(artifact(f"{name}.png")), **whole)


def keep_file(name: str, data: bytes | str) -> None:
    """A printed page's PDF or a page's measures as .artifacts/NAME, for a person to look at,
    when PEGBOARD_SHOTS=1: the tests check the bytes they were given, never the file."""
    if not SHOTS:
        return
    path = artifact(name)
    if isinstance(data, str):
        path.write_text(data)
    else:
        path.write_bytes(data)


def artifact(name: str) -> Path:
    """Where .artifacts/NAME goes, its folder made: a test run on a fresh clone has none, and
    which test writes first depends on how the run is shared between workers."""
    path = ARTIFACTS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def screenshot():
    """take(page, name): the page's whole length as .artifacts/NAME.png (`keep_shot`)."""
    return keep_shot


def go_to(page, link: str) -> None:
    """Follow a link of the main navigation as a person would: on a phone, open the Menu first."""
    toggle = page.get_by_role("button", name="Menu")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name=link).click()


def wait_until(page, function: str, arg=None, timeout: float = 10.0) -> None:
    """Wait until a JavaScript function is truthy in the page.

    Playwright's own wait_for_function polls inside the page with eval, which the site's
    Content-Security-Policy refuses; page.evaluate is not bound by the page's policy.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(function, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {function}")
        page.wait_for_timeout(50)


def log_in(page, base: str, username: str, password: str = "pegboard-demo") -> None:
    """Log in through the login page, as a person would, and wait until it has let them in."""
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/login/" not in url)
