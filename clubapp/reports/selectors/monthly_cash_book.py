"""The monthly report's cash book (收, 支, 缴款, the equipment fund): the books'
``month_summary``, so the report's figures are the cash book's."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from clubapp.books import selectors as books
from clubapp.books.models import IncomeCategory
from clubapp.books.selectors import MonthSummary
from clubapp.core.models import Room
from clubapp.members import selectors as members
from clubapp.reports.selectors.common import ZERO, yuan
from clubapp.reports.selectors.month import Month


@dataclass
class IncomeSection:
    """The month's 收 of the cash book (``books.selectors.month_summary``), by
    category and by day: booked in the month (by book day, a 补记 entry on the day
    it was booked), net of the reversals booked in it."""

    key = "income"
    categories: list[str]
    #: (category label, entries booked, amount net of reversals), every category
    by_category: list[tuple[str, int, Decimal]]
    #: (day, amounts in the order of ``categories``, day total), days with income
    by_day: list[tuple[dt.date, list[Decimal], Decimal]]
    total: Decimal
    count: int
    #: the month's receipts (收据) in the members app: equal to ``total`` when every
    #: fee was booked (each receipt has its entry)
    receipts_total: Decimal
    #: reversed in the month (included, negative, in ``total``)
    reversed_total: Decimal = ZERO
    #: the fees booked (the members app's categories, before reversals): each has
    #: its receipt, so they equal ``receipts_total``
    fees_total: Decimal = ZERO

    @property
    def ties_out(self) -> bool:
        return self.receipts_total == self.fees_total


@dataclass
class CashBookSection:
    """The rest of the month's cash book, as ``books.selectors.month_summary`` has it:
    the balance (结余 = income − expenses since the books began), the cash on hand
    (库存现金 = income − handed over: 收支两条线, no expense is paid from it), the
    expenses by category and by purchase plan."""

    key = "cash_book"
    summary: MonthSummary
    #: (label, amount) of every expense category; of the plans with expenses
    expenses_by_category: list[tuple[str, Decimal]]
    expenses_by_plan: list[tuple[str, Decimal]]

    @property
    def opening_balance(self) -> Decimal:
        return self.summary.opening_balance

    @property
    def income_total(self) -> Decimal:
        return self.summary.income_total

    @property
    def expense_total(self) -> Decimal:
        return self.summary.expense_total

    @property
    def closing_balance(self) -> Decimal:
        return self.summary.closing_balance

    @property
    def cash_opening(self) -> Decimal:
        return self.summary.cash_opening

    @property
    def handed_over(self) -> Decimal:
        return self.summary.handed_over

    @property
    def cash_closing(self) -> Decimal:
        return self.summary.cash_closing


@dataclass
class EquipmentFundSection:
    """器材费专款: the non-member equipment fees (器材损耗费) go to equipment only;
    the fund pays the expenses on equipment and facility lines (the books'
    ``FUND_CATEGORIES``). The month's figures and those since the books began."""

    key = "equipment_fund"
    opening: Decimal
    collected_month: Decimal
    spent_month: Decimal
    #: the fund's balance at the month's end (opening + collected − spent)
    balance: Decimal
    collected_to_date: Decimal
    spent_to_date: Decimal


def cash_book_sections(
    *, room: Room, month: Month
) -> tuple[IncomeSection, CashBookSection, EquipmentFundSection]:
    """The three sections of the cash book, from one ``month_summary`` of the books."""
    summary = books.month_summary(room=room, year=month.year, month=month.month)
    first, last = summary.first_day, summary.last_day
    booked = books.income_booked(room=room, first=first, last=last)
    counts = {category: n for category, (n, _gross) in booked.items()}
    categories = list(IncomeCategory)
    amounts = {line.key: line.amount for line in summary.income}
    by_category = [
        (str(c.label), counts.get(c.value, 0), amounts.get(c.value, ZERO)) for c in categories
    ]
    days = books.income_by_day(room=room, first=first, last=last)
    by_day = []
    for day in sorted(days):
        row = [days[day].get(c.value, ZERO) for c in categories]
        by_day.append((day, row, sum(row, ZERO)))
    receipts = members.receipts_total(room=room, start=month.start, end=month.end)
    fees = {IncomeCategory.CARD_FEE, IncomeCategory.RENEWAL_FEE, IncomeCategory.GUEST_FEE}
    income = IncomeSection(
        categories=[str(c.label) for c in categories],
        by_category=by_category,
        by_day=by_day,
        total=summary.income_total,
        count=sum(counts.values()),
        receipts_total=yuan(receipts),
        reversed_total=summary.income_reversed,
        fees_total=sum((gross for k, (_n, gross) in booked.items() if k in fees), ZERO),
    )
    cash_book = CashBookSection(
        summary=summary,
        expenses_by_category=[(line.label, line.amount) for line in summary.expenses],
        expenses_by_plan=[(line.label, line.amount) for line in summary.expenses_by_plan],
    )
    since_start = books.fund_summary(room=room, first=None, last=last)
    fund = EquipmentFundSection(
        opening=summary.fund.opening,
        collected_month=summary.fund.collected,
        spent_month=summary.fund.spent,
        balance=summary.fund.closing,
        collected_to_date=since_start.collected,
        spent_to_date=since_start.spent,
    )
    return income, cash_book, fund
