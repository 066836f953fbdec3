"""Every page of the page table (tests/web/test_pages.py `PAGES`) answers each role as the table
says, published and private.

Terms: the *world* is `page_world` (tests/conftest.py): two clubs with a session, a game, a claim
under dispute, a tournament..., and a login for each column of the table, built once for this
module; each case reads its objects afresh and runs in a savepoint of it. The world's clubs are
the only clubs while this module runs, so the first is the anonymous visitors' club.
"""

import pytest

from club.models import Club
from tests.web.test_pages import COLUMNS, PAGES, assert_status, url_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("published", [True, False], ids=["published", "private"])
@pytest.mark.parametrize("name", sorted(PAGES))
@pytest.mark.parametrize("column", COLUMNS)
def test_page_status_for_each_role(column, name, published, page_world, client):
    """Both clubs have a session, a game, a claim, a tournament...; the URL names this club's."""
    Club.objects.filter(pk=page_world.club).update(standings_public=published)
    url = url_for(name, page_world.first_club(), page_world.fresh_objects())
    page_world.client_as(client, column)
    response = client.get(url)
    assert_status(response, PAGES[name][COLUMNS.index(column)], published)
