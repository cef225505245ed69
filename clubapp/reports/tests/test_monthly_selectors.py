"""The monthly report's numbers, against the books they come from."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum

from clubapp.books.models import IncomeEntry
from clubapp.reports.selectors import Month, monthly_report

NOV = Month(2026, 11)


def test_it_ties_the_income_to_the_cash_book_to_the_fen(november):
    report = monthly_report(room=november.room, month=NOV)
    books = IncomeEntry.objects.filter(
        received_at__gte=NOV.start, received_at__lt=NOV.end
    ).aggregate(t=Sum("amount"))["t"]
    # three cards 50.00, a 年审 10.00, two non-members 4.00 + 2.00
    assert books == Decimal("166.00")
    assert report.income.total == books
    assert sum(total for _day, _amounts, total in report.income.by_day) == books
    assert report.income.ties_out
