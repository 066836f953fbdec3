"""Forms of the web app: logging in, and naming a login to lift its lock-out.

Terms: a *login name* is what a person types as their username. Django's login form shows the
username's maximum length in the page but does not check it, so a 12,000-character name reached
the authentication backends, and django-axes, which records every failed login, then failed to
store it (PostgreSQL: "value too long", a 500). Both forms here check the name first (its length,
and no NUL character: PostgreSQL's text cannot hold one), so such a name is a form error and
nothing is recorded.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator

LOGIN_NAME_MAX = get_user_model()._meta.get_field("username").max_length


class LoginForm(AuthenticationForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(MaxLengthValidator(LOGIN_NAME_MAX))


class LoginNameForm(forms.Form):
    username = forms.CharField(max_length=LOGIN_NAME_MAX)
