"""Reads of the reports app, one module per document: the monthly report (月报:
``monthly`` and its sections ``monthly_cash_book``, ``monthly_members``,
``monthly_play``), a table session's settlement sheet (``settlement``), today's desk
(``desk``); ``month`` and ``common`` are what they share. Everything is read through
the other apps' selectors, never written."""

from clubapp.reports.selectors.common import SEAT_NAMES, ZERO, describe_hand, seat_label, yuan
from clubapp.reports.selectors.desk import TodayDesk, today_desk
from clubapp.reports.selectors.district import RoomTotals, district_totals, room_totals
from clubapp.reports.selectors.month import Month
from clubapp.reports.selectors.monthly import (
    MONTHLY_SECTIONS,
    MonthlyReport,
    income_entries_of_month,
    income_reversals_of_month,
    monthly_report,
)
from clubapp.reports.selectors.monthly_cash_book import (
    CashBookSection,
    EquipmentFundSection,
    IncomeSection,
    cash_book_sections,
)
from clubapp.reports.selectors.monthly_members import (
    HOURS,
    WEEKDAYS,
    MembersSection,
    VisitsSection,
    members_section,
    visits_section,
)
from clubapp.reports.selectors.monthly_play import (
    BigHand,
    PlaySection,
    play_section,
)
from clubapp.reports.selectors.settlement import (
    SettlementSheet,
    SheetEntry,
    SheetStatement,
    settlement_sheet,
)

__all__ = [
    "RoomTotals",
    "district_totals",
    "room_totals",
    "HOURS",
    "MONTHLY_SECTIONS",
    "SEAT_NAMES",
    "WEEKDAYS",
    "ZERO",
    "BigHand",
    "CashBookSection",
    "EquipmentFundSection",
    "IncomeSection",
    "MembersSection",
    "Month",
    "MonthlyReport",
    "PlaySection",
    "SettlementSheet",
    "SheetEntry",
    "SheetStatement",
    "TodayDesk",
    "VisitsSection",
    "cash_book_sections",
    "describe_hand",
    "income_entries_of_month",
    "income_reversals_of_month",
    "members_section",
    "monthly_report",
    "play_section",
    "seat_label",
    "settlement_sheet",
    "today_desk",
    "visits_section",
    "yuan",
]
