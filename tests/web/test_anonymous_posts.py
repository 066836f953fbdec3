"""Anonymous posts to every URL of the site: none writes, but a table's link writes its own
table's rows and a one-time player link acts once.

Terms: the *world* is `page_world` (tests/conftest.py), built once for this module; each case
reads its objects afresh and runs in a savepoint of it, so a post's writes end with its case.
"""

import pytest
from django.urls import reverse

from core.models import AuditEntry
from tests.web.table_link_writes import assert_only_its_table_written
from tests.web.test_pages import (
    PLAYER_LINKS,
    POST_DATA,
    TABLE_LINK_POSTS,
    named_urls,
    row_counts,
    url_for,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", sorted(name for name, _ in named_urls()))
def test_anonymous_users_never_write(name, page_world, client):
    """Every URL, posted to anonymously, redirects to login or refuses, and writes nothing; a
    table's link writes its own table's rows only."""
    url = url_for(name, page_world.first_club(), page_world.fresh_objects())
    if name in TABLE_LINK_POSTS:
        assert_only_its_table_written(name, url, client, POST_DATA)
        return
    if name == "accept_link:page":  # accepting needs a player of the other side: refused
        before = row_counts()
        assert client.post(url, POST_DATA).status_code == 400
        assert row_counts() == before
        return
    if name in PLAYER_LINKS:  # the named judge rules once, audited by link with no actor
        audit = AuditEntry.objects.count()
        assert client.post(url, POST_DATA).status_code == 302
        made = AuditEntry.objects.order_by("pk")[audit:]
        assert made and all(entry.actor_id is None for entry in made)
        assert client.get(url).status_code == 200  # once, to the phone that ruled: what it ruled
        assert client.post(url, POST_DATA).status_code == 410  # spent
        return
    before = row_counts()
    response = client.post(url, POST_DATA)
    assert row_counts() == before
    if name == "login":
        assert response.status_code == 200  # the log-in form itself, showing its error
        assert response.context["form"].errors
    elif name == "welcome":
        assert response.status_code == 400  # the set-password form, showing its errors
        assert response.context["form"].errors
    elif name == "logout":
        assert response.status_code == 302  # logging out nobody is harmless
    elif name == "table:page":
        assert response.status_code == 405  # its forms post to their own addresses
    else:
        assert response.status_code in (302, 403, 405)
        if response.status_code == 302:
            assert response.url.startswith(reverse("login"))
