"""Moving the audit trail and the forms' one-time tokens from the club app to core loses
nothing: a database made before the move migrates to today's models with every row as it was,
and the club's standings version is its pages version, with its value.

Terms:
- the old database: the migrations as they stood before the move (club 0020 with the other
  apps' of that time), filled with rows through the models of then (the club's AuditEntry and
  SubmissionToken, their content types and permissions, a group and a login holding the right
  to read the trail).
- moved: AuditEntry and SubmissionToken, whose label changes from club.* to core.*: their rows,
  ids and values do not change, their tables take core's names (core_auditentry,
  core_submissiontoken), and their content types, with the permissions on them, move to core.
"""

import pytest
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

from club.audit import ClubVerb
from club.models import Club
from core.audit import audit_record
from core.models import AuditEntry, SubmissionToken
from tests.factories import ClubFactory, PlayerFactory, SessionFactory, UserFactory
from tests.migration_support import migrate_to

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("club", "0020_wrong_pins_make_a_wait")]
MOVED = ("auditentry", "submissiontoken")
AUDIT_FIELDS = ("club_id", "actor_id", "created_at", "action", "content_type_id", "object_id")
AUDIT_FIELDS += ("object_repr", "data")


def people():
    """The club, its session and two members, made with today's models before going back."""
    club = ClubFactory()
    session = SessionFactory(club=club)
    judge, keeper = UserFactory(), UserFactory()
    PlayerFactory(club=club, user=judge)
    PlayerFactory(club=club, user=keeper)  # a member: roles count only through a player record
    return club, session, judge, keeper


def old_rows(old, club, session, judge, keeper):
    """Rows of every kind the move must keep, written through the models of before the move."""
    old.get_model("club", "Club").objects.filter(pk=club.pk).update(standings_version=7)
    types = old.get_model("contenttypes", "ContentType").objects
    AuditEntry = old.get_model("club", "AuditEntry")
    club_type = types.get_or_create(app_label="club", model="club")[0]
    session_type = types.get_or_create(app_label="club", model="session")[0]
    for number in range(3):
        AuditEntry.objects.create(
            club_id=club.pk,
            actor_id=judge.pk if number else None,
            action="session.opened" if number else "club.created",
            content_type=session_type if number else club_type,
            object_id=str(session.pk if number else club.pk),
            object_repr=f"entry {number}",
            data={"number": number, "session": session.pk},
        )
    AuditEntry.objects.create(action="backup.restored", data={"site_wide": True})
    Token = old.get_model("club", "SubmissionToken")
    Token.objects.create(token="a" * 32, user_id=judge.pk, made=f"club.session:{session.pk}")
    Token.objects.create(token="b" * 32)
    # The right to read the trail, on the club's content type: the judges' group and one login.
    Permission = old.get_model("auth", "Permission")
    read = Permission.objects.get(content_type__app_label="club", codename="view_auditentry")
    old.get_model("auth", "Group").objects.get(name="judges").permissions.add(read)
    old.get_model("auth", "User").objects.get(pk=keeper.pk).user_permissions.add(read)
    old.get_model("auth", "User").objects.get(pk=judge.pk).groups.add(
        old.get_model("auth", "Group").objects.get(name="judges")
    )
    return {
        "audit": {
            row["id"]: row for row in AuditEntry.objects.values("id", *AUDIT_FIELDS).order_by("id")
        },
        "tokens": list(Token.objects.values_list("id", "token", "user_id", "made", "created")),
        "types": {model: types.get(app_label="club", model=model).pk for model in MOVED},
        "read": read.pk,
        "judge": judge.pk,
        "keeper": keeper.pk,
        "club": club,
    }


def core_types_made_in_between():
    """What a `migrate` of part of the apps leaves: core's content types and permissions made
    beside the club's, and a group holding core's right to read the trail."""
    made = ContentType.objects.create(app_label="core", model="auditentry")
    read = Permission.objects.create(content_type=made, codename="view_auditentry", name="Can view")
    Group.objects.create(name="auditors").permissions.add(read)
    return read.pk


def assert_the_move_went_back(old) -> None:
    """Migrating back to before the move gave the club its tables and content types again."""
    with pytest.raises(LookupError):
        old.get_model("core", "AuditEntry")  # the old state: core is not there yet
    tables = set(connection.introspection.table_names())
    assert {"club_auditentry", "club_submissiontoken"} <= tables
    assert not {"core_auditentry", "core_submissiontoken"} & tables
    types = old.get_model("contenttypes", "ContentType").objects
    assert not types.filter(app_label="core").exists()
    assert types.filter(app_label="club", model__in=MOVED).count() == len(MOVED)


@pytest.mark.parametrize("in_between", [False, True], ids=["old database", "core's types made"])
def test_a_database_made_before_the_move_keeps_every_row(in_between):
    try:
        made = people()
        old = migrate_to(BEFORE)
        assert_the_move_went_back(old)
        before = old_rows(old, *made)
        core_read = core_types_made_in_between() if in_between else None

        call_command("migrate", verbosity=0)
        ContentType.objects.clear_cache()

        tables = set(connection.introspection.table_names())
        assert {"core_auditentry", "core_submissiontoken"} <= tables
        assert not {"club_auditentry", "club_submissiontoken"} & tables
        now = {row["id"]: row for row in AuditEntry.objects.values("id", *AUDIT_FIELDS)}
        assert now == before["audit"]
        tokens = SubmissionToken.objects.values_list("id", "token", "user_id", "made", "created")
        assert list(tokens.order_by("id")) == before["tokens"]

        # The content types moved with the models; none is left under the club's label.
        assert not ContentType.objects.filter(app_label="club", model__in=MOVED).exists()
        audit_type = ContentType.objects.get_for_model(AuditEntry)
        read = Permission.objects.get(content_type=audit_type, codename="view_auditentry")
        if in_between:
            # Core's were kept; the club's rows and rights were moved onto them.
            assert read.pk == core_read
            assert read.group_set.filter(name="auditors").exists()
        else:
            # The club's own rows were renamed: the same ids under core's label.
            assert audit_type.pk == before["types"]["auditentry"]
            assert read.pk == before["read"]
        assert read.group_set.filter(name="judges").exists()
        assert read.user_set.filter(pk=before["keeper"]).exists()
        for pk in (before["judge"], before["keeper"]):
            user = UserFactory._meta.model.objects.get(pk=pk)
            assert user.has_perm("core.view_auditentry"), pk

        # New rows take ids after the kept ones (PostgreSQL's sequence followed the table).
        entry = audit_record(actor=None, action=ClubVerb.CLUB_CREATED, club=before["club"])
        assert entry.pk > max(before["audit"])
        token = SubmissionToken.objects.create(token="c" * 32)
        assert token.pk > max(row[0] for row in before["tokens"])

        # The version was renamed with its value, then drawn anew
        # (tests/club/test_pages_version_migration.py).
        assert Club.objects.get(pk=before["club"].pk).pages_version != 7
    finally:
        call_command("migrate", verbosity=0)
