"""Reads of the duty roster and leave: who is on duty on a day, its flags, the month.

A day's roster is its ``RosterEntry`` rows, except that a person on approved leave
that day (not yet back, 销假) is replaced by the leave's cover. The flags of an open
day: nobody signed on once its first opening time has passed (uncovered), a sign-on
after that time (late), a sign-off before its last closing time (early).
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from clubapp.activities.models import DutySign, Leave, RosterEntry
from clubapp.core.models import Room
from clubapp.core.roles import Role
from clubapp.members.selectors import Period, opening_periods_on


def staff(*, room: Room) -> QuerySet[User]:
    """The room's users with the manager role: who can be on duty."""
    return (
        User.objects.filter(groups__name=Role.MANAGER.value, is_active=True, room_link__room=room)
        .distinct()
        .order_by("first_name", "username")
    )


def month_days(year: int, month: int) -> list[dt.date]:
    last = calendar.monthrange(year, month)[1]
    return [dt.date(year, month, d) for d in range(1, last + 1)]


def open_days(*, room: Room, days: list[dt.date]) -> list[tuple[dt.date, list[Period]]]:
    """The days of ``days`` the room opens, with their periods (members app)."""
    pairs = [(day, opening_periods_on(room=room, day=day)) for day in days]
    return [(day, periods) for day, periods in pairs if periods]


def leave_away_until(leave: Leave) -> dt.date:
    """The leave's last day away: its last day, or the day before 销假 if earlier."""
    # the reverse one-to-one's "missing" error is an AttributeError: getattr's default
    back = getattr(leave, "back", None)
    if back is not None and back.back_on <= leave.ends:
        return back.back_on - dt.timedelta(days=1)
    return leave.ends


def leave_state(leave: Leave) -> str:
    """pending, approved, refused or back: what the leave list shows."""
    if not hasattr(leave, "decision"):
        return "pending"
    if not leave.decision.approved:
        return "refused"
    return "back" if hasattr(leave, "back") else "approved"


def leave_list(*, room: Room) -> QuerySet[Leave]:
    return Leave.objects.filter(room=room).select_related("user", "cover", "decision", "back")


def leaves_live(*, room: Room, user: Any, starts: dt.date, ends: dt.date) -> list[Leave]:
    """``user``'s pending or approved leave whose days away meet ``starts``–``ends``."""
    rows = (
        leave_list(room=room)
        .filter(user=user, starts__lte=ends, ends__gte=starts)
        .filter(Q(decision__isnull=True) | Q(decision__approved=True))
    )
    return [leave for leave in rows if leave_away_until(leave) >= starts]


def leaves_approved(*, room: Room, starts: dt.date, ends: dt.date) -> list[Leave]:
    rows = leave_list(room=room).filter(decision__approved=True, starts__lte=ends, ends__gte=starts)
    return list(rows)


@dataclass(frozen=True)
class OnDuty:
    user: User
    #: the person on leave whose duty this is (the cover's), else None
    covering: User | None = None


@dataclass(frozen=True)
class Away:
    user: User
    cover: User | None
    leave: Leave


def _leaves_on(room: Room, day: dt.date, leaves: list[Leave] | None) -> list[Leave]:
    if leaves is None:
        leaves = leaves_approved(room=room, starts=day, ends=day)
    return [lv for lv in leaves if lv.starts <= day <= leave_away_until(lv)]


def _with_leave(
    day: dt.date, rostered: list[User], leaves: list[Leave]
) -> tuple[list[OnDuty], list[Away]]:
    away = {lv.user_id: lv for lv in leaves}
    duty: list[OnDuty] = []
    gone: list[Away] = []
    for user in rostered:
        leave = away.get(user.pk)
        if leave is None:
            duty.append(OnDuty(user=user))
            continue
        gone.append(Away(user=user, cover=leave.cover, leave=leave))
        if leave.cover is not None and leave.cover_id not in {d.user.pk for d in duty}:
            if leave.cover_id not in {u.pk for u in rostered}:
                duty.append(OnDuty(user=leave.cover, covering=user))
    return duty, gone


@dataclass(frozen=True)
class Sign:
    user: User
    on: dt.datetime | None
    off: dt.datetime | None
    late: bool
    early: bool


@dataclass(frozen=True)
class DayDuty:
    day: dt.date
    periods: list[Period]
    on_duty: list[OnDuty]
    away: list[Away]
    signs: list[Sign]
    #: open, its first opening time passed, nobody signed on
    uncovered: bool
    #: someone signed on (whether or not on the roster)
    covered: bool

    @property
    def opens(self) -> dt.time:
        return self.periods[0][0]

    @property
    def closes(self) -> dt.time:
        return self.periods[-1][1]

    @property
    def late(self) -> int:
        return sum(1 for s in self.signs if s.late)

    @property
    def early(self) -> int:
        return sum(1 for s in self.signs if s.early)


def _moment(day: dt.date, time: dt.time) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, time))


def _day_duty(
    room: Room,
    day: dt.date,
    periods: list[Period],
    *,
    rostered: list[User],
    leaves: list[Leave],
    signs: list[DutySign],
    now: dt.datetime,
) -> DayDuty:
    on_duty, away = _with_leave(day, rostered, _leaves_on(room, day, leaves))
    opens = _moment(day, periods[0][0])
    closes = _moment(day, periods[-1][1])
    people: dict[int, dict[str, Any]] = {}
    for sign in signs:
        row = people.setdefault(sign.user_id, {"user": sign.user, "on": None, "off": None})
        row[sign.kind] = sign.at
    rows = [
        Sign(
            user=row["user"],
            on=row["on"],
            off=row["off"],
            late=row["on"] is not None and row["on"] > opens,
            early=row["off"] is not None and row["off"] < closes,
        )
        for row in people.values()
    ]
    covered = any(row.on is not None for row in rows)
    return DayDuty(
        day=day,
        periods=periods,
        on_duty=on_duty,
        away=away,
        signs=rows,
        uncovered=not covered and now >= opens,
        covered=covered,
    )


def days_duty(*, room: Room, days: list[dt.date], now: dt.datetime | None = None) -> list[DayDuty]:
    """The open days among ``days`` with their roster, signs and flags."""
    now = now or timezone.now()
    opened = open_days(room=room, days=days)
    if not opened:
        return []
    first, last = opened[0][0], opened[-1][0]
    roster: dict[dt.date, list[User]] = {}
    for entry in RosterEntry.objects.filter(
        room=room, date__gte=first, date__lte=last
    ).select_related("user"):
        roster.setdefault(entry.date, []).append(entry.user)
    signs: dict[dt.date, list[DutySign]] = {}
    for sign in DutySign.objects.filter(room=room, date__gte=first, date__lte=last).select_related(
        "user"
    ):
        signs.setdefault(sign.date, []).append(sign)
    leaves = leaves_approved(room=room, starts=first, ends=last)
    return [
        _day_duty(
            room,
            day,
            periods,
            rostered=roster.get(day, []),
            leaves=leaves,
            signs=signs.get(day, []),
            now=now,
        )
        for day, periods in opened
    ]


def day_duty(*, room: Room, day: dt.date, now: dt.datetime | None = None) -> DayDuty | None:
    """The day's duty, or None when the room does not open that day."""
    found = days_duty(room=room, days=[day], now=now)
    return found[0] if found else None


@dataclass(frozen=True)
class TodayDuty:
    duty: DayDuty | None
    #: the user's own sign-on and sign-off today, and whether they can sign now
    mine: Sign | None
    can_sign_on: bool
    can_sign_off: bool
    on_leave: Leave | None = None


def today_duty(*, room: Room, day: dt.date, user: Any, now: dt.datetime | None = None) -> TodayDuty:
    """The today panel: the day's roster and flags, and the user's own buttons."""
    duty = day_duty(room=room, day=day, now=now)
    mine = None
    if duty is not None:
        mine = next((s for s in duty.signs if s.user.pk == user.pk), None)
    on_leave = next((a.leave for a in duty.away if a.user.pk == user.pk), None) if duty else None
    return TodayDuty(
        duty=duty,
        mine=mine,
        can_sign_on=duty is not None and mine is None,
        can_sign_off=mine is not None and mine.off is None,
        on_leave=on_leave,
    )


@dataclass(frozen=True)
class MonthDuty:
    year: int
    month: int
    days_open: int
    covered: int
    uncovered: int
    late: int
    early: int
    leave_days: int
    #: the rows the figures count
    days: list[DayDuty] = field(default_factory=list)
    leaves: list[tuple[Leave, int]] = field(default_factory=list)


def month_duty(*, room: Room, year: int, month: int, now: dt.datetime | None = None) -> MonthDuty:
    """The month's duty figures for the monthly report.

    ``days_open`` counts the open days that have begun (its first opening time
    passed, or someone signed on): in the current month, the days still to come are
    not counted, so covered + uncovered = days open. ``leave_days`` counts the open
    days of the month that someone was away on approved leave (up to 销假); a closed
    day is no leave taken.
    """
    days = days_duty(room=room, days=month_days(year, month), now=now)
    open_set = {d.day for d in days}
    first, last = dt.date(year, month, 1), month_days(year, month)[-1]
    leaves: list[tuple[Leave, int]] = []
    for leave in leaves_approved(room=room, starts=first, ends=last):
        until = leave_away_until(leave)
        n = sum(1 for d in open_set if leave.starts <= d <= until)
        if n:
            leaves.append((leave, n))
    return MonthDuty(
        year=year,
        month=month,
        days_open=sum(1 for d in days if d.covered or d.uncovered),
        covered=sum(1 for d in days if d.covered),
        uncovered=sum(1 for d in days if d.uncovered),
        late=sum(d.late for d in days),
        early=sum(d.early for d in days),
        leave_days=sum(n for _, n in leaves),
        days=days,
        leaves=leaves,
    )
