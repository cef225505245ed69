"""Builders of the cash-book tests: every row is written by the services, as the
pages write them, at moments of November 2026 in the room's time zone."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from clubapp.books import services
from clubapp.books.models import (
    ExpenseCategory,
    IncomeCategory,
    IncomeEntry,
    PaidBy,
    PlanLine,
    PlanOutcome,
    PurchasePlan,
)
from clubapp.core.roles import Role
from clubapp.core.tests.factories import RoomFactory, UserFactory

SHANGHAI = ZoneInfo("Asia/Shanghai")
# Receipt numbers of the fees made here, apart from the counter's (R2026-00001…).
REFERENCES = itertools.count(1)


def at(day: int, hour: int = 10, minute: int = 0, *, month: int = 11) -> dt.datetime:
    """A moment of 2026 in the room (November by default; the 30th is a Monday)."""
    return dt.datetime(2026, month, day, hour, minute, tzinfo=SHANGHAI)


def day(n: int, *, month: int = 11) -> dt.date:
    return dt.date(2026, month, n)


def fee(
    room: Any,
    by: Any,
    amount: str = "50.00",
    *,
    when: dt.datetime | None = None,
    category: IncomeCategory = IncomeCategory.CARD_FEE,
    reference: str | None = None,
) -> IncomeEntry:
    """A fee as the members app books it (its receipt number given)."""
    when = when or at(2)
    return services.income_record(
        room=room,
        category=category,
        amount=Decimal(amount),
        received_at=when,
        reference=reference or f"R2026-9{next(REFERENCES):04d}",
        recorded_by=by,
        payer="钱大伯",
        description="会员证工本费 · 钱大伯",
    )


def other_income(room: Any, by: Any, amount: str = "120.00", **kwargs: Any) -> IncomeEntry:
    kwargs.setdefault("received_at", at(3))
    kwargs.setdefault("now", kwargs["received_at"])
    return services.income_other_record(
        room=room,
        category=kwargs.pop("category", IncomeCategory.TOURNAMENT),
        amount=Decimal(amount),
        payer=kwargs.pop("payer", "象棋协会"),
        description=kwargs.pop("description", "象棋比赛报名费 12人"),
        by=by,
        **kwargs,
    )


def line(
    category: ExpenseCategory = ExpenseCategory.MAHJONG,
    item: str = "麻将牌",
    quantity: str = "2",
    unit: str = "副",
    unit_price: str = "150.00",
    reason: str = "旧牌缺损",
) -> services.LineIn:
    return services.LineIn(
        category=category,
        item=item,
        quantity=Decimal(quantity),
        unit=unit,
        unit_price=Decimal(unit_price),
        reason=reason,
    )


def draft(room: Any, manager: Any, *lines: services.LineIn, **kwargs: Any) -> PurchasePlan:
    kwargs.setdefault("now", at(1))
    return services.plan_create(
        room=room,
        title=kwargs.pop("title", "十二月器材购置"),
        purpose=kwargs.pop("purpose", "更换损坏的麻将牌和扑克"),
        lines=list(lines) or [line()],
        by=manager,
        **kwargs,
    )


def submitted(room: Any, manager: Any, *lines: services.LineIn, **kwargs: Any) -> PurchasePlan:
    plan = draft(room, manager, *lines, **kwargs)
    services.plan_submit(plan=plan, by=manager, now=at(1, 11))
    return plan


def approved(
    room: Any, manager: Any, approver: Any, *lines: services.LineIn, **kwargs: Any
) -> PurchasePlan:
    plan = submitted(room, manager, *lines, **kwargs)
    services.plan_decide(
        plan=plan,
        outcome=PlanOutcome.APPROVED,
        comment="同意",
        by=approver,
        now=at(1, 15),
        fund_negative_ok=True,  # the fund's check has its own tests (test_fund.py)
    )
    return plan


def first_line(plan: PurchasePlan) -> PlanLine:
    return PlanLine.objects.get(submission__plan=plan, position=1)


def expense(line: PlanLine, manager: Any, amount: str = "280.00", **kwargs: Any) -> Any:
    kwargs.setdefault("now", at(4))
    kwargs.setdefault("fund_negative_ok", True)  # the fund's check: test_fund.py
    kwargs.setdefault("room", line.room)
    return services.expense_record(
        line=line,
        amount=Decimal(amount),
        supplier=kwargs.pop("supplier", "新街口文体商店"),
        invoice_number=kwargs.pop("invoice_number", "No.04512345"),
        purchased_on=kwargs.pop("purchased_on", day(3)),
        paid_by=kwargs.pop("paid_by", PaidBy.FINANCE),
        by=manager,
        **kwargs,
    )


def book_one_of_everything() -> None:
    """At least one row of every cash-book table, written by the services (core's
    append-only test proves the database refuses to change any of them)."""
    room = RoomFactory()
    manager = UserFactory(roles=[Role.MANAGER])
    accountant = UserFactory(roles=[Role.ACCOUNTANT])
    approver = UserFactory(roles=[Role.APPROVER])
    first, second = fee(room, manager, when=at(2)), fee(room, manager, "2.00", when=at(2, 11))
    slip = services.slip_create(
        room=room, incomes=[first, second], amount=Decimal("52.00"), by=manager, now=at(2, 17)
    )
    services.slip_confirm(slip=slip, by=accountant, now=at(2, 18))
    plan = approved(room, manager, approver)
    spent = expense(first_line(plan), manager, "100.00", now=at(2, 16), purchased_on=day(2))
    services.expense_confirm(expense=spent, by=accountant, now=at(2, 17))
    services.plan_complete(plan=plan, by=manager, now=at(2, 17))
    services.slip_reverse(slip=slip, reason="误确认", by=accountant, now=at(2, 18, 30))
    services.day_close(room=room, day=day(2), by=accountant, now=at(2, 19))
