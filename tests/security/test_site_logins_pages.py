"""No page of either club reaches a site administrator's login (tests/security/test_site_logins.py
says what a *site login* is and what *reached* means).

Terms: the *world* is `page_world` (tests/conftest.py), built once for this module: two clubs,
each with an organiser; every page of the page table (tests/web/test_pages.py) is opened and
posted to by each organiser with the site logins' usernames in the fields a page could read one
from. Each case runs in a savepoint of the world.
"""

import pytest
from django.test import Client

from tests.security.test_site_logins import NAME_FIELDS, make_site_logins, state
from tests.web.test_pages import PAGES, POST_DATA, url_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def site_logins():
    return make_site_logins()


@pytest.mark.parametrize("name", sorted(PAGES))
def test_no_page_of_either_club_reaches_a_site_login(name, site_logins, page_world):
    url = url_for(name, page_world.first_club(), page_world.fresh_objects())
    before = state(site_logins)

    for organiser in (page_world.login("organiser"), page_world.login("b_organiser")):
        client = Client()
        client.force_login(organiser)
        client.get(url)
        for login in site_logins:
            names = dict.fromkeys(NAME_FIELDS, login.username)
            assert client.post(url, {**POST_DATA, **names}).status_code < 500

    assert state(site_logins) == before
