"""A compiled read (core/compiled_reads.py) gives the rows its queryset gives, for any ids, in
one query, its statement built and compiled at its first call only; what it cannot keep is
refused at that call."""

import datetime as dt

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Count, F
from django.db.models.functions import Lower
from django.utils import timezone

from club.models import CheckIn, Player
from core.compiled_reads import compiled_once
from tests.factories import CheckInFactory, PlayerFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db


def checkins_by_name(session_id, club_id):
    return (
        CheckIn.objects.filter(session_id=session_id, player__club_id=club_id)
        .select_related("player", "paid_by")
        .annotate(name=F("player__display_name"))
        .order_by(Lower("player__display_name"))
    )


def players_values(club_id):
    return (
        Player.objects.filter(club_id=club_id)
        .annotate(checkins_made=Count("checkins"))
        .values("display_name", "active", "checkins_made", "pin_set_at")
        .order_by("display_name")
    )


def two_mornings():
    first, second = SessionFactory(), SessionFactory()
    paid_at = timezone.now() - dt.timedelta(minutes=5)
    for session, names in ((first, ["bea", "Al", "Cy"]), (second, ["Dot"])):
        for name in names:
            player = PlayerFactory(club=session.club, display_name=name, pin_set_at=paid_at)
            CheckInFactory(session=session, player=player, paid_at=paid_at, paid_by=UserFactory())
    return first, second


def as_compared(checkins):
    return [(c.pk, c.player.display_name, c.name, c.paid_at, c.paid_by.username) for c in checkins]


def test_it_reads_the_rows_its_queryset_reads_for_any_ids_one_query_each(
    django_assert_num_queries,
):
    read = compiled_once(checkins_by_name)
    first, second = two_mornings()

    for session in (first, second, first):
        with django_assert_num_queries(1):  # the related players and logins come with them
            rows = read(session.pk, session.club_id)
            compared = as_compared(rows)
        assert compared == as_compared(checkins_by_name(session.pk, session.club_id))
    assert [row.player.display_name for row in read(first.pk, first.club_id)] == [
        "Al",
        "bea",
        "Cy",
    ]
    assert read(first.pk, second.club_id) == []


def test_values_come_back_as_the_queryset_gives_them_converted():
    read_values = compiled_once(players_values)
    read_names = compiled_once(
        lambda club_id: (
            Player.objects.filter(club_id=club_id)
            .order_by("display_name")
            .values_list("display_name", flat=True)
        )
    )
    first, second = two_mornings()

    for club_id in (first.club_id, second.club_id):
        rows = read_values(club_id)
        assert rows == list(players_values(club_id))
        assert isinstance(rows[0]["pin_set_at"], dt.datetime)
        assert rows[0]["active"] is True
        assert read_names(club_id) == [row["display_name"] for row in rows]


def test_its_statement_is_built_once_and_reads_rows_written_after_it():
    builds = []

    def counted(club_id):
        builds.append(club_id)
        return players_values(club_id)

    read = compiled_once(counted)
    first, second = two_mornings()
    assert [row["display_name"] for row in read(first.club_id)] == ["Al", "Cy", "bea"]

    PlayerFactory(club=first.club, display_name="Ed")
    Player.objects.filter(display_name="Al").update(active=False)
    CheckIn.objects.filter(player__display_name="Cy").delete()
    Player.objects.filter(display_name="Cy").delete()

    assert [(row["display_name"], row["active"]) for row in read(first.club_id)] == [
        ("Al", False),
        ("Ed", True),
        ("bea", True),
    ]
    assert read(second.club_id)[0]["display_name"] == "Dot"
    assert len(builds) == 1


def test_what_it_cannot_keep_is_refused_at_its_first_call():
    session = SessionFactory()

    read = compiled_once(checkins_by_name)
    with pytest.raises(TypeError, match="ids"):
        read(str(session.pk), session.club_id)
    assert read(session.pk, session.club_id) == []
    with pytest.raises(TypeError, match="2 ids, not 1"):
        read(session.pk)
    sliced = compiled_once(lambda n: Player.objects.order_by("pk")[:-n])
    with pytest.raises(ImproperlyConfigured, match="parameter"):
        sliced(2)
    unused = compiled_once(lambda club_id: Player.objects.all())
    with pytest.raises(ImproperlyConfigured, match="parameter"):
        unused(session.club_id)
    with pytest.raises(ImproperlyConfigured, match="queryset"):
        compiled_once(lambda club_id: [club_id])(session.club_id)
