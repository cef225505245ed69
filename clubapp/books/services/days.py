"""The book day of a row (补记 when its day is closed) and closing a day (日结)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubapp.books import selectors
from clubapp.books.models import DayClosing
from clubapp.books.permissions import can_check
from clubapp.core.models import Room


def lock_room(room: Room) -> None:
    """Every dated write and every closing takes the room's row lock first, so a day
    cannot close between a write choosing its book day and committing (PostgreSQL;
    SQLite serialises writes anyway)."""
    list(Room.objects.select_for_update().filter(pk=room.pk).values_list("pk"))


def book_day(*, room: Room, day: dt.date) -> tuple[dt.date, dt.date | None]:
    """(the day to book on, the day it belongs to if that is a closed day).

    Closing a day closes every earlier day, so the next open day is the day after
    the last one closed.
    """
    closed = selectors.last_closed_day(room=room)
    if closed is None or day > closed:
        return day, None
    return closed + dt.timedelta(days=1), day


def _check_who(user: User) -> None:
    if not can_check(user):
        raise PermissionDenied(_("Only the accountant may close a day."))


@transaction.atomic
def day_close(
    *,
    room: Room,
    day: dt.date,
    by: User,
    note: str = "",
    now: dt.datetime | None = None,
) -> DayClosing:
    """日结: the accountant closes ``day`` after checking it; then it takes no new row.

    Days close in order: every earlier day with entries must be closed first, and
    every slip and expense booked up to ``day`` must be confirmed (or sent back,
    reversed) — the accountant has checked them.
    """
    _check_who(by)
    now = now or timezone.now()
    lock_room(room)
    if day > timezone.localdate(now):
        raise ValidationError(_("A day can be closed only once it has begun."), code="future")
    closed = selectors.last_closed_day(room=room)
    if closed is not None and day <= closed:
        raise ValidationError(
            _("%(day)s is already closed.") % {"day": f"{day:%Y-%m-%d}"}, code="closed"
        )
    earlier = selectors.days_with_entries(room=room, after=closed, before=day)
    if earlier:
        raise ValidationError(
            _("Close %(day)s first: days are closed in order.") % {"day": f"{earlier[0]:%Y-%m-%d}"},
            code="order",
        )
    summary = selectors.day_summary(room=room, day=day)
    if summary.pending_slips:
        raise ValidationError(
            _("Confirm or send back the hand-over slips first: %(numbers)s.")
            % {"numbers": "、".join(s.number for s in summary.pending_slips)},
            code="pending_slips",
        )
    if summary.unconfirmed_expenses:
        raise ValidationError(
            _("Confirm or reverse the expenses first: %(numbers)s.")
            % {"numbers": "、".join(e.number for e in summary.unconfirmed_expenses)},
            code="pending_expenses",
        )
    try:
        with transaction.atomic():
            return DayClosing.objects.create(
                room=room,
                date=day,
                income_total=summary.income_total,
                handed_over_total=summary.handed_over,
                expense_total=summary.expense_total,
                cash_on_hand=summary.cash_closing,
                note=(note or "").strip()[:200],
                closed_by=by,
                closed_at=now,
            )
    except IntegrityError:
        raise ValidationError(
            _("%(day)s is already closed.") % {"day": f"{day:%Y-%m-%d}"}, code="closed"
        ) from None
