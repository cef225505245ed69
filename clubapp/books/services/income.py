"""收: income entries. The members app's fees and the room's other income."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.books.models import OTHER_INCOME, IncomeCategory, IncomeEntry
from clubapp.books.money import amount_check
from clubapp.books.permissions import can_record
from clubapp.books.services.days import book_day, lock_room
from clubapp.core.models import Room
from clubapp.core.requestkeys import book_once
from clubapp.core.services import next_number


def _text(value: str, *, message: str, max_length: int) -> str:
    value = (value or "").strip()
    if not value:
        raise ValidationError(message, code="required")
    return value[:max_length]


def receipt_number(*, room: Room, now: dt.datetime) -> str:
    """The next number of the room's one receipt book (R2026-00001), the series the
    members app's receipts come from too."""
    year = timezone.localtime(now).year
    return f"R{year}-{next_number(room=room, key=f'receipt-{year}'):05d}"


@transaction.atomic
def income_record(
    *,
    room: Room,
    category: IncomeCategory,
    amount: Decimal,
    received_at: dt.datetime,
    reference: str,
    recorded_by: User,
    description: str = "",
    payer: str = "",
    request_key: uuid.UUID | None = None,
) -> IncomeEntry:
    """Append one 收 entry for money received at ``received_at``, with its receipt number.

    It is booked on the day it was received; if the accountant has already closed
    that day, on the next open day, marked 补记 with the day it belongs to. Money
    taken at the desk cannot be refused because the books are closed.
    """
    if not can_record(recorded_by):
        raise PermissionDenied(_("Only a manager may record income."))
    amount = amount_check(amount)
    if category not in IncomeCategory.values:
        raise ValidationError(_("Choose a category of income."), code="category")

    def book() -> IncomeEntry:
        return _create(
            room=room,
            category=category,
            amount=amount,
            received_at=received_at,
            reference=reference,
            payer=payer,
            recorded_by=recorded_by,
            description=description,
            request_key=request_key,
        )

    return book_once(IncomeEntry, request_key=request_key, book=book)


def _create(
    *,
    room: Room,
    category: IncomeCategory,
    amount: Decimal,
    received_at: dt.datetime,
    reference: str,
    payer: str,
    recorded_by: User,
    description: str,
    request_key: uuid.UUID | None,
) -> IncomeEntry:
    lock_room(room)
    book_date, late_for = book_day(room=room, day=timezone.localdate(received_at))
    return IncomeEntry.objects.create(
        room=room,
        category=category,
        amount=amount,
        received_at=received_at,
        reference=reference,
        payer=(payer or "").strip()[:50],
        recorded_by=recorded_by,
        description=(description or "").strip()[:200],
        book_date=book_date,
        late_for=late_for,
        request_key=request_key,
    )


@transaction.atomic
def income_other_record(
    *,
    room: Room,
    category: IncomeCategory,
    amount: Decimal,
    received_at: dt.datetime,
    payer: str,
    description: str,
    by: User,
    late: bool = False,
    request_key: uuid.UUID | None = None,
    now: dt.datetime | None = None,
) -> IncomeEntry:
    """Other income (a tournament's entry fees, a donation…) with its own receipt.

    ``received_at`` may be earlier than now (money booked after the fact). If its day
    is closed, the manager must say so (``late``, the 补记 box): the entry is then
    booked on the next open day, marked as belonging to that day.
    """
    if not can_record(by):
        raise PermissionDenied(_("Only a manager may record income."))
    now = now or timezone.now()
    if category not in OTHER_INCOME:
        raise ValidationError(
            _("Card fees, yearly reviews and non-members' fees are taken at the desk."),
            code="category",
        )
    amount = amount_check(amount)
    payer = _text(payer, message=_("Enter who paid."), max_length=50)
    description = _text(description, message=_("Enter what the money is for."), max_length=200)
    if received_at > now:
        raise ValidationError(_("The money cannot be received in the future."), code="future")

    def book() -> IncomeEntry:
        lock_room(room)
        day = timezone.localdate(received_at)
        book_date, late_for = book_day(room=room, day=day)
        if late_for is not None and not late:
            raise ValidationError(
                _(
                    "%(day)s is closed. Tick “late entry” to book it on the next open day, "
                    "%(next)s, marked as belonging to %(day)s."
                )
                % {"day": f"{day:%Y-%m-%d}", "next": f"{book_date:%Y-%m-%d}"},
                code="day_closed",
            )
        return _create(
            room=room,
            category=category,
            amount=amount,
            received_at=received_at,
            reference=receipt_number(room=room, now=now),
            recorded_by=by,
            description=description,
            payer=payer,
            request_key=request_key,
        )

    return book_once(IncomeEntry, request_key=request_key, book=book)
