"""The club's "high contrast, large type" setting: an organiser turns it on with the house rules
form; it is audited, the rules page says so, and every page of the club (the live board too) carries
<html class="large-type">, which the stylesheet draws black on white at 20 px
(tests/browser/test_crawl.py crawls the pages with it on)."""

import pytest
from django.urls import reverse

from club.audit import ClubVerb
from core.models import AuditEntry
from tests.builders import house_rules_post
from tests.factories import SessionFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_an_organiser_turns_on_large_type_for_the_club(client, club):
    organiser = UserFactory(role="organisers", club=club)
    client.force_login(organiser)
    assert 'class="large-type"' not in client.get(reverse("home")).content.decode()
    posted = house_rules_post(client) | {"large_type": "on"}

    response = client.post(reverse("club:rules_edit"), posted, follow=True)

    assert response.status_code == 200
    club.refresh_from_db()
    assert club.large_type is True
    entry = AuditEntry.objects.filter(action=ClubVerb.CLUB_RULES_CHANGED).latest("pk")
    assert entry.data == {"large_type": {"before": False, "after": True}}
    session = SessionFactory(club=club)
    for url in (
        reverse("home"),
        reverse("club:rules"),
        reverse("web:session", args=[session.pk]),
        reverse("web:board", args=[session.pk]),
    ):
        html = client.get(url).content.decode()
        assert '<html lang="en" class="large-type">' in html, url
    assert "high contrast, large type" in client.get(reverse("club:rules")).content.decode()


def test_without_the_setting_pages_have_the_standard_look(client, club):
    client.force_login(UserFactory(role="players", club=club))
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="en">' in html
