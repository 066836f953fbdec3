"""A login name no login can have (too long, or holding a NUL) is a form error before any
password is checked, so django-axes records nothing and PostgreSQL is never asked to store or
compare it (the PostgreSQL run of the hostile-input suite found both as 500s: "value too long for
type character varying(255)" and "text fields cannot contain NUL")."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

IMPOSSIBLE = ["x" * 12_000, "x" * 151, "pat\x00cowley"]


@pytest.mark.parametrize("name", IMPOSSIBLE, ids=["12000", "151", "nul"])
def test_an_impossible_login_name_is_a_form_error_and_is_not_recorded(name):
    response = Client().post(reverse("login"), {"username": name, "password": "wrong"})

    assert response.status_code == 200
    assert response.context["form"].errors
    assert not AccessAttempt.objects.exists()


def test_a_possible_wrong_name_is_still_counted():
    Client().post(reverse("login"), {"username": "x" * 150, "password": "wrong"})
    assert AccessAttempt.objects.get().username == "x" * 150


@pytest.mark.parametrize("name", IMPOSSIBLE, ids=["12000", "151", "nul"])
def test_lifting_an_impossible_login_name_is_a_404(name, client_for):
    response = client_for("organiser").post(reverse("web:lockout_lift"), {"username": name})
    assert response.status_code == 404
