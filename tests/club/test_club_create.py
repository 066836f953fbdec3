"""`manage.py club_create`: a club with the default house rules, its first organiser's login (no
usable password, organisers' role) linked to a new player, and a one-time welcome link printed as
the last line. A taken or bad slug, name or username, a bad base URL and an unmigrated database: one
line on standard error, exit code 2, nothing created."""

import hashlib
import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from club.audit import ClubVerb
from club.models import Club, HouseRules, LoginLink, Player
from club.roles import ORGANISERS
from core.checks import check_base_url
from core.models import AuditEntry
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> list[str]:
    out = io.StringIO()
    call_command("club_create", *args, stdout=out)
    return out.getvalue().splitlines()


def counts() -> tuple[int, ...]:
    models = (Club, Player, get_user_model(), LoginLink, AuditEntry)
    return tuple(model.objects.count() for model in models)


def test_it_makes_the_club_the_organiser_and_prints_the_welcome_link_last():
    lines = run(
        "--name", "Riverside Cribbage", "--slug", "riverside",
        "--organiser", "olive", "--organiser-name", "  Olive   Ashdown ",
    )  # fmt: skip
    club = Club.objects.get(slug="riverside")
    assert club.name == "Riverside Cribbage"
    assert club.house_rules == HouseRules()  # the default house rules
    player = Player.objects.select_related("user").get(club=club)
    assert player.display_name == "Olive Ashdown"
    user = player.user
    assert user.username == "olive"
    assert not user.has_usable_password()
    assert list(user.groups.values_list("name", flat=True)) == [ORGANISERS]
    assert user.has_perm("club.change_player")  # a member: the role counts in this club

    url = lines[-1]
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}" == "http://127.0.0.1:8000"
    assert parts.path.startswith("/welcome/") and parts.path.endswith("/")
    token = parts.path.split("/")[2]
    link = LoginLink.objects.get(user=user)
    assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert link.is_live() and link.purpose == "welcome" and link.created_by is None
    assert (link.expires_at - link.created_at).days == 7
    assert "Riverside Cribbage" in lines[0]
    assert any("olive" in line and "organiser" in line for line in lines)
    assert "works once, for 7 days" in lines[-2]
    actions = set(AuditEntry.objects.filter(club=club).values_list("action", flat=True))
    assert {
        ClubVerb.CLUB_CREATED,
        ClubVerb.PLAYER_CREATED,
        ClubVerb.LOGIN_GIVEN,
        ClubVerb.LOGIN_LINK_MADE,
    } <= actions
    assert token not in str(list(AuditEntry.objects.values_list("data", flat=True)))


def test_the_printed_link_opens_the_welcome_page(client):
    url = run("--name", "Riverside", "--slug", "riverside", "--organiser", "olive")[-1]
    response = client.get(urlsplit(url).path, follow=True)
    assert response.status_code == 200
    assert b"Welcome to Riverside" in response.content


def test_without_an_organiser_name_the_player_is_called_by_the_username():
    run("--name", "Riverside", "--slug", "riverside", "--organiser", "olive")
    assert Player.objects.get(club__slug="riverside").display_name == "olive"


@pytest.mark.parametrize(
    "given, printed",
    [
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000/welcome/"),
        ("https://cribbage.example.org/", "https://cribbage.example.org/welcome/"),
        ("HTTP://Club.Example.org:8443", "HTTP://Club.Example.org:8443/welcome/"),
    ],
)
def test_the_base_url_starts_the_link(given, printed):
    url = run("--name", "R", "--slug", "r", "--organiser", "olive", "--base-url", given)[-1]
    assert url.startswith(printed)


def test_pegboard_base_url_is_the_default_base(settings):
    settings.PEGBOARD_BASE_URL = "http://10.0.0.5:8000"
    url = run("--name", "R", "--slug", "r", "--organiser", "olive")[-1]
    assert url.startswith("http://10.0.0.5:8000/welcome/")


def taken(kind: str) -> None:
    if kind == "club":
        ClubFactory(name="Riverside Cribbage", slug="riverside")
    else:
        UserFactory(username="Olive")


REFUSALS = [
    # (what exists first, arguments, what the message says)
    ("club", ["--slug", "riverside"], "--slug: A club with the slug 'riverside' exists already."),
    ("club", ["--name", "riverside CRIBBAGE", "--slug", "river2"], "A club called"),
    ("user", ["--organiser", "olive"], "--organiser: The username 'olive' is taken"),
    (None, ["--slug", "not a slug"], "--slug: Enter a valid"),
    (None, ["--slug", ""], "--slug:"),
    (None, ["--name", "  "], "--name:"),
    (None, ["--organiser", "olive ashdown"], "--organiser: A username is letters, digits"),
    (None, ["--organiser", "o" * 151], "--organiser: A username is at most 150 characters."),
    (None, ["--organiser", ""], "--organiser: Write a username"),
    (None, ["--organiser-name", "O" * 61], "--organiser-name: Ensure this value has at most 60"),
    (None, ["--base-url", "ftp://192.168.1.20"], "--base-url 'ftp://192.168.1.20' is not a base"),
    (None, ["--base-url", "192.168.1.20:8000"], "give http(s)://host[:port]"),
    (None, ["--base-url", "http://"], "is not a base URL"),
    (None, ["--base-url", "http://host/pegboard"], "nothing after it"),
    (None, ["--base-url", "http://host:8000?x=1"], "nothing after it"),
    (None, ["--base-url", "http://me:pw@host"], "is not a base URL"),
    (None, ["--base-url", "http://host:port"], "is not an address"),
    (None, ["--base-url", "http://host:99999"], "is not an address"),
    (None, ["--base-url", "http://ho st"], "is not a base URL"),
]


@pytest.mark.parametrize("existing, args, message", REFUSALS)
def test_a_refusal_exits_with_2_says_why_and_creates_nothing(existing, args, message):
    if existing:
        taken(existing)
    before = counts()
    defaults = {"--name": "Riverside Cribbage", "--slug": "riverside", "--organiser": "olive"}
    given = dict(defaults)
    given.update(dict(zip(args[::2], args[1::2], strict=True)))
    with pytest.raises(CommandError) as refused:
        run(*[item for pair in given.items() for item in pair])
    assert refused.value.returncode == 2
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)
    assert counts() == before


def test_a_bad_pegboard_base_url_is_refused_before_anything_is_made(settings):
    settings.PEGBOARD_BASE_URL = "192.168.1.20:8000"
    with pytest.raises(CommandError, match="PEGBOARD_BASE_URL '192.168.1.20:8000'") as refused:
        run("--name", "R", "--slug", "r", "--organiser", "olive")
    assert refused.value.returncode == 2
    assert counts() == (0, 0, 0, 0, 0)


def test_an_unmigrated_database_is_refused_by_the_real_command(tmp_path):
    """Once as a real process: exit code 2, one line on standard error, nothing on standard
    output, and the empty database stays without a club table."""
    database = tmp_path / "empty.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env.update(DATABASE_URL=f"sqlite:///{database}", DEBUG="1")
    env.pop("SECRET_KEY", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "club_create", "--name", "R", "--slug", "r"]
        + ["--organiser", "olive"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "CommandError: The database is not migrated: run `.venv/bin/python manage.py migrate` "
        "first, then this command again."
    ]
    with sqlite3.connect(database) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "club_club" not in tables


@pytest.mark.parametrize(
    ("raw", "ok"),
    [
        ("", True),
        ("http://192.168.1.20:8000", True),
        ("https://pegboard.example.org/", True),
        ("192.168.1.20:8000", False),
        ("http://192.168.1.20:8000/club/", False),
        ("ftp://example.org", False),
        ("http://example.org:99999", False),
    ],
)
def test_a_bad_base_url_in_the_settings_stops_the_site_with_what_to_write(settings, raw, ok):
    """The seating chart's QR codes and the login links start with PEGBOARD_BASE_URL: a wrong one
    sends every phone nowhere, so `manage.py check` (and runserver, migrate) refuse it."""
    settings.PEGBOARD_BASE_URL = raw
    errors = check_base_url()
    assert (errors == []) == ok
    if not ok:
        assert "http(s)://host[:port]" in errors[0].msg and errors[0].id == "pegboard.E001"
