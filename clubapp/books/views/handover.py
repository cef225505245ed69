"""缴款: slips, their list, and the accountant's answer."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubapp.books import selectors, services
from clubapp.books.filters import SlipFilter, person_name
from clubapp.books.forms import ReasonForm, SlipForm
from clubapp.books.models import HandOverSlip, SlipOutcome
from clubapp.books.money import total
from clubapp.books.permissions import (
    can_check,
    can_record,
    checker_required,
    reader_required,
    recorder_required,
)
from clubapp.books.tables import SlipTable
from clubapp.books.views.common import flash, form_errors, listing, reversal_step
from clubapp.core.http import AuthenticatedRequest
from clubapp.core.requestkeys import booked_under


@reader_required
def slip_list(request: AuthenticatedRequest) -> HttpResponse:
    return listing(
        request,
        template="books/slip_list.html",
        queryset=selectors.slip_list(room=request.room),
        filterset_class=SlipFilter,
        table_class=SlipTable,
        can_record=can_record(request.user),
    )


@recorder_required
def slip_create(request: AuthenticatedRequest) -> HttpResponse:
    room = request.room
    at_desk = selectors.receipts_to_hand_over(room=room)
    form = SlipForm(request.POST or None, receipts=at_desk, initial={"receipts": list(at_desk)})
    # Sent again, the form's receipts are no longer at the desk: answer with the slip
    # the first one wrote rather than with that refusal.
    if request.method == "POST" and (again := booked_under(HandOverSlip, request_key=_key(form))):
        return redirect(again)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            slip = services.slip_create(
                room=room,
                incomes=list(data["receipts"]),
                amount=data["amount"],
                note=data["note"],
                by=request.user,
                request_key=data["request_key"],
            )
        except ValidationError as exc:
            form_errors(form, exc)
        else:
            messages.success(
                request,
                _("Slip %(slip)s: %(amount)s yuan handed over, waiting for the accountant.")
                % {"slip": slip.number, "amount": slip.amount},
            )
            return redirect(slip)
    return render(
        request,
        "books/slip_form.html",
        {
            "form": form,
            "at_desk_total": total(e.amount for e in at_desk),
            "desk": selectors.desk_cash(room=room),
            "today": timezone.localdate(),
        },
    )


def _key(form: SlipForm) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(form["request_key"].data))
    except ValueError:
        return None


@reader_required
def slip_detail(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    slip = get_object_or_404(
        selectors.slip_list(room=request.room).select_related("reversal__reversed_by"), pk=pk
    )
    return render(
        request,
        "books/slip_detail.html",
        {
            "slip": slip,
            "receipts": selectors.slip_receipts(slip=slip),
            "reason_form": ReasonForm(),
            "can_check": can_check(request.user),
        },
    )


def _slip(request: AuthenticatedRequest, pk: int) -> HandOverSlip:
    return get_object_or_404(HandOverSlip, pk=pk, room=request.room)


@require_POST
@checker_required
def slip_confirm(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    slip = _slip(request, pk)
    try:
        services.slip_confirm(slip=slip, by=request.user)
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(request, _("Slip %(slip)s confirmed.") % {"slip": slip.number})
    return redirect(slip)


@require_POST
@checker_required
def slip_return(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    slip = _slip(request, pk)
    form = ReasonForm(request.POST)
    try:
        services.slip_return(
            slip=slip,
            reason=form.cleaned_data["reason"] if form.is_valid() else "",
            by=request.user,
        )
    except ValidationError as exc:
        flash(request, exc)
    else:
        messages.success(
            request,
            _("Slip %(slip)s sent back: its receipts are at the desk again.")
            % {"slip": slip.number},
        )
    return redirect(slip)


@checker_required
def slip_reverse(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """冲正 in two steps, like 散场: the slip page's button (or a link) shows what is
    reversed, its amount and what follows, with the reason; ``confirm=yes`` reverses."""
    slip = _slip(request, pk)
    if selectors.slip_is_reversed(slip=slip):
        messages.info(request, _("Slip %(slip)s was reversed.") % {"slip": slip.number})
        return redirect(slip)
    decision = selectors.slip_decision(slip=slip)
    if decision is None or decision.outcome != SlipOutcome.CONFIRMED:
        # nothing to ask about: say what to do instead, as the service would
        messages.error(
            request,
            (
                _("Slip %(slip)s is not confirmed yet: send it back instead.")
                if decision is None
                else _("Slip %(slip)s was sent back; there is nothing to reverse.")
            )
            % {"slip": slip.number},
        )
        return redirect(slip)
    step = reversal_step(
        request,
        book=lambda reason: services.slip_reverse(slip=slip, reason=reason, by=request.user),
        booked=lambda reversal: (
            _("Slip %(slip)s reversed (%(number)s).")
            % {"slip": slip.number, "number": reversal.number}
        ),
        back=slip,
    )
    if isinstance(step, HttpResponse):
        return step
    form = step
    receipts = list(selectors.slip_receipts(slip=slip))
    return render(
        request,
        "books/reversal_confirm.html",
        {
            "form": form,
            "action": reverse("books:slip_reverse", args=[slip.pk]),
            "back": slip.get_absolute_url(),
            "what": _("Hand-over slip %(slip)s") % {"slip": slip.number},
            "amount": slip.amount,
            "facts": [
                (_("Handed over by"), person_name(slip.handed_over_by)),
                (_("Receipts"), " ".join(r.reference for r in receipts)),
            ],
            "effect": ngettext(
                "Its %(amount)s yuan and its %(count)s receipt are back at the desk, to go "
                "on a new slip. The slip stays on its day; the reversal is booked today and "
                "cannot be undone.",
                "Its %(amount)s yuan and its %(count)s receipts are back at the desk, to go "
                "on a new slip. The slip stays on its day; the reversal is booked today and "
                "cannot be undone.",
                len(receipts),
            )
            % {"amount": slip.amount, "count": len(receipts)},
        },
    )
