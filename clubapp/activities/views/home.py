"""The activities app's overview: the month's calendar of planned and held activities.

Anyone with a role reads it. Members see what is planned (date, title, kind, games)
and what was held (time, title, game, how many came), and whether they took part;
never a budget or another member's name. The staff also get links to the plans and
records (docs/activities.md, "Plans and records").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from clubapp.activities.models import PlannedActivity, RecordAttendee, RecordVersion
from clubapp.activities.permissions import can_manage, can_read, public_required
from clubapp.activities.selectors import plans as plan_selectors
from clubapp.activities.selectors import records as record_selectors
from clubapp.core.http import RoomRequest
from clubapp.members import selectors as members_selectors


@dataclass
class Day:
    date: dt.date
    planned: list[PlannedActivity] = field(default_factory=list)
    held: list[RecordVersion] = field(default_factory=list)


def _month(raw: str, today: dt.date) -> dt.date:
    try:
        first = dt.date.fromisoformat(f"{raw}-01")
    except ValueError:
        return today.replace(day=1)
    return first if dt.MINYEAR < first.year < dt.MAXYEAR else today.replace(day=1)


@public_required
@require_GET
def home(request: RoomRequest) -> HttpResponse:
    room = request.room
    today = timezone.localdate()
    first = _month(request.GET.get("month", ""), today)
    last = plan_selectors.period_end(period="month", starts=first)
    days: dict[dt.date, Day] = {}
    planned = list(plan_selectors.activities_in_force(room=room, first=first, last=last))
    held = list(record_selectors.records_held(room=room, first=first, last=last))
    for line in planned:
        days.setdefault(line.date, Day(line.date)).planned.append(line)
    for version in sorted(held, key=lambda v: (v.date, v.starts)):
        days.setdefault(version.date, Day(version.date)).held.append(version)
    me = members_selectors.member_for_user(room=room, user=request.user)
    mine: set[int] = set()
    if me is not None:
        mine = set(
            RecordAttendee.objects.filter(
                room=room, version__in=[v.pk for v in held], member=me
            ).values_list("version_id", flat=True)
        )
    context: dict[str, Any] = {
        "month": first,
        "previous": (first - dt.timedelta(days=1)).replace(day=1),
        "next": last + dt.timedelta(days=1),
        "days": [days[d] for d in sorted(days)],
        "today": today,
        "mine": mine,
        "staff": can_read(request.user),
        "can_manage": can_manage(request.user),
        "planned_count": len(planned),
        "held_count": len(held),
    }
    return render(request, "activities/home.html", context)
