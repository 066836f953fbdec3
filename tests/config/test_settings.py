"""Settings read from the environment: production refuses to start without SECRET_KEY, and
`check --deploy` is clean with production values."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "x7#pR2mQ9vL!s4Wd8zK1nB6tY3cF0hJ5aE-uG_oI9pL2kM8nB4vC6xZ1qW3eR5tY7",
    "ALLOWED_HOSTS": "pegboard.example.org",
    "DATABASE_URL": f"sqlite:///{ROOT / 'db.sqlite3'}",
    "DJANGO_SETTINGS_MODULE": "config.settings",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    dropped = {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_without_secret_key_refuses_to_start():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr
    assert "DEBUG=1" in result.stderr


def test_debug_without_secret_key_uses_the_development_key():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"} | {"DEBUG": "1"}
    result = run_manage("check", env=env)
    assert result.returncode == 0, result.stderr


def test_check_deploy_is_clean_with_production_values():
    result = run_manage("check", "--deploy", "--fail-level", "DEBUG", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_plain_http_laptop_mode_is_reported_by_check_deploy():
    result = run_manage(
        "check", "--deploy", "--fail-level", "DEBUG", env=PRODUCTION_ENV | {"PEGBOARD_HTTPS": "0"}
    )
    assert result.returncode != 0
    assert "security.W008" in result.stdout + result.stderr  # SECURE_SSL_REDIRECT off


@pytest.mark.parametrize("value", ["maybe", "2"])
def test_unreadable_debug_value_is_a_clear_error(value):
    result = run_manage("check", env=PRODUCTION_ENV | {"DEBUG": value})
    assert result.returncode != 0
    assert f"DEBUG={value!r}" in result.stderr


def test_manage_py_in_a_bare_checkout_runs_in_development_mode():
    result = run_manage("check", env={"DATABASE_URL": PRODUCTION_ENV["DATABASE_URL"]})
    assert result.returncode == 0, result.stderr


def test_manage_py_with_a_secret_key_stays_in_production_mode():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "DEBUG"}
    result = run_manage("check", "--deploy", "--fail-level", "DEBUG", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "security.W018" not in result.stdout + result.stderr  # DEBUG is not on


def test_email_settings_are_read_from_the_environment():
    """E-mail is on when EMAIL_HOST is set; a port that is not a number, or SSL and TLS both on,
    stop the site with a message instead of failing at the first e-mail."""
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"} | {"DEBUG": "1"}
    script = (
        "from django.conf import settings as s; from core.mail import email_configured; "
        "print(email_configured(), s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, "
        "s.EMAIL_USE_SSL, s.DEFAULT_FROM_EMAIL)"
    )
    off = run_manage("shell", "-c", script, env=env)
    said = off.stdout.splitlines()[-1].split()
    assert said == ["False", "587", "True", "False", "pegboard@localhost"]
    on = env | {
        "EMAIL_HOST": "smtp.example.org",
        "EMAIL_PORT": "465",
        "EMAIL_USE_SSL": "1",
        "EMAIL_HOST_USER": "club@example.org",
    }
    done = run_manage("shell", "-c", script, env=on)
    assert done.stdout.splitlines()[-1].split() == [
        "True", "smtp.example.org", "465", "False", "True", "club@example.org",
    ]  # fmt: skip
    bad_port = run_manage("check", env=env | {"EMAIL_PORT": "smtp"})
    assert bad_port.returncode != 0 and "EMAIL_PORT='smtp'" in bad_port.stderr
    both = run_manage("check", env=env | {"EMAIL_USE_SSL": "1", "EMAIL_USE_TLS": "1"})
    assert both.returncode != 0 and "EMAIL_USE_SSL and EMAIL_USE_TLS" in both.stderr


def test_the_trusted_proxies_are_a_whole_number_from_the_environment():
    """PEGBOARD_PROXIES says how many proxies' X-Forwarded-For entries to trust (web.throttle):
    anything but a whole number stops the site with a message instead of guessing."""
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"} | {"DEBUG": "1"}
    script = "from django.conf import settings as s; print(s.PEGBOARD_PROXIES)"
    assert run_manage("shell", "-c", script, env=env).stdout.splitlines()[-1] == "0"
    one = run_manage("shell", "-c", script, env=env | {"PEGBOARD_PROXIES": "1"})
    assert one.stdout.splitlines()[-1] == "1"
    for value in ("one", "-1", "²"):
        bad = run_manage("check", env=env | {"PEGBOARD_PROXIES": value})
        assert bad.returncode != 0 and f"PEGBOARD_PROXIES={value!r}" in bad.stderr


def test_the_static_files_folder_is_read_from_the_environment(tmp_path):
    """STATIC_ROOT: where `collectstatic` gathers the files and whitenoise serves them from."""
    script = "from django.conf import settings as s; print(s.STATIC_ROOT)"
    default = run_manage("shell", "-c", script, env=PRODUCTION_ENV)
    assert default.stdout.splitlines()[-1] == str(ROOT / "staticfiles")
    chosen = run_manage("shell", "-c", script, env=PRODUCTION_ENV | {"STATIC_ROOT": str(tmp_path)})
    assert chosen.stdout.splitlines()[-1] == str(tmp_path)
