"""冲正: a wrong income entry, confirmed slip or expense is cancelled by a reversing
entry with a reason, booked on the day it is made; the original never changes."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.books import selectors
from clubapp.books.models import (
    Expense,
    HandOverSlip,
    IncomeEntry,
    Reversal,
    ReversalKind,
    SlipOutcome,
)
from clubapp.books.permissions import can_check, can_record
from clubapp.books.services.days import book_day, lock_room
from clubapp.core.models import Room
from clubapp.core.services import next_number


def _reason(reason: str) -> str:
    reason = (reason or "").strip()[:200]
    if not reason:
        raise ValidationError(_("Give the reason for the reversal."), code="reason")
    return reason


def _write(
    *,
    room: Room,
    kind: ReversalKind,
    reason: str,
    by: User,
    now: dt.datetime,
    **target: IncomeEntry | HandOverSlip | Expense,
) -> Reversal:
    (obj,) = target.values()
    book_date, late_for = book_day(room=room, day=timezone.localdate(now))
    year = timezone.localtime(now).year
    try:
        with transaction.atomic():
            return Reversal.objects.create(
                room=room,
                number=f"CZ{year}-{next_number(room=room, key=f'reversal-{year}'):04d}",
                kind=kind,
                amount=obj.amount,
                reason=reason,
                reversed_by=by,
                reversed_at=now,
                book_date=book_date,
                late_for=late_for,
                **target,
            )
    except IntegrityError:
        raise ValidationError(_("This is already reversed."), code="reversed") from None


@transaction.atomic
def income_reverse(
    *, entry: IncomeEntry, reason: str, by: User, now: dt.datetime | None = None
) -> Reversal:
    """Cancel an income entry booked by mistake (the accountant: the desk that holds
    the cash cannot make a receipt disappear). Its cash must still be at the desk:
    an entry on a live slip is corrected by sending the slip back first."""
    if not can_check(by):
        raise PermissionDenied(_("Only the accountant may reverse an income entry."))
    reason = _reason(reason)
    now = now or timezone.now()
    lock_room(entry.room)
    entry = IncomeEntry.objects.select_for_update(of=("self",)).get(pk=entry.pk)
    if selectors.income_is_reversed(entry=entry):
        raise ValidationError(
            _("Receipt %(receipt)s is already reversed.") % {"receipt": entry.reference},
            code="reversed",
        )
    slip = selectors.income_live_slip(entry=entry)
    if slip is not None:
        raise ValidationError(
            _(
                "Receipt %(receipt)s is on hand-over slip %(slip)s: the slip must be sent "
                "back or reversed first."
            )
            % {"receipt": entry.reference, "slip": slip.number},
            code="handed_over",
        )
    return _write(
        room=entry.room, kind=ReversalKind.INCOME, reason=reason, by=by, now=now, income=entry
    )


@transaction.atomic
def slip_reverse(
    *, slip: HandOverSlip, reason: str, by: User, now: dt.datetime | None = None
) -> Reversal:
    """Cancel a confirmed slip (confirmed by mistake): its receipts are back at the desk.
    A slip still waiting is sent back instead."""
    if not can_check(by):
        raise PermissionDenied(_("Only the accountant may reverse a hand-over slip."))
    reason = _reason(reason)
    now = now or timezone.now()
    lock_room(slip.room)
    slip = HandOverSlip.objects.select_for_update(of=("self",)).get(pk=slip.pk)
    decision = selectors.slip_decision(slip=slip)
    if decision is None:
        raise ValidationError(
            _("Slip %(slip)s is not confirmed yet: send it back instead.") % {"slip": slip.number},
            code="pending",
        )
    if decision.outcome == SlipOutcome.RETURNED:
        raise ValidationError(
            _("Slip %(slip)s was sent back; there is nothing to reverse.") % {"slip": slip.number},
            code="returned",
        )
    if selectors.slip_is_reversed(slip=slip):
        raise ValidationError(_("This is already reversed."), code="reversed")
    return _write(room=slip.room, kind=ReversalKind.SLIP, reason=reason, by=by, now=now, slip=slip)


@transaction.atomic
def expense_reverse(
    *, expense: Expense, reason: str, by: User, now: dt.datetime | None = None
) -> Reversal:
    """Cancel an expense: the accountant at any time; the manager while it is not
    confirmed yet. The line's amount is free again."""
    confirmed = selectors.expense_is_confirmed(expense=expense)
    if not (can_check(by) or (can_record(by) and not confirmed)):
        raise PermissionDenied(
            _("A confirmed expense is reversed by the accountant.")
            if confirmed
            else _("Only a manager or the accountant may reverse an expense.")
        )
    reason = _reason(reason)
    now = now or timezone.now()
    lock_room(expense.room)
    expense = Expense.objects.select_for_update(of=("self",)).get(pk=expense.pk)
    if selectors.expense_is_reversed(expense=expense):
        raise ValidationError(_("This is already reversed."), code="reversed")
    return _write(
        room=expense.room, kind=ReversalKind.EXPENSE, reason=reason, by=by, now=now, expense=expense
    )
