"""The one-time submission token (core.submissions and its OneTimeFormMixin): a form carries
a token made when the page renders; the service that saves it spends the token in its
transaction, and a second post of the same token saves nothing and is told "This was already
saved." A post without a token is not guarded (API callers, old pages)."""

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction

from core.models import SubmissionToken
from core.submissions import (
    ALREADY_SAVED,
    STALE_FORM,
    TOKEN_FIELD,
    AlreadySaved,
    OneTimeFormMixin,
    new_token,
    spend_token,
)
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def spend(token, actor=None):
    with transaction.atomic():
        return spend_token(token=token, actor=actor)


def test_a_token_is_spent_once_and_the_second_spend_names_what_the_first_made():
    user = UserFactory()
    club = ClubFactory()
    token = new_token()
    made = spend(token, user)
    made(club)
    row = SubmissionToken.objects.get(token=token)
    assert (row.user, row.made) == (user, f"club.club:{club.pk}")

    with pytest.raises(AlreadySaved) as caught:
        spend(token, user)
    assert caught.value.message == ALREADY_SAVED
    assert caught.value.made_pk(type(club)) == club.pk
    assert caught.value.made_pk(type(user)) is None
    assert SubmissionToken.objects.count() == 1


def test_a_token_spent_in_a_transaction_that_failed_is_not_spent():
    """A post refused by the service (a form error) may be posted again, corrected, with the
    same token: the token went back with the refused transaction."""
    token = new_token()
    with pytest.raises(ValidationError), transaction.atomic():
        spend_token(token=token, actor=None)
        raise ValidationError("refused")
    assert not SubmissionToken.objects.exists()
    spend(token)
    assert SubmissionToken.objects.count() == 1


def test_no_token_no_guard():
    made = spend("")
    made(ClubFactory())
    spend(None)
    assert not SubmissionToken.objects.exists()


@pytest.mark.parametrize("token", ["short", "x" * 65, "a\x00" * 20, "<script>alert(1)</script>xx"])
def test_a_token_that_is_not_ours_is_refused(token):
    with pytest.raises(ValidationError, match="out of date"):
        spend(token)
    assert not SubmissionToken.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_token_is_spent_inside_a_transaction_only():
    """Outside one, the token would be spent even if the service then failed."""
    with pytest.raises(RuntimeError):
        spend_token(token=new_token(), actor=None)


def test_already_saved_is_a_validation_error():
    """A page that does not expect it still shows the message (never a server error)."""
    assert isinstance(AlreadySaved(), ValidationError)


class NoteForm(OneTimeFormMixin, forms.Form):
    note = forms.CharField()


def test_the_form_renders_a_fresh_token_in_a_hidden_field():
    first, second = NoteForm(), NoteForm()
    html = str(first)
    token = first[TOKEN_FIELD].value()
    assert f'type="hidden" name="{TOKEN_FIELD}" value="{token}"' in html
    assert token != second[TOKEN_FIELD].value()
    assert len(token) >= 20


def test_the_form_keeps_the_posted_token_when_it_renders_again():
    token = new_token()
    form = NoteForm({TOKEN_FIELD: token})  # the note is missing: the page renders again
    assert not form.is_valid()
    assert form[TOKEN_FIELD].value() == token
    assert form.submission_token() == token


def test_a_form_without_a_token_is_valid_and_unguarded():
    form = NoteForm({"note": "hi"})
    assert form.is_valid()
    assert form.submission_token() == ""


@pytest.mark.parametrize("token", ["short", "x" * 12_000, "a\x00b" * 10, "'; drop table x; --"])
def test_a_bad_token_is_a_form_error_that_shows(token):
    form = NoteForm({"note": "hi", TOKEN_FIELD: token})
    assert not form.is_valid()
    assert form.non_field_errors() == [STALE_FORM]
    assert TOKEN_FIELD not in form.errors
