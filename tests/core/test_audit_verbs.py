"""Audit verbs belong to the apps (core.verbs): each app registers its own, the audit trail
stores any registered verb and refuses others, and a new verb needs no migration of club."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import models

from club.audit import ClubVerb
from club.filters import AuditFilter
from core import verbs
from core.audit import audit_record, audit_record_many
from core.models import AuditEntry
from games.audit import GameVerb
from money.audit import MoneyVerb
from scoring.audit import ScoringVerb
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def registry(monkeypatch):
    """A copy of the registry for the test to add to; the real one is left as it was."""
    monkeypatch.setattr(verbs, "_VERBS", dict(verbs._VERBS))
    return verbs


def test_every_app_registers_its_own_verbs():
    for app_verbs in (ClubVerb, GameVerb, ScoringVerb, MoneyVerb):
        for value, label in app_verbs.choices:
            assert verbs.is_verb(value) and verbs.verb_label(value) == label
    prefixes = {value.split(".")[0] for value in MoneyVerb.values}
    # settling and reopening; skunk coins; the fee per game's payments and change
    assert prefixes == {"session", "skunk_coin", "fee"}
    # The verbs stored before the apps owned them are the same text, so old entries still read.
    assert {value for value, _ in verbs.verb_choices()} >= {
        "club.rules_changed",
        "round.drawn",
        "session.settled",
        "dispute.appealed",
    }


def test_an_unregistered_verb_is_refused_and_nothing_is_written():
    club = ClubFactory()
    before = AuditEntry.objects.count()
    with pytest.raises(ValidationError, match="not a registered audit verb"):
        audit_record(actor=None, action="club.exploded", obj=club, club=club)
    with pytest.raises(ValidationError, match="not a registered audit verb"):
        audit_record_many(actor=None, action="club.exploded", club=club, entries=[(club, {})])
    assert AuditEntry.objects.count() == before


def test_a_new_verb_is_stored_and_shown_without_a_migration(registry):
    @registry.register_verbs
    class TournamentVerb(models.TextChoices):
        BRACKET_DRAWN = "bracket.drawn", "Bracket drawn"

    club = ClubFactory()
    entry = audit_record(actor=None, action=TournamentVerb.BRACKET_DRAWN, obj=club, club=club)
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert (stored.action, stored.get_action_display()) == ("bracket.drawn", "Bracket drawn")
    assert "Bracket drawn" in str(stored)
    assert ("bracket.drawn", "Bracket drawn") in AuditFilter().filters["action"].field.choices
    assert not AuditEntry._meta.get_field("action").choices  # the verbs are not in the schema
    out = io.StringIO()
    call_command("makemigrations", "club", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_a_verb_cannot_be_registered_with_another_meaning(registry):
    class Clash(models.TextChoices):
        SETTLED = "session.settled", "Session paid out twice"

    with pytest.raises(ValueError, match="already registered"):
        registry.register_verbs(Clash)
    assert verbs.verb_label("session.settled") == "Session settled"


def test_an_entry_whose_verb_is_gone_still_shows():
    assert verbs.verb_label("retired.verb") == "retired.verb"
