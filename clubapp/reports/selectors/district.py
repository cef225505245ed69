"""The district page: each room's monthly totals side by side (docs/rooms.md).

Each room's figures are its own monthly report's (``monthly_report``), read in that
room's scope (on PostgreSQL the row-level security shows one room at a time), so the
page and every room's 月报 agree by construction."""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal

from clubapp.core.models import Room
from clubapp.core.rooms import scope
from clubapp.reports.selectors.month import Month
from clubapp.reports.selectors.monthly import monthly_report


@dataclass(frozen=True)
class RoomTotals:
    room: Room
    active_members: int
    member_visits: int
    guest_visits: int
    sessions: int
    hands: int
    income: Decimal
    expenses: Decimal
    handed_over: Decimal
    cash_on_hand: Decimal


#: the figures of a row, in the order of the page and the workbook
FIGURES = [f.name for f in fields(RoomTotals) if f.name != "room"]


def room_totals(*, room: Room, month: Month) -> RoomTotals:
    with scope(room):
        report = monthly_report(room=room, month=month)
    return RoomTotals(
        room=room,
        active_members=report.members.active_at_end,
        member_visits=report.visits.member_visits,
        guest_visits=report.visits.guest_visits,
        sessions=report.play.sessions,
        hands=report.play.hands,
        income=report.cash_book.income_total,
        expenses=report.cash_book.expense_total,
        handed_over=report.cash_book.handed_over,
        cash_on_hand=report.cash_book.cash_closing,
    )


def district_totals(*, month: Month) -> tuple[list[RoomTotals], dict[str, int | Decimal]]:
    """Every room's totals of the month, by name, and their sums."""
    rows = [room_totals(room=room, month=month) for room in Room.objects.order_by("name", "pk")]
    sums = {name: sum((getattr(row, name) for row in rows), start=0) for name in FIGURES}
    return rows, sums
