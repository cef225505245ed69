"""支: only against an approved plan's line, within its amount; confirmed by the accountant;
never out of the cash on hand (no 坐支)."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubapp.books import selectors, services
from clubapp.books.models import Expense, ExpenseConfirmation, PaidBy, PlanLine, PlanOutcome
from clubapp.books.tests.factories import (
    approved,
    at,
    day,
    expense,
    fee,
    first_line,
    submitted,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def plan(room, manager, approver):
    return approved(room, manager, approver)  # 麻将牌 2 副 × 150.00 = 300.00


def test_an_expense_is_booked_against_an_approved_line(room, plan, manager):
    spent = expense(first_line(plan), manager, "280.00")
    assert spent.number == "ZC2026-0001"
    assert (spent.amount, spent.supplier, spent.invoice_number) == (
        Decimal("280.00"),
        "新街口文体商店",
        "No.04512345",
    )
    assert (spent.purchased_on, spent.paid_by, spent.book_date, spent.recorded_by) == (
        day(3),
        PaidBy.FINANCE,
        day(4),
        manager,
    )
    assert selectors.line_left(line=first_line(plan)) == Decimal("20.00")


def test_a_reimbursement_names_the_person(room, plan, manager):
    with pytest.raises(ValidationError, match="报销人姓名"):
        expense(first_line(plan), manager, paid_by=PaidBy.REIMBURSEMENT)
    spent = expense(first_line(plan), manager, paid_by=PaidBy.REIMBURSEMENT, reimbursed_to="王经理")
    assert spent.reimbursed_to == "王经理"


def test_beyond_the_line_it_needs_a_supplementary_plan(room, plan, manager):
    expense(first_line(plan), manager, "280.00")
    with pytest.raises(
        ValidationError, match="批准 300.00 元，已支出 280.00 元，余额 20.00 元。请编制补充计划"
    ):
        expense(first_line(plan), manager, "20.01")
    assert Expense.objects.count() == 1
    expense(first_line(plan), manager, "20.00")  # exactly the rest is fine


def test_a_reversed_expense_frees_the_line(room, plan, manager, accountant):
    wrong = expense(first_line(plan), manager, "300.00")
    services.expense_reverse(expense=wrong, reason="金额录错", by=manager, now=at(4, 11))
    assert selectors.line_left(line=first_line(plan)) == Decimal("300.00")
    expense(first_line(plan), manager, "290.00")


@pytest.mark.parametrize("stage", ["submitted", "rejected"])
def test_no_expense_without_an_approved_plan(room, manager, approver, stage):
    plan = submitted(room, manager)
    if stage == "rejected":
        services.plan_decide(plan=plan, outcome=PlanOutcome.REJECTED, comment="不", by=approver)
    with pytest.raises(ValidationError, match="未经批准：支出只能按已批准的购置计划登记"):
        expense(PlanLine.objects.get(submission__plan=plan), manager)
    assert Expense.objects.count() == 0


def test_no_expense_on_a_done_plan(room, plan, manager):
    services.plan_complete(plan=plan, by=manager)
    with pytest.raises(ValidationError, match="已完成"):
        expense(first_line(plan), manager)


def test_a_purchase_before_the_approval_is_refused(room, plan, manager):
    with pytest.raises(ValidationError, match="早于计划批准日期"):
        expense(first_line(plan), manager, purchased_on=day(31, month=10))


def test_a_purchase_is_not_in_the_future(room, plan, manager):
    with pytest.raises(ValidationError, match="不能晚于今天"):
        expense(first_line(plan), manager, purchased_on=day(5))


@pytest.mark.parametrize(
    ("field", "message"), [("supplier", "供应商"), ("invoice_number", "发票号")]
)
def test_supplier_and_invoice_are_required(room, plan, manager, field, message):
    with pytest.raises(ValidationError, match=message):
        expense(first_line(plan), manager, **{field: " "})


@pytest.mark.parametrize(
    ("amount", "message"), [("0", "大于零"), ("-1", "大于零"), ("9.999", "两位小数")]
)
def test_bad_amounts_are_refused(room, plan, manager, amount, message):
    with pytest.raises(ValidationError, match=message):
        expense(first_line(plan), manager, amount)


def test_the_same_form_sent_twice_books_once(room, plan, manager):
    key = uuid.uuid4()
    assert expense(first_line(plan), manager, "10.00", request_key=key) == expense(
        first_line(plan), manager, "10.00", request_key=key
    )
    assert Expense.objects.count() == 1


@pytest.mark.parametrize("who", ["accountant", "approver", "member", "outsider"])
def test_only_a_manager_books_an_expense(room, plan, request, who):
    with pytest.raises(PermissionDenied):
        expense(first_line(plan), request.getfixturevalue(who))


def test_the_accountant_confirms_an_expense_once(room, plan, manager, accountant):
    spent = expense(first_line(plan), manager)
    confirmation = services.expense_confirm(expense=spent, by=accountant, now=at(5))
    assert (confirmation.confirmed_by, confirmation.confirmed_at) == (accountant, at(5))
    with pytest.raises(ValidationError, match="已确认，不能重复确认"):
        services.expense_confirm(expense=spent, by=accountant)
    assert ExpenseConfirmation.objects.count() == 1


@pytest.mark.parametrize("who", ["manager", "approver", "member"])
def test_only_the_accountant_confirms(room, plan, manager, request, who):
    spent = expense(first_line(plan), manager)
    with pytest.raises(PermissionDenied):
        services.expense_confirm(expense=spent, by=request.getfixturevalue(who))


def test_a_reversed_expense_is_not_confirmed(room, plan, manager, accountant):
    spent = expense(first_line(plan), manager)
    services.expense_reverse(expense=spent, reason="录错", by=accountant)
    with pytest.raises(ValidationError, match="已冲正"):
        services.expense_confirm(expense=spent, by=accountant)


def test_a_confirmed_expense_is_reversed_by_the_accountant_only(room, plan, manager, accountant):
    spent = expense(first_line(plan), manager)
    services.expense_confirm(expense=spent, by=accountant)
    with pytest.raises(PermissionDenied):
        services.expense_reverse(expense=spent, reason="录错", by=manager)
    reversal = services.expense_reverse(expense=spent, reason="录错", by=accountant)
    assert (reversal.kind, reversal.amount) == ("expense", spent.amount)
    with pytest.raises(ValidationError, match="已经冲正"):
        services.expense_reverse(expense=spent, reason="再", by=accountant)


def test_no_sitting_pay_an_expense_never_touches_the_cash_on_hand(room, plan, manager, accountant):
    """坐支: cash on hand moves only with income and hand-overs."""
    fee(room, manager, "50.00", when=at(2))
    before = selectors.desk_cash(room=room, now=at(4)).cash_on_hand
    for paid_by, name in ((PaidBy.FINANCE, ""), (PaidBy.REIMBURSEMENT, "王经理")):
        spent = expense(first_line(plan), manager, "100.00", paid_by=paid_by, reimbursed_to=name)
        services.expense_confirm(expense=spent, by=accountant)
    services.expense_reverse(expense=spent, reason="录错", by=accountant)
    services.plan_complete(plan=plan, by=manager)
    assert selectors.desk_cash(room=room, now=at(4)).cash_on_hand == before == Decimal("50.00")
    assert selectors.cash_through(room=room) == before
    assert selectors.day_summary(room=room, day=day(4)).cash_closing == before
