"""The session page's check-in form: its blank fields are written once per process
(web.views.blank_checkin_form_html) and come out as the form's own template writes them, the name
box focused just after a check-in; a refused name comes back in a bound form with what to fix."""

import datetime as dt
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from club import services as club_services
from club.forms import CheckInForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(club, organiser):
    return club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))


def name_box(html: str) -> str:
    return re.search(r'<input type="text" name="name"[^>]*>', html).group(0)


def test_the_blank_form_is_the_forms_own_markup_focused_after_a_check_in(
    client, organiser, session
):
    client.force_login(organiser)
    url = reverse("web:session", args=[session.pk])

    page = client.get(url).content.decode()
    after = client.get(url + "?then=checkin").content.decode()

    form = CheckInForm(club=session.club)
    assert render_to_string("includes/form.html", {"form": form}).strip() in page
    assert "autofocus" not in name_box(page)
    assert "autofocus" in name_box(after)
    assert 'placeholder="Start typing a name"' in name_box(after)


def test_a_refused_name_comes_back_typed_with_what_to_fix(client, organiser, session):
    client.force_login(organiser)

    response = client.post(reverse("web:checkin_add", args=[session.pk]), {"name": "Nobody Here"})

    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="Nobody Here"' in name_box(html)
    assert "No player called &#x27;Nobody Here&#x27;" in html
    # The next blank form is blank again.
    assert 'value="' not in name_box(
        client.get(reverse("web:session", args=[session.pk])).content.decode()
    )
