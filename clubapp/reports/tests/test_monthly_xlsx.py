"""The monthly report as xlsx: a sheet per section, SUM totals that tie to the books."""

from __future__ import annotations

import io
from decimal import Decimal

from django.db.models import Sum
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.reports.selectors import Month


def _workbook(client, user, month="2026-11"):
    client.force_login(user)
    response = client.get(f"/reports/monthly.xlsx?month={month}")
    assert response.status_code == 200
    return response, load_workbook(io.BytesIO(b"".join(response.streaming_content)))


def _rows(ws):
    return list(ws.iter_rows(values_only=True))


def test_it_names_the_file_in_chinese(client, manager, november):
    response, _wb = _workbook(client, manager)
    assert response["Content-Disposition"] == (
        "attachment; filename*=utf-8''2026%E5%B9%B411%E6%9C%88%E6%9C%88%E6%8A%A5.xlsx"
    )


def test_it_has_a_sheet_per_section(client, manager, november):
    _response, wb = _workbook(client, manager)
    assert len(wb.sheetnames) >= 10
    for ws in wb.worksheets:
        assert ws.freeze_panes is not None
        assert ws["A1"].value.startswith("测试棋牌室 · 2026年11月")


def test_it_totals_the_income_with_formulas_that_tie_to_the_books(client, accountant, november):
    _response, wb = _workbook(client, accountant)
    nov = Month(2026, 11)
    books = IncomeEntry.objects.filter(
        received_at__gte=nov.start, received_at__lt=nov.end
    ).aggregate(t=Sum("amount"))["t"]
    entries = wb.worksheets[3]  # the ledger of the month's income entries
    rows = _rows(entries)
    header = rows[2]
    amount = header.index("金额（元）")
    lines = rows[3:-1]
    assert len(lines) == 6
    assert sum(Decimal(str(r[amount])) for r in lines) == books == Decimal("166.00")
    total = rows[-1]
    assert total[0] == "合计"
    letter = "ABCDEF"[amount]
    assert total[amount] == f"=SUM({letter}4:{letter}9)"
    assert entries.cell(row=4, column=amount + 1).number_format == "#,##0.00"


def test_it_writes_days_with_a_row_formula_and_a_total(client, manager, november):
    _response, wb = _workbook(client, manager)
    rows = _rows(wb.worksheets[2])
    assert rows[2][0] == "日期"
    first_day = rows[3]
    last_category = get_column_letter(1 + len(IncomeCategory))  # a column per category
    assert first_day[-1] == f"=SUM(B4:{last_category}4)"
    assert rows[-1][0] == "合计"


def test_it_escapes_a_member_name_that_looks_like_a_formula(client, manager, november):
    _response, wb = _workbook(client, manager)
    texts = [v for ws in wb.worksheets for row in _rows(ws) for v in row if isinstance(v, str)]
    assert '\'=HYPERLINK("http://x")' in texts
    assert not any(t.startswith("=HYPERLINK") for t in texts)


def test_it_gives_points_and_never_money_for_the_members(client, manager, november):
    _response, wb = _workbook(client, manager)
    ws = wb["会员积分"]
    rows = _rows(ws)
    header = rows[3]
    assert "积分（花）" in header
    points = [r[header.index("积分（花）")] for r in rows[4:-1]]
    assert sum(points) == 0  # members and non-members: every hand sums to zero
    assert ws.cell(row=5, column=4).number_format == "#,##0"


def test_it_refuses_a_member(client, member, november):
    client.force_login(member)
    assert client.get("/reports/monthly.xlsx?month=2026-11").status_code == 403
    assert client.get("/reports/monthly.pdf?month=2026-11").status_code == 403
    assert client.get("/reports/monthly/?month=2026-11").status_code == 403
