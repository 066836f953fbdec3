"""What every table of the site shares (django-tables2): the one column class that shows cents,
and the export every download uses, with cells a spreadsheet shows as text.

Terms:
- spreadsheet-safe: a cell that starts like a formula ("=HYPERLINK(...)", a name someone typed)
  is written with a leading apostrophe, so a spreadsheet shows it instead of running it.
"""

import django_tables2 as tables
from django_tables2.export import TableExport

from core.templatetags.pegboard import cents

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell):
    """A cell a spreadsheet will show as text: one that starts like a formula (a player named
    "=HYPERLINK(...)") gets a leading apostrophe; numbers, signed ones too, stay as they are."""
    if not isinstance(cell, str) or not cell.startswith(FORMULA_STARTS):
        return cell
    try:
        float(cell)
    except ValueError:
        return "'" + cell
    return cell


class SafeTableExport(TableExport):
    """django-tables2's export with every text cell made spreadsheet-safe."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        rows = [tuple(spreadsheet_safe(cell) for cell in row) for row in dataset]
        headers = dataset.headers
        dataset.wipe()
        dataset.headers = headers
        dataset.extend(rows)
        return dataset


class CentsColumn(tables.Column):
    """Integer cents shown as 25¢ or $3.25; the only place tables format money."""

    def render(self, value):
        return cents(value)
