"""Every download is CSV: `?_export=csv` gives text/csv on every page that exports a table; any
other `_export` value is a 400, on every exporting page alike, the other formats django-tables2
knows included (xlsx, xls, ods and yaml would be a 500 without their libraries; json, latex, tsv
and html would hand out the data unchecked)."""

import datetime as dt
import re
from pathlib import Path

import pytest
from django_tables2.export import ExportMixin

from core.export import CsvExportMixin
from money.services import session_settle
from tests.builders import run_session
from tests.factories import UserFactory
from tests.web.test_pages import named_urls

pytestmark = pytest.mark.django_db

OTHER_TABLES2_FORMATS = ("xlsx", "xls", "ods", "yaml", "json", "latex", "tsv", "html")
GARBAGE = ("pdf", "CSV", "csv ", "", "csv,xlsx", "../etc/passwd", "\x00")


@pytest.fixture
def exporting_urls(club, member):
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    session = run_session(club, organiser, confirmer, players=4, rounds=1, date=dt.date(2025, 2, 6))
    session_settle(session=session, actor=organiser)
    return organiser, {  # name: (path, query)
        "season standings": ("/games/standings/", {"season": "2025"}),
        "all-time": ("/games/all-time/", {"sort": "player"}),
        "ledger": ("/club/ledger/", {}),
        "session standings": (f"/club/sessions/{session.pk}/export/", {"table": "standings"}),
        "session results": (f"/club/sessions/{session.pk}/export/", {"table": "results"}),
    }


@pytest.mark.parametrize("visitor", [False, True], ids=["organiser", "visitor"])
def test_csv_is_the_one_format_every_page_exports(client, exporting_urls, visitor):
    organiser, urls = exporting_urls
    if not visitor:
        client.force_login(organiser)
    for name, (path, query) in urls.items():
        if visitor and name == "ledger":
            continue  # organisers only
        response = client.get(path, {**query, "_export": "csv"})
        assert response.status_code == 200, name
        assert response["Content-Type"] == "text/csv; charset=utf-8", name
        assert response.content.count(b"\n") > 1, name
        for fmt in OTHER_TABLES2_FORMATS + GARBAGE:
            response = client.get(path, {**query, "_export": fmt})
            assert response.status_code == 400, (name, fmt, response.status_code)
            assert response["Content-Type"].startswith("text/html"), (name, fmt)


def test_a_bad_format_is_not_cached_for_visitors(client, exporting_urls):
    _, urls = exporting_urls
    path, query = urls["season standings"]
    assert client.get(path, {**query, "_export": "xlsx"}).status_code == 400
    assert client.get(path, {**query, "_export": "xlsx"}).status_code == 400
    assert client.get(path, query).status_code == 200
    assert client.get(path, {**query, "_export": "csv"})["Content-Type"].startswith("text/csv")
    assert client.get(path, query)["Content-Type"].startswith("text/html")


def test_every_exporting_view_goes_through_the_csv_only_path():
    """A view that exports a table uses core.export.CsvExportMixin, and no app module builds an
    exporter of its own (django-tables2's ExportMixin or TableExport alone accept every format)."""
    exporting = {
        name: pattern.callback.view_class
        for name, pattern in named_urls()
        if issubclass(getattr(pattern.callback, "view_class", object), ExportMixin)
    }
    assert {"standings:season", "standings:all_time", "money:ledger"} <= set(exporting)
    assert all(issubclass(view, CsvExportMixin) for view in exporting.values()), exporting
    root = Path(__file__).resolve().parents[2]
    allowed = {root / "core" / "tables.py", root / "core" / "export.py"}
    builders = [
        path
        for app in ("core", "club", "games", "scoring", "money", "standings", "web", "ops")
        for path in (root / app).rglob("*.py")
        if path not in allowed
        and re.search(r"\b(Safe)?TableExport\b|\bExportMixin\b", path.read_text())
    ]
    assert not builders, builders
