"""The monthly report (月报): one object made of sections, each computed by one
function (``MONTHLY_SECTIONS``); the page, the xlsx and the PDF all render that object."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from clubapp.books import selectors as books
from clubapp.books.models import IncomeEntry, Reversal
from clubapp.core.models import Room
from clubapp.reports.selectors.month import Month
from clubapp.reports.selectors.monthly_cash_book import cash_book_sections
from clubapp.reports.selectors.monthly_life import life_section
from clubapp.reports.selectors.monthly_members import members_section, visits_section
from clubapp.reports.selectors.monthly_play import play_section


@dataclass
class MonthlyReport:
    room: Room
    month: Month
    made_at: dt.datetime
    sections: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        # report.income, report.members …: the sections by key
        sections = self.__dict__.get("sections", {})
        if name in sections:
            return sections[name]
        raise AttributeError(name)


#: the sections of the monthly report, in order: one function each, keyword-only
#: (room, month). A new section (the cash book's hand-overs, expenses, balances) is
#: one more entry here, a template ``reports/monthly/_<key>.html`` and a sheet
#: writer in ``reports.monthly_xlsx``.
MONTHLY_SECTIONS: list[Callable[..., Any]] = [
    cash_book_sections,
    members_section,
    visits_section,
    play_section,
    life_section,
]


def monthly_report(*, room: Room, month: Month) -> MonthlyReport:
    sections = {}
    for section in MONTHLY_SECTIONS:
        result = section(room=room, month=month)
        # a function may give several sections that share their reads (the cash book)
        for part in result if isinstance(result, tuple) else (result,):
            sections[part.key] = part
    return MonthlyReport(room=room, month=month, made_at=timezone.now(), sections=sections)


def income_entries_of_month(*, room: Room, month: Month) -> QuerySet[IncomeEntry]:
    """The 收 entries booked in the month, oldest first (the report's ledger sheet)."""
    return books.income_booked_between(room=room, first=month.first_day, last=month.last_day)


def income_reversals_of_month(*, room: Room, month: Month) -> QuerySet[Reversal]:
    """The reversals of 收 entries booked in the month (negative lines of the sheet)."""
    return books.income_reversals_between(room=room, first=month.first_day, last=month.last_day)
