"""Excel (xlsx) and CSV writing for every report and list.

Two ways to write a sheet, one set of columns:

* ``table_sheet`` adds a sheet to an XlsxWriter workbook: the monthly report's
  sections, a settlement sheet. Small, several sheets, SUM formulas, each formula
  written with its value (XlsxWriter's ``write_formula(..., value)``; openpyxl can
  write a formula but never its value, and a preview that does not compute, on a
  phone or in WPS, then shows a blank: docs/reports.md).
* ``xlsx_stream`` writes a one-sheet workbook row by row into a zip stream, so a
  download of a million rows starts at once and never holds the file: XlsxWriter
  makes the package (styles, frozen header, column widths) from the header and
  one styled row; the rows themselves are written here as the SpreadsheetML
  XlsxWriter would write (inline strings and numbers), about ten times faster than
  a library's cell objects and with no temporary file (docs/reports.md). The total
  row's SUM formulas carry their values here too.

Every text a user typed (names, descriptions) goes through ``cell_text``: a cell
that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets an
apostrophe in front, so that Excel, WPS or LibreOffice never runs it as a
formula (in xlsx and CSV alike). Numbers stay numbers.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

import xlsxwriter
from django.utils import timezone
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from xlsxwriter.format import Format

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: number formats: 元 with two decimals, 花 and counts as integers
YUAN = "#,##0.00"
INTEGER = "#,##0"
DATE = "yyyy-mm-dd"
DATETIME = "yyyy-mm-dd hh:mm"
HOURS = "0.0"

#: Excel's last row: a sheet holds one header row and this many rows less one
EXCEL_MAX_ROWS = 1_048_576

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# characters XML 1.0 cannot hold (control characters other than tab, LF, CR)
_ILLEGAL_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

_HEADER_FILL = "#F2E6E4"


def cell_text(value: Any) -> str:
    """User text as a spreadsheet must hold it: never read as a formula."""
    text = "" if value is None else str(value)
    if text.startswith(_FORMULA_START):
        return "'" + text
    return text


def display_width(text: str) -> int:
    """How many columns of a fixed-width font ``text`` takes: a hanzi or a
    full-width form counts two (Excel's column width is in such columns)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@dataclass(frozen=True)
class Column:
    """One column of a sheet: its title, what it holds, and whether it is totalled.

    ``kind``: ``text`` (user text, escaped), ``label`` (our own words, e.g. a
    category's name), ``yuan``, ``int`` (花 and counts), ``hours``, ``number``
    (Excel's general format), ``date``, ``datetime``. ``width``: the widest value
    expected, in columns (the title's width when larger).
    """

    title: StrOrPromise
    kind: str = "text"
    width: int = 10
    total: bool = False

    @property
    def number_format(self) -> str | None:
        return {
            "yuan": YUAN,
            "int": INTEGER,
            "hours": HOURS,
            "date": DATE,
            "datetime": DATETIME,
        }.get(self.kind)

    @property
    def fitted_width(self) -> float:
        return max(self.width, display_width(str(self.title))) + 2


# ----------------------------------------------------------- XlsxWriter sheets


@dataclass(frozen=True)
class Formula:
    """A cell computed by Excel from the cells above it (the accountant audits it),
    with its value: the value is stored in the file with the formula, so a preview
    that computes nothing (a phone, WPS's viewer) shows the figure, not a blank."""

    text: str
    value: Decimal | int

    def __post_init__(self) -> None:
        if not self.text.startswith("="):
            raise ValueError(f"a formula starts with '=': {self.text!r}")


@dataclass
class Book:
    """An XlsxWriter workbook written into memory, and its cell formats by style."""

    out: io.BytesIO
    wb: xlsxwriter.Workbook
    formats: dict[tuple[bool, bool, str | None], Format]

    def format(
        self, *, bold: bool = False, fill: bool = False, number: str | None = None
    ) -> Format:
        key = (bold, fill, number)
        if key not in self.formats:
            spec: dict[str, Any] = {"valign": "top"}
            if bold:
                spec["bold"] = True
            if fill:
                spec.update(pattern=1, bg_color=_HEADER_FILL)
            if number is not None:
                spec["num_format"] = number
            self.formats[key] = self.wb.add_format(spec)
        return self.formats[key]


def _local(value: dt.datetime) -> dt.datetime:
    """The room's local time without a zone (Excel has none)."""
    return timezone.localtime(value).replace(tzinfo=None) if value.tzinfo else value


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def _write(book: Book, ws: Any, row: int, col: int, column: Column, value: Any) -> None:
    """One cell of ``column`` (row and column from 0), typed by the column's kind."""
    if value is None:
        return
    fmt = book.format(number=column.number_format)
    if isinstance(value, Formula):
        ws.write_formula(row, col, value.text, fmt, value.value)
    elif column.kind == "text":
        ws.write_string(row, col, _ILLEGAL_XML.sub("", cell_text(value)), fmt)
    elif column.kind == "label":
        ws.write_string(row, col, _ILLEGAL_XML.sub("", str(value)), fmt)
    elif isinstance(value, dt.datetime):
        ws.write_datetime(row, col, _local(value), fmt)
    elif isinstance(value, dt.date):
        ws.write_datetime(row, col, value, fmt)
    elif isinstance(value, bool):
        ws.write_boolean(row, col, value, fmt)
    elif _numeric(value):
        ws.write_number(row, col, value, fmt)
    elif isinstance(value, str) and value.startswith(_FORMULA_START):
        # A formula needs its value (Formula); any other text here is ours, not a sum.
        raise ValueError(f"a formula without its value in {column.title!s}: {value!r}")
    else:
        ws.write_string(row, col, _ILLEGAL_XML.sub("", str(value)), fmt)


def table_sheet(
    book: Book,
    title: str,
    columns: Sequence[Column],
    rows: Iterable[Sequence[Any]],
    *,
    heading: Sequence[str] = (),
    total_label: str | None = None,
) -> Any:
    """A sheet of ``book``: ``heading`` lines, a bold frozen header row, the rows, and
    (when ``total_label``) a total row of SUM formulas over the columns marked
    ``total`` (the accountant can audit them), each with its value, summed here from
    the rows. Datetimes are given in local time; a computed cell is a ``Formula``."""
    ws = book.wb.add_worksheet(str(title)[:31])
    header_row = len(heading)  # from 0: the heading lines, then the header row
    ws.freeze_panes(header_row + 1, 0)
    for index, column in enumerate(columns):
        ws.set_column(index, index, column.fitted_width)
    for index, line in enumerate(heading):
        ws.write_string(index, 0, _ILLEGAL_XML.sub("", str(line)), book.format(bold=index == 0))
    header = book.format(bold=True, fill=True)
    for index, column in enumerate(columns):
        ws.write_string(header_row, index, str(column.title), header)
    totals: list[Any] = [0] * len(columns)  # Decimal, int or float, as the column holds
    count = 0
    for row in rows:
        count += 1
        for index, (column, value) in enumerate(zip(columns, row, strict=True)):
            _write(book, ws, header_row + count, index, column, value)
            if column.total:
                figure = value.value if isinstance(value, Formula) else value
                if _numeric(figure):
                    totals[index] += figure
    if total_label is not None:
        last = header_row + count + 1  # the row of the total, from 0
        ws.write_string(last, 0, str(total_label), book.format(bold=True))
        for index, column in enumerate(columns[1:], start=1):
            if not column.total:
                continue
            fmt = book.format(bold=True, number=column.number_format)
            if count:
                letter = get_column_letter(index + 1)
                # A1 rows: the first line is header_row + 2, the last header_row + count + 1
                formula = f"=SUM({letter}{header_row + 2}:{letter}{header_row + count + 1})"
                ws.write_formula(last, index, formula, fmt, totals[index])
            else:
                ws.write_number(last, index, 0, fmt)
    return ws


def workbook() -> Book:
    out = io.BytesIO()
    # In memory: no temporary files; a month's report is a few thousand rows.
    wb = xlsxwriter.Workbook(out, {"in_memory": True})
    return Book(out=out, wb=wb, formats={})


def workbook_bytes(book: Book) -> bytes:
    book.wb.close()
    return book.out.getvalue()


# ------------------------------------------------------------- streaming xlsx

_SHEET_PATH = "xl/worksheets/sheet1.xml"


class _Sink:
    """A write-only file for zipfile: what is written waits in ``chunks`` until taken."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data: bytes) -> int:
        if data:
            self.chunks.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass

    def take(self) -> bytes:
        data = b"".join(self.chunks)
        self.chunks.clear()
        return data


def _skeleton(title: str, columns: Sequence[Column]) -> tuple[bytes, list[str]]:
    """XlsxWriter's package for the sheet: the header row and one styled row, whose
    cells' style numbers the streamed rows reuse."""
    wb = workbook()
    ws = table_sheet(wb, title, columns, [[_sample(c) for c in columns]])
    del ws
    package = workbook_bytes(wb)
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        sheet = archive.read(_SHEET_PATH).decode("utf-8")
    row = re.search(r'<row r="2"[^>]*>(.*?)</row>', sheet, flags=re.S)
    if row is None:
        raise RuntimeError("XlsxWriter wrote no sample row")
    styles = [
        f' s="{m.group(2)}"' if m.group(2) else ""
        for m in re.finditer(r'<c r="([A-Z]+)2"(?: s="(\d+)")?', row.group(1))
    ]
    if len(styles) != len(columns):
        raise RuntimeError("XlsxWriter's sample row does not have one cell per column")
    return package, styles


def _sample(column: Column) -> Any:
    return {
        "text": "x",
        "label": "x",
        "yuan": Decimal("1.00"),
        "int": 1,
        "hours": 1.5,
        "number": 1.5,
        "date": dt.date(2026, 1, 1),
        "datetime": dt.datetime(2026, 1, 1, 9, 0),
    }[column.kind]


def _xml_cell(ref: str, style: str, column: Column, value: Any) -> str:
    if value is None or value == "":
        return ""
    kind = column.kind
    if kind in ("text", "label"):
        text = cell_text(value) if kind == "text" else str(value)
        text = escape(_ILLEGAL_XML.sub("", text))
        return f'<c r="{ref}"{style} t="inlineStr"><is><t xml:space="preserve">{text}</t></is></c>'
    if kind in ("date", "datetime"):
        if isinstance(value, dt.datetime):
            value = _local(value)
        return f'<c r="{ref}"{style}><v>{to_excel(value)}</v></c>'
    if isinstance(value, bool):
        return f'<c r="{ref}"{style} t="b"><v>{int(value)}</v></c>'
    return f'<c r="{ref}"{style}><v>{value}</v></c>'


def xlsx_stream(
    title: str,
    columns: Sequence[Column],
    rows: Iterable[Sequence[Any]],
    *,
    total_label: str | None = None,
    batch: int = 2000,
) -> Iterator[bytes]:
    """The bytes of a one-sheet xlsx, a piece after every ``batch`` rows.

    Rows past Excel's limit are left out and the last row says so (use CSV for
    more). A total row of SUM formulas follows when ``total_label`` is given, each
    with its value: the sum of the rows written.
    """
    package, styles = _skeleton(title, columns)
    letters = [get_column_letter(i) for i in range(1, len(columns) + 1)]
    sink = _Sink()
    source = zipfile.ZipFile(io.BytesIO(package))
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            if info.filename == _SHEET_PATH:
                continue
            out.writestr(info.filename, source.read(info.filename))
        sheet = source.read(_SHEET_PATH).decode("utf-8")
        sample = re.search(r'<row r="2"[^>]*>.*?</row>', sheet, flags=re.S)
        assert sample is not None  # _skeleton found it
        head = re.sub(r"<dimension [^>]*/>", "", sheet[: sample.start()])
        tail = sheet[sample.end() :]
        with out.open(_SHEET_PATH, "w") as entry:
            entry.write(head.encode("utf-8"))
            yield sink.take()
            number = 1
            pieces: list[str] = []
            totals: list[Any] = [0] * len(columns)  # Decimal, int or float, as the column holds
            limit = EXCEL_MAX_ROWS - (2 if total_label is not None else 1)
            for row in rows:
                if number >= limit:
                    pieces.append(
                        f'<row r="{number + 1}">'
                        f'<c r="A{number + 1}" t="inlineStr"><is><t>'
                        f"{escape(_TRUNCATED)}</t></is></c></row>"
                    )
                    number += 1
                    break
                number += 1
                cells = "".join(
                    _xml_cell(f"{letter}{number}", style, column, value)
                    for letter, style, column, value in zip(
                        letters, styles, columns, row, strict=True
                    )
                )
                pieces.append(f'<row r="{number}">{cells}</row>')
                for index, (column, value) in enumerate(zip(columns, row, strict=True)):
                    if column.total and _numeric(value):
                        totals[index] += value
                if len(pieces) >= batch:
                    entry.write("".join(pieces).encode("utf-8"))
                    pieces.clear()
                    if sink.chunks:  # deflate gives out bytes once it has enough
                        yield sink.take()
            if total_label is not None:
                pieces.append(_total_row(number, letters, styles, columns, totals, total_label))
            entry.write("".join(pieces).encode("utf-8"))
            entry.write(tail.encode("utf-8"))
    source.close()
    yield sink.take()


_TRUNCATED = "…… 超过 Excel 的行数上限，其余的行未导出，请导出 CSV"


def _total_row(
    last: int,
    letters: list[str],
    styles: list[str],
    columns: Sequence[Column],
    totals: Sequence[Decimal | int | float],
    label: str,
) -> str:
    number = last + 1
    cells = [f'<c r="A{number}" t="inlineStr"><is><t>{escape(str(label))}</t></is></c>']
    for letter, style, column, total in zip(
        letters[1:], styles[1:], columns[1:], totals[1:], strict=True
    ):
        if column.total:
            formula = f"SUM({letter}2:{letter}{last})" if last >= 2 else "0"
            # The value beside the formula: what a preview that computes nothing shows.
            cells.append(f'<c r="{letter}{number}"{style}><f>{formula}</f><v>{total}</v></c>')
    return f'<row r="{number}">{"".join(cells)}</row>'


# ------------------------------------------------------------------------ CSV


def csv_stream(
    columns: Sequence[Column], rows: Iterable[Sequence[Any]], *, batch: int = 2000
) -> Iterator[bytes]:
    """UTF-8 CSV with a byte-order mark (Excel and WPS then read it as UTF-8, not
    GBK), the header first; the same escaping as the xlsx."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([str(c.title) for c in columns])
    yield ("\ufeff" + buffer.getvalue()).encode("utf-8")
    buffer.seek(0)
    buffer.truncate()
    count = 0
    formats: list[Callable[[Any], Any]] = [_csv_format(c) for c in columns]
    for row in rows:
        writer.writerow([fmt(value) for fmt, value in zip(formats, row, strict=True)])
        count += 1
        if count % batch == 0:
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode("utf-8")


def _csv_format(column: Column) -> Callable[[Any], Any]:
    def fmt(value: Any) -> Any:
        if value is None:
            return ""
        if column.kind == "text":
            return cell_text(value)
        if column.kind == "yuan":
            return f"{Decimal(value):.2f}"
        if column.kind == "date" and isinstance(value, dt.date):
            return value.isoformat()
        if column.kind == "datetime" and isinstance(value, dt.datetime):
            return _local(value).strftime("%Y-%m-%d %H:%M")
        return value

    return fmt
