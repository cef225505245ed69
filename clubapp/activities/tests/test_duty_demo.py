"""demo_duty_and_checks: a month of duty and checks, written once."""

from __future__ import annotations

import pytest
from django.utils import timezone

from clubapp.activities.demo import demo_duty_and_checks
from clubapp.activities.models import (
    CheckTick,
    Damage,
    DutySign,
    Leave,
    RosterEntry,
    Violation,
)
from clubapp.activities.selectors.checks import month_checks
from clubapp.activities.selectors.duty import days_duty
from clubapp.activities.tests.duty_cast import *  # noqa: F403 - the fixtures
from clubapp.activities.tests.duty_cast import at
from clubapp.members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def test_it_writes_a_month_of_duty_and_checks_once(room, manager, desk, approver, clock):
    MemberFactory(room=room)
    MemberFactory(room=room)
    demo_duty_and_checks(room=room, managers=[manager, desk], approver=approver)
    counts = [
        m.objects.count() for m in (RosterEntry, DutySign, Leave, CheckTick, Damage, Violation)
    ]
    demo_duty_and_checks(room=room, managers=[manager, desk], approver=approver)
    again = [
        m.objects.count() for m in (RosterEntry, DutySign, Leave, CheckTick, Damage, Violation)
    ]
    assert counts == again
    assert counts[2:] == [1, counts[3], 1, 1]
    leave = Leave.objects.get()
    assert (leave.decision.approved, leave.cover, hasattr(leave, "back")) == (True, desk, True)
    assert Damage.objects.get().income.amount == 30
    # the four weeks before today (today and the coming week are rostered, not yet worked)
    rostered = set(RosterEntry.objects.values_list("date", flat=True))
    assert max(rostered) > timezone.localdate()
    days = days_duty(room=room, days=sorted(d for d in rostered if d < timezone.localdate()))
    assert [sum(d.uncovered for d in days), sum(d.late for d in days)] == [1, 1]
    assert sum(d.early for d in days) == 1
    covered = [d for d in days if leave.starts <= d.day <= leave.ends]
    assert all(o.user == desk for d in covered for o in d.on_duty)
    missed = month_checks(room=room, year=2026, month=11, now=at(30, 10))
    assert 0 < missed.missed_count < missed.days_open
