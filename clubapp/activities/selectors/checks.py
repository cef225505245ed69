"""Reads of the day's checks, damage and violations.

An item is due on a day from its ``since`` to the day before its ``retired_on``;
a day's missed items are the due ones of an open day not ticked, once the day is
over (today's count once its last closing time has passed).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils import timezone

from clubapp.activities.models import CheckItem, CheckPhase, CheckTick, Damage, Violation
from clubapp.activities.selectors.duty import month_days, open_days
from clubapp.core.models import Room


def check_items(*, room: Room, active: bool | None = None) -> QuerySet[CheckItem]:
    rows = CheckItem.objects.filter(room=room)
    return rows if active is None else rows.filter(active=active)


def item_due(item: CheckItem, day: dt.date) -> bool:
    if item.since is not None and day < item.since:
        return False
    return item.retired_on is None or day < item.retired_on


@dataclass(frozen=True)
class DayCheck:
    item: CheckItem
    tick: CheckTick | None


def checks_on(*, room: Room, day: dt.date) -> dict[str, list[DayCheck]]:
    """The day's list by phase (opening, closing): due items and their ticks."""
    ticks = {
        t.item_id: t for t in CheckTick.objects.filter(room=room, date=day).select_related("by")
    }
    phases: dict[str, list[DayCheck]] = {CheckPhase.OPENING: [], CheckPhase.CLOSING: []}
    for item in check_items(room=room):
        if item_due(item, day) or item.pk in ticks:
            phases[item.phase].append(DayCheck(item=item, tick=ticks.get(item.pk)))
    return phases


@dataclass(frozen=True)
class MonthChecks:
    days_open: int
    #: open days with every due item ticked (a day with no item due is not among them)
    days_complete: int
    missed_count: int
    #: open days on which no check item was due (none set yet): nothing was checked
    days_without_items: int = 0
    #: (day, its missed items) for each open day with something missed
    missed: list[tuple[dt.date, list[CheckItem]]] = field(default_factory=list)


def month_checks(
    *, room: Room, year: int, month: int, now: dt.datetime | None = None
) -> MonthChecks:
    """The open days' missed items of the month (for the monthly report). A day counts
    once it has closed: ``days_open`` is the open days of the month closed by ``now``
    (in the current month, the days still to come are not counted)."""
    now = now or timezone.now()
    opened = open_days(room=room, days=month_days(year, month))
    items = list(check_items(room=room))
    ticked = set(
        CheckTick.objects.filter(room=room, date__year=year, date__month=month).values_list(
            "date", "item_id"
        )
    )
    missed: list[tuple[dt.date, list[CheckItem]]] = []
    counted = without = 0
    for day, periods in opened:
        over = timezone.make_aware(dt.datetime.combine(day, periods[-1][1]))
        if over > now:
            continue
        counted += 1
        due = [i for i in items if item_due(i, day)]
        if not due:
            without += 1  # a room with no list checked nothing: not "every check ticked"
        gone = [i for i in due if (day, i.pk) not in ticked]
        if gone:
            missed.append((day, gone))
    return MonthChecks(
        days_open=counted,
        days_complete=counted - len(missed) - without,
        missed_count=sum(len(g) for _, g in missed),
        missed=missed,
        days_without_items=without,
    )


def damage_list(*, room: Room) -> QuerySet[Damage]:
    return Damage.objects.filter(room=room).select_related("member", "income", "recorded_by")


def violation_list(*, room: Room) -> QuerySet[Violation]:
    return Violation.objects.filter(room=room).select_related("member", "card", "recorded_by")
