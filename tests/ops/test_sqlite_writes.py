"""Phones writing at once to a venue laptop on SQLite get no error: the `sqlite_writes` bench,
short, against gunicorn with 2 workers.

Without SQLite set to wait its turn (config/settings.py), this run ends in a handful of 500 pages
("database is locked" in gunicorn's log) in every 3 seconds.
"""

import os

import pytest
from django.db import connection

from ops.sqlite_writes import sqlite_writes, static_files_current


@pytest.mark.skipif(
    connection.vendor != "sqlite",
    reason="The bench builds a SQLite file of its own: the SQLite run covers this.",
)
def test_eight_phones_writing_at_once_get_no_error(checkout_static_files):
    """8 clients, 3 seconds, the demo club without its past season (the whole run stays near
    20 s: migrating the fresh file is most of it)."""
    report = sqlite_writes(clients=8, seconds=3, season=False)
    assert report["logged_in"] == 8
    assert report["writes"] >= 8, report
    assert report["writes_per_s"] == pytest.approx(report["writes"] / report["seconds"], rel=0.05)
    assert report["database_locked_in_log"] == 0, report
    assert report["errors"] == 0, report
    assert report["refusals"] == 0, report
    writes = report["statuses"]["POST"]
    assert set(writes) == {"302"}, writes  # every post answered by its redirect


def test_the_static_files_are_collected_again_only_when_a_source_is_newer(tmp_path, settings):
    """The setup leaves the collected files alone (another run in this checkout may be serving
    them) unless the manifest is missing or older than a source file."""
    source, collected = tmp_path / "static", tmp_path / "collected"
    source.mkdir()
    collected.mkdir()
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = collected
    (source / "site.css").write_text("body {}")
    assert not static_files_current()  # never collected
    manifest = collected / "staticfiles.json"
    manifest.write_text("{}")
    os.utime(source / "site.css", (1_000_000, 1_000_000))
    assert static_files_current()
    (source / "new.js").write_text("")  # newer than the manifest
    os.utime(manifest, (2_000_000, 2_000_000))
    assert not static_files_current()
