"""支: expenses against an approved plan's line, paid by the unit's finance."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.books import selectors
from clubapp.books.models import (
    FUND_CATEGORIES,
    Expense,
    ExpenseConfirmation,
    PaidBy,
    PlanLine,
    PlanState,
    PurchasePlan,
)
from clubapp.books.money import amount_check
from clubapp.books.permissions import can_check, can_record
from clubapp.books.services.days import book_day, lock_room
from clubapp.books.services.fund import fund_check
from clubapp.core.models import Room
from clubapp.core.requestkeys import book_once
from clubapp.core.services import next_number


def _text(value: str, *, message: str, max_length: int) -> str:
    value = (value or "").strip()
    if not value:
        raise ValidationError(message, code="required")
    return value[:max_length]


@transaction.atomic
def expense_record(
    *,
    room: Room,
    line: PlanLine,
    amount: Decimal,
    supplier: str,
    invoice_number: str,
    purchased_on: dt.date,
    paid_by: PaidBy,
    by: User,
    reimbursed_to: str = "",
    note: str = "",
    request_key: uuid.UUID | None = None,
    now: dt.datetime | None = None,
    fund_negative_ok: bool = False,
) -> Expense:
    """Book what was paid for one line of an approved plan (ZC2026-0001).

    Refused when the plan is not approved (or already done), when the purchase
    predates the approval, and when the line's approved amount would be exceeded —
    that needs a supplementary plan. It never touches the cash on hand: the unit's
    finance pays, or reimburses the person named. An equipment or facility line that
    would take the equipment fund below zero is refused if the room does not allow
    it, and otherwise needs ``fund_negative_ok`` (the manager saw the figure).
    """
    if not can_record(by):
        raise PermissionDenied(_("Only a manager may book an expense."))
    return book_once(
        Expense,
        request_key=request_key,
        book=lambda: _record(
            room=room,
            line=line,
            amount=amount,
            supplier=supplier,
            invoice_number=invoice_number,
            purchased_on=purchased_on,
            paid_by=paid_by,
            by=by,
            reimbursed_to=reimbursed_to,
            note=note,
            request_key=request_key,
            now=now or timezone.now(),
            fund_negative_ok=fund_negative_ok,
        ),
    )


def _record(
    *,
    room: Room,
    line: PlanLine,
    amount: Decimal,
    supplier: str,
    invoice_number: str,
    purchased_on: dt.date,
    paid_by: PaidBy,
    by: User,
    reimbursed_to: str,
    note: str,
    request_key: uuid.UUID | None,
    now: dt.datetime,
    fund_negative_ok: bool,
) -> Expense:
    line = _line_locked(room, line)
    plan = line.submission.plan
    _plan_takes_expenses(plan)
    amount = amount_check(amount)
    supplier = _text(supplier, message=_("Enter the supplier."), max_length=100)
    invoice_number = _text(invoice_number, message=_("Enter the invoice number."), max_length=40)
    reimbursed_to = _reimbursed_to(paid_by, reimbursed_to)
    today = timezone.localdate(now)
    _purchase_date_check(plan, purchased_on=purchased_on, today=today)
    _within_line(line, amount=amount)
    if line.category in FUND_CATEGORIES:
        fund_check(
            room=room,
            spend=amount,
            confirmed=fund_negative_ok,
            what=_("This expense (%(item)s)") % {"item": line.item},
        )
    book_date, late_for = book_day(room=room, day=today)
    year = timezone.localtime(now).year
    return Expense.objects.create(
        room=room,
        number=f"ZC{year}-{next_number(room=room, key=f'expense-{year}'):04d}",
        line=line,
        amount=amount,
        supplier=supplier,
        invoice_number=invoice_number,
        purchased_on=purchased_on,
        paid_by=paid_by,
        reimbursed_to=reimbursed_to,
        note=(note or "").strip()[:200],
        recorded_by=by,
        recorded_at=now,
        book_date=book_date,
        late_for=late_for,
        request_key=request_key,
    )


def _line_locked(room: Room, line: PlanLine) -> PlanLine:
    """The room's plan line, locked after the room (the room first, as every dated
    write). A line of another room is not found, as a missing one."""
    lock_room(room)
    found = (
        PlanLine.objects.select_for_update(of=("self",))
        .select_related("submission__plan__room")
        .filter(room=room, pk=line.pk)
        .first()
    )
    if found is None:
        raise ValidationError(_("Choose the line of an approved plan."), code="unknown_line")
    return found


def _plan_takes_expenses(plan: PurchasePlan) -> None:
    """Only an approved plan, not yet done, takes expenses."""
    state = selectors.plan_state(plan=plan)
    if state == PlanState.DONE:
        raise ValidationError(
            _("Plan %(plan)s is done; it takes no more expenses.") % {"plan": plan.number},
            code="plan_done",
        )
    if state not in (PlanState.APPROVED, PlanState.IN_PROGRESS):
        raise ValidationError(
            _("Plan %(plan)s is not approved: expenses are booked only against an approved plan.")
            % {"plan": plan.number},
            code="plan_not_approved",
        )


def _reimbursed_to(paid_by: PaidBy, reimbursed_to: str) -> str:
    """Who is reimbursed: named when a person paid, nobody when the finance paid."""
    if paid_by not in PaidBy.values:
        raise ValidationError(_("Say who paid."), code="paid_by")
    reimbursed_to = (reimbursed_to or "").strip()[:50]
    if paid_by == PaidBy.REIMBURSEMENT and not reimbursed_to:
        raise ValidationError(_("Name the person to reimburse."), code="reimbursed_to")
    if paid_by == PaidBy.FINANCE:
        reimbursed_to = ""
    return reimbursed_to


def _purchase_date_check(plan: PurchasePlan, *, purchased_on: dt.date, today: dt.date) -> None:
    """Bought by today, and not before the plan was approved."""
    approved_on = selectors.plan_approved_on(plan=plan)
    if purchased_on > today:
        raise ValidationError(_("The purchase date cannot be in the future."), code="future")
    if approved_on is not None and purchased_on < approved_on:
        raise ValidationError(
            _("The purchase date is before the plan was approved (%(day)s): buy after approval.")
            % {"day": f"{approved_on:%Y-%m-%d}"},
            code="before_approval",
        )


def _within_line(line: PlanLine, *, amount: Decimal) -> None:
    """Beyond what is left of the line's approved amount needs a supplementary plan."""
    left = selectors.line_left(line=line)
    if amount > left:
        raise ValidationError(
            _(
                "Beyond the approved amount of line “%(item)s”: approved %(approved)s yuan, "
                "spent %(spent)s yuan, %(left)s yuan left. Draft a supplementary plan."
            )
            % {
                "item": line.item,
                "approved": line.amount,
                "spent": line.amount - left,
                "left": left,
            },
            code="beyond_line",
        )


@transaction.atomic
def expense_confirm(
    *, expense: Expense, by: User, now: dt.datetime | None = None
) -> ExpenseConfirmation:
    """The accountant has checked the expense and its invoice."""
    if not can_check(by):
        raise PermissionDenied(_("Only the accountant may confirm an expense."))
    now = now or timezone.now()
    expense = Expense.objects.select_for_update(of=("self",)).get(pk=expense.pk)
    if expense.recorded_by_id == by.pk:
        raise ValidationError(
            _("You booked this expense yourself; another person must confirm it."),
            code="own_expense",
        )
    if selectors.expense_is_reversed(expense=expense):
        raise ValidationError(
            _("Expense %(expense)s was reversed.") % {"expense": expense.number}, code="reversed"
        )
    already = _("Expense %(expense)s is already confirmed.") % {"expense": expense.number}
    if ExpenseConfirmation.objects.filter(expense=expense).exists():
        raise ValidationError(already, code="confirmed")
    try:
        with transaction.atomic():
            return ExpenseConfirmation.objects.create(
                room=expense.room, expense=expense, confirmed_by=by, confirmed_at=now
            )
    except IntegrityError:
        raise ValidationError(already, code="confirmed") from None
