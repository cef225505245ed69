"""Demo data of the duty roster, leave and the day's checks: the last four weeks."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from clubapp.activities.models import RosterEntry, ViolationKind
from clubapp.activities.selectors.duty import open_days
from clubapp.activities.services import checks as check_services
from clubapp.activities.services import duty as duty_services
from clubapp.core.models import Room
from clubapp.members.models import Member


def _moment(day: dt.date, time: dt.time, minutes: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, time)) + dt.timedelta(minutes=minutes)


@transaction.atomic
def demo_duty_and_checks(*, room: Room, managers: list[Any], approver: Any) -> None:
    """The last four weeks and the coming one: a roster taking turns, one approved
    leave with its cover and its 销假, sign-ons with one late and one early, one open day
    nobody signed on, the day's checks ticked on most open days (some missed), one damage
    compensated, one smoking violation. Does nothing if the room already has a roster.
    ``managers``: two or more (one takes leave, the next covers); ``approver`` is
    neither."""
    if len(managers) < 2:
        raise ValueError("the demo's duty needs two managers: one on leave, one covering")
    if RosterEntry.objects.filter(room=room).exists():
        return
    today = timezone.localdate()
    days = open_days(room=room, days=[today - dt.timedelta(days=n) for n in range(28, 0, -1)])
    if len(days) < 12:
        return
    on_duty = _roster(room, managers, days, today)
    leave = _leave(room, managers, approver, on_duty, first=days[0][0])
    _days_worked(room, managers, days, on_duty, leave)
    _damage_and_violation(room, days, on_duty)


def _roster(
    room: Room, managers: list[Any], days: list[tuple[dt.date, Any]], today: dt.date
) -> dict[dt.date, Any]:
    """The managers take turns on the past days; today and the coming week are on the
    roster too (nobody has signed on yet today)."""
    on_duty = {day: managers[n % len(managers)] for n, (day, _periods) in enumerate(days)}
    coming = open_days(room=room, days=[today + dt.timedelta(days=n) for n in range(0, 8)])
    ahead = {day: [managers[n % len(managers)]] for n, (day, _periods) in enumerate(coming)}
    duty_services.roster_set(
        room=room,
        days={**{day: [user] for day, user in on_duty.items()}, **ahead},
        by=managers[0],
        now=_moment(days[0][0], dt.time(8)),
    )
    return on_duty


def _leave(
    room: Room, managers: list[Any], approver: Any, on_duty: dict[dt.date, Any], first: dt.date
) -> Any:
    """managers[0] on leave for two of their days, covered by managers[1], and back."""
    theirs = [day for day, user in on_duty.items() if user == managers[0]]
    away = theirs[len(theirs) // 2]
    leave = duty_services.leave_request(
        room=room,
        starts=away,
        ends=away + dt.timedelta(days=1),
        reason="家中有事",
        cover=managers[1],
        by=managers[0],
        now=_moment(first, dt.time(9)),
    )
    duty_services.leave_decide(
        leave=leave, approved=True, note="同意", by=approver, now=_moment(first, dt.time(10))
    )
    duty_services.leave_back(
        leave=leave,
        back_on=leave.ends + dt.timedelta(days=1),
        by=managers[0],
        now=_moment(leave.ends + dt.timedelta(days=1), dt.time(8, 50)),
    )
    return leave


def _days_worked(
    room: Room,
    managers: list[Any],
    days: list[tuple[dt.date, Any]],
    on_duty: dict[dt.date, Any],
    leave: Any,
) -> None:
    """Each past open day signed on and off (one late, one early, one nobody came), its
    checks ticked but one item about once a week."""
    uncovered, late, early = days[-4][0], days[-8][0], days[-6][0]
    items = check_services.check_items_ensure(room=room, since=days[0][0])
    for n, (day, periods) in enumerate(days):
        if day == uncovered:
            continue
        user = managers[1] if leave.starts <= day <= leave.ends else on_duty[day]
        opens, closes = periods[0][0], periods[-1][1]
        duty_services.duty_sign_on(
            room=room, by=user, now=_moment(day, opens, 25 if day == late else -5)
        )
        duty_services.duty_sign_off(
            room=room, by=user, now=_moment(day, closes, -40 if day == early else 5)
        )
        for k, item in enumerate(items):
            if n % 7 == 3 and k == n % len(items):
                continue  # one item missed about once a week
            check_services.check_tick(
                item=item, day=day, by=user, now=_moment(day, opens if k < 3 else closes, -10)
            )


def _damage_and_violation(
    room: Room, days: list[tuple[dt.date, Any]], on_duty: dict[dt.date, Any]
) -> None:
    members = list(Member.objects.filter(room=room).order_by("pk")[:2])
    damage_day = days[-5][0]
    check_services.damage_record(
        room=room,
        day=damage_day,
        equipment="象棋一副（摔坏两枚棋子）",
        member=members[0] if members else None,
        payer="" if members else "散客",
        notes="按价赔偿",
        compensation=Decimal("30.00"),
        by=on_duty[damage_day],
        now=_moment(damage_day, dt.time(15)),
    )
    if members:
        smoke_day = days[-3][0]
        check_services.violation_record(
            room=room,
            day=smoke_day,
            member=members[-1],
            kind=ViolationKind.SMOKING,
            notes="室内吸烟，已劝阻",
            by=on_duty[smoke_day],
            now=_moment(smoke_day, dt.time(16)),
        )
