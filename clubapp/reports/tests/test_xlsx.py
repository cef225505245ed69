"""The xlsx and CSV writers: escaping, widths, streaming."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from clubapp.reports.xlsx import (
    Column,
    Formula,
    cell_text,
    csv_stream,
    display_width,
    table_sheet,
    workbook,
    workbook_bytes,
    xlsx_stream,
)


def test_it_escapes_what_a_spreadsheet_would_run():
    for text in ("=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"):
        assert cell_text(text) == "'" + text
    assert cell_text("王<小明>") == "王<小明>"
    assert cell_text(None) == ""


def test_it_counts_chinese_twice_for_the_width():
    assert display_width("ABC") == 3
    assert display_width("会员证号") == 8
    assert display_width("２０２６") == 8  # full-width digits
    assert Column("会员证号", width=4).fitted_width == 10


def test_it_starts_the_download_before_the_rows_are_read():
    consumed = []

    def rows():
        for n in range(100_000):
            consumed.append(n)
            yield (f"会员{n}", n)

    stream = xlsx_stream("名单", [Column("姓名"), Column("花", "int")], rows(), batch=500)
    first = next(stream)
    assert first.startswith(b"PK")  # the zip has begun
    assert len(consumed) == 0
    second = next(stream)
    assert second and len(consumed) < 100_000  # more bytes while rows are still to come
    data = first + second + b"".join(stream)
    ws = load_workbook(io.BytesIO(data)).active
    assert ws.max_row == 100_001
    assert ws["A100001"].value == "会员99999"


def test_it_keeps_numbers_as_numbers_and_strips_control_characters():
    data = b"".join(
        xlsx_stream(
            "x",
            [Column("名", "text"), Column("元", "yuan"), Column("花", "int")],
            [("a\x00b\x07c", Decimal("-12.50"), -28)],
            total_label="合计",
        )
    )
    ws = load_workbook(io.BytesIO(data)).active
    assert ws["A2"].value == "abc"
    assert ws["B2"].value == -12.5 and ws["C2"].value == -28
    assert ws["A3"].value == "合计" and ws["B3"].value is None


def test_it_writes_csv_with_a_bom_and_two_places():
    text = b"".join(csv_stream([Column("名"), Column("元", "yuan")], [("=x", Decimal("4"))]))
    assert text.decode("utf-8") == "\ufeff名,元\r\n'=x,4.00\r\n"


def test_it_streams_the_totals_with_their_values():
    rows = [("甲", Decimal("0.10"), 3), ("乙", Decimal("0.20"), -5), ("丙", None, 4)]
    columns = [Column("名"), Column("元", "yuan", total=True), Column("花", "int", total=True)]
    data = b"".join(xlsx_stream("x", columns, rows, total_label="合计"))
    formulas = load_workbook(io.BytesIO(data)).active
    assert (formulas["B5"].value, formulas["C5"].value) == ("=SUM(B2:B4)", "=SUM(C2:C4)")
    values = load_workbook(io.BytesIO(data), data_only=True).active
    assert Decimal(str(values["B5"].value)) == Decimal("0.30")  # summed in Decimal, not float
    assert values["C5"].value == 2


def test_it_writes_a_formula_only_with_its_value():
    wb = workbook()
    with pytest.raises(ValueError):
        table_sheet(wb, "x", [Column("元", "yuan")], [("=B1+B2",)])
    table_sheet(wb, "y", [Column("元", "yuan")], [(Formula("=1+2", 3),)])
    ws = load_workbook(io.BytesIO(workbook_bytes(wb)), data_only=True)["y"]
    assert ws["A2"].value == 3
