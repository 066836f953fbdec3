"""A request with a Host header the site does not serve gets the 400 page on every URL (the health
check too), and the log says so in one warning line, without a traceback."""

import logging

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

ALLOWED = ["pegboard.example.org"]


@override_settings(ALLOWED_HOSTS=ALLOWED)
@pytest.mark.parametrize("path", ["/healthz", "/", "/login/", "/club/players/", "/nowhere/"])
def test_a_bad_host_is_a_400_with_one_warning_and_no_traceback(path, club, caplog):
    client = Client(HTTP_HOST="evil.example", raise_request_exception=False)
    with caplog.at_level(logging.INFO):
        response = client.get(path)
    assert response.status_code == 400
    assert b"Bad request" in response.content
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    host = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert len(host) == 1
    assert host[0].levelno == logging.WARNING
    assert "evil.example" in host[0].getMessage()


@override_settings(ALLOWED_HOSTS=ALLOWED)
def test_a_bad_host_as_a_logged_in_user_is_a_400_too(club, member):
    client = Client(HTTP_HOST="evil.example", raise_request_exception=False)
    client.force_login(member("organiser"))
    assert client.get("/").status_code == 400


@override_settings(ALLOWED_HOSTS=ALLOWED)
def test_an_allowed_host_is_served(club):
    assert Client(HTTP_HOST="pegboard.example.org").get("/healthz").status_code == 200


def test_the_logging_filter_keeps_the_line_and_drops_the_traceback():
    from config.log_filters import DropTraceback

    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.WARNING, __file__, 1, "Invalid host", (), None)
        record.exc_info = sys.exc_info()
    assert DropTraceback().filter(record) is True
    assert record.exc_info is None and record.exc_text is None
    assert record.getMessage() == "Invalid host"


def test_production_logs_one_warning_line_without_a_traceback(tmp_path):
    """The real settings (DEBUG off, the LOGGING of config/settings.py writing to stderr)."""
    from tests.config.test_settings import PRODUCTION_ENV, run_manage

    # Static files as collected or not: the hashed names need `collectstatic`, not this test.
    script = (
        "from django.test import Client, override_settings\n"
        "plain = {'BACKEND': 'django.contrib.staticfiles.storage.StaticFilesStorage'}\n"
        "with override_settings(STORAGES={'default': plain, 'staticfiles': plain}):\n"
        "    c = Client(HTTP_HOST='evil.example', raise_request_exception=False)\n"
        "    health, home = c.get('/healthz'), c.get('/')\n"
        "    print('STATUS', health.status_code, home.status_code)\n"
        "    print('FRAMES', home.get('X-Frame-Options'),\n"
        "          'POLICY', home.get('Content-Security-Policy'))\n"
    )
    env = PRODUCTION_ENV | {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    result = run_manage("shell", "-c", script, env=env)
    assert "STATUS 400 400" in result.stdout, result.stdout + result.stderr
    # Plain HTTP: SecurityMiddleware, redirecting to HTTPS, is the first to ask for the host.
    headers = next(line for line in result.stdout.splitlines() if line.startswith("FRAMES"))
    assert headers.startswith("FRAMES DENY POLICY "), headers
    assert "default-src 'self'" in headers and "frame-ancestors 'none'" in headers, headers
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if "evil.example" in line]
    assert len(lines) == 2, result.stderr  # one line per request
