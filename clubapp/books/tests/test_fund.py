"""器材基金: approving a plan and booking an expense that take the fund below zero are
refused where the room does not allow it, and otherwise need a confirmation given
after a message with the figure the fund will reach."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from clubapp.books import selectors, services
from clubapp.books.models import (
    Expense,
    ExpenseCategory,
    IncomeCategory,
    PaidBy,
    PlanDecision,
    PlanOutcome,
)
from clubapp.books.tests.factories import approved, at, day, fee, first_line, line, submitted

pytestmark = pytest.mark.django_db


@pytest.fixture
def fund(room, manager):
    """30.00 yuan of non-members' fees in the fund."""
    fee(room, manager, "30.00", category=IncomeCategory.GUEST_FEE, when=at(1, 9))
    return room


def _refuse_negative(room):
    room.fund_may_go_negative = False
    room.save(update_fields=["fund_may_go_negative"])


def _approve(plan, approver, **kwargs):
    return services.plan_decide(
        plan=plan, outcome=PlanOutcome.APPROVED, by=approver, now=at(2), **kwargs
    )


def _spend(plan_line, manager, amount, **kwargs):
    return services.expense_record(
        room=plan_line.room,
        line=plan_line,
        amount=Decimal(amount),
        supplier="文体商店",
        invoice_number="No.1",
        purchased_on=day(3),
        paid_by=PaidBy.FINANCE,
        by=manager,
        now=at(4),
        **kwargs,
    )


def test_a_negative_fund_is_allowed_by_default(room):
    assert room.fund_may_go_negative is True


def test_approving_beyond_the_fund_asks_with_the_figure(fund, manager, approver):
    plan = submitted(fund, manager)  # 2 × 150.00 of mahjong tiles
    with pytest.raises(ValidationError) as exc:
        _approve(plan, approver)
    assert exc.value.code == "fund_negative"
    assert all(s in exc.value.messages[0] for s in ("300.00", "30.00", "-270.00", "基金为负"))
    assert not PlanDecision.objects.exists()
    _approve(plan, approver, fund_negative_ok=True)
    assert PlanDecision.objects.get().outcome == PlanOutcome.APPROVED


def test_approving_beyond_the_fund_is_refused_where_the_room_does_not_allow_it(
    fund, manager, approver
):
    _refuse_negative(fund)
    plan = submitted(fund, manager)
    with pytest.raises(ValidationError) as exc:
        _approve(plan, approver, fund_negative_ok=True)
    assert exc.value.code == "fund_negative_refused"
    assert "-270.00" in exc.value.messages[0] and "不允许" in exc.value.messages[0]
    assert not PlanDecision.objects.exists()


def test_a_plan_within_the_fund_or_off_it_is_approved_without_a_question(fund, manager, approver):
    _refuse_negative(fund)
    small = submitted(fund, manager, line(quantity="1", unit_price="30.00"))
    water = submitted(
        fund, manager, line(category=ExpenseCategory.CONSUMABLES, item="纯净水", unit="桶")
    )
    _approve(small, approver)
    _approve(water, approver)  # water is the unit's general spending, not the fund's
    assert PlanDecision.objects.count() == 2


def test_a_rejection_never_asks(fund, manager, approver):
    _refuse_negative(fund)
    plan = submitted(fund, manager)
    services.plan_decide(plan=plan, outcome=PlanOutcome.REJECTED, comment="太贵", by=approver)
    assert PlanDecision.objects.get().outcome == PlanOutcome.REJECTED


def test_an_expense_beyond_the_fund_asks_with_the_figure(fund, manager, approver):
    plan_line = first_line(approved(fund, manager, approver))
    with pytest.raises(ValidationError) as exc:
        _spend(plan_line, manager, "100.00")
    assert exc.value.code == "fund_negative"
    assert all(s in exc.value.messages[0] for s in ("100.00", "30.00", "-70.00", "麻将牌"))
    assert not Expense.objects.exists()
    _spend(plan_line, manager, "100.00", fund_negative_ok=True)
    assert selectors.fund_balance(room=fund) == Decimal("-70.00")


def test_an_expense_within_the_fund_is_booked_without_a_question(fund, manager, approver):
    plan_line = first_line(approved(fund, manager, approver))
    _spend(plan_line, manager, "30.00")
    assert selectors.fund_balance(room=fund) == Decimal("0.00")


def test_an_expense_beyond_the_fund_is_refused_where_the_room_does_not_allow_it(
    fund, manager, approver
):
    plan_line = first_line(approved(fund, manager, approver))
    _refuse_negative(fund)
    with pytest.raises(ValidationError) as exc:
        _spend(plan_line, manager, "30.01", fund_negative_ok=True)
    assert exc.value.code == "fund_negative_refused" and "-0.01" in exc.value.messages[0]
    assert not Expense.objects.exists()
