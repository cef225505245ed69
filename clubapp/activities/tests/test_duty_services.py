"""The duty roster, signing on and off, leave: requests, decisions, 销假."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubapp.activities.models import DutySign, Leave, LeaveDecision, LeaveReturn, RosterEntry
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


def refused(code: str, call, *args, **kwargs) -> None:
    with pytest.raises(ValidationError) as exc:
        call(*args, **kwargs)
    assert exc.value.code == code


def test_it_sets_each_days_roster_to_its_list(room, manager, desk):
    roster_set(room=room, days={day(2): [manager, desk], day(3): [desk]}, by=manager)
    roster_set(room=room, days={day(2): [desk]}, by=manager)
    assert sorted(RosterEntry.objects.values_list("date", "user__username")) == [
        (day(2), "desk"),
        (day(3), "desk"),
    ]


def test_the_roster_is_for_open_days_and_managers_only(room, manager, approver):
    refused("closed_day", roster_set, room=room, days={day(4): [manager]}, by=manager)
    refused("not_staff", roster_set, room=room, days={day(2): [approver]}, by=manager)
    with pytest.raises(PermissionDenied):
        roster_set(room=room, days={day(2): [manager]}, by=approver)
    assert not RosterEntry.objects.exists()


def test_signing_on_and_off_once_each(room, manager, clock):
    clock.set(at(30, 8, 55))
    sign = duty_sign_on(room=room, by=manager)
    assert (sign.date, sign.kind, sign.at) == (day(30), "on", at(30, 8, 55))
    refused("signed_on", duty_sign_on, room=room, by=manager)
    clock.set(at(30, 18, 5))
    duty_sign_off(room=room, by=manager)
    refused("signed_off", duty_sign_off, room=room, by=manager)
    assert DutySign.objects.count() == 2


def test_a_sign_off_before_a_sign_on_is_refused(room, manager, clock):
    refused("not_signed_on", duty_sign_off, room=room, by=manager)
    assert not DutySign.objects.exists()


def test_no_sign_on_on_a_closed_day_nor_by_a_non_manager(room, manager, approver, clock):
    clock.set(at(25, 10))  # a Wednesday
    refused("closed_day", duty_sign_on, room=room, by=manager)
    clock.set(at(30, 10))
    with pytest.raises(PermissionDenied):
        duty_sign_on(room=room, by=approver)


def ask(room, user, starts, ends, cover=None, reason="家中有事"):
    return leave_request(
        room=room, starts=starts, ends=ends, reason=reason, cover=cover, by=user, now=at(1, 9)
    )


def test_a_leave_is_asked_with_its_cover(room, manager, desk):
    leave = ask(room, manager, day(9), day(10), desk)
    assert (leave.user, leave.cover, leave.starts, leave.ends) == (manager, desk, day(9), day(10))


@pytest.mark.parametrize(
    ("starts", "ends", "code"),
    [(day(10), day(9), "ends_before"), (day(10), day(12), "overlap"), (day(8), day(9), "overlap")],
)
def test_bad_leave_is_refused(room, manager, desk, starts, ends, code):
    ask(room, manager, day(9), day(10))
    refused(code, ask, room, manager, starts, ends, desk)
    assert Leave.objects.count() == 1


def test_a_refused_leave_does_not_block_another(room, manager, approver):
    leave = ask(room, manager, day(9), day(10))
    leave_decide(leave=leave, approved=False, by=approver)
    assert ask(room, manager, day(9), day(10)).pk != leave.pk


def test_the_cover_is_another_manager_not_on_leave(room, manager, desk, approver):
    refused("cover_self", ask, room, manager, day(9), day(10), manager)
    refused("not_staff", ask, room, manager, day(9), day(10), approver)
    ask(room, desk, day(10), day(11))
    refused("cover_on_leave", ask, room, manager, day(9), day(10), desk)
    refused("reason", ask, room, manager, day(12), day(13), reason="  ")
    assert Leave.objects.count() == 1


def test_an_approver_decides_once_never_their_own(room, manager, boss, approver):
    own = ask(room, boss, day(9), day(10), manager)
    refused("own_leave", leave_decide, leave=own, approved=True, by=boss)
    decision = leave_decide(leave=own, approved=True, note="同意", by=approver)
    assert (decision.approved, decision.decided_by) == (True, approver)
    refused("decided", leave_decide, leave=own, approved=False, by=approver)
    with pytest.raises(PermissionDenied):
        leave_decide(leave=ask(room, manager, day(12), day(12)), approved=True, by=manager)
    assert LeaveDecision.objects.count() == 1


def test_approval_checks_the_cover_again(room, manager, desk, approver):
    leave = ask(room, manager, day(9), day(10), desk)
    ask(room, desk, day(10), day(10))
    refused("cover_on_leave", leave_decide, leave=leave, approved=True, by=approver)


def test_back_from_approved_leave_once(room, manager, desk, approver):
    leave = ask(room, manager, day(9), day(13), desk)
    refused("not_approved", leave_back, leave=leave, back_on=day(12), by=manager)
    leave_decide(leave=leave, approved=True, by=approver)
    refused("back_on", leave_back, leave=leave, back_on=day(15), by=manager)
    back = leave_back(leave=leave, back_on=day(12), by=manager)
    assert back.back_on == day(12)
    refused("back", leave_back, leave=leave, back_on=day(12), by=approver)
    with pytest.raises(PermissionDenied):
        leave_back(leave=leave, back_on=day(12), by=desk)
    assert LeaveReturn.objects.count() == 1


def test_back_early_frees_the_later_days_for_another_leave(room, manager, approver):
    leave = ask(room, manager, day(9), day(13))
    leave_decide(leave=leave, approved=True, by=approver)
    leave_back(leave=leave, back_on=dt.date(2026, 11, 11), by=manager)
    assert ask(room, manager, day(12), day(12)).starts == day(12)
