"""The house rule "entry fee per session or per game" (docs/spec.md "The club's house rules":
entry fee [25¢] per [session] or per game): the organiser sets it on the rules form, the rules
page says it, a session keeps the rule it was opened under."""

import datetime as dt

import pytest
from django.urls import reverse

from club import services as club_services
from club.audit import ClubVerb
from core.models import AuditEntry
from tests.builders import house_rules_post
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_an_organiser_sets_the_fee_per_game_and_the_rules_page_says_so(client, club):
    organiser = UserFactory(role="organisers", club=club)
    client.force_login(organiser)
    page = client.get(reverse("club:rules")).content.decode()
    assert "25¢ per session" in page

    response = client.post(
        reverse("club:rules_edit"), house_rules_post(client) | {"fee_per": "game"}, follow=True
    )

    assert response.status_code == 200
    club.refresh_from_db()
    assert club.fee_per == "game"
    entry = AuditEntry.objects.filter(action=ClubVerb.CLUB_RULES_CHANGED).latest("pk")
    assert entry.data == {"fee_per": {"before": "session", "after": "game"}}
    assert "25¢ per game" in client.get(reverse("club:rules")).content.decode()


def test_a_bad_choice_is_a_field_error_and_nothing_changes(client, club):
    client.force_login(UserFactory(role="organisers", club=club))
    response = client.post(
        reverse("club:rules_edit"), house_rules_post(client) | {"fee_per": "month"}
    )
    assert response.status_code == 200  # the form again, with the error on the field
    assert "fee_per" in response.context["form"].errors
    club.refresh_from_db()
    assert club.fee_per == "session"


def test_a_session_keeps_the_rule_it_was_opened_under(club):
    organiser = UserFactory(role="organisers", club=club)
    club.fee_per = "game"
    club.save()
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    club.fee_per = "session"
    club.save()
    session.refresh_from_db()
    assert session.house_rules.fee_per_game
