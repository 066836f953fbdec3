"""The session engine (core/sessions.py) reads each request's session by a plain statement: the
sessions Django's database engine reads, in one query, and none that has expired."""

import datetime as dt

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from core.sessions import SessionStore
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def saved_session(**values) -> str:
    store = SessionStore()
    store.update(values)
    store.save()
    return store.session_key


def expiring_in(key: str, seconds: float) -> None:
    Session.objects.filter(pk=key).update(
        expire_date=timezone.now() + dt.timedelta(seconds=seconds)
    )


def test_a_logged_in_request_reads_its_session_through_it(client):
    client.force_login(UserFactory())

    request = client.get(reverse("home")).wsgi_request

    assert type(request.session) is SessionStore and request.user.is_authenticated


def test_a_saved_session_is_read_back_whole_in_one_query(django_assert_num_queries):
    key = saved_session(player=7, name="Ann")

    with django_assert_num_queries(1):
        read = SessionStore(session_key=key)
        assert dict(read.items()) == {"player": 7, "name": "Ann"}
    assert dict(DjangoSessionStore(session_key=key).items()) == dict(read.items())


@pytest.mark.parametrize("seconds, read", [(5, True), (-5, False)])
def test_a_session_is_read_until_it_expires(seconds, read):
    """Five seconds either side of the expiry, as Django's own engine decides it (on SQLite the
    stored date is text: the bound must be written as the ORM writes it)."""
    key = saved_session(player=7)
    expiring_in(key, seconds)

    ours, django = SessionStore(session_key=key), DjangoSessionStore(session_key=key)

    assert ("player" in ours) is read and ("player" in django) is read
    assert (ours.session_key == key) is read  # an expired one gives way to a new session


def test_a_session_gone_starts_a_new_one():
    key = saved_session(player=7)
    Session.objects.filter(pk=key).delete()

    store = SessionStore(session_key=key)

    assert not store.items() and store.session_key is None
