"""A backup is signed when it is exported and its signature is checked before it is imported
(ops.backup_signature): a file edited by anyone without the site's backup key, however
consistent the edit, is refused with exit code 2 and nothing imported, unless the operator says
the file is trusted (`--trust-unsigned`), which the logs and the club's audit trail then record
with the file's SHA-256. `import_club --check` runs every check without importing.

Terms (tests/ops/backup_support.py): an *empty database* is one the test made by `flush` and
`sync_roles`; `cli` runs a command as `manage.py` does. An edit *keeping the signature* changes
the document and writes it back with the signature line the export wrote: what someone without
the key can do.
"""

import hashlib
import hmac
import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import transaction
from django.utils.crypto import salted_hmac

from club.models import Club
from club.services import session_open
from core.models import AuditEntry
from ops import backup
from ops.audit import OpsVerb
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.ops.backup_support import (
    SLUG,
    TODAY,
    User,
    build_history,
    cli,
    empty_the_database,
    export_text,
    row_counts,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
KNOWN_PASSWORD = "known to whoever edited the file"


@pytest.fixture(autouse=True)
def _fresh_content_types():
    ContentType.objects.clear_cache()
    yield
    ContentType.objects.clear_cache()


@pytest.fixture(scope="module")
def history_text(django_db_setup, django_db_blocker) -> str:
    """The history's export, as `export_club` wrote it, signed with this site's key."""
    with django_db_blocker.unblock(), transaction.atomic():
        build_history()
        text = export_text()
        transaction.set_rollback(True)
    return text


def keeping_the_signature(text: str, change) -> str:
    """`text` with `change` made to its document, under the signature line the export wrote."""
    signature_line = text.splitlines(keepends=True)[1]
    assert signature_line.startswith('"signature": "hmac-sha256:')
    document = json.loads(text)
    change(document)
    body = backup.document_text(document)
    return body[:2] + signature_line + body[2:]


def login(document: dict, username: str) -> dict:
    return next(
        row
        for row in document["objects"]
        if row["model"] == "auth.user" and row["fields"]["username"] == username
    )


def claim(document: dict, **fields) -> dict:
    return next(
        row
        for row in document["objects"]
        if row["model"] == "scoring.claim"
        and all(row["fields"][name] == value for name, value in fields.items())
    )


def refused(monkeypatch, capsys, path: Path, *options: str) -> str:
    """Import `path`, which must be refused with exit code 2 and nothing written: the message."""
    before = row_counts()
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path), *options)
    assert code == 2, (out, err)
    assert "Nothing was imported." in err and "Traceback" not in err and out == ""
    assert row_counts() == before and not Club.objects.exists()
    return err


def written(tmp_path: Path, text: str, name: str = "club.json") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


# --- The file is signed ------------------------------------------------------------------------


def small_club() -> None:
    club = ClubFactory(name="Small Club", slug="small")
    organiser = UserFactory(username="olive", role="organisers")
    PlayerFactory(club=club, user=organiser, display_name="Olive")
    session_open(club=club, actor=organiser, date=TODAY)


def test_an_export_is_signed_on_its_second_line_over_the_rest_of_its_bytes(settings, tmp_path):
    settings.PEGBOARD_BACKUP_KEY = "the club's backup key"
    small_club()
    path = tmp_path / "small.json"
    call_command("export_club", "small", output=str(path), stdout=io.StringIO())
    data = path.read_bytes()
    first, second, rest = data.split(b"\n", 2)
    assert first == b"{"
    assert second.startswith(b'"signature": "hmac-sha256:') and second.endswith(b'",')
    digest = second[len(b'"signature": "hmac-sha256:') : -2].decode()
    expected = hmac.new(b"the club's backup key", b"{\n" + rest, hashlib.sha256).hexdigest()
    assert digest == expected
    # Still one JSON document, the signature one of its headers; stdout gets the same bytes.
    assert json.loads(data)["signature"] == f"hmac-sha256:{expected}"
    out = io.StringIO()
    call_command("export_club", "small", stdout=out)
    assert out.getvalue().splitlines()[1].startswith('"signature": "hmac-sha256:')


def test_without_a_backup_key_a_key_derived_from_the_secret_key_signs(settings, tmp_path):
    settings.PEGBOARD_BACKUP_KEY = ""
    small_club()
    data = export_text("small").encode("utf-8")
    first, second, rest = data.split(b"\n", 2)
    key = salted_hmac("pegboard.ops.backup_signature", "backup key", algorithm="sha256").digest()
    digest = hmac.new(key, b"{\n" + rest, hashlib.sha256).hexdigest()
    assert second == f'"signature": "hmac-sha256:{digest}",'.encode()


def test_the_backup_key_comes_from_the_environment():
    script = "from ops.backup_signature import backup_key; print(backup_key().hex())"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")} | {"DEBUG": "1"}

    def key(**extra: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", script],
            cwd=ROOT,
            env=env | extra,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.splitlines()[-1]

    assert key(PEGBOARD_BACKUP_KEY="shared by two sites") == b"shared by two sites".hex()
    # Without it, the key follows SECRET_KEY.
    one = key(PEGBOARD_BACKUP_KEY="", SECRET_KEY="one")
    two = key(PEGBOARD_BACKUP_KEY="", SECRET_KEY="two")
    assert len({one, two, b"one".hex()}) == 3


# --- Edits without the key are refused ---------------------------------------------------------


def password_swapped(document):
    login(document, "organiser")["fields"]["password"] = make_password(KNOWN_PASSWORD)


def player_made_organiser(document):
    login(document, "player")["fields"]["groups"] = [["organisers"]]


def permission_given(document):
    login(document, "player")["fields"]["user_permissions"] = [["change_user", "auth", "user"]]


def claim_cards_changed(document):
    claim(document, true_points=24)["fields"].update(cards="5C 5D 5H JS", starter="5S")


def claimed_points_changed(document):
    claim(document, true_points=12)["fields"]["claimed_points"] = 14


@pytest.mark.parametrize(
    "edit",
    [
        password_swapped,
        player_made_organiser,
        permission_given,
        claim_cards_changed,
        claimed_points_changed,
    ],
)
def test_an_edit_without_the_key_is_refused(monkeypatch, capsys, tmp_path, history_text, edit):
    path = written(tmp_path, keeping_the_signature(history_text, edit))
    empty_the_database()
    err = refused(monkeypatch, capsys, path)
    assert (
        f"{path}: The signature does not match: the file was changed after export, or was "
        "signed with another site's key (set PEGBOARD_BACKUP_KEY to it)." in err
    )
    assert "--trust-unsigned" in err


def test_a_file_without_its_signature_line_is_refused(monkeypatch, capsys, tmp_path, history_text):
    lines = history_text.splitlines(keepends=True)
    removed = written(tmp_path, "".join(lines[:1] + lines[2:]), "removed.json")
    rewritten = written(tmp_path, json.dumps(json.loads(history_text)), "rewritten.json")
    empty_the_database()
    for path in (removed, rewritten):
        err = refused(monkeypatch, capsys, path)
        assert f"{path}: The file has no signature: export_club writes one" in err


@pytest.mark.parametrize(
    ("where", "byte"),
    [("a row", b"B"), ("a digit of the signature", None), ("the signature's form", b"g")],
)
def test_one_byte_changed_is_refused(monkeypatch, capsys, tmp_path, history_text, where, byte):
    data = bytearray(history_text.encode("utf-8"))
    if where == "a row":
        at = data.index(b'"last_name": "Ashdown"') + len(b'"last_name": "')
    else:
        at = data.index(b"hmac-sha256:") + len(b"hmac-sha256:") + 10
    byte = byte or (b"1" if data[at : at + 1] == b"0" else b"0")
    assert data[at : at + 1] != byte
    data[at : at + 1] = byte
    path = tmp_path / "club.json"
    path.write_bytes(bytes(data))
    empty_the_database()
    assert "The signature does not match" in refused(monkeypatch, capsys, path)


def test_line_endings_changed_in_a_copy_are_refused_and_said(
    monkeypatch, capsys, tmp_path, history_text
):
    path = written(tmp_path, history_text.replace("\n", "\r\n"))
    empty_the_database()
    err = refused(monkeypatch, capsys, path)
    assert "The signature does not match" in err and "Its lines end in CR LF" in err


def test_a_file_signed_with_another_sites_key(monkeypatch, capsys, settings, tmp_path):
    settings.PEGBOARD_BACKUP_KEY = "site A's key"
    small_club()
    path = written(tmp_path, export_text("small"))
    empty_the_database()
    settings.PEGBOARD_BACKUP_KEY = "site B's key"
    assert "(set PEGBOARD_BACKUP_KEY to it)" in refused(monkeypatch, capsys, path)
    settings.PEGBOARD_BACKUP_KEY = "site A's key"
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path))
    assert (code, err) == (0, "")
    assert "Restored the club Small Club (small)" in out


def test_rotating_the_secret_key_without_a_backup_key_invalidates_older_backups(
    monkeypatch, capsys, settings, tmp_path
):
    settings.PEGBOARD_BACKUP_KEY = ""
    small_club()
    old = written(tmp_path, export_text("small"), "old.json")
    settings.PEGBOARD_BACKUP_KEY = "kept apart from the secret key"
    kept = written(tmp_path, export_text("small"), "kept.json")
    empty_the_database()
    settings.SECRET_KEY = "a new secret key, rotated after the exports"
    settings.PEGBOARD_BACKUP_KEY = ""
    assert "The signature does not match" in refused(monkeypatch, capsys, old)
    settings.PEGBOARD_BACKUP_KEY = "kept apart from the secret key"
    assert cli(monkeypatch, capsys, "import_club", str(kept))[0] == 0


def test_a_file_on_stdin_is_checked_on_its_bytes(monkeypatch, capsys, tmp_path):
    small_club()
    data = export_text("small").encode("utf-8")
    empty_the_database()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.replace(b"\n", b"\r\n"))))
    code, out, err = cli(monkeypatch, capsys, "import_club", "-")
    assert code == 2 and "stdin: The signature does not match" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = cli(monkeypatch, capsys, "import_club", "-")
    assert (code, err) == (0, "")
    assert hashlib.sha256(data).hexdigest() in out


# --- The operator's word, logged and audited ---------------------------------------------------


@pytest.mark.parametrize(
    ("prepare", "problem", "reason"),
    [
        (
            lambda text: json.dumps(json.loads(text)),
            "The file has no signature",
            "none",
        ),
        (
            lambda text: keeping_the_signature(text, lambda d: d["club"].update(name="Renamed")),
            "The signature does not match",
            "mismatch",
        ),
    ],
    ids=["no signature", "signature does not match"],
)
def test_a_trusted_unsigned_import_is_logged_and_audited_with_the_files_hash(
    monkeypatch, capsys, caplog, tmp_path, history_text, prepare, problem, reason
):
    path = written(tmp_path, prepare(history_text))
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    empty_the_database()
    with caplog.at_level(logging.WARNING, logger="pegboard.backup"):
        code, out, err = cli(monkeypatch, capsys, "import_club", str(path), "--trust-unsigned")
    assert (code, err) == (0, "")
    assert f"No valid signature, trusted with --trust-unsigned: {problem}" in out
    assert sha256 in out and "The club's audit trail records that it was restored" in out
    [record] = [r for r in caplog.records if r.name == "pegboard.backup"]
    assert record.levelno == logging.WARNING
    assert sha256 in record.getMessage() and problem in record.getMessage()
    assert "without a valid signature" in record.getMessage()
    club = Club.objects.get(slug=SLUG)
    entry = AuditEntry.objects.get(club=club, action=OpsVerb.CLUB_RESTORED_UNSIGNED)
    assert entry.data["sha256"] == sha256 and entry.data["signature"] == reason
    assert entry.actor is None and entry.object_id == str(club.pk)
    assert entry.get_action_display() == "Club restored from a backup without a valid signature"
    assert not AuditEntry.objects.filter(action=OpsVerb.CLUB_RESTORED).exists()


def test_a_signed_import_is_audited_with_the_files_hash(
    monkeypatch, capsys, caplog, tmp_path, history_text
):
    path = written(tmp_path, history_text)
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    empty_the_database()
    with caplog.at_level(logging.INFO, logger="pegboard.backup"):
        code, out, err = cli(monkeypatch, capsys, "import_club", str(path))
    assert (code, err) == (0, "")
    assert f"The signature holds (the file's SHA-256: {sha256})." in out
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    entry = AuditEntry.objects.get(action=OpsVerb.CLUB_RESTORED)
    assert entry.club.slug == SLUG
    assert entry.data == {
        "sha256": sha256,
        "exported_at": json.loads(history_text)["exported_at"],
        "signature": "valid",
        "staff_left_out": [],
    }
    assert AuditEntry.objects.filter(action__in=OpsVerb.values).count() == 1


def test_a_file_refused_for_its_rows_is_refused_even_when_trusted(
    monkeypatch, capsys, tmp_path, history_text
):
    path = written(tmp_path, keeping_the_signature(history_text, claim_cards_changed))
    empty_the_database()
    err = refused(monkeypatch, capsys, path, "--trust-unsigned")
    assert "its cards count 29, the file says 24." in err


# --- Checking a backup without importing it -----------------------------------------------------


def test_check_runs_every_check_and_writes_nothing(monkeypatch, capsys, tmp_path):
    small_club()
    good = written(tmp_path, export_text("small"), "good.json")
    bad = written(
        tmp_path,
        keeping_the_signature(good.read_text(), lambda d: d["club"].update(name="Big Club")),
        "bad.json",
    )
    before = row_counts()
    # In the database the club lives in: a check needs no empty database.
    code, out, err = cli(monkeypatch, capsys, "import_club", "--check", str(good))
    assert (code, err) == (0, "")
    assert f"{good}: every row passes the checks: the club Small Club (small), 1 sessions" in out
    assert "The signature holds" in out
    code, out, err = cli(monkeypatch, capsys, "import_club", "--check", str(bad))
    assert code == 2 and out == ""
    assert f"{bad}: The signature does not match" in err and "It would not be imported." in err
    code, out, err = cli(
        monkeypatch, capsys, "import_club", "--check", "--trust-unsigned", str(bad)
    )
    assert (code, err) == (0, "")
    assert "No valid signature, trusted with --trust-unsigned" in out
    assert row_counts() == before
    assert not AuditEntry.objects.filter(action__in=OpsVerb.values).exists()


def test_check_names_a_broken_row(monkeypatch, capsys, tmp_path, history_text):
    path = written(tmp_path, keeping_the_signature(history_text, claim_cards_changed))
    code, out, err = cli(
        monkeypatch, capsys, "import_club", "--check", "--trust-unsigned", str(path)
    )
    assert code == 2 and out == ""
    assert "scoring.claim #" in err and "its cards count 29, the file says 24." in err


# --- What a backup does not carry --------------------------------------------------------------


def test_an_export_leaves_out_other_groups_and_own_permissions_and_says_so(
    monkeypatch, capsys, tmp_path
):
    small_club()
    olive = User.objects.get(username="olive")
    olive.groups.add(Group.objects.create(name="treasurers"))
    olive.user_permissions.add(Permission.objects.get(codename="view_ledgerentry"))
    path = tmp_path / "small.json"
    code, out, err = cli(monkeypatch, capsys, "export_club", "small", "-o", str(path))
    assert code == 0
    assert (
        "Left out what a backup does not carry (a login gets its role groups only): olive: the "
        "group treasurers and the permission money.view_ledgerentry." in err
    )
    fields = login(json.loads(path.read_text()), "olive")["fields"]
    assert (fields["groups"], fields["user_permissions"]) == ([["organisers"]], [])
    empty_the_database()
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path))
    assert (code, err) == (0, "")
    olive = User.objects.get(username="olive")
    assert list(olive.groups.values_list("name", flat=True)) == ["organisers"]
    assert not olive.user_permissions.exists() and not Group.objects.filter(name="treasurers")
