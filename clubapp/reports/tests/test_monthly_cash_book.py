"""The monthly report's cash book: hand-overs, expenses, balances and the equipment
fund, read from the books' month summary and tied to the books' rows to the fen, in
the selector, the xlsx and the PDF."""

from __future__ import annotations

import io
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
