"""Every model in the admin: its list and one object's page render for a superuser; the models
that change only through the site are read-only there."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from club.audit import ClubVerb
from club.models import Club
from core.models import AuditEntry
from tests.factories import CheckInFactory, ResultLineFactory, SeatFactory

pytestmark = pytest.mark.django_db

READ_ONLY = {"session", "checkin", "round", "game", "result", "auditentry", "claim", "dispute"}


@pytest.fixture
def superuser_client(client):
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "pw"))
    CheckInFactory(paid=True)
    ResultLineFactory(result__game=SeatFactory().game)
    return client


@pytest.mark.parametrize(
    "model", [model for model in admin.site._registry], ids=lambda m: m._meta.label
)
def test_admin_pages_render(superuser_client, model):
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert superuser_client.get(changelist).status_code == 200
    obj = model.objects.first()
    if obj is not None:
        change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
        page = superuser_client.get(change)
        assert page.status_code == 200
        if opts.model_name in READ_ONLY:
            assert b'name="_save"' not in page.content


def test_editing_a_club_in_the_admin_goes_through_the_service(superuser_client):
    club = Club.objects.first()
    url = reverse("admin:club_club_change", args=[club.pk])
    form = superuser_client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update(entry_fee_cents=40, muggins="on" if club.muggins else "")
    data["session_start"], data["session_end"] = "09:30", "11:30"
    response = superuser_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Club.objects.get(pk=club.pk).entry_fee_cents == 40
    entry = AuditEntry.objects.get(action=ClubVerb.CLUB_RULES_CHANGED)
    assert entry.data["entry_fee_cents"] == {"before": 25, "after": 40}
