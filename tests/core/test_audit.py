"""The audit trail is append-only: delete raises, update raises, the admin shows it read-only."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from club.audit import ClubVerb
from core.audit import audit_record
from core.models import AuditEntry
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry():
    club = ClubFactory()
    return audit_record(
        actor=None, action=ClubVerb.CLUB_RULES_CHANGED, obj=club, club=club, data={"x": 1}
    )


def test_record_writes_who_what_and_the_object(entry):
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert stored.action == ClubVerb.CLUB_RULES_CHANGED
    assert stored.content_type.model == "club"
    assert stored.object_id == str(stored.club_id)
    assert stored.data == {"x": 1}


def test_an_entry_is_one_insert_whatever_it_refers_to(django_assert_num_queries):
    """Its club, actor and object are the caller's saved rows: not looked up again."""
    club = ClubFactory()
    actor = get_user_model().objects.create_user("auditor")
    audit_record(actor=actor, action=ClubVerb.CLUB_RULES_CHANGED, obj=club, club=club)  # warm
    with django_assert_num_queries(1):
        audit_record(actor=actor, action=ClubVerb.CLUB_RULES_CHANGED, obj=club, club=club)


def test_an_unknown_verb_is_still_refused():
    club = ClubFactory()
    with pytest.raises(ValidationError, match="not a registered audit verb"):
        audit_record(actor=None, action="club.nothing", obj=club, club=club)
    assert not AuditEntry.objects.exists()


def test_delete_raises(entry):
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.filter(pk=entry.pk).delete()
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_update_raises(entry):
    entry.data = {"x": 2}
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        AuditEntry.objects.filter(pk=entry.pk).update(data={"x": 3})
    assert AuditEntry.objects.get(pk=entry.pk).data == {"x": 1}


def test_admin_shows_entries_but_cannot_change_add_or_delete(client, entry):
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-123456789")
    client.force_login(admin)
    change_url = f"/admin/core/auditentry/{entry.pk}/change/"
    page = client.get(change_url)
    assert page.status_code == 200
    assert b'name="data"' not in page.content  # shown as text, no input
    assert b"Save" not in page.content
    response = client.post(change_url, {"action": "club.created", "data": "{}"})
    assert response.status_code == 403
    assert client.get("/admin/core/auditentry/add/").status_code == 403
    assert client.get(f"/admin/core/auditentry/{entry.pk}/delete/").status_code == 403
    bulk = client.post(
        "/admin/core/auditentry/",
        {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert AuditEntry.objects.get(pk=entry.pk).data == {"x": 1}
