"""The monthly report's cash book: hand-overs, expenses, balances and the equipment
fund, read from the books' month summary and tied to the books' rows to the fen, in
the selector, the xlsx and the PDF."""

from __future__ import annotations

import io
import re
from decimal import Decimal

from django.db.models import Sum
from openpyxl import load_workbook

from clubapp.books.models import Expense, HandOverSlip, IncomeEntry, Reversal
from clubapp.books.selectors import month_summary
from clubapp.reports.selectors import Month, monthly_report
from clubapp.reports.tests.pdfs import pdf_text

NOV = Month(2026, 11)


def _sum(qs) -> Decimal:
    return (qs.aggregate(t=Sum("amount"))["t"] or Decimal(0)).quantize(Decimal("0.01"))


def _in_november(model):
    return model.objects.filter(book_date__gte=NOV.first_day, book_date__lte=NOV.last_day)


def test_it_ties_every_cash_book_figure_to_the_books_rows(november, november_books):
    report = monthly_report(room=november.room, month=NOV)
    income = _sum(_in_november(IncomeEntry)) - _sum(_in_november(Reversal).filter(kind="income"))
    # 166.00 of fees + 500.00 donated − 2.00 reversed
    assert income == Decimal("664.00")
    assert report.income.total == income
    assert report.income.reversed_total == Decimal("2.00")
    assert sum(t for _d, _a, t in report.income.by_day) == income
    # the reversal is on the day it was booked: the 4th, beside the donation
    fourth = {d.day: dict(zip(report.income.categories, a, strict=True)) for d, a, _t in
              report.income.by_day}[4]  # fmt: skip
    assert (fourth["捐赠"], fourth["非会员器材损耗费"]) == (Decimal("500.00"), Decimal("-2.00"))
    assert sum(a for _l, _n, a in report.income.by_category) == income
    assert report.income.ties_out  # the members' receipts are the fees booked
    book = report.cash_book
    spent = _sum(_in_november(Expense))
    assert spent == Decimal("455.50")
    assert book.expense_total == spent
    assert dict(book.expenses_by_category)["麻将"] == Decimal("280.00")
    assert [a for _l, a in book.expenses_by_plan] == [spent]
    # October's 50.00 card fee is the opening balance
    assert book.opening_balance == Decimal("50.00")
    assert book.closing_balance == Decimal("50.00") + income - spent == Decimal("258.50")
    # the confirmed slip counts, the one sent back does not
    assert _sum(HandOverSlip.objects.all()) == Decimal("650.00")
    assert book.handed_over == Decimal("150.00")
    assert book.cash_closing == book.cash_opening + income - Decimal("150.00")
    summary = month_summary(room=november.room, year=2026, month=11)
    assert book.summary == summary


def test_it_keeps_the_equipment_fund_apart(november, november_books):
    fund = monthly_report(room=november.room, month=NOV).equipment_fund
    # non-members' fees 4.00 + 2.00, the 2.00 reversed; the 麻将 line paid from the fund
    assert fund.collected_month == Decimal("4.00")
    assert fund.spent_month == Decimal("280.00")
    assert fund.balance == fund.opening + Decimal("4.00") - Decimal("280.00")
    december = monthly_report(room=november.room, month=Month(2026, 12)).equipment_fund
    assert december.opening == fund.balance
    assert december.collected_to_date == Decimal("6.00")  # 4.00 + December's 2.00
    assert december.spent_to_date == Decimal("280.00")


def _workbook(client, user):
    client.force_login(user)
    response = client.get("/reports/monthly.xlsx?month=2026-11")
    assert response.status_code == 200
    return load_workbook(io.BytesIO(b"".join(response.streaming_content)))


def _sheet(wb, title):
    return list(wb[title].iter_rows(values_only=True))


def test_it_writes_the_cash_book_with_formulas_that_tie_out(client, accountant, november_books):
    wb = _workbook(client, accountant)
    rows = _sheet(wb, "收支账")
    assert rows[2] == ("项目", "元")
    assert Decimal(str(rows[3][1])) == Decimal("50.00")  # the opening balance
    income, spent = Decimal(str(rows[4][1])), Decimal(str(rows[5][1]))
    assert (income, spent) == (Decimal("664.00"), Decimal("455.50"))
    assert rows[6][1] == "=B4+B5-B6"  # the closing balance, for the accountant to audit
    assert rows[10][1] == "=B8+B9-B10"
    assert Decimal(str(rows[9][1])) == Decimal("150.00")  # handed over
    assert wb["收支账"].cell(row=4, column=2).number_format == "#,##0.00"
    by_category = _sheet(wb, "支出分类")
    assert by_category[-1][0] == "合计"
    assert by_category[-1][1] == f"=SUM(B4:B{len(by_category) - 1})"
    assert sum(Decimal(str(r[1])) for r in by_category[3:-1]) == spent
    by_plan = _sheet(wb, "按购置计划支出")
    assert [Decimal(str(r[1])) for r in by_plan[3:-1]] == [spent]
    reversed_ = _sheet(wb, "收入冲正")
    assert [Decimal(str(r[3])) for r in reversed_[3:-1]] == [Decimal("2.00")]
    entries = _sheet(wb, "收入明细")
    booked = sum(Decimal(str(r[3])) for r in entries[3:-1])
    assert booked - Decimal("2.00") == income  # entries less reversals: the month's income
    fund = _sheet(wb, "器材基金")
    assert fund[6][1] == "=B4+B5-B6"
    assert Decimal(str(fund[5][1])) == Decimal("280.00")


def test_it_prints_the_cash_book_in_the_pdf(client, accountant, november_books):
    client.force_login(accountant)
    response = client.get("/reports/monthly.pdf?month=2026-11")
    assert response.status_code == 200
    text = pdf_text(b"".join(response.streaming_content))
    for words in ("期初结余", "期末结余", "258.50", "缴款", "150.00", "455.50", "麻将", "280.00"):
        assert words in text


def test_it_shows_the_cash_book_on_the_page(client, approver, november_books):
    client.force_login(approver)
    page = client.get("/reports/monthly/?month=2026-11").content.decode()
    assert "258.50" in page and "455.50" in page and "缺少" not in page


def _cached(client, user):
    """The workbook twice: its formulas, and the values stored beside them (what a
    preview that computes nothing, on a phone or in WPS, shows)."""
    client.force_login(user)
    response = client.get("/reports/monthly.xlsx?month=2026-11")
    data = b"".join(response.streaming_content)
    return load_workbook(io.BytesIO(data)), load_workbook(io.BytesIO(data), data_only=True)


def _evaluate(ws, formula: str) -> Decimal:
    """The two kinds of formula the workbook writes, =SUM(B4:B9) and =B4+B5-B6, over
    the values of ``ws`` (a formula's cell counts with its stored value)."""
    figure = lambda ref: Decimal(str(ws[ref].value or 0))  # noqa: E731
    if match := re.fullmatch(r"=SUM\(([A-Z]+\d+):([A-Z]+\d+)\)", formula):
        return sum((figure(c.coordinate) for row in ws[match[1] : match[2]] for c in row),
                   Decimal(0))  # fmt: skip
    terms = re.findall(r"([+-]?)([A-Z]+\d+)", formula[1:])
    assert "".join(sign + ref for sign, ref in terms) == formula[1:], formula
    return sum((-figure(ref) if sign == "-" else figure(ref) for sign, ref in terms), Decimal(0))


def test_it_stores_every_total_and_balance_with_its_value(client, accountant, november_books):
    formulas, values = _cached(client, accountant)
    seen = 0
    for ws in formulas.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type != "f":
                    continue
                seen += 1
                cached = values[ws.title][cell.coordinate].value
                assert cached is not None, f"{ws.title}!{cell.coordinate} has no value"
                # the value is what the formula computes from the cells it names
                computed = _evaluate(values[ws.title], cell.value)
                assert Decimal(str(cached)) == computed, (ws.title, cell.coordinate)
    assert seen >= 15  # the totals, the days' totals, the closing figures


def test_it_stores_the_books_figures_beside_the_formulas(client, accountant, november_books):
    _formulas, values = _cached(client, accountant)
    income = _sum(_in_november(IncomeEntry)) - _sum(_in_november(Reversal).filter(kind="income"))
    spent = _sum(_in_november(Expense))

    def cached(title: str, ref: str) -> Decimal:
        return Decimal(str(values[title][ref].value))

    book = _sheet(values, "收支账")
    assert book[6][0] == "期末结余" and book[10][0] == "月末库存现金"
    assert cached("收支账", "B7") == Decimal("50.00") + income - spent == Decimal("258.50")
    # the cash on hand: the month's start, its income, less the one confirmed slip
    assert cached("收支账", "B11") == cached("收支账", "B8") + income - Decimal("150.00")
    fund = _sheet(values, "器材基金")
    assert fund[6][0] == "月末余额"
    assert cached("器材基金", "B7") == cached("器材基金", "B4") + Decimal("4.00") - Decimal(
        "280.00"
    )
    by_category = _sheet(values, "支出分类")
    assert by_category[-1][0] == "合计"
    assert Decimal(str(by_category[-1][1])) == spent
    entries = _sheet(values, "收入明细")
    assert entries[-1][0] == "合计"
    assert Decimal(str(entries[-1][3])) == _sum(_in_november(IncomeEntry))
    days = _sheet(values, "收入按日")
    assert days[-1][0] == "合计" and Decimal(str(days[-1][-1])) == income
    assert all(r[-1] is not None for r in days[3:-1])  # each day's total too
