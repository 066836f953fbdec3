"""Club services: every change is validated, saved atomically and audited once."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from club import services
from club.audit import ClubVerb
from club.models import Club, Player
from core.models import AuditEntry
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_rules_change_is_saved_and_audited_with_before_and_after():
    club = ClubFactory()
    actor = UserFactory(role="organisers")
    services.club_update_rules(club=club, actor=actor, entry_fee_cents=50, muggins=False)
    club.refresh_from_db()
    assert (club.entry_fee_cents, club.muggins) == (50, False)
    entry = AuditEntry.objects.get(action=ClubVerb.CLUB_RULES_CHANGED)
    assert entry.actor == actor
    assert entry.club == club
    assert entry.data == {
        "entry_fee_cents": {"before": 25, "after": 50},
        "muggins": {"before": True, "after": False},
    }


def test_rules_change_with_nothing_different_writes_no_entry():
    club = ClubFactory()
    services.club_update_rules(club=club, actor=None, entry_fee_cents=25)
    assert not AuditEntry.objects.filter(action=ClubVerb.CLUB_RULES_CHANGED).exists()


def test_bad_rules_change_saves_nothing():
    club = ClubFactory()
    with pytest.raises(ValidationError) as caught:
        services.club_update_rules(club=club, actor=None, entry_fee_cents=40, game_target=100)
    assert "game_target" in caught.value.message_dict
    assert Club.objects.get(pk=club.pk).entry_fee_cents == 25
    assert not AuditEntry.objects.exists()


def test_unknown_rule_is_a_programming_error():
    with pytest.raises(TypeError):
        services.club_update_rules(club=ClubFactory(), actor=None, slug="other")


def test_player_create_and_update_are_audited():
    club = ClubFactory()
    actor = UserFactory(role="organisers")
    player = services.player_create(
        club=club, actor=actor, display_name="  Ned   Novak ", joined=dt.date(2025, 1, 2)
    )
    assert player.display_name == "Ned Novak"
    created = AuditEntry.objects.get(action=ClubVerb.PLAYER_CREATED)
    assert created.data["display_name"] == "Ned Novak"
    assert created.data["joined"] == "2025-01-02"

    services.player_update(player=player, actor=actor, active=False, nickname="Ned")
    changed = AuditEntry.objects.get(action=ClubVerb.PLAYER_CHANGED)
    assert changed.data == {
        "active": {"before": True, "after": False},
        "nickname": {"before": "", "after": "Ned"},
    }


def test_player_name_clash_is_a_field_error_and_saves_nothing():
    club = ClubFactory()
    PlayerFactory(club=club, display_name="Gail Grant")
    with pytest.raises(ValidationError) as caught:
        services.player_create(club=club, actor=None, display_name="GAIL GRANT")
    assert "display_name" in caught.value.message_dict
    assert Player.objects.filter(club=club).count() == 1
    assert not AuditEntry.objects.filter(action=ClubVerb.PLAYER_CREATED).exists()


def test_one_login_is_one_player_per_club():
    club = ClubFactory()
    user = UserFactory()
    services.player_create(club=club, actor=None, display_name="A", user=user)
    with pytest.raises(ValidationError) as caught:
        services.player_create(club=club, actor=None, display_name="B", user=user)
    assert "user" in caught.value.message_dict
