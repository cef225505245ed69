"""Excel (xlsx) and CSV writing for every report and list.

Two ways to write a sheet, one set of columns:

* ``table_sheet`` adds a sheet to an openpyxl write-only workbook: the monthly
  report's sections, a settlement sheet. Small, several sheets, SUM formulas.
* ``xlsx_stream`` writes a one-sheet workbook row by row into a zip stream, so a
  download of a million rows starts at once and never holds the file: openpyxl
  makes the package (styles, frozen header, column widths) from the header and
  one styled row; the rows themselves are written here as the SpreadsheetML
  openpyxl would write (inline strings and numbers), about ten times faster than
  openpyxl's cell objects and with no temporary file (docs/reports.md).

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

from django.utils import timezone
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel

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

_HEADER_FONT = Font(bold=True)
_HEADER_FILL = PatternFill("solid", fgColor="F2E6E4")
_TOTAL_FONT = Font(bold=True)
_WRAP = Alignment(vertical="top")


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


# ------------------------------------------------------------- openpyxl sheets


def _value(column: Column, value: Any) -> Any:
    if value is None:
        return None
    if column.kind == "text":
        return _ILLEGAL_XML.sub("", cell_text(value))
    if column.kind == "label":
        return str(value)
    if isinstance(value, dt.datetime):
        return _local(value)
    return value


def _local(value: dt.datetime) -> dt.datetime:
    """The room's local time without a zone (Excel has none)."""
    return timezone.localtime(value).replace(tzinfo=None) if value.tzinfo else value


def table_sheet(
    wb: Workbook,
    title: str,
    columns: Sequence[Column],
    rows: Iterable[Sequence[Any]],
    *,
    heading: Sequence[str] = (),
    total_label: str | None = None,
) -> Any:
    """A sheet of ``wb`` (write-only): ``heading`` lines, a bold frozen header row,
    the rows, and (when ``total_label``) a total row of SUM formulas over the
    columns marked ``total`` (the accountant can audit them). Datetimes are given
    in local time."""
    ws = wb.create_sheet(title=str(title)[:31])
    header_row = len(heading) + 1
    ws.freeze_panes = f"A{header_row + 1}"
    for index, column in enumerate(columns, start=1):
        ws.column_dimensions[get_column_letter(index)].width = column.fitted_width
    for index, line in enumerate(heading):
        ws.append([_cell(ws, line, font=_HEADER_FONT if index == 0 else None)])
    ws.append([_cell(ws, str(c.title), font=_HEADER_FONT, fill=_HEADER_FILL) for c in columns])
    count = 0
    for row in rows:
        count += 1
        ws.append(
            [
                _cell(ws, _value(column, value), number_format=column.number_format)
                for column, value in zip(columns, row, strict=True)
            ]
        )
    if total_label is not None:
        first, last = header_row + 1, header_row + count
        cells: list[Any] = []
        for index, column in enumerate(columns, start=1):
            letter = get_column_letter(index)
            if index == 1:
                cells.append(_cell(ws, str(total_label), font=_TOTAL_FONT))
            elif column.total:
                formula = f"=SUM({letter}{first}:{letter}{last})" if count else 0
                cells.append(
                    _cell(ws, formula, font=_TOTAL_FONT, number_format=column.number_format)
                )
            else:
                cells.append(None)
        ws.append(cells)
    return ws


def _cell(
    ws: Any,
    value: Any,
    *,
    font: Font | None = None,
    fill: PatternFill | None = None,
    number_format: str | None = None,
) -> WriteOnlyCell:
    cell = WriteOnlyCell(ws, value=value)
    if font is not None:
        cell.font = font
    if fill is not None:
        cell.fill = fill
    if number_format is not None:
        cell.number_format = number_format
    cell.alignment = _WRAP
    return cell


def workbook() -> Workbook:
    return Workbook(write_only=True)


def workbook_bytes(wb: Workbook) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


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
    """openpyxl's package for the sheet: the header row and one styled row, whose
    cells' style numbers the streamed rows reuse."""
    wb = workbook()
    ws = table_sheet(wb, title, columns, [[_sample(c) for c in columns]])
    del ws
    package = workbook_bytes(wb)
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        sheet = archive.read(_SHEET_PATH).decode("utf-8")
    row = re.search(r'<row r="2"[^>]*>(.*?)</row>', sheet, flags=re.S)
    if row is None:
        raise RuntimeError("openpyxl wrote no sample row")
    styles = [
        f' s="{m.group(2)}"' if m.group(2) else ""
        for m in re.finditer(r'<c r="([A-Z]+)2"(?: s="(\d+)")?', row.group(1))
    ]
    if len(styles) != len(columns):
        raise RuntimeError("openpyxl's sample row does not have one cell per column")
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
    more). A total row of SUM formulas follows when ``total_label`` is given.
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
                if len(pieces) >= batch:
                    entry.write("".join(pieces).encode("utf-8"))
                    pieces.clear()
                    if sink.chunks:  # deflate gives out bytes once it has enough
                        yield sink.take()
            if total_label is not None:
                pieces.append(_total_row(number, letters, styles, columns, total_label))
            entry.write("".join(pieces).encode("utf-8"))
            entry.write(tail.encode("utf-8"))
    source.close()
    yield sink.take()


_TRUNCATED = "…… 超过 Excel 的行数上限，其余的行未导出，请导出 CSV"


def _total_row(
    last: int, letters: list[str], styles: list[str], columns: Sequence[Column], label: str
) -> str:
    number = last + 1
    cells = [f'<c r="A{number}" t="inlineStr"><is><t>{escape(str(label))}</t></is></c>']
    for letter, style, column in zip(letters[1:], styles[1:], columns[1:], strict=True):
        if column.total:
            formula = f"SUM({letter}2:{letter}{last})" if last >= 2 else "0"
            cells.append(f'<c r="{letter}{number}"{style}><f>{formula}</f></c>')
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
