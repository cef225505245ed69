"""收: the income list, other income with its receipt, reversing an entry."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubapp.books import selectors, services
from clubapp.books.filters import IncomeFilter
from clubapp.books.forms import IncomeForm, ReasonForm
from clubapp.books.models import IncomeCategory, IncomeEntry
from clubapp.books.permissions import (
    can_check,
    can_record,
    checker_required,
    reader_required,
    recorder_required,
)
from clubapp.books.tables import IncomeTable
from clubapp.books.views.common import flash, form_errors, listing
from clubapp.core.http import AuthenticatedRequest


@reader_required
def income_list(request: AuthenticatedRequest) -> HttpResponse:
    return listing(
        request,
        template="books/income_list.html",
        queryset=selectors.income_list(room=request.room),
        filterset_class=IncomeFilter,
        table_class=IncomeTable,
        can_record=can_record(request.user),
    )


@recorder_required
def income_create(request: AuthenticatedRequest) -> HttpResponse:
    form = IncomeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            entry = services.income_other_record(
                room=request.room,
                category=IncomeCategory(data["category"]),
                amount=data["amount"],
                received_at=form.received_at(),
                payer=data["payer"],
                description=data["description"],
                late=data["late"],
                request_key=data["request_key"],
                by=request.user,
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(
                request,
                _("Receipt %(receipt)s: %(amount)s yuan booked.")
                % {"receipt": entry.reference, "amount": entry.amount},
            )
            return redirect(entry)
    return render(request, "books/income_form.html", {"form": form})


@reader_required
def income_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    entry = get_object_or_404(
        selectors.income_list(room=request.room).select_related("reversal__reversed_by"), pk=pk
    )
    return render(
        request,
        "books/income_detail.html",
        {
            "entry": entry,
            "slips": selectors.slip_list(room=entry.room).filter(lines__income=entry),
            "reason_form": ReasonForm(),
            "can_check": can_check(request.user),
        },
    )


@require_POST
@checker_required
def income_reverse(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    entry = get_object_or_404(IncomeEntry, pk=pk, room=request.room)
    form = ReasonForm(request.POST)
    try:
        reversal = services.income_reverse(
            entry=entry,
            reason=form.cleaned_data["reason"] if form.is_valid() else "",
            by=request.user,
        )
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(
            request,
            _("Receipt %(receipt)s reversed (%(number)s).")
            % {"receipt": entry.reference, "number": reversal.number},
        )
    return redirect(entry)
