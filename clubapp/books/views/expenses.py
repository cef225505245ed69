"""支: booking an expense against a plan line, its list, the accountant's check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.books import selectors, services
from clubapp.books.filters import ExpenseFilter, person_name
from clubapp.books.forms import ExpenseForm, LineChoice, ReasonForm
from clubapp.books.models import Expense, PaidBy
from clubapp.books.permissions import (
    can_check,
    can_record,
    checker_required,
    reader_required,
    recorder_required,
)
from clubapp.books.tables import ExpenseTable
from clubapp.books.views.common import (
    ask_fund_negative,
    flash,
    form_errors,
    listing,
    reversal_step,
)
from clubapp.core.http import AuthenticatedRequest

if TYPE_CHECKING:
    from clubapp.books.selectors.state import ExpenseWithState


@reader_required
def expense_list(request: AuthenticatedRequest) -> HttpResponse:
    return listing(
        request,
        template="books/expense_list.html",
        queryset=selectors.expense_list(room=request.room),
        filterset_class=ExpenseFilter,
        table_class=ExpenseTable,
        can_record=can_record(request.user),
    )


@recorder_required
def expense_create(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    initial = {"line": request.GET.get("line")} if request.GET.get("line") else {}
    # Any line of the room is accepted, so a line of a plan that is not approved gets
    # the service's message; the list offers only the lines that can take an expense.
    form = ExpenseForm(request.POST or None, lines=selectors.plan_lines(room=room), initial=initial)
    form.fields["line"].widget.choices = LineChoice(
        queryset=selectors.lines_open_for_expenses(room=room)
    ).choices
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            expense = services.expense_record(
                room=room,
                line=data["line"],
                amount=data["amount"],
                supplier=data["supplier"],
                invoice_number=data["invoice_number"],
                purchased_on=data["purchased_on"],
                paid_by=PaidBy(data["paid_by"]),
                reimbursed_to=data["reimbursed_to"],
                note=data["note"],
                request_key=data["request_key"],
                by=request.user,
                fund_negative_ok=data["fund_negative_ok"],
            )
        except ValidationError as exc:
            form_errors(form, exc)
            ask_fund_negative(form, exc)
        else:
            messages.success(
                request,
                _("Expense %(expense)s: %(amount)s yuan booked, waiting for the accountant.")
                % {"expense": expense.number, "amount": expense.amount},
            )
            return redirect(expense)
    return render(request, "books/expense_form.html", {"form": form})


@reader_required
def expense_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    expense: ExpenseWithState = get_object_or_404(
        selectors.expense_list(room=request.room).select_related(
            "confirmation__confirmed_by", "reversal__reversed_by"
        ),
        pk=pk,
    )
    user = request.user
    return render(
        request,
        "books/expense_detail.html",
        {
            "expense": expense,
            "plan": expense.line.submission.plan,
            "left": selectors.line_left(line=expense.line),
            "reason_form": ReasonForm(),
            "can_check": can_check(user),
            "can_reverse": can_check(user) or (can_record(user) and expense.state == "booked"),
        },
    )


def _expense(request: AuthenticatedRequest, pk: int) -> Expense:
    return get_object_or_404(Expense, pk=pk, room=request.room)


@require_POST
@checker_required
def expense_confirm(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    expense = _expense(request, pk)
    try:
        services.expense_confirm(expense=expense, by=request.user)
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(request, _("Expense %(expense)s confirmed.") % {"expense": expense.number})
    return redirect(expense)


@reader_required
def expense_reverse(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """冲正 in two steps, like 散场: the detail page's button (or a link) shows what is
    reversed, its amount and what follows, with the reason; ``confirm=yes`` reverses."""
    expense = _expense(request, pk)
    user = request.user
    confirmed = selectors.expense_is_confirmed(expense=expense)
    if not (can_check(user) or (can_record(user) and not confirmed)):
        raise PermissionDenied(_("A confirmed expense is reversed by the accountant."))
    if selectors.expense_is_reversed(expense=expense):
        messages.info(request, _("Expense %(expense)s was reversed.") % {"expense": expense.number})
        return redirect(expense)
    step = reversal_step(
        request,
        book=lambda reason: services.expense_reverse(expense=expense, reason=reason, by=user),
        booked=lambda reversal: (
            _("Expense %(expense)s reversed (%(number)s).")
            % {"expense": expense.number, "number": reversal.number}
        ),
        back=expense,
    )
    if isinstance(step, HttpResponse):
        return step
    form = step
    line = expense.line
    return render(
        request,
        "books/reversal_confirm.html",
        {
            "form": form,
            "action": reverse("books:expense_reverse", args=[expense.pk]),
            "back": expense.get_absolute_url(),
            "what": _("Expense %(expense)s") % {"expense": expense.number},
            "amount": expense.amount,
            "facts": [
                (_("Plan line"), f"{line.submission.plan.number} · {line.item}"),
                (_("Supplier"), expense.supplier),
                (_("Invoice number (发票号)"), expense.invoice_number),
                (_("Booked by"), person_name(expense.recorded_by)),
            ],
            "effect": _(
                "Its %(amount)s yuan are free again on the plan's line “%(item)s”. The "
                "expense stays on its day; the reversal is booked today and cannot be undone."
            )
            % {"amount": expense.amount, "item": line.item},
        },
    )
