"""Backups of one club: its whole history as one JSON document, and the restore of that document
into an empty database (`manage.py export_club`, `manage.py import_club`).

Terms:
- document: a JSON object with `format` (FORMAT), `version` (VERSION), `exported_at`, the club's
  `club` slug and name, `counts` (rows per model) and `objects`: Django serializer rows
  (`{"model", "pk", "fields"}`) sorted by model label, then pk. Two exports of the same data are
  byte-identical apart from `exported_at`.
- club rows: every row of the club, games, scoring and money apps that belongs to the club.
  CLUB_ROWS names, for each model, the lookup from the model to its club, in the order they are
  restored; a model of those apps missing from it (and not in NOT_BACKED_UP, which says why it
  belongs to no club) stops the export (`backed_up_models`).
- users: the logins the club rows point at (players' logins, who checked in, entered, confirmed,
  ruled, settled; audit actors), with their groups and user permissions by name and their
  password hashes. Logins that no club row mentions are not in the document (a player's former
  login that only an audit entry's `data` names keeps its id there, as written). Audit entries
  that belong to no club are site-wide and left out.

The ratings (standings.models.GameRating) are not in the document: they are kept from the
results, so restoring replays them (standings.services.ratings_restore).

Restoring checks every row first (ops.backup_checks: the models' own validation, references
inside the file, the money's sums, the house rules snapshots) and writes nothing when one breaks a
rule; the file's logins lose their staff and superuser flags unless the caller keeps them
(`restore_club(with_staff=True)`, `import_club --with-staff`).

Primary keys are kept, users' included: references between rows, the audit trail's `object_id`
and the ids its `data` mentions stay valid. Content types, groups and permissions go by natural
key (their ids differ between databases). Timestamps are written in full (to the microsecond),
not shortened as Django's JSON serializer does.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist, ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.utils import timezone

from club.models import Club
from ops.backup_checks import BrokenRow, check_backup
from standings.services import ratings_restore

FORMAT = "pegboard-club-backup"
VERSION = 1
BACKUP_APPS = ("club", "games", "scoring", "money")

# Model label -> lookup from that model to its club; restored in this order (parents first).
CLUB_ROWS: dict[str, str] = {
    "club.club": "pk",
    "club.player": "club",
    "club.session": "club",
    "club.checkin": "session__club",
    "club.wrongpin": "session__club",
    "games.round": "session__club",
    "games.game": "session__club",
    "games.seat": "game__session__club",
    "games.result": "game__session__club",
    "games.resultline": "result__game__session__club",
    "games.sessiontotal": "club",
    "scoring.claim": "game__session__club",
    "scoring.outcome": "claim__game__session__club",
    "scoring.dispute": "claim__game__session__club",
    "scoring.ruling": "dispute__claim__game__session__club",
    "money.settlement": "session__club",
    "money.payout": "settlement__session__club",
    "money.ledgerentry": "club",
    "money.skunkcoin": "session__club",
    "club.auditentry": "club",
}
# Models of those apps that belong to no club, and why they are not backed up.
NOT_BACKED_UP: dict[str, str] = {
    "club.submissiontoken": "a form's one-time token: spent by the next post, of no club",
    "club.loginlink": "a one-time link to set a password: a restored club gives new ones",
}
USER_LABEL = "auth.user"
LOGIN_M2M = ("groups", "user_permissions")

# Files written before the money app existed (same format version) name its models, their
# content types and permissions by the club app; they are read with today's names.
MOVED_MODELS = {"settlement", "payout", "ledgerentry"}
MOVED_PERMISSIONS = {
    ("settle_session", "club", "session"): ["settle_session", "money", "settlement"],
}


# Files written while wrong table PINs were counted per player and session, the count locking
# the PIN for the session at OLD_PIN_TRIES ("club.pinlock": session, player, failures,
# locked_at), are read as one "club.wrongpin" row per wrong PIN (`_read_pin_counts`).
OLD_PIN_COUNT = "club.pinlock"
OLD_PIN_TRIES = 5


class BackupError(Exception):
    """A document that cannot be restored here, or a club that cannot be exported; the message
    says why and what to do."""


def backed_up_models() -> list[type[models.Model]]:
    """The models of CLUB_ROWS in restore order; raises when a model of the backed-up apps is
    missing from it (a new model must say how it belongs to a club before backups run)."""
    known = {
        model._meta.label_lower
        for app in BACKUP_APPS
        for model in apps.get_app_config(app).get_models(include_auto_created=True)
    }
    missing = sorted(known - set(CLUB_ROWS) - set(NOT_BACKED_UP))
    if missing:
        raise RuntimeError(f"ops.backup.CLUB_ROWS does not say how to back up {missing}.")
    return [apps.get_model(label) for label in CLUB_ROWS]


class BackupEncoder(DjangoJSONEncoder):
    """Django's encoder, but times and datetimes to the microsecond."""

    def default(self, o):
        if isinstance(o, dt.datetime | dt.time):
            text = o.isoformat()
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        return super().default(o)


def _user_ids(rows: list[dict], model: type[models.Model]) -> set[int]:
    user_model = get_user_model()
    fields = [
        field.name
        for field in model._meta.concrete_fields
        if field.is_relation and field.related_model is user_model
    ]
    return {row["fields"][name] for row in rows for name in fields if row["fields"][name]}


def club_document(club: Club, *, now: dt.datetime | None = None) -> dict:
    """Every row of `club` (see the module's terms) as a document, ready for `document_text`."""
    objects: list[dict] = []
    user_ids: set[int] = set()
    content_types: dict[int, list[str]] = {}
    for model in backed_up_models():
        label = model._meta.label_lower
        lookup = CLUB_ROWS[label]
        queryset = model._base_manager.filter(**{lookup: club.pk}).order_by("pk")
        rows = serializers.serialize("python", queryset.iterator(chunk_size=2000))
        user_ids |= _user_ids(rows, model)
        for row in rows:
            row["model"] = label
            # Content types by natural key: their ids differ between databases.
            for field in model._meta.concrete_fields:
                if field.related_model is ContentType and row["fields"][field.name]:
                    pk = row["fields"][field.name]
                    if pk not in content_types:
                        content_types[pk] = list(ContentType.objects.get_for_id(pk).natural_key())
                    row["fields"][field.name] = content_types[pk]
        objects.extend(rows)
    users = get_user_model()._base_manager.filter(pk__in=user_ids).order_by("pk")
    user_rows = serializers.serialize("python", users, use_natural_foreign_keys=True)
    for row in user_rows:
        row["model"] = USER_LABEL
        row["fields"]["groups"] = sorted(row["fields"]["groups"])
        row["fields"]["user_permissions"] = sorted(row["fields"]["user_permissions"])
    objects = user_rows + objects
    objects.sort(key=lambda row: (row["model"], row["pk"]))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now or timezone.now(),
        "club": {"slug": club.slug, "name": club.name},
        "counts": dict(sorted(Counter(row["model"] for row in objects).items())),
        "objects": objects,
    }


def club_export_text(club: Club) -> str:
    """`club`'s document as text, read in one transaction so it is one consistent snapshot while
    the site runs (PostgreSQL: repeatable read; SQLite holds its read snapshot anyway)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return document_text(club_document(club))


def document_text(document: dict) -> str:
    """The document as JSON text: the header first, then one object per line (diffable)."""

    def dump(value) -> str:
        return json.dumps(value, cls=BackupEncoder, sort_keys=True, ensure_ascii=False)

    header = [f"{dump(key)}: {dump(value)}" for key, value in document.items() if key != "objects"]
    objects = ",\n".join(
        f'{{"model": {dump(row["model"])}, "pk": {dump(row["pk"])}, '
        f'"fields": {dump(row["fields"])}}}'
        for row in document["objects"]
    )
    return "{\n" + ",\n".join(header) + ',\n"objects": [\n' + objects + "\n]\n}\n"


# --- Restoring ---------------------------------------------------------------------------------


def read_document(text: str) -> dict:
    """Parse and check a document's shape, format and version (not yet its rows)."""
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
    objects = document.get("objects")
    if not isinstance(objects, list) or not all(
        isinstance(row, dict) and isinstance(row.get("fields"), dict) and type(row.get("pk")) is int
        for row in objects
    ):
        raise BackupError(
            'The file\'s "objects" are not a list of rows with a whole-number "pk" and "fields".'
        )
    _read_moved_names(document)
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
    return document


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
    """Today's label of a model the file may name by the club app ("club.payout")."""
    if isinstance(label, str) and label.startswith("club.") and label[5:] in MOVED_MODELS:
        return "money." + label[5:]
    return label


def _read_moved_names(document: dict) -> None:
    """Rename, in place, what an older file names by the club app: its rows' models, their
    counts, content types (natural keys) and the logins' permissions (natural keys)."""
    counts = document.get("counts")
    if isinstance(counts, dict):
        document["counts"] = dict(sorted((_moved(key), value) for key, value in counts.items()))
    for row in document["objects"]:
        row["model"] = _moved(row.get("model"))
        for name, value in row["fields"].items():
            if name == "content_type" and isinstance(value, list) and len(value) == 2:
                row["fields"][name] = str(_moved(".".join(map(str, value)))).split(".")
        perms = row["fields"].get("user_permissions")
        if row["model"] == USER_LABEL and isinstance(perms, list):
            row["fields"]["user_permissions"] = sorted(map(_moved_permission, perms))


def _moved_permission(key):
    if not (isinstance(key, list) and len(key) == 3 and all(isinstance(k, str) for k in key)):
        return key
    codename, app_label, model = key
    if (codename, app_label, model) in MOVED_PERMISSIONS:
        return MOVED_PERMISSIONS[(codename, app_label, model)]
    if app_label == "club" and model in MOVED_MODELS:
        return [codename, "money", model]
    return key


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


@dataclass(frozen=True)
class Restored:
    club: Club
    counts: dict[str, int]  # rows restored per model label
    created_groups: list[str]  # groups the database lacked, made without permissions
    demoted: list[str]  # logins whose staff or superuser flag was left out


def restore_club(document: dict, *, with_staff: bool = False) -> Restored:
    """Restore a document read by `read_document` into this (empty) database, all or nothing.

    Every row is checked first (ops.backup_checks), before anything is written: a row that
    breaks a rule of the site refuses the whole file, naming the row. A login of the file is
    never made staff or superuser unless `with_staff` says so: a backup is data, and an edited
    one must not make a site administrator. Groups and extra permissions are kept: they are the
    logins' roles in the club, which the file carries anyway.
    """
    by_model: dict[str, list[dict]] = {}
    for row in document["objects"]:
        by_model.setdefault(row["model"], []).append(row)
    try:
        with transaction.atomic():
            _refuse_non_empty(document)
            users = by_model.get(USER_LABEL, [])
            items = {
                model._meta.label_lower: list(
                    _deserialize(by_model.get(model._meta.label_lower, []))
                )
                for model in backed_up_models()
            }
            try:
                check_backup(
                    {label: [item.object for item in found] for label, found in items.items()},
                    _logins_to_check(users),
                    club_paths=CLUB_ROWS,
                )
            except BrokenRow as error:
                raise BackupError(str(error)) from None
            demoted = [] if with_staff else _without_staff(users)
            # Nothing is written above this line.
            wanted = {
                key[0]
                for row in users
                for key in row["fields"].get("groups") or []
                if isinstance(key, list) and len(key) == 1 and isinstance(key[0], str)
            }
            existing = set(Group.objects.filter(name__in=wanted).values_list("name", flat=True))
            created = sorted(wanted - existing)
            Group.objects.bulk_create([Group(name=name) for name in created])
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
            # just restored (no audit entry: the file's audit trail is restored as it was).
            ratings_restore(club=club)
    except IntegrityError as error:
        raise BackupError(f"The file's rows break a rule of the database: {error}") from None
    except DatabaseError as error:
        raise BackupError(f"The database refused the file's rows: {error}") from None
    return Restored(club=club, counts=counts, created_groups=created, demoted=demoted)
