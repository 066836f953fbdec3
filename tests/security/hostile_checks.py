"""Checking what a hostile request answered and wrote, and posting a hostile form.

Terms:
- accepted: the view redirected without an error message; anything else is rejected, and a
  rejected post must leave every row of the core, club, games, scoring and auth-user tables as
  it was. An accepted post may write, but only what is consistent: an audit entry with every
  change, no NUL character and no text longer than its column, spreads that sum to zero, payouts
  that add up to the pot, nothing of another club touched, and the page it redirects to renders.
- inert: the raw `<script>alert` (and the other markers) never reaches an HTML response; user text
  shows up escaped (`&lt;script&gt;`).
- `FUZZ`: the hypothesis settings of every fuzzing test; `SWEEP`: the attacks each free-text
  field gets one at a time, the rest of the post valid.

Each hypothesis example runs in a savepoint that is rolled back (`run_post`), so every example
starts from the same state, built once per test through the services.
"""

from __future__ import annotations

import functools
from urllib.parse import urlencode, urlsplit

from django.apps import apps
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.db import connection, models, transaction
from django.db.models import Sum
from django.test import Client
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from club.models import CheckIn, Club, Player, Session
from core.models import AuditEntry
from games.models import ResultLine
from money.models import Settlement
from tests.security.hostile_values import EXTRA_KEYS, HOSTILE, MARKERS, MISSING
from tests.security.hostile_world_base import Target, World

# --- Checking a response --------------------------------------------------------------------------


@functools.cache
def tracked_models() -> list[type[models.Model]]:
    found = [
        model
        for label in ("core", "club", "games", "scoring", "money")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]
    user = get_user_model()
    return found + [user, user.groups.through, user.user_permissions.through]


DOMAIN_APPS = {"core", "club", "games", "scoring", "money"}


def snapshot() -> dict[str, list[tuple]]:
    """Every row of the tracked tables as the database holds it, by model label (plain SQL:
    this runs twice per post)."""
    rows = {}
    with connection.cursor() as cursor:
        for model in tracked_models():
            quote = connection.ops.quote_name
            columns = ", ".join(quote(f.column) for f in model._meta.concrete_fields)
            table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
            cursor.execute(f"SELECT {columns} FROM {table} ORDER BY {pk}")  # noqa: S608
            rows[model._meta.label] = cursor.fetchall()
    return rows


def other_club_state(w: World) -> tuple:
    return (
        list(Club.objects.filter(pk=w.other.pk).values_list()),
        list(Player.objects.filter(club=w.other).values_list()),
        list(Session.objects.filter(club=w.other).values_list()),
        list(CheckIn.objects.filter(session__club=w.other).values_list()),
        AuditEntry.objects.filter(club=w.other).count(),
    )


def assert_inert(response) -> None:
    if "html" not in response.get("Content-Type", ""):
        return
    html = response.content.decode()
    for marker in MARKERS:
        assert marker not in html, f"unescaped {marker!r} in {response.request['PATH_INFO']}"


def accepted(response) -> bool:
    if response.status_code != 302:
        return False
    return not any(m.level >= messages.ERROR for m in get_messages(response.wsgi_request))


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def assert_consistent_write(before: dict, after: dict) -> None:
    changed = {label for label in after if after[label] != before[label]}
    domain = {label for label in changed if label.split(".")[0] in DOMAIN_APPS}
    if domain - {"core.AuditEntry"}:
        audit = "core.AuditEntry"
        assert len(after[audit]) > len(before[audit]), f"{sorted(domain)} changed, no audit entry"
    for model in tracked_models():
        label = model._meta.label
        if label not in changed:
            continue
        concrete = model._meta.concrete_fields
        names = [f.attname for f in concrete]
        for row in model._base_manager.values_list(*names):  # JSON decoded
            for model_field, value in zip(concrete, row, strict=True):
                for text in strings_in(value):
                    # PostgreSQL refuses NUL in text and in jsonb: a 500 there.
                    assert "\x00" not in text, f"NUL stored in {label}.{model_field.name}"
                limit = getattr(model_field, "max_length", None)
                if isinstance(model_field, models.CharField) and limit and value:
                    # SQLite does not enforce varchar lengths; PostgreSQL does.
                    assert len(value) <= limit, f"{label}.{model_field.name} over {limit}"
    unbalanced = ResultLine.objects.values("result").annotate(total=Sum("spread")).exclude(total=0)
    assert not unbalanced.exists(), "a result's spreads do not sum to zero"
    for settlement in Settlement.objects.annotate(paid=Sum("payouts__amount_cents")):
        assert (settlement.paid or 0) == settlement.pot_cents, "payouts do not add up to the pot"


def assert_local_redirect(response) -> None:
    location = urlsplit(response.url)
    assert location.netloc in ("", "testserver"), f"redirect off the site: {response.url}"


class _Rollback(Exception):
    """Undoes one example's writes."""


FORM_URLENCODED = "application/x-www-form-urlencoded"


def run_post(w: World, target: Target, data: dict | bytes, *, urlencoded: bool = False) -> bool:
    """Post `data` as the target's user (multipart, or urlencoded; bytes are sent as they are),
    check everything, roll back. Whether the post was accepted."""
    outcome = None
    try:
        with transaction.atomic():
            client = Client()
            if target.user is not None:
                client.force_login(target.user)
            before = snapshot()
            if isinstance(data, bytes):
                response = client.post(target.url, data, content_type=FORM_URLENCODED)
            elif urlencoded:
                body = urlencode(data, doseq=True)
                response = client.post(target.url, body, content_type=FORM_URLENCODED)
            else:
                response = client.post(target.url, data)
            assert response.status_code < 500, response.content[:2000]
            assert_inert(response)
            after = snapshot()
            outcome = accepted(response)
            if outcome:
                assert other_club_state(w) == w.other_state, "another club's rows changed"
                assert_local_redirect(response)
                assert_consistent_write(before, after)
                page = client.get(response.url)
                # A `next` the user gave may name a page that does not exist: still on the site.
                given_next = ("next" if isinstance(data, dict) else b"next=") in data
                ok = (200, 404) if given_next else (200,)
                assert page.status_code in ok, f"{response.url} after the post: {page}"
                assert_inert(page)
            else:
                changed = sorted(label for label in after if after[label] != before[label])
                assert not changed, f"a rejected post ({response.status_code}) wrote {changed}"
            raise _Rollback
    except _Rollback:
        pass
    return outcome


@st.composite
def posted(draw, target: Target) -> dict:
    """A valid baseline with a few fields made hostile, or every field hostile; some fields
    missing, some repeated, and unknown keys added."""
    data = dict(draw(st.sampled_from(target.valid)))
    names = sorted(target.fields)
    if names and draw(st.booleans()):
        chosen = names
    else:
        chosen = draw(st.lists(st.sampled_from(names), max_size=3, unique=True)) if names else []
    for name in chosen:
        strategy = target.fields[name]
        value = draw(
            st.one_of(st.just(MISSING), strategy, st.lists(strategy, min_size=2, max_size=3))
        )
        if value is MISSING:
            data.pop(name, None)
        else:
            data[name] = value
    extra = draw(st.dictionaries(EXTRA_KEYS, HOSTILE, max_size=3))
    data.update({key: value for key, value in extra.items() if key not in target.fields})
    return data


FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # each example rolls back to the fixture's state
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


SWEEP = ("a\x00b", "x" * 12_000, '"><script>alert(1)</script>', "\u202eمرحبا 😀 '; --")
