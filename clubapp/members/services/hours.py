"""Opening hours: the weekly schedule and its exceptions (closures, extra openings)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubapp.core.models import Room
from clubapp.members.models import LATEST_CLOSING, ExceptionKind, OpeningException, OpeningPeriod


@transaction.atomic
def opening_hours_set(
    *, room: Room, periods: list[tuple[int, dt.time, dt.time]]
) -> list[OpeningPeriod]:
    """Replace the room's whole weekly schedule (a weekday without periods is closed)."""
    by_day: dict[int, list[tuple[dt.time, dt.time]]] = {}
    for weekday, opens, closes in periods:
        if weekday not in range(7):
            raise ValidationError(_("Not a day of the week."), code="weekday")
        if opens >= closes:
            raise ValidationError(_("The start must be before the end."), code="times_order")
        if closes > LATEST_CLOSING:
            raise ValidationError(_("The room cannot be open after 23:00."), code="too_late")
        by_day.setdefault(weekday, []).append((opens, closes))
    for day_periods in by_day.values():
        day_periods.sort()
        for (_opens, first_closes), (second_opens, _closes) in zip(
            day_periods, day_periods[1:], strict=False
        ):
            if second_opens < first_closes:
                raise ValidationError(_("Periods of one day cannot overlap."), code="overlap")
    OpeningPeriod.objects.filter(room=room).delete()
    return OpeningPeriod.objects.bulk_create(
        OpeningPeriod(room=room, weekday=weekday, opens=opens, closes=closes)
        for weekday, opens, closes in sorted(periods)
    )


@transaction.atomic
def opening_exception_create(
    *,
    room: Room,
    date: dt.date,
    kind: ExceptionKind,
    opens: dt.time | None = None,
    closes: dt.time | None = None,
    note: str = "",
) -> OpeningException:
    """A special closure (all day) or an extra opening, e.g. an evening up to 23:00."""
    if kind == ExceptionKind.CLOSED:
        opens = closes = None
    else:
        if opens is None or closes is None:
            raise ValidationError(
                _("An extra opening needs its start and end."), code="times_required"
            )
        if opens >= closes:
            raise ValidationError(_("The start must be before the end."), code="times_order")
        if closes > LATEST_CLOSING:
            raise ValidationError(_("An evening opening cannot go past 23:00."), code="too_late")
    return OpeningException.objects.create(
        room=room, date=date, kind=kind, opens=opens, closes=closes, note=(note or "").strip()
    )


@transaction.atomic
def opening_exception_delete(*, exception: OpeningException) -> None:
    exception.delete()
