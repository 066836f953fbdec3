"""Fixtures of the backup checks' tests (tests/ops/test_backup_checks.py,
tests/ops/test_backup_claims.py).

Terms: the *document* is the export of the history (tests/ops/backup_support.py), built once
per test module and rolled back, so every test starts from an empty database; each test gets
its own copy to edit.
"""

import copy
import json

import pytest
from django.db import transaction

from club.models import Player
from tests.ops.backup_support import build_history, export_text


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker) -> dict:
    """The history's document, and the id of the other club's player (not in it)."""
    with django_db_blocker.unblock(), transaction.atomic():
        build_history()
        document = json.loads(export_text())
        document["outsider"] = Player.objects.get(display_name="Otto Outsider").pk
        transaction.set_rollback(True)
    return document


@pytest.fixture
def document(exported) -> dict:
    copied = copy.deepcopy(exported)
    del copied["outsider"]
    return copied
