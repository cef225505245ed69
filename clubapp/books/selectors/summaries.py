"""The cash book's figures: cash on hand, a day, a month, the equipment fund.

Everything is a sum of booked rows by their ``book_date`` (a 补记 row counts on the
day it was booked), so a closed day's figures never move:

- cash on hand = income − income reversed − slips handed over + slips sent back
  + slips reversed (收支两条线: nothing else takes cash from the desk, no expense);
- income and expenses by category are net of the reversals booked in the period;
- the balance (结余) is income − expenses, since the books began;
- the equipment fund collects the non-members' fees (器材损耗费) and pays the
  expenses on equipment and facility lines (``FUND_CATEGORIES``).
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, QuerySet, Sum
from django.utils import timezone

from clubapp.books.models import (
    FUND_CATEGORIES,
    DayClosing,
    Expense,
    ExpenseCategory,
    HandOverSlip,
    IncomeCategory,
    IncomeEntry,
    PlanSubmission,
    Reversal,
    ReversalKind,
    SlipDecision,
    SlipOutcome,
)
from clubapp.books.money import ZERO, total
from clubapp.books.selectors.state import income_at_desk
from clubapp.core.models import Room

ONE_DAY = dt.timedelta(days=1)


@dataclass(frozen=True)
class Line:
    """One line of a breakdown: ``key`` is the category value (or the plan number),
    ``label`` what people read."""

    key: str
    label: str
    amount: Decimal


@dataclass(frozen=True)
class Flows:
    """What was booked from ``first`` to ``last`` (both included; None: no bound)."""

    income: list[Line]  # by IncomeCategory, every category, net of reversals
    income_total: Decimal
    income_reversed: Decimal
    handed_over: Decimal  # slips, less those sent back or reversed in the period
    expenses: list[Line]  # by ExpenseCategory, every category, net of reversals
    expense_total: Decimal
    expenses_by_plan: list[Line]  # plans with expenses in the period
    fund_collected: Decimal
    fund_spent: Decimal
    late_entries: int  # rows marked 补记


@dataclass(frozen=True)
class FundSummary:
    """器材基金 over a period: the fund's balance before it, in, out, after."""

    opening: Decimal
    collected: Decimal
    spent: Decimal
    closing: Decimal


@dataclass(frozen=True)
class DaySummary:
    day: dt.date
    closing: DayClosing | None  # the closing row, if the accountant closed this day
    closed: bool  # this day or a later one is closed
    cash_opening: Decimal  # cash on hand at the end of the day before
    income: list[Line]
    income_total: Decimal
    income_reversed: Decimal
    handed_over: Decimal
    cash_closing: Decimal  # cash on hand at the end of the day
    expenses: list[Line]
    expense_total: Decimal
    expenses_by_plan: list[Line]
    late_entries: int
    has_entries: bool
    pending_slips: list[HandOverSlip]  # booked up to this day, not confirmed or sent back
    unconfirmed_expenses: list[Expense]  # booked up to this day, not confirmed or reversed


@dataclass(frozen=True)
class MonthSummary:
    """A month of the cash book, as the monthly report reads it."""

    year: int
    month: int
    first_day: dt.date
    last_day: dt.date
    opening_balance: Decimal  # 期初结余: income − expenses before the month
    income: list[Line]
    income_total: Decimal
    income_reversed: Decimal  # the reversals of income booked in the month
    expenses: list[Line]
    expense_total: Decimal
    expenses_by_plan: list[Line]
    closing_balance: Decimal  # opening_balance + income_total − expense_total
    cash_opening: Decimal  # 库存现金 at the end of the month before
    handed_over: Decimal
    cash_closing: Decimal  # cash_opening + income_total − handed_over
    fund: FundSummary
    late_entries: int
    closed_through: dt.date | None  # the last closed day of the books, if any
    all_closed: bool  # every day of the month is closed


@dataclass(frozen=True)
class DeskCash:
    """What the desk page shows: the cash that should still be in the drawer."""

    cash_on_hand: Decimal
    receipts: int  # receipts not handed over
    oldest: IncomeEntry | None
    oldest_days: int | None  # its age in days
    limit_days: int
    late: bool  # the oldest is older than the room's hand-over limit
    late_count: int


def _dated(qs: QuerySet[Any], first: dt.date | None, last: dt.date | None) -> QuerySet[Any]:
    if first is not None:
        qs = qs.filter(book_date__gte=first)
    if last is not None:
        qs = qs.filter(book_date__lte=last)
    return qs


def _sum(qs: QuerySet[Any], field: str = "amount") -> Decimal:
    return total([qs.aggregate(total=Sum(field))["total"]])


def _by(qs: QuerySet[Any], key: str, field: str = "amount") -> dict[Any, Decimal]:
    """The total of ``field`` for each value of ``key`` (a category, a date, ...)."""
    return {
        row[key]: total([row["total"]])
        for row in qs.order_by().values(key).annotate(total=Sum(field))
    }


def last_closed_day(*, room: Room) -> dt.date | None:
    """Closing a day closes every day before it: this is the last day closed."""
    return DayClosing.objects.filter(room=room).aggregate(last=Max("date"))["last"]


def cash_through(*, room: Room, day: dt.date | None = None) -> Decimal:
    """Cash on hand at the end of ``day`` (by book dates); None: everything booked."""
    income = _sum(_dated(IncomeEntry.objects.filter(room=room), None, day))
    reversed_ = _sum(
        _dated(Reversal.objects.filter(room=room, kind=ReversalKind.INCOME), None, day)
    )
    slips = _sum(_dated(HandOverSlip.objects.filter(room=room), None, day))
    back = _sum(
        _dated(SlipDecision.objects.filter(room=room, outcome=SlipOutcome.RETURNED), None, day),
        "slip__amount",
    ) + _sum(_dated(Reversal.objects.filter(room=room, kind=ReversalKind.SLIP), None, day))
    return income - reversed_ - slips + back


def flows(*, room: Room, first: dt.date | None, last: dt.date | None) -> Flows:
    entries = _dated(IncomeEntry.objects.filter(room=room), first, last)
    reversals = _dated(Reversal.objects.filter(room=room), first, last)
    gross_income = _by(entries, "category")
    income_reversed = _by(reversals.filter(kind=ReversalKind.INCOME), "income__category")
    income = [
        Line(c.value, str(c.label), gross_income.get(c, ZERO) - income_reversed.get(c, ZERO))
        for c in IncomeCategory
    ]
    slips = _sum(_dated(HandOverSlip.objects.filter(room=room), first, last))
    returned = _sum(
        _dated(SlipDecision.objects.filter(room=room, outcome=SlipOutcome.RETURNED), first, last),
        "slip__amount",
    )
    slips_reversed = _sum(reversals.filter(kind=ReversalKind.SLIP))
    spent = _dated(Expense.objects.filter(room=room), first, last)
    expense_reversals = reversals.filter(kind=ReversalKind.EXPENSE)
    gross = _by(spent, "line__category")
    undone = _by(expense_reversals, "expense__line__category")
    expenses = [
        Line(c.value, str(c.label), gross.get(c, ZERO) - undone.get(c, ZERO))
        for c in ExpenseCategory
    ]
    by_plan: dict[tuple[str, str], Decimal] = {}
    for qs, prefix, sign in ((spent, "", 1), (expense_reversals, "expense__", -1)):
        number, title = (
            f"{prefix}line__submission__plan__number",
            f"{prefix}line__submission__title",
        )
        for row in qs.order_by().values(number, title).annotate(total=Sum("amount")):
            key = (row[number], row[title])
            by_plan[key] = by_plan.get(key, ZERO) + sign * total([row["total"]])
    late = sum(
        _dated(model.objects.filter(room=room), first, last).filter(late_for__isnull=False).count()
        for model in (IncomeEntry, HandOverSlip, SlipDecision, Expense, Reversal)
    )
    return Flows(
        income=income,
        income_total=total(line.amount for line in income),
        income_reversed=total(income_reversed.values()),
        handed_over=slips - returned - slips_reversed,
        expenses=expenses,
        expense_total=total(line.amount for line in expenses),
        expenses_by_plan=[
            Line(number, f"{number} {title}", amount)
            for (number, title), amount in sorted(by_plan.items())
        ],
        fund_collected=next(x.amount for x in income if x.key == IncomeCategory.GUEST_FEE),
        fund_spent=total(x.amount for x in expenses if x.key in FUND_CATEGORIES),
        late_entries=late,
    )


def fund_summary(
    *, room: Room, first: dt.date | None = None, last: dt.date | None = None
) -> FundSummary:
    """The equipment fund over a period (None: since the books began / up to now)."""
    opening = ZERO
    if first is not None:
        before = flows(room=room, first=None, last=first - ONE_DAY)
        opening = before.fund_collected - before.fund_spent
    period = flows(room=room, first=first, last=last)
    return FundSummary(
        opening=opening,
        collected=period.fund_collected,
        spent=period.fund_spent,
        closing=opening + period.fund_collected - period.fund_spent,
    )


def fund_balance(*, room: Room) -> Decimal:
    return fund_summary(room=room).closing


def plan_fund_part(*, submission: PlanSubmission) -> Decimal:
    """What a submitted plan would take from the fund: its equipment and facility lines."""
    return total(line.amount for line in submission.lines.all() if line.category in FUND_CATEGORIES)


def has_entries(*, room: Room, day: dt.date) -> bool:
    return any(
        model.objects.filter(room=room, book_date=day).exists()
        for model in (IncomeEntry, HandOverSlip, SlipDecision, Expense, Reversal)
    )


def days_with_entries(
    *, room: Room, after: dt.date | None = None, before: dt.date | None = None
) -> list[dt.date]:
    """The days with booked rows strictly between ``after`` and ``before``, in order."""
    days: set[dt.date] = set()
    for model in (IncomeEntry, HandOverSlip, SlipDecision, Expense, Reversal):
        qs = model.objects.filter(room=room)
        if after is not None:
            qs = qs.filter(book_date__gt=after)
        if before is not None:
            qs = qs.filter(book_date__lt=before)
        days.update(qs.order_by().values_list("book_date", flat=True).distinct())
    return sorted(days)


def pending_slips(*, room: Room, through: dt.date | None = None) -> QuerySet[HandOverSlip]:
    return _dated(
        HandOverSlip.objects.filter(room=room, decision__isnull=True, reversal__isnull=True),
        None,
        through,
    ).order_by("handed_over_at", "pk")


def unconfirmed_expenses(*, room: Room, through: dt.date | None = None) -> QuerySet[Expense]:
    return _dated(
        Expense.objects.filter(room=room, confirmation__isnull=True, reversal__isnull=True),
        None,
        through,
    ).order_by("recorded_at", "pk")


def day_summary(*, room: Room, day: dt.date) -> DaySummary:
    """One day of the cash book: income by category, handed over, cash on hand,
    expenses by category and by plan; what still waits for the accountant."""
    period = flows(room=room, first=day, last=day)
    opening = cash_through(room=room, day=day - ONE_DAY)
    last = last_closed_day(room=room)
    return DaySummary(
        day=day,
        closing=DayClosing.objects.filter(room=room, date=day).select_related("closed_by").first(),
        closed=last is not None and day <= last,
        cash_opening=opening,
        income=period.income,
        income_total=period.income_total,
        income_reversed=period.income_reversed,
        handed_over=period.handed_over,
        cash_closing=opening + period.income_total - period.handed_over,
        expenses=period.expenses,
        expense_total=period.expense_total,
        expenses_by_plan=period.expenses_by_plan,
        late_entries=period.late_entries,
        has_entries=has_entries(room=room, day=day),
        pending_slips=list(pending_slips(room=room, through=day)),
        unconfirmed_expenses=list(unconfirmed_expenses(room=room, through=day)),
    )


def month_summary(*, room: Room, year: int, month: int) -> MonthSummary:
    """A month of the cash book: opening balance, income and expenses by category,
    closing balance; the cash on hand and the equipment fund beside them."""
    first = dt.date(year, month, 1)
    last = dt.date(year, month, calendar.monthrange(year, month)[1])
    before = flows(room=room, first=None, last=first - ONE_DAY)
    period = flows(room=room, first=first, last=last)
    opening_balance = before.income_total - before.expense_total
    cash_opening = cash_through(room=room, day=first - ONE_DAY)
    fund_opening = before.fund_collected - before.fund_spent
    closed = last_closed_day(room=room)
    return MonthSummary(
        year=year,
        month=month,
        first_day=first,
        last_day=last,
        opening_balance=opening_balance,
        income=period.income,
        income_total=period.income_total,
        income_reversed=period.income_reversed,
        expenses=period.expenses,
        expense_total=period.expense_total,
        expenses_by_plan=period.expenses_by_plan,
        closing_balance=opening_balance + period.income_total - period.expense_total,
        cash_opening=cash_opening,
        handed_over=period.handed_over,
        cash_closing=cash_opening + period.income_total - period.handed_over,
        fund=FundSummary(
            opening=fund_opening,
            collected=period.fund_collected,
            spent=period.fund_spent,
            closing=fund_opening + period.fund_collected - period.fund_spent,
        ),
        late_entries=period.late_entries,
        closed_through=closed,
        all_closed=closed is not None and closed >= last,
    )


def desk_cash(*, room: Room, now: dt.datetime | None = None) -> DeskCash:
    """Cash on hand and the oldest receipt not handed over, late past the room's limit."""
    today = timezone.localdate(now or timezone.now())
    waiting = income_at_desk(IncomeEntry.objects.filter(room=room))
    limit = room.handover_limit_days
    oldest = waiting.order_by("received_at", "pk").first()
    age = (today - timezone.localdate(oldest.received_at)).days if oldest is not None else None
    cutoff = timezone.make_aware(dt.datetime.combine(today - dt.timedelta(days=limit), dt.time.min))
    return DeskCash(
        cash_on_hand=_sum(waiting),
        receipts=waiting.count(),
        oldest=oldest,
        oldest_days=age,
        limit_days=limit,
        late=age is not None and age > limit,
        late_count=waiting.filter(received_at__lt=cutoff).count(),
    )


@dataclass(frozen=True)
class DayRow:
    """One line of the list of days."""

    day: dt.date
    income: Decimal
    handed_over: Decimal
    expenses: Decimal
    late_entries: int
    closed: bool
    closing: DayClosing | None


def day_rows(*, room: Room, first: dt.date, last: dt.date) -> list[DayRow]:
    """The days from ``first`` to ``last`` that have entries or a closing, newest first,
    with their totals (a few grouped queries, not a summary a day)."""

    def by_day(qs: QuerySet[Any], field: str = "amount") -> dict[dt.date, Decimal]:
        return _by(_dated(qs.filter(room=room), first, last), "book_date", field)

    income = by_day(IncomeEntry.objects.all())
    income_rev = by_day(Reversal.objects.filter(kind=ReversalKind.INCOME))
    slips = by_day(HandOverSlip.objects.all())
    back = by_day(SlipDecision.objects.filter(outcome=SlipOutcome.RETURNED), "slip__amount")
    slip_rev = by_day(Reversal.objects.filter(kind=ReversalKind.SLIP))
    spent = by_day(Expense.objects.all())
    spent_rev = by_day(Reversal.objects.filter(kind=ReversalKind.EXPENSE))
    late: dict[dt.date, int] = {}
    for model in (IncomeEntry, HandOverSlip, SlipDecision, Expense, Reversal):
        rows = (
            _dated(model.objects.filter(room=room, late_for__isnull=False), first, last)
            .order_by()
            .values("book_date")
            .annotate(n=Count("pk"))
        )
        for row in rows:
            late[row["book_date"]] = late.get(row["book_date"], 0) + row["n"]
    closings = {
        c.date: c
        for c in DayClosing.objects.filter(
            room=room, date__gte=first, date__lte=last
        ).select_related("closed_by")
    }
    closed_through = last_closed_day(room=room)
    days = set(closings)
    for found in (income, income_rev, slips, back, slip_rev, spent, spent_rev):
        days.update(found)
    return [
        DayRow(
            day=d,
            income=income.get(d, ZERO) - income_rev.get(d, ZERO),
            handed_over=slips.get(d, ZERO) - back.get(d, ZERO) - slip_rev.get(d, ZERO),
            expenses=spent.get(d, ZERO) - spent_rev.get(d, ZERO),
            late_entries=late.get(d, 0),
            closed=closed_through is not None and d <= closed_through,
            closing=closings.get(d),
        )
        for d in sorted(days, reverse=True)
    ]


def next_day_to_close(*, room: Room, today: dt.date) -> dt.date | None:
    """The day the accountant closes next: the first day after the last closed one
    with entries, up to today (None when there is nothing to close)."""
    after = last_closed_day(room=room)
    waiting = days_with_entries(room=room, after=after, before=today + ONE_DAY)
    return waiting[0] if waiting else None


def days_to_close(*, room: Room, today: dt.date) -> list[dt.date]:
    """Every day with entries after the last closed one, up to today, oldest first: the
    accountant's closing to do (``next_day_to_close`` is the first of them)."""
    return days_with_entries(room=room, after=last_closed_day(room=room), before=today + ONE_DAY)


def income_by_day(
    *, room: Room, first: dt.date, last: dt.date
) -> dict[dt.date, dict[str, Decimal]]:
    """The income of ``first`` to ``last`` by book day and category, net of the
    reversals booked that day: ``flows``' income spread over its days (the monthly
    report's income by day; its days sum to the month summary's income)."""
    days: dict[dt.date, dict[str, Decimal]] = {}
    entries = _dated(IncomeEntry.objects.filter(room=room), first, last)
    reversals = _dated(Reversal.objects.filter(room=room, kind=ReversalKind.INCOME), first, last)
    for qs, category, sign in ((entries, "category", 1), (reversals, "income__category", -1)):
        rows = qs.order_by().values("book_date", category).annotate(total=Sum("amount"))
        for row in rows:
            day = days.setdefault(row["book_date"], {})
            day[row[category]] = day.get(row[category], ZERO) + sign * total([row["total"]])
    return days


def income_booked(*, room: Room, first: dt.date, last: dt.date) -> dict[str, tuple[int, Decimal]]:
    """{category: (entries, amount)} of the 收 entries booked from ``first`` to ``last``
    (book days), before their reversals: the count beside ``flows``' net income."""
    rows = (
        _dated(IncomeEntry.objects.filter(room=room), first, last)
        .order_by()
        .values("category")
        .annotate(n=Count("id"), gross=Sum("amount"))
    )
    return {row["category"]: (row["n"], total([row["gross"]])) for row in rows}
