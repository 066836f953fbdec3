"""Backups (ops.backup, ops.backup_restore, `manage.py export_club` / `import_club`): a club's
whole history out to one signed JSON document and back into an empty database, identically
but for the audit entry that says it was restored.

Terms (tests/ops/backup_support.py): an *empty database* is one the test made by `flush` and
`sync_roles`; `cli` runs a command as `manage.py` does (exit code, stdout, stderr) inside the
test's transaction. What an import checks in the rows themselves: tests/ops/test_backup_checks.py;
the signature: tests/ops/test_backup_signature.py.
"""

import datetime as dt
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from club.models import Club, Player, Session, WrongPin
from club.services import player_update, session_open
from core.models import AuditEntry
from core.verbs import is_verb, verb_label
from games.selectors import session_standings
from money.selectors import pot_balances
from ops import backup
from ops.audit import OpsVerb
from standings.rating_selectors import current_ratings
from standings.selectors import all_time_standings, club_records, club_seasons, season_standings
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.ops.backup_support import (
    SLUG,
    TODAY,
    User,
    build_history,
    cli,
    empty_the_database,
    export_text,
    find,
    signed,
    without_export_time,
    without_restores,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_content_types():
    """A test here flushes the database inside its transaction, which the test's end rolls
    back: the content types' ids change twice, so the process forgets the ones it cached."""
    ContentType.objects.clear_cache()
    yield
    ContentType.objects.clear_cache()


def answers(club: Club) -> dict:
    """What members see, by the selectors: standings of every session and season, all time,
    records and the pots' balances."""
    return {
        "seasons": {season: season_standings(club, season) for season in club_seasons(club)},
        "all_time": all_time_standings(club),
        "records": club_records(club),
        "sessions": {s.date: session_standings(s) for s in club.sessions.order_by("date")},
        "pots": pot_balances(club),
        # Not in the file: replayed from the restored results.
        "ratings": current_ratings(club),
        # Content types by name: the empty database numbered them afresh. The restore's own
        # entry is new: the club's history is otherwise as it was.
        "audit": list(
            AuditEntry.objects.filter(club=club)
            .exclude(action__in=OpsVerb.values)
            .values(
                *(f.attname for f in AuditEntry._meta.concrete_fields if f.name != "content_type"),
                "content_type__app_label",
                "content_type__model",
            )
        ),
    }


def test_every_model_of_the_club_apps_is_backed_up():
    labels = {
        model._meta.label_lower
        for app in backup.BACKUP_APPS
        for model in django_apps.get_app_config(app).get_models(include_auto_created=True)
    }
    assert set(backup.CLUB_ROWS) == labels - set(backup.NOT_BACKED_UP)
    assert set(backup.NOT_BACKED_UP) <= labels
    assert [m._meta.label_lower for m in backup.backed_up_models()] == list(backup.CLUB_ROWS)


def test_a_model_without_a_backup_rule_stops_the_export(monkeypatch):
    rules = dict(backup.CLUB_ROWS)
    del rules["scoring.ruling"]
    monkeypatch.setattr(backup, "CLUB_ROWS", rules)
    with pytest.raises(RuntimeError, match="scoring.ruling"):
        backup.club_document(ClubFactory())


def test_export_import_round_trip(tmp_path):
    club = build_history()
    before = answers(club)
    first = export_text()
    document = json.loads(first)

    # The header, every model with rows, users only the club's, times to the microsecond.
    assert (document["format"], document["version"]) == (backup.FORMAT, backup.VERSION)
    assert document["club"] == {"slug": SLUG, "name": "Thursday Peggers"}
    # The demo club's fee is per session: no fee payments (tests/ops/test_backup_fees.py); it
    # has run no tournament (tests/ops/test_backup_tournaments.py).
    tournament_rows = {model for model in backup.CLUB_ROWS if model.startswith("tournaments.")}
    assert set(document["counts"]) == {"auth.user", *backup.CLUB_ROWS} - {
        "money.feepayment",
        *tournament_rows,
    }
    assert document["counts"]["club.club"] == 1
    assert document["counts"]["club.session"] == 3
    assert document["counts"]["money.settlement"] == 4  # one replaced by the reopening
    assert document["counts"]["scoring.ruling"] == 2  # the first ruling and the appeal's
    users = {
        row["fields"]["username"] for row in document["objects"] if row["model"] == "auth.user"
    }
    assert users == {"organiser", "organiser2", "judge", "judge2", "player"}
    assert "Other Club" not in first and "outsider" not in first
    keys = [(row["model"], row["pk"]) for row in document["objects"]]
    assert before["ratings"] and not any(key[0].startswith("standings.") for key in keys)
    assert keys == sorted(keys)
    assert re.search(r'"created_at": "[0-9T:-]+\.\d{6}Z"', first)
    assert '"password": "pbkdf2_sha256$' in first
    assert without_export_time(export_text()) == without_export_time(first)  # same bytes

    path = tmp_path / "club.json"
    path.write_text(first, encoding="utf-8")
    empty_the_database()
    out = io.StringIO()
    call_command("import_club", str(path), stdout=out)
    assert "Restored the club Thursday Peggers (thursday-peggers): 3 sessions" in out.getvalue()
    assert "The signature holds" in out.getvalue()

    second = export_text()
    assert without_restores(second) == without_export_time(first)
    club = Club.objects.get(slug=SLUG)
    assert answers(club) == before
    player = User.objects.get(username="player")
    assert list(player.groups.values_list("name", flat=True)) == ["players"]
    assert player.has_perm("games.add_result") and not player.has_perm("money.view_ledgerentry")

    # New rows take fresh ids after the restored ones (PostgreSQL's sequences were reset).
    organiser = User.objects.get(username="organiser")
    top_session = Session.objects.order_by("-pk").values_list("pk", flat=True).first()
    session = session_open(club=club, actor=organiser, date=TODAY + dt.timedelta(days=6))
    assert session.pk > top_session
    newcomer = Player.objects.create(club=club, display_name="Nina Newcomer")
    assert newcomer.pk > 16
    assert User.objects.create_user(username="admin").pk > organiser.pk
    # The history's entries, the restore's and the session just opened.
    assert AuditEntry.objects.filter(club=club).count() == len(before["audit"]) + 2


def with_old_labels(text: str, old: dict[str, str]) -> str:
    """A backup as the same format version wrote it before some models moved between apps (and
    before backups were signed): the rows and content types of each model in `old` (today's
    label -> the one it had) named by the label it had."""
    document = json.loads(text)
    for row in document["objects"]:
        row["model"] = old.get(row["model"], row["model"])
        content_type = row["fields"].get("content_type")
        if content_type and ".".join(content_type) in old:
            row["fields"]["content_type"] = old[".".join(content_type)].split(".")
    del document["signature"]
    document["counts"] = {
        old.get(label, label): count for label, count in document["counts"].items()
    }
    return json.dumps(document)


def as_written_before_the_money_app(text: str) -> str:
    """The money models named by the club app, whose they were. Models new in the money app
    since (SkunkCoin) keep their names."""
    return with_old_labels(
        text,
        {f"money.{model}": f"club.{model}" for model in ("settlement", "payout", "ledgerentry")},
    )


def as_written_before_the_core_app(text: str) -> str:
    """The audit trail (and the forms' tokens, never in a file) named by the club app, whose
    they were, and the club's pages version, which files carried then, by its name of then,
    `standings_version`."""
    document = json.loads(
        with_old_labels(
            text, {f"core.{model}": f"club.{model}" for model in ("auditentry", "submissiontoken")}
        )
    )
    for row in document["objects"]:
        if row["model"] == "club.club":
            row["fields"]["standings_version"] = 7
    return json.dumps(document)


# Each move: how a file of before it is made, and what such a file names (and does not).
MOVES = {
    "money app": (
        as_written_before_the_money_app,
        ('"club.settlement"', '"content_type": ["club", "settlement"]'),
        ('"money.settlement"',),
    ),
    "core app": (
        as_written_before_the_core_app,
        ('"club.auditentry"', '"standings_version"'),
        ('"core.auditentry"', '"pages_version"'),
    ),
}


@pytest.mark.parametrize("move", MOVES)
def test_a_backup_written_before_a_move_still_restores(tmp_path, move):
    as_written_before, named, not_named = MOVES[move]
    club = build_history()
    before = answers(club)
    text = export_text()
    old = as_written_before(text)
    assert all(name in old for name in named) and '"signature"' not in old
    assert not any(name in old for name in not_named)
    path = tmp_path / "old.json"
    path.write_text(old, encoding="utf-8")
    empty_the_database()

    # Unsigned, as files were then: the operator vouches for it.
    call_command("import_club", str(path), "--trust-unsigned", stdout=io.StringIO())

    assert answers(Club.objects.get(slug=SLUG)) == before
    assert without_restores(export_text()) == without_export_time(text)
    assert User.objects.get(username="organiser").has_perm("money.settle_session")


def with_pin_counts(*counts):
    """An edit making the file one written while wrong PINs were counted per player and session
    (club.pinlock: a count, locking the PIN for the session at five): one row per count, of
    the file's first player, in its first session."""

    def change(document):
        session = next(row for row in document["objects"] if row["model"] == "club.session")
        player = next(row for row in document["objects"] if row["model"] == "club.player")
        for pk, (failures, locked_at) in enumerate(counts, start=1):
            fields = {"session": session["pk"], "player": player["pk"], "failures": failures}
            document["objects"].append(
                {"model": "club.pinlock", "pk": pk, "fields": {**fields, "locked_at": locked_at}}
            )
        document["counts"] = dict(
            sorted({**document["counts"], "club.pinlock": len(counts)}.items())
        )

    return change


@pytest.mark.parametrize(
    ("count", "locked_at", "typed_at"),
    [
        (3, None, "the session's start"),
        (
            5,
            "2026-03-20T10:41:07.123456Z",
            dt.datetime(2026, 3, 20, 10, 41, 7, 123456, tzinfo=dt.UTC),
        ),
        (0, None, None),
    ],
)
def test_a_backup_written_while_wrong_pins_locked_a_pin_still_restores(
    monkeypatch, capsys, small_backup, count, locked_at, typed_at
):
    """Each wrong PIN the older file counted becomes a row, typed when the PIN was locked,
    else when its session began; none is lost, and the next export writes today's rows."""
    edited(small_backup, with_pin_counts((count, locked_at)))
    code, out, err = cli(monkeypatch, capsys, "import_club", str(small_backup))
    assert (code, err) == (0, "")
    session, player = Session.objects.get(), Player.objects.get()
    if typed_at == "the session's start":
        typed_at = timezone.make_aware(dt.datetime.combine(session.date, session.starts_at))
    assert (
        list(WrongPin.objects.values_list("session", "player", "typed_at"))
        == [(session.pk, player.pk, typed_at)] * count
    )
    again = export_text("small")
    assert '"club.pinlock"' not in again
    assert again.count('"model": "club.wrongpin"') == count


def test_the_lock_verb_of_older_files_still_reads():
    assert is_verb("pin.locked") and verb_label("pin.locked").startswith("Table PIN locked")


# --- Bad input ---------------------------------------------------------------------------------


@pytest.fixture
def small_backup(tmp_path) -> Path:
    """A club with one player and an open session, exported, and the database emptied."""
    club = ClubFactory(name="Small Club", slug="small")
    organiser = UserFactory(username="olive", role="organisers")
    PlayerFactory(club=club, user=organiser, display_name="Olive")
    session_open(club=club, actor=organiser, date=TODAY)
    path = tmp_path / "small.json"
    call_command("export_club", "small", output=str(path), stdout=io.StringIO())
    empty_the_database()
    return path


def test_export_to_a_file_and_import_it(monkeypatch, capsys, small_backup, tmp_path):
    code, out, err = cli(monkeypatch, capsys, "import_club", str(small_backup))
    assert (code, err) == (0, "")
    assert "Restored the club Small Club (small): 1 sessions" in out
    target = tmp_path / "again.json"
    code, out, err = cli(monkeypatch, capsys, "export_club", "small", "--output", str(target))
    assert (code, err) == (0, "")
    assert without_restores(target.read_text()) == without_export_time(small_backup.read_text())
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def carrying_the_pages_version(version: int):
    """An edit making the file one written while backups carried the club's pages version."""

    def change(document):
        find(document, "club.club")["fields"]["pages_version"] = version

    return change


@pytest.mark.parametrize("carried", [False, True], ids=["today's file", "a file with the version"])
def test_a_restored_club_is_never_served_the_cached_pages_of_the_database_before(
    monkeypatch, capsys, client, tmp_path, carried
):
    """The cache may outlive the database (a shared Redis): a club restored into a new database
    counts its pages version from a number of its own, so the copies of its public pages that
    the old database left in the cache are never served as the new one's (core.pages)."""
    club = ClubFactory(name="Small Club", slug="small")
    olive = PlayerFactory(club=club, display_name="Olive")
    path = tmp_path / "small.json"
    call_command("export_club", "small", output=str(path), stdout=io.StringIO())
    if carried:
        edited(path, carrying_the_pages_version(Club.objects.get().pages_version))
    page = reverse("standings:player", args=[olive.pk])

    # The old database goes on, and a visitor's copy of the player's page is cached.
    player_update(player=olive, actor=None, display_name="Olive Twist")
    assert "Olive Twist" in client.get(page).content.decode()

    empty_the_database()  # the cache is kept, as a shared one is
    code, _, err = cli(monkeypatch, capsys, "import_club", str(path))
    assert (code, err) == (0, "")
    player_update(player=Player.objects.get(), actor=None, display_name="Olive Oyl")

    shown = client.get(page).content.decode()
    assert "Olive Oyl" in shown and "Olive Twist" not in shown


def test_export_an_unknown_club(monkeypatch, capsys, tmp_path):
    ClubFactory(slug="small")
    target = tmp_path / "out.json"
    code, out, err = cli(monkeypatch, capsys, "export_club", "nope", "-o", str(target))
    assert code == 2
    assert "There is no club with the slug 'nope' (clubs here: small)." in err
    assert "Traceback" not in err and out == ""
    assert not target.exists()


def test_export_to_a_folder_that_does_not_exist(monkeypatch, capsys, tmp_path):
    ClubFactory(slug="small")
    target = tmp_path / "missing" / "out.json"
    code, out, err = cli(monkeypatch, capsys, "export_club", "small", "-o", str(target))
    assert code == 2
    assert f"Cannot write {target}: No such file or directory." in err
    assert not target.parent.exists()


def edited(path: Path, change) -> Path:
    """The file with `change` made to its document, signed again with this site's key: what
    the row checks alone must refuse."""
    document = json.loads(path.read_text())
    change(document)
    path.write_text(signed(document))
    return path


def written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def set_key(key, value):
    return lambda document: document.update({key: value})


def break_a_session(document):
    # A session row whose club is not the file's: the reference check refuses the whole file.
    row = next(row for row in document["objects"] if row["model"] == "club.session")
    row["fields"]["club"] = 999


@pytest.mark.parametrize(
    ("prepare", "message"),
    [
        (lambda path: path.with_name("missing.json"), "There is no file"),
        (lambda path: path.parent, "Cannot read"),
        (lambda path: written(path, b"{not json"), "The file is not JSON"),
        (lambda path: written(path, b"\xff\xfe\x00"), "is not a text (UTF-8) file"),
        (lambda path: written(path, b"[1, 2]"), "is not a Pegboard club backup"),
        (
            lambda path: edited(path, set_key("format", "django-fixture")),
            "is not a Pegboard club backup",
        ),
        (
            lambda path: edited(path, set_key("version", 99)),
            "is a version 99 club backup; this Pegboard reads version 1",
        ),
        (
            lambda path: edited(path, lambda d: d["objects"].pop()),
            "row counts do not match its rows",
        ),
        (
            lambda path: edited(path, lambda d: d["objects"][0].update(model="auth.group")),
            "rows this Pegboard does not know: ['auth.group']",
        ),
        (
            lambda path: edited(path, lambda d: d["objects"][-1].update(pk="1")),
            'rows with a whole-number "pk" and "fields"',
        ),
        (
            lambda path: edited(path, lambda d: d["objects"][-1]["fields"].update(date="Thu")),
            "A row of the file cannot be read",
        ),
        (lambda path: edited(path, break_a_session), "its club (#999) is not a club in the file"),
        (
            lambda path: edited(path, with_pin_counts((6, None))),
            "club.pinlock #1 counts 6 wrong PINs: a count is a whole number from 0 to 5.",
        ),
        (
            lambda path: edited(path, with_pin_counts(("two", None))),
            "club.pinlock #1 counts 'two' wrong PINs",
        ),
        (
            lambda path: edited(path, with_pin_counts((2, "yesterday"))),
            "A row of the file cannot be read",
        ),
    ],
)
def test_import_refuses_a_bad_file(monkeypatch, capsys, small_backup, prepare, message):
    path = prepare(small_backup)
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path))
    assert code == 2, err
    assert message in err
    assert "Traceback" not in err and out == ""
    # Nothing half-imported: not even the logins, which are restored first.
    assert not Club.objects.exists() and not Session.objects.exists()
    assert not User.objects.exists()


def test_import_refuses_a_database_that_has_a_club(monkeypatch, capsys, small_backup):
    assert cli(monkeypatch, capsys, "import_club", str(small_backup))[0] == 0
    rows = {model: model.objects.count() for model in backup.backed_up_models()}
    code, out, err = cli(monkeypatch, capsys, "import_club", str(small_backup))
    assert code == 2
    assert "The database already holds the club small: a backup is restored only into an" in err
    assert "Nothing was imported." in err and out == ""
    assert {model: model.objects.count() for model in backup.backed_up_models()} == rows


def test_import_refuses_a_login_that_is_already_there(monkeypatch, capsys, small_backup):
    UserFactory(username="olive")
    code, out, err = cli(monkeypatch, capsys, "import_club", str(small_backup))
    assert code == 2
    assert "already has logins (olive)" in err
    assert not Club.objects.exists() and User.objects.count() == 1


def test_a_real_manage_py_says_what_is_wrong_without_a_traceback(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"} | {
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
    }
    missing = tmp_path / "missing.json"
    result = subprocess.run(
        [sys.executable, "manage.py", "import_club", str(missing)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == f"CommandError: There is no file {missing}."
    assert result.stdout == ""
