"""Restoring a club from a backup (ops.backup's document) into an empty database, and checking
a backup without restoring it (`manage.py import_club`, `import_club --check`).

Terms:
- backup file: the bytes of a file `export_club` wrote, read by `open_backup`: a Pegboard club
  backup of this format version whose signature holds (ops.backup_signature), or one the
  operator trusts without it (`trust_unsigned`).
- checks: every row of the file against the rules the site keeps (ops.backup_checks: the
  models' own validation, references inside the file, the money, the house rules snapshots,
  the claims recounted, the logins' groups), run before anything is written; the first broken
  row refuses the whole file, naming it.
- restore: the file's rows written with their own ids into an empty database, in one
  transaction, with one audit entry in the club's trail (ops.audit): restored from a signed
  backup, or from one without a valid signature, with the file's SHA-256. The logins never come
  in as staff or superuser (a backup makes no site administrator: `createsuperuser` does).
- logs: a restore from a file without a valid signature is a warning on the `pegboard.backup`
  logger, with the file's SHA-256, so it reaches the operator's logs.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist, ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.utils import timezone

from club.models import Club
from core.audit import audit_record
from ops.audit import OpsVerb
from ops.backup import (
    CLUB_ROWS,
    FORMAT,
    MOVED_MODELS,
    OLD_PIN_COUNT,
    OLD_PIN_TRIES,
    RENAMED_FIELDS,
    USER_LABEL,
    VERSION,
    BackupError,
    backed_up_models,
    pages_versioned_labels,
)
from ops.backup_checks import BrokenRow, check_backup, check_logins
from ops.backup_signature import SignatureCheck, check_signature
from standings.services import ratings_restore
from web.role_groups import sync_roles

logger = logging.getLogger("pegboard.backup")
LOGIN_M2M = ("groups", "user_permissions")


@dataclass(frozen=True)
class BackupFile:
    """A file read by `open_backup`: its document (shape, format and version checked, not yet
    its rows) and what its signature check found."""

    document: dict
    signature: SignatureCheck


def open_backup(data: bytes, *, trust_unsigned: bool = False) -> BackupFile:
    """Read a backup file's bytes: a Pegboard club backup of this version, signed with this
    site's backup key (ops.backup_signature), with rows of the models this Pegboard backs up.

    A file whose signature is missing or does not match is refused unless `trust_unsigned`
    (the operator vouches for it: its restore is logged and audited as such). The signature is
    checked once the file is known to be a club backup, before its rows are read."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BackupError("The file is not a text (UTF-8) file.") from None
    document = _read_header(text)
    signature = check_signature(data)
    if not signature.valid and not trust_unsigned:
        raise BackupError(
            f"{signature.problem} Import it with --trust-unsigned only if you know where it "
            "came from and trust it."
        )
    _read_rows(document)
    return BackupFile(document=document, signature=signature)


def _read_header(text: str) -> dict:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BackupError(f"The file is not JSON ({error}).") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(
            f'The file is not a Pegboard club backup (no "format": "{FORMAT}"); '
            "make one with manage.py export_club."
        )
    if document.get("version") != VERSION:
        raise BackupError(
            f"The file is a version {document.get('version')!r} club backup; this Pegboard reads "
            f"version {VERSION}. Restore it with the Pegboard version that wrote it."
        )
    return document


def _read_rows(document: dict) -> None:
    objects = document.get("objects")
    if not isinstance(objects, list) or not all(
        isinstance(row, dict) and isinstance(row.get("fields"), dict) and type(row.get("pk")) is int
        for row in objects
    ):
        raise BackupError(
            'The file\'s "objects" are not a list of rows with a whole-number "pk" and "fields".'
        )
    _read_moved_names(document)
    _read_renamed_fields(document)
    _without_pages_versions(document)
    labels = Counter(row.get("model") for row in objects)
    known = (USER_LABEL, *CLUB_ROWS, OLD_PIN_COUNT)
    unknown = sorted(str(label) for label in labels if label not in known)
    if unknown:
        raise BackupError(f"The file holds rows this Pegboard does not know: {unknown}.")
    if labels["club.club"] != 1:
        raise BackupError(f"The file holds {labels['club.club']} clubs; a backup holds one.")
    if document.get("counts") != dict(sorted(labels.items())):
        raise BackupError("The file's row counts do not match its rows: it is cut short or edited.")
    _read_pin_counts(document)


def _read_pin_counts(document: dict) -> None:
    """Replace, in place, an older file's wrong-PIN counts (OLD_PIN_COUNT) by one row per wrong
    PIN, typed when the count locked the PIN, else when its session began (the file keeps no
    other time); numbered after the file's own wrong-PIN rows. Their references are checked
    with every other row's."""
    old = [row for row in document["objects"] if row["model"] == OLD_PIN_COUNT]
    if not old:
        return
    sessions = {
        row["pk"]: row["fields"] for row in document["objects"] if row["model"] == "club.session"
    }
    pk = max(
        (row["pk"] for row in document["objects"] if row["model"] == "club.wrongpin"), default=0
    )
    made = []
    for row in old:
        fields = row["fields"]
        failures = fields.get("failures")
        if type(failures) is not int or not 0 <= failures <= OLD_PIN_TRIES:
            raise BackupError(
                f"The file's {OLD_PIN_COUNT} #{row['pk']} counts {failures!r} wrong PINs: "
                f"a count is a whole number from 0 to {OLD_PIN_TRIES}."
            )
        typed_at = fields.get("locked_at") or _session_start(row, sessions)
        for _ in range(failures):
            pk += 1
            made.append(
                {
                    "model": "club.wrongpin",
                    "pk": pk,
                    "fields": {
                        "session": fields.get("session"),
                        "player": fields.get("player"),
                        "typed_at": typed_at,
                    },
                }
            )
    document["objects"] = [row for row in document["objects"] if row["model"] != OLD_PIN_COUNT]
    document["objects"] += made
    counts = Counter(row["model"] for row in document["objects"])
    document["counts"] = dict(sorted(counts.items()))


def _session_start(row: dict, sessions: dict) -> dt.datetime:
    """When the session of an older file's wrong-PIN count began, in the site's time zone."""
    session = sessions.get(row["fields"].get("session"))
    if session is None:
        raise BackupError(
            f"The file's {OLD_PIN_COUNT} #{row['pk']}: its session "
            f"(#{row['fields'].get('session')}) is not a session in the file."
        )
    try:
        start = dt.datetime.combine(
            dt.date.fromisoformat(session["date"]), dt.time.fromisoformat(session["starts_at"])
        )
    except (KeyError, TypeError, ValueError):
        raise BackupError(
            f"The file's {OLD_PIN_COUNT} #{row['pk']}: its session has no date and start time "
            "to read."
        ) from None
    return timezone.make_aware(start)


def _moved(label: object) -> object:
    """Today's label of a model the file may name by its old app ("club.payout")."""
    return MOVED_MODELS.get(label, label) if isinstance(label, str) else label


def _read_moved_names(document: dict) -> None:
    """Rename, in place, what an older file names by its old app: its rows' models, their
    counts and content types (natural keys). (Logins' permissions of their own, which older
    files could name so, are refused: ops.backup_checks.check_logins.)"""
    counts = document.get("counts")
    if isinstance(counts, dict):
        document["counts"] = dict(sorted((_moved(key), value) for key, value in counts.items()))
    for row in document["objects"]:
        row["model"] = _moved(row.get("model"))
        for name, value in row["fields"].items():
            if name == "content_type" and isinstance(value, list) and len(value) == 2:
                row["fields"][name] = str(_moved(".".join(map(str, value)))).split(".")


def _read_renamed_fields(document: dict) -> None:
    """Rename, in place, the fields an older file names by their names of before."""
    for row in document["objects"]:
        label = row.get("model")
        renamed = RENAMED_FIELDS.get(label, {}) if isinstance(label, str) else {}
        fields = row["fields"]
        for old, new in renamed.items():
            if old in fields and new not in fields:
                fields[new] = fields.pop(old)


def _without_pages_versions(document: dict) -> None:
    """Leave out, in place, the pages versions older files carry: a restored row draws its own
    (ops.backup's terms)."""
    versioned = pages_versioned_labels()
    for row in document["objects"]:
        if row.get("model") in versioned:
            row["fields"].pop("pages_version", None)


def _refuse_non_empty(document: dict) -> None:
    clubs = list(Club.objects.order_by("slug").values_list("slug", flat=True))
    filled = [m._meta.verbose_name_plural for m in backed_up_models() if m._base_manager.exists()]
    if clubs or filled:
        what = (
            f"the club{'s' if len(clubs) > 1 else ''} {', '.join(clubs)}"
            if clubs
            else ", ".join(map(str, filled))
        )
        raise BackupError(
            f"The database already holds {what}: a backup is restored only into an empty "
            "database (make one with manage.py migrate)."
        )
    user_model = get_user_model()
    users = [row for row in document["objects"] if row["model"] == USER_LABEL]
    ids = [row["pk"] for row in users]
    names = [row["fields"].get("username") for row in users]
    clash = user_model._base_manager.filter(models.Q(pk__in=ids) | models.Q(username__in=names))
    if clash.exists():
        taken = ", ".join(sorted(clash.values_list("username", flat=True)))
        raise BackupError(
            f"The database already has logins ({taken}) whose ids or usernames the backup's "
            "logins use: restore into a database without users, and add superusers afterwards."
        )


def _deserialize(rows: list[dict]):
    """Deserialized objects of `rows`; a row Django cannot read becomes a BackupError."""
    try:
        yield from serializers.deserialize("python", rows)
    except (
        DeserializationError,
        FieldDoesNotExist,
        ObjectDoesNotExist,
        ValidationError,
        KeyError,
        TypeError,
        ValueError,
    ) as error:
        raise BackupError(f"A row of the file cannot be read: {error}") from None


def _restore_rows(model: type[models.Model], items: list) -> int:
    """Insert the deserialized `items` with their own primary keys: the restore's one write path.

    A bulk INSERT only ever adds rows (a pk already taken fails, nothing is overwritten), so the
    append-only models' guard on save(), which refuses a row that has a pk, is not involved and
    is not weakened: nothing else writes rows with given pks.
    """
    instances = []
    for item in items:
        if item.m2m_data or item.deferred_fields:
            raise RuntimeError(f"{model._meta.label} rows with many-to-many data need save().")
        instances.append(item.object)
    model._base_manager.bulk_create(instances, batch_size=500)
    return len(instances)


def _logins_to_check(users: list[dict]) -> list[models.Model]:
    """The file's logins, unsaved and without their groups and permissions (which are read by
    name, from the database, only when the logins are written)."""
    rows = [
        {**row, "fields": {k: v for k, v in row["fields"].items() if k not in LOGIN_M2M}}
        for row in users
    ]
    return [item.object for item in _deserialize(rows)]


def _without_staff(users: list[dict]) -> list[str]:
    """Clear, in place, the staff and superuser flags of the file's logins: the usernames that
    had one (see `restore_club`)."""
    demoted = []
    for row in users:
        fields = row["fields"]
        if fields.get("is_staff") or fields.get("is_superuser"):
            demoted.append(str(fields.get("username")))
            fields["is_staff"] = fields["is_superuser"] = False
    return sorted(demoted)


def _checked_rows(document: dict) -> tuple[list[dict], dict[str, list]]:
    """The file's logins (rows) and its club rows (deserialized, unsaved, per model label),
    once every one of them passed the checks (ops.backup_checks); nothing is written."""
    by_model: dict[str, list[dict]] = {}
    for row in document["objects"]:
        by_model.setdefault(row["model"], []).append(row)
    users = by_model.get(USER_LABEL, [])
    try:
        check_logins(users)
        items = {
            model._meta.label_lower: list(_deserialize(by_model.get(model._meta.label_lower, [])))
            for model in backed_up_models()
        }
        check_backup(
            {label: [item.object for item in found] for label, found in items.items()},
            _logins_to_check(users),
            club_paths=CLUB_ROWS,
        )
    except BrokenRow as error:
        raise BackupError(str(error)) from None
    return users, items


@dataclass(frozen=True)
class Verified:
    club: Club  # the file's club row, unsaved
    counts: dict[str, int]  # rows per model label
    demoted: list[str]  # logins whose staff or superuser flag an import leaves out
    signature: SignatureCheck


def verify_backup(backup: BackupFile) -> Verified:
    """Every check `restore_club` runs on the file's rows, without writing anything and in any
    database (not only an empty one): whether the backup would restore."""
    with transaction.atomic():
        users, items = _checked_rows(backup.document)
        transaction.set_rollback(True)
    counts = {USER_LABEL: len(users)} | {label: len(found) for label, found in items.items()}
    return Verified(
        club=items["club.club"][0].object,
        counts=counts,
        demoted=sorted(
            str(row["fields"].get("username"))
            for row in users
            if row["fields"].get("is_staff") or row["fields"].get("is_superuser")
        ),
        signature=backup.signature,
    )


@dataclass(frozen=True)
class Restored:
    club: Club
    counts: dict[str, int]  # rows restored per model label
    created_groups: list[str]  # role groups the database lacked, made with their permissions
    demoted: list[str]  # logins whose staff or superuser flag was left out
    signature: SignatureCheck


def _restore_data(backup: BackupFile, demoted: list[str]) -> dict:
    """What the restore's audit entry says: the file's SHA-256, its export time and signature
    (`valid`, `none` or `mismatch`), and the logins whose staff flags were left out."""
    exported_at = backup.document.get("exported_at")
    return {
        "sha256": backup.signature.fingerprint,
        "exported_at": exported_at[:40] if isinstance(exported_at, str) else "",
        "signature": backup.signature.reason,
        "staff_left_out": demoted,
    }


def restore_club(backup: BackupFile) -> Restored:
    """Restore a file read by `open_backup` into this (empty) database, all or nothing.

    Every row is checked first (ops.backup_checks), before anything is written: a row that
    breaks a rule of the site refuses the whole file, naming the row. A login of the file is
    never made staff or superuser: a backup is data, and must not make a site administrator.
    The logins come with their role groups only (the checks refuse any other, and permissions
    of their own). The club's audit trail gets one entry for the restore, with the file's
    SHA-256; a file whose signature did not hold is also logged as a warning.
    """
    document = backup.document
    try:
        with transaction.atomic():
            _refuse_non_empty(document)
            users, items = _checked_rows(document)
            demoted = _without_staff(users)
            # Nothing is written above this line.
            wanted = {key[0] for row in users for key in row["fields"].get("groups") or []}
            created = sorted(wanted - set(Group.objects.values_list("name", flat=True)))
            if created:
                sync_roles()
            for item in _deserialize(users):
                item.save()
            counts = {USER_LABEL: len(users)}
            restored = [get_user_model(), Group]
            for model in backed_up_models():
                label = model._meta.label_lower
                counts[label] = _restore_rows(model, items[label])
                restored.append(model)
            # Deferred foreign keys are checked here, not at a commit that may be far away.
            connection.check_constraints(table_names=[m._meta.db_table for m in restored])
            # PostgreSQL: let new rows take ids after the restored ones (no-op on SQLite).
            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(no_style(), restored):
                    cursor.execute(sql)
            club = Club.objects.get()
            # The ratings are kept from the results, not backed up: replayed from the rows
            # just restored (no audit entry of their own: the restore's entry covers them).
            ratings_restore(club=club)
            audit_record(
                actor=None,
                action=OpsVerb.CLUB_RESTORED
                if backup.signature.valid
                else OpsVerb.CLUB_RESTORED_UNSIGNED,
                obj=club,
                club=club,
                data=_restore_data(backup, demoted),
            )
    except IntegrityError as error:
        raise BackupError(f"The file's rows break a rule of the database: {error}") from None
    except DatabaseError as error:
        raise BackupError(f"The database refused the file's rows: {error}") from None
    if backup.signature.valid:
        logger.info(
            "Restored the club %s from a signed backup (SHA-256 %s).",
            club.slug,
            backup.signature.fingerprint,
        )
    else:
        logger.warning(
            "Restored the club %s from a backup without a valid signature, trusted by the "
            "operator: %s SHA-256 of the file: %s.",
            club.slug,
            backup.signature.problem,
            backup.signature.fingerprint,
        )
    return Restored(
        club=club,
        counts=counts,
        created_groups=created,
        demoted=demoted,
        signature=backup.signature,
    )
