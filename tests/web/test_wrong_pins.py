"""Wrong table PINs on the organisers' session page: each player whose PIN was typed wrong at a
table this session, how many times and when last, with a link to set them a new PIN (or that
one was set since). Only those who set others' PINs see it; the clock is patched."""

import datetime as dt
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from club.services import pins
from tests.factories import PlayerFactory, SessionFactory

pytestmark = pytest.mark.django_db


def at(date: dt.date, hour: int, minute: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(date, dt.time(hour, minute)))


@pytest.fixture
def sam(club, organiser, clock):
    """Sam Smith, whose PIN was set eight days ago."""
    clock.now = at(timezone.localdate() - dt.timedelta(days=8), 9, 0)
    player = PlayerFactory(club=club, display_name="Sam Smith")
    pins.pin_set(player=player, actor=organiser, pin="2468")
    return player


def type_wrong(session, player, times: int, clock) -> None:
    for _ in range(times):
        with pytest.raises(ValidationError):
            pins.pin_verify(session=session, player=player, pin="0000")
        clock.advance(30)  # past each wait


def notice(response) -> str:
    html = response.content.decode()
    found = re.search(r'<section[^>]*data-testid="wrong-pins".*?</section>', html, re.S)
    return found[0] if found else ""


def test_the_organiser_sees_wrong_pins_typed_this_session(client, club, organiser, sam, clock):
    last_week = SessionFactory(club=club, date=timezone.localdate() - dt.timedelta(days=7))
    today = SessionFactory(club=club, date=timezone.localdate())
    clock.now = at(last_week.date, 10, 0)
    type_wrong(last_week, sam, 2, clock)
    clock.now = at(today.date, 10, 2)
    type_wrong(today, sam, 5, clock)
    client.force_login(organiser)
    page = client.get(reverse("web:session", args=[today.pk]))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", notice(page)))
    assert "Sam Smith: 5 wrong PINs at a table this session, the last at 10:04 AM" in text
    link = reverse("club:player_login", args=[sam.pk]) + "#pin"
    assert f'href="{link}"' in notice(page)
    assert "Set Sam Smith a new PIN" in text
    # The week before counts only its own.
    before = client.get(reverse("web:session", args=[last_week.pk]))
    assert "Sam Smith: 2 wrong PINs at a table this session" in re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", notice(before))
    )


def test_a_new_pin_set_since_is_said_instead_of_the_link(client, club, organiser, sam, clock):
    today = SessionFactory(club=club, date=timezone.localdate())
    clock.now = at(today.date, 10, 0)
    type_wrong(today, sam, 4, clock)
    pins.pin_set(player=sam, actor=organiser, pin="1357")
    client.force_login(organiser)
    shown = notice(client.get(reverse("web:session", args=[today.pk])))
    assert "Sam Smith: 4 wrong PINs" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown))
    assert "A new PIN was set since" in shown
    assert reverse("club:player_login", args=[sam.pk]) not in shown


def test_no_notice_without_wrong_pins(client, club, organiser, sam):
    today = SessionFactory(club=club, date=timezone.localdate())
    client.force_login(organiser)
    assert notice(client.get(reverse("web:session", args=[today.pk]))) == ""


@pytest.mark.parametrize("role", ["public", "player", "judge"])
def test_only_those_who_set_pins_see_it(client_for, club, organiser, sam, clock, role):
    today = SessionFactory(club=club, date=timezone.localdate())
    clock.now = at(today.date, 10, 0)
    type_wrong(today, sam, 4, clock)
    page = client_for(role).get(reverse("web:session", args=[today.pk]))
    assert page.status_code == 200
    assert notice(page) == ""
    assert "wrong PIN" not in page.content.decode()
