"""Downloads: every table the site exports is CSV, asked for with `?_export=csv`.

Terms:
- export trigger: the `_export` query parameter (django-tables2's name). Its one accepted value is
  `csv`; any other value (xlsx, ods, json, html, an empty value, garbage) is a 400 Bad Request, on
  every exporting page alike.
- why here: django-tables2's `ExportMixin` checks the asked format with
  `TableExport.is_valid_format`, which accepts every format tablib knows; its `export_formats`
  only lists the buttons a template may show. So `?_export=xlsx` would reach tablib and answer
  500 (its package is not installed) and json, latex and tsv would answer with the data.
  `CsvTableExport` accepts CSV alone, and `requested_format` turns any other value away before a
  table is built.
"""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django_tables2.export import ExportMixin

from core.tables import SafeTableExport

EXPORT_TRIGGER = "_export"
CSV = "csv"


class CsvTableExport(SafeTableExport):
    """The spreadsheet-safe export, in CSV and nothing else."""

    @classmethod
    def is_valid_format(cls, export_format):
        return export_format == CSV


def requested_format(request) -> str | None:
    """None when the request asks for no download, "csv" when it asks for CSV; any other value
    of the export trigger raises BadRequest (a 400 page)."""
    if EXPORT_TRIGGER not in request.GET:
        return None
    if request.GET.get(EXPORT_TRIGGER) != CSV:
        raise BadRequest(f"Downloads are CSV only: ?{EXPORT_TRIGGER}={CSV}.")
    return CSV


def csv_response(table, filename: str):
    """The table as a CSV download (the columns and order of the table as configured)."""
    return CsvTableExport(CSV, table).response(filename=filename)


class CsvExportMixin(ExportMixin):
    """django-tables2's ExportMixin held to CSV: every view that exports a table uses this."""

    export_class = CsvTableExport
    export_formats = (CSV,)
    export_trigger_param = EXPORT_TRIGGER

    def dispatch(self, request, *args, **kwargs):
        # After the permission checks of the mixins before this one; before any table is built.
        requested_format(request)
        return super().dispatch(request, *args, **kwargs)
