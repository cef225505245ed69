"""缴款: cash leaves the desk only on a hand-over slip, receipts in full."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.books import selectors
from clubapp.books.models import HandOverLine, HandOverSlip, IncomeEntry, SlipDecision, SlipOutcome
from clubapp.books.money import amount_check, total
from clubapp.books.permissions import can_check, can_record
from clubapp.books.services.days import book_day, lock_room
from clubapp.core.models import Room
from clubapp.core.requestkeys import book_once
from clubapp.core.services import next_number


def _already_on_slip(entry: IncomeEntry, slip: HandOverSlip) -> ValidationError:
    return ValidationError(
        _("Receipt %(receipt)s is already on hand-over slip %(slip)s; it is handed over once.")
        % {"receipt": entry.reference, "slip": slip.number},
        code="handed_over",
    )


@transaction.atomic
def slip_create(
    *,
    room: Room,
    incomes: Iterable[IncomeEntry],
    amount: Decimal,
    by: User,
    note: str = "",
    now: dt.datetime | None = None,
    request_key: uuid.UUID | None = None,
) -> HandOverSlip:
    """缴款单: hand over the cash of these receipts, each in full.

    ``amount`` is the cash the manager counted; it must equal the receipts' total.
    The form sent twice (``request_key``) gives the first slip back.
    """
    if not can_record(by):
        raise PermissionDenied(_("Only a manager may hand cash over."))
    return book_once(
        HandOverSlip,
        request_key=request_key,
        book=lambda: _create(
            room=room,
            incomes=incomes,
            amount=amount,
            by=by,
            note=note,
            now=now or timezone.now(),
            request_key=request_key,
        ),
    )


def _create(
    *,
    room: Room,
    incomes: Iterable[IncomeEntry],
    amount: Decimal,
    by: User,
    note: str,
    now: dt.datetime,
    request_key: uuid.UUID | None,
) -> HandOverSlip:
    lock_room(room)
    ids = sorted({entry.pk for entry in incomes})
    if not ids:
        raise ValidationError(_("Choose the receipts this slip hands over."), code="empty")
    entries = list(
        IncomeEntry.objects.select_for_update(of=("self",))
        .filter(room=room, pk__in=ids)
        .order_by("received_at", "pk")
    )
    if len(entries) != len(ids):
        raise ValidationError(_("A receipt is not in this room's books."), code="unknown")
    for entry in entries:
        if selectors.income_is_reversed(entry=entry):
            raise ValidationError(
                _("Receipt %(receipt)s was reversed; there is no cash to hand over.")
                % {"receipt": entry.reference},
                code="reversed",
            )
        live = selectors.income_live_slip(entry=entry)
        if live is not None:
            raise _already_on_slip(entry, live)
    expected = total(entry.amount for entry in entries)
    amount = amount_check(amount)
    if amount != expected:
        raise ValidationError(
            _(
                "The cash counted, %(amount)s yuan, is not the receipts' total, %(total)s "
                "yuan: every receipt is handed over in full."
            )
            % {"amount": amount, "total": expected},
            code="amount_mismatch",
        )
    year = timezone.localtime(now).year
    book_date, late_for = book_day(room=room, day=timezone.localdate(now))
    try:
        with transaction.atomic():
            slip = HandOverSlip.objects.create(
                room=room,
                number=f"JK{year}-{next_number(room=room, key=f'handover-{year}'):04d}",
                amount=amount,
                handed_over_at=now,
                handed_over_by=by,
                note=(note or "").strip()[:200],
                book_date=book_date,
                late_for=late_for,
                request_key=request_key,
            )
            HandOverLine.objects.bulk_create(
                HandOverLine(
                    room=room,
                    slip=slip,
                    income=entry,
                    attempt=HandOverLine.objects.filter(income=entry).count(),
                )
                for entry in entries
            )
    except IntegrityError:
        # Another desk put one of these receipts on a slip at the same moment.
        raise ValidationError(
            _("One of these receipts was just handed over on another slip."), code="race"
        ) from None
    return slip


def _check_who(user: User) -> None:
    if not can_check(user):
        raise PermissionDenied(_("Only the accountant may confirm or send back a slip."))


def _decide(
    *,
    slip: HandOverSlip,
    outcome: SlipOutcome,
    reason: str,
    by: User,
    now: dt.datetime | None,
) -> SlipDecision:
    _check_who(by)
    now = now or timezone.now()
    lock_room(slip.room)
    slip = HandOverSlip.objects.select_for_update(of=("self",)).get(pk=slip.pk)
    if slip.handed_over_by_id == by.pk:
        raise ValidationError(
            _("You handed this slip over yourself; another person must check it."),
            code="own_slip",
        )
    decision = SlipDecision.objects.filter(slip=slip).first()
    if decision is not None:
        if decision.outcome == SlipOutcome.CONFIRMED:
            message = _("Hand-over slip %(slip)s is already confirmed; it is confirmed once.")
        else:
            message = _("Hand-over slip %(slip)s was already sent back.")
        raise ValidationError(message % {"slip": slip.number}, code="decided")
    book_date, late_for = book_day(room=slip.room, day=timezone.localdate(now))
    try:
        with transaction.atomic():
            return SlipDecision.objects.create(
                room=slip.room,
                slip=slip,
                outcome=outcome,
                reason=reason,
                decided_by=by,
                decided_at=now,
                book_date=book_date,
                late_for=late_for,
            )
    except IntegrityError:
        raise ValidationError(
            _("Hand-over slip %(slip)s is already confirmed; it is confirmed once.")
            % {"slip": slip.number},
            code="decided",
        ) from None


@transaction.atomic
def slip_confirm(*, slip: HandOverSlip, by: User, now: dt.datetime | None = None) -> SlipDecision:
    """入账: the accountant has the cash; the slip's receipts are handed over."""
    return _decide(slip=slip, outcome=SlipOutcome.CONFIRMED, reason="", by=by, now=now)


@transaction.atomic
def slip_return(
    *, slip: HandOverSlip, reason: str, by: User, now: dt.datetime | None = None
) -> SlipDecision:
    """退回: the slip is sent back with a reason; its cash and receipts are back at the
    desk, to be handed over on a new slip."""
    _check_who(by)
    reason = (reason or "").strip()[:200]
    if not reason:
        raise ValidationError(_("Give the reason for sending the slip back."), code="reason")
    return _decide(slip=slip, outcome=SlipOutcome.RETURNED, reason=reason, by=by, now=now)
