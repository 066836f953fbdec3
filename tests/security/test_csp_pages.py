"""Every page of the page table (tests/web/test_pages.py `PAGES`), to a visitor and to an
organiser, carries the site's Content-Security-Policy and needs nothing inline
(tests/security/test_csp.py says what that means and checks the rest).

Terms: the *world* is `page_world` (tests/conftest.py), built once for this module; each case
reads its objects afresh and runs in a savepoint of it.
"""

import pytest

from tests.security.test_csp import POLICY, inline_in, policy_of
from tests.web.test_pages import PAGES, url_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("column", ["public", "organiser"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_carries_the_policy_and_needs_nothing_inline(name, column, page_world, client):
    url = url_for(name, page_world.first_club(), page_world.fresh_objects())
    page_world.client_as(client, column)
    response = client.get(url)
    assert policy_of(response) == POLICY
    if "html" in response.get("Content-Type", ""):
        assert not inline_in(response.content.decode()), url
