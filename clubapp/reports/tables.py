"""The page of an exported list as a django-tables2 table, so it shares the one table
template and its phone layout with every other list (templates/core/_table.html).

The columns are the export's (``ListSpec.columns``), with the column that says who or
what the row is (``ListSpec.lead``) moved first; the files keep their own order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubapp.reports.lists import ListSpec
from clubapp.reports.xlsx import Column

_WORDS = {"text", "label"}


class ListPageTable(tables.Table):
    """Columns come per list (``extra_columns``); one page of rows, already sliced."""

    class Meta:
        orderable = False
        empty_text = _("Nothing matches.")


def page_order(spec: ListSpec) -> list[int]:
    """The export's column indexes, the lead column first."""
    indexes = list(range(len(spec.columns())))
    indexes.remove(spec.lead)
    return [spec.lead, *indexes]


def _column(column: Column) -> tables.Column:
    css = "words" if column.kind in _WORDS else "num"
    attrs = {"th": {"class": css}, "td": {"class": css}}
    if column.kind == "datetime":
        return tables.DateTimeColumn(
            verbose_name=column.title, format="Y-m-d H:i", default="", attrs=attrs
        )
    if column.kind == "date":
        return tables.DateColumn(verbose_name=column.title, format="Y-m-d", default="", attrs=attrs)
    return tables.Column(verbose_name=column.title, default="", attrs=attrs)


def list_table(spec: ListSpec, rows: Iterable[Sequence[Any]]) -> ListPageTable:
    columns = spec.columns()
    order = page_order(spec)
    data = [{f"c{i}": row[i] for i in order} for row in rows]
    return ListPageTable(data, extra_columns=[(f"c{i}", _column(columns[i])) for i in order])
