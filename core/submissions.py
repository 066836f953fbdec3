"""Double posts: a form saved once, however many times it is posted.

Terms:
- submission token: a random string a form carries in a hidden field (`TOKEN_FIELD`), made when
  the page renders (`OneTimeFormMixin`, a form's). The service that saves the form spends it in
  its own transaction (`spend_token`): one `SubmissionToken` row, unique. A second post of the
  same page (a double click, a resent form, the back button) carries the same token; its insert
  hits the unique constraint and the service raises `AlreadySaved` instead of saving again.
- natural key: where the rows themselves refuse a second identical post (a round's number, a
  player checked in once, one session per date), no token is needed; the round draw says which
  round it draws and is a no-op when that round exists (`AlreadySaved` too).

The token insert is the serialisation point: on PostgreSQL a second insert of the same token
waits for the first transaction, then fails (or goes ahead, if the first rolled back). A service
spends its token first, before it locks anything, so the waiting transaction holds no lock. A
post without a token (API callers, old pages, tests) is not guarded.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from django import forms
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from core.models import SubmissionToken

TOKEN_FIELD = "submission_token"
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{20,64}")
ALREADY_SAVED = "This was already saved."
STALE_FORM = "This form is out of date: reload the page and fill it in again."


class AlreadySaved(ValidationError):
    """The post was saved before (its token is spent, or what it makes exists): nothing was
    saved now. `made` names what the first post made ("app_label.model:pk"), or is empty. A
    ValidationError, so a page that does not expect it still shows the message, never a 500."""

    def __init__(self, message: str = ALREADY_SAVED, *, made: str = ""):
        super().__init__(message, code="already_saved")
        self.made = made

    def made_pk(self, model: type[models.Model]) -> int | None:
        """The pk of what the first post made, when it is a `model`."""
        label, _, pk = self.made.partition(":")
        return int(pk) if label == model._meta.label_lower and pk.isdigit() else None


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 32 characters of [A-Za-z0-9_-]


def label_of(obj: models.Model) -> str:
    return f"{obj._meta.label_lower}:{obj.pk}"


def spend_token(*, token: str | None, actor) -> Callable[[models.Model], None]:
    """Spend a form's token inside the calling service's transaction, before it locks anything.

    Returns `made(obj)`, which records what the post made (for the second post's redirect).
    Raises AlreadySaved when the token is spent already, and ValidationError when it is not a
    token this site makes. No token: no guard (and `made` does nothing).
    """
    if not token:
        return _nothing
    if not TOKEN_PATTERN.fullmatch(token):
        raise ValidationError(STALE_FORM)
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("spend_token runs inside the service's transaction.")
    user = actor if getattr(actor, "is_authenticated", False) else None
    try:
        with transaction.atomic():
            row = SubmissionToken.objects.create(token=token, user=user)
    except IntegrityError:
        made = SubmissionToken.objects.filter(token=token).values_list("made", flat=True).first()
        raise AlreadySaved(made=made or "") from None

    def made(obj: models.Model) -> None:
        SubmissionToken.objects.filter(pk=row.pk).update(made=label_of(obj))

    return made


def refuse_spent(token: str | None) -> None:
    """Raise AlreadySaved when `token` is spent already: for a service that checks something
    before its transaction (a table PIN, whose wrong tries are kept), so a second post of a
    saved form says it was saved rather than why it could not be saved again. `spend_token`
    still decides, in the transaction."""
    if token and TOKEN_PATTERN.fullmatch(token):
        made = SubmissionToken.objects.filter(token=token).values_list("made", flat=True).first()
        if made is not None:
            raise AlreadySaved(made=made)


def _nothing(obj: models.Model) -> None:
    return None


class OneTimeFormMixin:
    """A form saved once however often it is posted: it carries a one-time token in a hidden
    field, made when the page renders and kept when the page renders again with the form's
    errors. The view passes `form.submission_token()` to the service, which spends it; a token
    that is not one of ours is a form error (the page is out of date). Put it before
    `forms.Form` in the bases."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields[TOKEN_FIELD] = forms.CharField(
            required=False, widget=forms.HiddenInput, initial=new_token()
        )

    def clean(self):
        data = super().clean()
        token = data.get(TOKEN_FIELD, "")
        if TOKEN_FIELD in self.errors or (token and not TOKEN_PATTERN.fullmatch(token)):
            self.errors.pop(TOKEN_FIELD, None)
            data.pop(TOKEN_FIELD, None)
            self.add_error(None, STALE_FORM)
        return data

    def submission_token(self) -> str:
        return self.cleaned_data.get(TOKEN_FIELD) or ""
