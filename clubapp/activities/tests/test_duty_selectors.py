"""A day's roster with leave and cover, its flags, and the month's figures."""

from __future__ import annotations

import pytest

from clubapp.activities.selectors.duty import day_duty, month_duty, today_duty
from clubapp.activities.services.duty import (
    duty_sign_off,
    duty_sign_on,
    leave_back,
    leave_decide,
    leave_request,
    roster_set,
)
from clubapp.activities.tests.duty_cast import *  # noqa: F403 - the fixtures
from clubapp.activities.tests.duty_cast import at, day

pytestmark = pytest.mark.django_db


def sign(room, user, on, off=None):
    duty_sign_on(room=room, by=user, now=on)
    if off is not None:
        duty_sign_off(room=room, by=user, now=off)


def approved_leave(room, user, starts, ends, cover, approver):
    leave = leave_request(
        room=room, starts=starts, ends=ends, reason="病假", cover=cover, by=user, now=at(1, 8)
    )
    leave_decide(leave=leave, approved=True, by=approver, now=at(1, 9))
    return leave


def test_approved_leave_puts_the_cover_in_the_persons_place(room, manager, desk, approver):
    roster_set(room=room, days={day(9): [manager]}, by=manager)
    approved_leave(room, manager, day(9), day(9), desk, approver)
    duty = day_duty(room=room, day=day(9), now=at(30, 10))
    assert [(d.user, d.covering) for d in duty.on_duty] == [(desk, manager)]
    assert [(a.user, a.cover) for a in duty.away] == [(manager, desk)]


def test_pending_or_refused_leave_keeps_the_roster(room, manager, desk, approver):
    roster_set(room=room, days={day(9): [manager]}, by=manager)
    leave_request(room=room, starts=day(9), ends=day(9), reason="事假", cover=desk, by=manager)
    duty = day_duty(room=room, day=day(9), now=at(30, 10))
    assert [d.user for d in duty.on_duty] == [manager]


def test_after_the_return_the_person_is_back_on_the_roster(room, manager, desk, approver):
    roster_set(room=room, days={day(9): [manager], day(10): [manager]}, by=manager)
    leave = approved_leave(room, manager, day(9), day(10), desk, approver)
    leave_back(leave=leave, back_on=day(10), by=manager)
    assert [d.user for d in day_duty(room=room, day=day(10), now=at(30, 10)).on_duty] == [manager]
    assert [d.user for d in day_duty(room=room, day=day(9), now=at(30, 10)).on_duty] == [desk]


def test_a_day_is_flagged_uncovered_late_early(room, manager, desk):
    sign(room, manager, at(2, 9, 20), at(2, 17, 30))
    sign(room, desk, at(2, 8, 50), at(2, 18, 10))
    duty = day_duty(room=room, day=day(2), now=at(30, 10))
    assert (duty.covered, duty.uncovered, duty.late, duty.early) == (True, False, 1, 1)
    assert day_duty(room=room, day=day(3), now=at(3, 8, 59)).uncovered is False
    assert day_duty(room=room, day=day(3), now=at(3, 9, 0)).uncovered is True
    assert day_duty(room=room, day=day(4), now=at(30, 10)) is None  # Wednesday: closed


def test_month_duty_counts_the_month(room, manager, desk, approver):
    for n in (2, 3, 5, 6, 7, 8, 9, 10):
        sign(room, manager, at(n, 9), at(n, 18))
    sign(room, desk, at(12, 9, 30), at(12, 16))  # late and early
    approved_leave(room, manager, day(11), day(13), desk, approver)  # 12 and 13 open
    month = month_duty(room=room, year=2026, month=11, now=at(13, 12))
    # 26 open days in the month, 11 of them begun by the 13th at noon
    assert month.days_open == 11 == month.covered + month.uncovered
    assert (month.covered, month.late, month.early) == (9, 1, 1)
    # 1 and 13 passed their opening with nobody on: uncovered; 14 on are still to come
    assert month.uncovered == 2
    assert month.leave_days == 2
    assert [n for _, n in month.leaves] == [2]
    assert [d.day for d in month.days if d.uncovered] == [day(1), day(13)]


def test_today_duty_gives_the_users_buttons(room, manager, clock):
    clock.set(at(30, 9, 5))
    assert today_duty(room=room, day=day(30), user=manager).can_sign_on is True
    duty_sign_on(room=room, by=manager)
    mine = today_duty(room=room, day=day(30), user=manager)
    assert (mine.can_sign_on, mine.can_sign_off, mine.mine.late) == (False, True, True)
    closed = today_duty(room=room, day=day(25), user=manager)
    assert (closed.duty, closed.can_sign_on) == (None, False)
