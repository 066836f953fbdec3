"""Backups of one club: its whole history as one signed JSON document (`manage.py export_club`),
which ops.backup_restore restores into an empty database (`manage.py import_club`).

Terms:
- document: a JSON object with `format` (FORMAT), `version` (VERSION), `exported_at`, the club's
  `club` slug and name, `counts` (rows per model) and `objects`: Django serializer rows
  (`{"model", "pk", "fields"}`) sorted by model label, then pk. Two exports of the same data are
  byte-identical apart from `exported_at` and the signature, which covers it.
- signature: the document's second line, an HMAC-SHA256 of the rest of the file's bytes under
  the site's backup key (ops.backup_signature). A file without a valid one is restored only when
  the operator says it is trusted; the restore then says so in the logs and in the club's audit
  trail, with the file's SHA-256.
- club rows: every row of the core, club, games, scoring and money apps that belongs to the club
  (core's: its audit trail).
  CLUB_ROWS names, for each model, the lookup from the model to its club, in the order they are
  restored; a model of those apps missing from it (and not in NOT_BACKED_UP, which says why it
  belongs to no club) stops the export (`backed_up_models`).
- users: the logins the club rows point at (players' logins, who checked in, entered, confirmed,
  ruled, settled; audit actors), with their role groups by name and their password hashes.
  Other groups and a login's permissions of its own are not written (the export says whose it
  left out): a backup gives a login its role in the club and nothing more. Logins that no club
  row mentions are not in the document (a player's former login that only an audit entry's
  `data` names keeps its id there, as written). Audit entries that belong to no club are
  site-wide and left out.

The ratings (standings.models.GameRating) are not in the document: they are kept from the
results, so restoring replays them (standings.services.ratings_restore).

Nor is the club's pages version (core.pages): it keys the copies of the club's public pages in
this site's cache, which is not the club's history, and a restored club draws a new one, so
that copies an older database left in a shared cache are never served as its pages.

Restoring (ops.backup_restore) checks the signature, then every row, and writes nothing when
one breaks a rule; the file's logins never come in as staff or superuser.

Primary keys are kept, users' included: references between rows, the audit trail's `object_id`
and the ids its `data` mentions stay valid. Content types and groups go by natural key (their
ids differ between databases). Timestamps are written in full (to the microsecond), not
shortened as Django's JSON serializer does.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction
from django.utils import timezone

from club.models import Club
from club.roles import ROLES
from core.pages import PagesVersioned
from ops.backup_signature import sign_text

FORMAT = "pegboard-club-backup"
VERSION = 1
BACKUP_APPS = ("core", "club", "games", "scoring", "money", "tournaments")

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
    "games.tablecard": "club",
    "scoring.claim": "game__session__club",
    "scoring.outcome": "claim__game__session__club",
    "scoring.dispute": "claim__game__session__club",
    "scoring.ruling": "dispute__claim__game__session__club",
    "money.settlement": "session__club",
    "money.payout": "settlement__session__club",
    "money.ledgerentry": "club",
    "money.skunkcoin": "session__club",
    "money.feepayment": "checkin__session__club",
    "tournaments.tournament": "club",
    "tournaments.bye": "tournament__club",
    "tournaments.match": "tournament__club",
    "tournaments.matchgame": "match__tournament__club",
    "core.auditentry": "club",
}
# Models of those apps that belong to no club, and why they are not backed up.
NOT_BACKED_UP: dict[str, str] = {
    "core.submissiontoken": "a form's one-time token: spent by the next post, of no club",
    "club.loginlink": "a one-time link to set a password: a restored club gives new ones",
    "club.playerlink": "a one-time link for a player present: it dies with its session",
    "games.correctionproposal": (
        "a proposed correction: the result version its acceptance wrote names who proposed and "
        "who accepted it, and the audit trail keeps the rest"
    ),
}
USER_LABEL = "auth.user"

# Models that moved from the club app to another: files written before the move (same format
# version) name them and their content types by their old labels; they are read with today's.
MOVED_MODELS = {
    "club.settlement": "money.settlement",
    "club.payout": "money.payout",
    "club.ledgerentry": "money.ledgerentry",
    "club.auditentry": "core.auditentry",
    "club.submissiontoken": "core.submissiontoken",
}
# Fields renamed since (model label -> {old name: today's}): files written before the rename
# (same format version) name them so; they are read with today's names.
RENAMED_FIELDS = {"club.club": {"standings_version": "pages_version"}}


# Files written while wrong table PINs were counted per player and session, the count locking
# the PIN for the session at OLD_PIN_TRIES ("club.pinlock": session, player, failures,
# locked_at), are read as one "club.wrongpin" row per wrong PIN (ops.backup_restore).
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


def pages_versioned_labels() -> set[str]:
    """The labels of the backed-up models whose rows leave their pages version out (see the
    module's terms)."""
    return {m._meta.label_lower for m in backed_up_models() if issubclass(m, PagesVersioned)}


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


def _role_groups_only(user_rows: list[dict]) -> list[str]:
    """Keep, in place, only the role groups of the logins' rows and none of their permissions of
    their own: what a backup carries (see the module's terms). Says whose it left out."""
    left_out = []
    for row in user_rows:
        fields = row["fields"]
        groups = sorted(fields["groups"])
        others = [key[0] for key in groups if key[0] not in ROLES]
        fields["groups"] = [key for key in groups if key[0] in ROLES]
        perms = sorted(f"{app}.{codename}" for codename, app, _ in fields["user_permissions"])
        fields["user_permissions"] = []
        what = []
        if others:
            what.append(f"the group{'s' if len(others) > 1 else ''} {', '.join(others)}")
        if perms:
            what.append(f"the permission{'s' if len(perms) > 1 else ''} {', '.join(perms)}")
        if what:
            left_out.append(f"{fields['username']}: {' and '.join(what)}")
    return left_out


def club_document(club: Club, *, now: dt.datetime | None = None) -> tuple[dict, list[str]]:
    """Every row of `club` (see the module's terms) as a document, ready for `document_text`,
    and what the logins had that the document leaves out (for people: "pat: the group
    treasurers")."""
    objects: list[dict] = []
    user_ids: set[int] = set()
    content_types: dict[int, list[str]] = {}
    versioned = pages_versioned_labels()
    for model in backed_up_models():
        label = model._meta.label_lower
        lookup = CLUB_ROWS[label]
        queryset = model._base_manager.filter(**{lookup: club.pk}).order_by("pk")
        rows = serializers.serialize("python", queryset.iterator(chunk_size=2000))
        user_ids |= _user_ids(rows, model)
        for row in rows:
            row["model"] = label
            if label in versioned:
                del row["fields"]["pages_version"]
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
    left_out = _role_groups_only(user_rows)
    objects = user_rows + objects
    objects.sort(key=lambda row: (row["model"], row["pk"]))
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now or timezone.now(),
        "club": {"slug": club.slug, "name": club.name},
        "counts": dict(sorted(Counter(row["model"] for row in objects).items())),
        "objects": objects,
    }
    return document, left_out


@dataclass(frozen=True)
class Export:
    text: str  # the signed document
    left_out: list[str]  # what the logins had that a backup does not carry, for people


def club_export(club: Club) -> Export:
    """`club`'s signed document, read in one transaction so it is one consistent snapshot while
    the site runs (PostgreSQL: repeatable read; SQLite holds its read snapshot anyway)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        document, left_out = club_document(club)
    return Export(text=sign_text(document_text(document)), left_out=left_out)


def document_text(document: dict) -> str:
    """The document as JSON text, unsigned: the header first, then one object per line
    (diffable). A `signature` the document was read with is not written: `sign_text` adds
    the one of this text."""

    def dump(value) -> str:
        return json.dumps(value, cls=BackupEncoder, sort_keys=True, ensure_ascii=False)

    header = [
        f"{dump(key)}: {dump(value)}"
        for key, value in document.items()
        if key not in ("objects", "signature")
    ]
    objects = ",\n".join(
        f'{{"model": {dump(row["model"])}, "pk": {dump(row["pk"])}, '
        f'"fields": {dump(row["fields"])}}}'
        for row in document["objects"]
    )
    return "{\n" + ",\n".join(header) + ',\n"objects": [\n' + objects + "\n]\n}\n"
