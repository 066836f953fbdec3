"""What the backup tests share (tests/ops/test_backup.py, tests/ops/test_backup_checks.py,
tests/ops/test_backup_signature.py).

Terms: an *empty database* is one the test made by `flush` (every table emptied, as a new site's
database) followed by `sync_roles` (the role groups that the data migrations make); `cli` runs a
command as `manage.py` does (exit code, stdout, stderr) inside the test's transaction; the
*history* is the demo club with a short season and more (`build_history`); a document is
*signed* as `export_club` signs it, with this site's backup key (`signed`); a *restore entry* is
the audit entry an import adds to the club's trail (ops.audit).
"""

import datetime as dt
import io
import json
import re
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.management import call_command, load_command_class
from django.db import connection, connections

from club.audit import ClubVerb
from club.models import Club, Player
from club.services import pin_set, pin_verify, session_open
from core.audit import audit_record
from core.models import AuditEntry
from games.services import table_cards_make, table_cards_renew
from money.models import LedgerEntry
from money.services import session_reopen, session_settle
from ops import backup
from ops.audit import OpsVerb
from ops.backup_signature import sign_text
from ops.demo import build_demo_season
from scoring.models import Dispute, RulingDecision
from scoring.services import dispute_appeal, dispute_rule
from tests.demo_snapshot import built_once
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from web.role_groups import sync_roles

SLUG = "thursday-peggers"
TODAY = dt.date(2026, 3, 20)
User = get_user_model()


def cli(monkeypatch, capsys, *argv: str) -> tuple[int, str, str]:
    """Run `manage.py <argv>` in-process: (exit code, stdout, stderr)."""
    # run_from_argv closes every connection when done; the test's transaction must outlive it.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    capsys.readouterr()
    command = load_command_class("ops", argv[0])
    try:
        command.run_from_argv(["manage.py", *argv])
        code = 0
    except SystemExit as stop:
        code = stop.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def empty_the_database() -> None:
    # PostgreSQL will not truncate tables with deferred checks pending in this transaction.
    connection.check_constraints()
    call_command("flush", interactive=False, verbosity=0)
    # The flush numbered the content types afresh: forget the ids this process has cached.
    ContentType.objects.clear_cache()
    sync_roles()
    assert not Club.objects.exists() and not User.objects.exists()
    assert not AuditEntry.objects.exists() and not LedgerEntry.objects.exists()


def export_text(slug: str = SLUG) -> str:
    out = io.StringIO()
    call_command("export_club", slug, stdout=out)
    return out.getvalue()


def without_export_time(text: str) -> str:
    """The text without its export time and its signature, which covers that time."""
    text = re.sub(r'^"signature": .*\n', "", text, count=1, flags=re.MULTILINE)
    return re.sub(r'^"exported_at": .*$', "", text, count=1, flags=re.MULTILINE)


RESTORE_VERBS = tuple(OpsVerb.values)


def without_restores(text: str) -> str:
    """An export's text (`without_export_time`) without the restore entries, and its counts
    line without them: byte for byte the text the club's export gave before it was restored."""
    kept, removed = [], 0
    for line in without_export_time(text).splitlines(keepends=True):
        if line.startswith('{"model": "core.auditentry"') and any(
            f'"action": "{verb}"' in line for verb in RESTORE_VERBS
        ):
            removed += 1
            continue
        kept.append(line)
    # The objects are one a line, each but the last followed by a comma.
    for index, line in enumerate(kept[:-1]):
        if kept[index + 1].startswith("]") and line.endswith("},\n"):
            kept[index] = line[: -len(",\n")] + "\n"
    text = "".join(kept)
    counts = re.search(r'^"counts": (.*),$', text, flags=re.MULTILINE)
    numbers = json.loads(counts.group(1))
    numbers["core.auditentry"] -= removed
    return text.replace(counts.group(0), f'"counts": {json.dumps(numbers, sort_keys=True)},')


def signed(document: dict) -> str:
    """The document's text, signed with this site's backup key as `export_club` signs it."""
    return sign_text(backup.document_text(document))


def row_counts() -> dict[str, int]:
    """Rows per backed-up model, logins and groups: what an import may write."""
    models = [*backup.backed_up_models(), User, Group, User.groups.through]
    return {model._meta.label_lower: model._base_manager.count() for model in models}


def build_history() -> Club:
    """The demo club with a short season, then a reopened and resettled session with an appeal
    ruled finally by the second judge and a wrong table PIN typed, table cards made and made
    new (the old ones kept, retired), a login with an e-mail address, and a second club and a
    login the backup must leave out. Built through the services once per run, its rows copied
    back after that (tests/demo_snapshot.py `built_once`): every unique name it gives the
    factories is its own, so no factory's counter stands behind a copied row."""
    return Club.objects.get(pk=built_once("backup-history", _build_history))


def _build_history() -> int:
    call_command("load_demo", season=False, stdout=io.StringIO())
    club = Club.objects.get(slug=SLUG)
    assert build_demo_season(club=club, seed=11, today=TODAY, sessions=3) == 3
    organiser, judge2 = User.objects.get(username="organiser"), User.objects.get(username="judge2")
    dispute = Dispute.objects.get(claim__game__session__club=club)
    session = dispute.claim.game.session
    session_reopen(session=session, actor=organiser, reason="The appeal was lodged in time.")
    # A table PIN (its hash is backed up) and a wrong one typed at a table (a WrongPin row).
    pat = Player.objects.get(club=club, user__username="player")
    pin_set(player=pat, actor=organiser, pin="4071")
    try:
        pin_verify(session=session, player=pat, pin="1111")
    except ValidationError:
        pass
    else:
        raise AssertionError("a wrong PIN was accepted")
    dispute_appeal(
        dispute=dispute, actor=dispute.opened_by.user, statement="The first judge misread it."
    )
    dispute_rule(dispute=dispute, actor=judge2, decision=RulingDecision.AGREE)
    session_settle(session=session, actor=organiser)

    table_cards_make(club=club, actor=organiser, up_to=3)
    table_cards_renew(club=club, actor=organiser)

    player = User.objects.get(username="player")
    player.email = "pat@example.org"
    player.save()

    other = ClubFactory(name="Other Club", slug="other-club")
    outsider = UserFactory(username="outsider")
    PlayerFactory(club=other, user=outsider, display_name="Otto Outsider")
    session_open(club=other, actor=outsider, date=TODAY)
    audit_record(actor=None, action=ClubVerb.CLUB_CREATED, obj=other, club=other)
    return club.pk


# --- Reading and writing an edited document ----------------------------------------------------


def rows(document: dict, label: str) -> list[dict]:
    return [row for row in document["objects"] if row["model"] == label]


def find(document: dict, label: str, **fields) -> dict:
    return next(
        row
        for row in rows(document, label)
        if all(row["fields"][name] == value for name, value in fields.items())
    )


def write(document: dict, path: Path) -> Path:
    """The document, signed with this site's key: only the row checks can refuse it."""
    path.write_text(signed(document), encoding="utf-8")
    return path


def write_unsigned(document: dict, path: Path) -> Path:
    """The document as a program that rewrites JSON leaves it: no signature."""
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def refused(monkeypatch, capsys, path: Path, *options: str) -> str:
    """Import `path`, which must be refused with exit code 2 and nothing written: the message."""
    before = row_counts()
    code, out, err = cli(monkeypatch, capsys, "import_club", str(path), *options)
    assert code == 2, (out, err)
    assert "Nothing was imported." in err and "Traceback" not in err and out == ""
    assert row_counts() == before
    assert not Club.objects.exists()
    return err
